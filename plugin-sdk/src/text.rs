//! Line numbers and small text helpers.

/// Maps byte offsets to 1-based line numbers.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line containing `offset`.
    pub fn line_of(&self, offset: usize) -> u32 {
        let idx = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        u32::try_from(idx + 1).unwrap_or(u32::MAX)
    }

    /// Byte offset where 1-based `line` starts, if it exists.
    pub fn line_start(&self, line: u32) -> Option<usize> {
        self.starts.get((line as usize).checked_sub(1)?).copied()
    }
}

/// Indentation width (spaces; a tab counts as 8... rounded like Python) of
/// the line containing `offset`.
pub fn indent_of_line(text: &str, offset: usize) -> usize {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |p| p + 1);
    indent_width(&text[start..])
}

/// Indentation width of a line's leading whitespace.
pub fn indent_width(line: &str) -> usize {
    let mut width = 0;
    for b in line.bytes() {
        match b {
            b' ' => width += 1,
            b'\t' => width = (width / 8 + 1) * 8,
            _ => break,
        }
    }
    width
}

/// Offset of the start of the line containing `offset`.
pub fn line_start_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |p| p + 1)
}

/// Offset of the end (the `\n` or end of text) of the line containing `offset`.
pub fn line_end_of(text: &str, offset: usize) -> usize {
    text[offset.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |p| offset + p)
}

/// A camelCase member naming an HTTP header, as the header is written:
/// `contentType` → `Content-Type`, `authorization` → `Authorization`.
pub fn camel_to_header(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if i == 0 {
            out.extend(c.to_uppercase());
        } else if c.is_uppercase() {
            out.push('-');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

/// `UserProfile` → `user_profile`: an underscore before every ASCII
/// capital but the first, all lower-cased (acronyms are not kept together:
/// `HTTPServer` → `h_t_t_p_server`).
pub fn camel_to_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
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
    use super::*;

    #[test]
    fn camel_names_to_snake_case() {
        assert_eq!(camel_to_snake("UserProfile"), "user_profile");
        assert_eq!(camel_to_snake("blogPosts"), "blog_posts");
        assert_eq!(camel_to_snake("ÉtéSale"), "Été_sale", "ASCII capitals only");
    }

    #[test]
    fn camel_members_name_headers() {
        assert_eq!(camel_to_header("contentType"), "Content-Type");
        assert_eq!(camel_to_header("authorization"), "Authorization");
        assert_eq!(camel_to_header("éTag"), "É-Tag");
        assert_eq!(camel_to_header(""), "");
    }

    #[test]
    fn lines_are_one_based() {
        let idx = LineIndex::new("a\nbc\n\nd");
        assert_eq!(idx.line_of(0), 1);
        assert_eq!(idx.line_of(1), 1);
        assert_eq!(idx.line_of(2), 2);
        assert_eq!(idx.line_of(5), 3);
        assert_eq!(idx.line_of(6), 4);
        assert_eq!(idx.line_start(2), Some(2));
    }

    #[test]
    fn indentation() {
        assert_eq!(indent_width("    x"), 4);
        assert_eq!(indent_width("\tx"), 8);
        assert_eq!(indent_of_line("a\n  b", 4), 2);
    }
}
