//! The few ActiveSupport inflections routing needs.

/// `photos` → `photo`, `categories` → `category`, `addresses` → `address`.
pub fn singularize(word: &str) -> String {
    const IRREGULAR: &[(&str, &str)] = &[
        ("people", "person"),
        ("men", "man"),
        ("women", "woman"),
        ("children", "child"),
        ("mice", "mouse"),
        ("data", "datum"),
        ("news", "news"),
        ("series", "series"),
        ("species", "species"),
        ("statuses", "status"),
        ("aliases", "alias"),
        ("analyses", "analysis"),
        ("indices", "index"),
        ("matrices", "matrix"),
        ("vertices", "vertex"),
        ("quizzes", "quiz"),
        ("buses", "bus"),
        ("movies", "movie"),
    ];
    let lower = word.to_ascii_lowercase();
    for (plural, single) in IRREGULAR {
        if lower.ends_with(plural) {
            return format!("{}{}", &word[..word.len() - plural.len()], single);
        }
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for suffix in ["sses", "shes", "ches", "xes", "zzes"] {
        if word.ends_with(suffix) {
            return word[..word.len() - 2].to_string();
        }
    }
    if let Some(stem) = word.strip_suffix("ves") {
        if [
            "lea", "hal", "kni", "li", "wi", "shel", "wol", "cal", "thie",
        ]
        .iter()
        .any(|s| stem.ends_with(s))
        {
            return format!(
                "{stem}{}",
                if stem.ends_with("kni") || stem.ends_with("li") || stem.ends_with("wi") {
                    "fe"
                } else {
                    "f"
                }
            );
        }
    }
    if word.ends_with("ss") || word.ends_with("us") || word.ends_with("is") {
        return word.to_string();
    }
    word.strip_suffix('s').unwrap_or(word).to_string()
}

/// `Admin::UserProfiles` → `admin/user_profiles`.
pub fn underscore(name: &str) -> String {
    let mut out = String::new();
    let bytes: Vec<char> = name.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == ':' && bytes.get(i + 1) == Some(&':') {
            out.push('/');
            i += 2;
            continue;
        }
        if c.is_ascii_uppercase() {
            let prev = if i > 0 { bytes[i - 1] } else { ':' };
            let next_lower = bytes.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if i > 0
                && prev != ':'
                && (prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower))
            {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// `admin/user_profiles` → `Admin::UserProfiles`.
pub fn camelize(path: &str) -> String {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|seg| {
            seg.split('_')
                .map(|w| {
                    let mut c = w.chars();
                    match c.next() {
                        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                        None => String::new(),
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("::")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections() {
        assert_eq!(singularize("photos"), "photo");
        assert_eq!(singularize("categories"), "category");
        assert_eq!(singularize("addresses"), "address");
        assert_eq!(singularize("people"), "person");
        assert_eq!(singularize("statuses"), "status");
        assert_eq!(singularize("line_items"), "line_item");
        assert_eq!(
            underscore("Admin::UserProfilesController"),
            "admin/user_profiles_controller"
        );
        assert_eq!(underscore("APIKeys"), "api_keys");
        assert_eq!(camelize("admin/user_profiles"), "Admin::UserProfiles");
    }
}
