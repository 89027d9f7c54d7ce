//! Whole-word matching of names (parameters, URL paths, callees): shared by
//! the taggers and the `ai_context` builder.

/// The lower-case words of a name: split at `_`, `-`, `.`, spaces,
/// brackets and lower→upper case changes.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Does the name contain the (possibly multi-word) pattern as whole words?
pub fn has(words: &[String], pattern: &str) -> bool {
    if pattern == "*id" {
        return words.len() > 1 && words.last().is_some_and(|w| w == "id");
    }
    let want: Vec<&str> = pattern.split(' ').collect();
    words
        .windows(want.len())
        .any(|w| w.iter().zip(&want).all(|(a, b)| a == b))
        // `apikey`, `passwd`: the pattern run together as one word.
        || (want.len() > 1 && words.iter().any(|w| *w == want.concat()))
}
