//! `Str::singular`/`pluralize` for the common English plurals (resource
//! parameters and names).

pub fn singularize(word: &str) -> String {
    const IRREGULAR: &[(&str, &str)] = &[
        ("people", "person"),
        ("children", "child"),
        ("men", "man"),
        ("women", "woman"),
        ("news", "news"),
        ("series", "series"),
        ("statuses", "status"),
        ("aliases", "alias"),
        ("addresses", "address"),
        ("indices", "index"),
        ("data", "data"),
        ("media", "media"),
        ("movies", "movie"),
    ];
    for (plural, single) in IRREGULAR {
        if let Some(stem) = word.strip_suffix(plural) {
            return format!("{stem}{single}");
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
    if word.ends_with("ss") || word.ends_with("us") || word.ends_with("is") {
        return word.to_string();
    }
    word.strip_suffix('s').unwrap_or(word).to_string()
}

/// `user` → `users` (the `Inflector::pluralize` of Yii and Doctrine for the
/// common cases).
pub fn pluralize(w: &str) -> String {
    const IRREGULAR: &[(&str, &str)] = &[
        ("person", "people"),
        ("child", "children"),
        ("man", "men"),
        ("news", "news"),
        ("data", "data"),
        ("media", "media"),
    ];
    for (s, p) in IRREGULAR {
        if let Some(stem) = w.strip_suffix(s) {
            return format!("{stem}{p}");
        }
    }
    if w.ends_with('s')
        || w.ends_with('x')
        || w.ends_with('z')
        || w.ends_with("ch")
        || w.ends_with("sh")
    {
        return format!("{w}es");
    }
    if let Some(stem) = w.strip_suffix('y') {
        if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) {
            return format!("{stem}ies");
        }
    }
    format!("{w}s")
}

/// Capitals start lower-case words joined by `sep`: `UserInfo` → `user_info`
/// (`_`), `ViewAll` → `view-all` (`-`).
pub fn lower_words(s: &str, sep: char) -> String {
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if k > 0 {
                out.push(sep);
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn singular() {
        assert_eq!(super::singularize("photos"), "photo");
        assert_eq!(super::singularize("categories"), "category");
        assert_eq!(super::singularize("boxes"), "box");
        assert_eq!(super::singularize("news"), "news");
    }
}
