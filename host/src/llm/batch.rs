//! Token-budget batching.
//!
//! Each file becomes a section: a header naming the file and its line
//! range, then every line prefixed with its number (`12| …`) so the model
//! can cite exact lines. Tokens are estimated as ⌈bytes / 4⌉. A request may
//! use 80 % of `--ai-max-token` (the rest is left for the answer); the fixed
//! prompt's estimate is subtracted first, then sections are added in path
//! order until the next one would not fit. A file whose section alone does
//! not fit is split at line boundaries into parts that do, each in its own
//! request (a single line longer than the budget makes an oversized part
//! rather than being cut).

/// A slice of one file sent in one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Index of the file in the candidate list.
    pub file: usize,
    /// First and last line (1-based, inclusive).
    pub first: u32,
    pub last: u32,
    /// The rendered section.
    pub text: String,
    pub tokens: usize,
}

/// The files (as parts) of one request.
pub type Batch = Vec<Part>;

pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// The request budget for sections, from `--ai-max-token` and the size of
/// the fixed prompt.
pub fn section_budget(max_tokens: usize, prompt_tokens: usize) -> usize {
    (max_tokens * 4 / 5).saturating_sub(prompt_tokens).max(1)
}

fn header(display: &str, first: u32, last: u32, total: u32) -> String {
    format!("### File: {display} (lines {first}-{last} of {total})\n")
}

fn numbered(line_no: u32, line: &str) -> String {
    format!("{line_no}| {}\n", line.trim_end_matches('\r'))
}

/// Sections of one file: one if it fits in `budget`, else line-aligned
/// parts that each fit.
pub fn sections(file: usize, display: &str, content: &str, budget: usize) -> Vec<Part> {
    let lines: Vec<&str> = content.split('\n').collect();
    // A trailing newline does not make an extra line.
    let count = if content.ends_with('\n') {
        lines.len().saturating_sub(1)
    } else {
        lines.len()
    }
    .max(1);
    let total = u32::try_from(count).unwrap_or(u32::MAX);
    let body: Vec<String> = lines
        .iter()
        .take(count)
        .enumerate()
        .map(|(i, l)| numbered(u32::try_from(i + 1).unwrap_or(u32::MAX), l))
        .collect();
    let whole_header = header(display, 1, total, total);
    let whole_tokens =
        estimate_tokens(&whole_header) + body.iter().map(|l| estimate_tokens(l)).sum::<usize>();
    if whole_tokens <= budget {
        let text = whole_header + &body.concat();
        let tokens = estimate_tokens(&text);
        return vec![Part {
            file,
            first: 1,
            last: total,
            text,
            tokens,
        }];
    }
    // The longest header a part can have.
    let header_tokens = estimate_tokens(&header(display, total, total, total));
    let mut parts = Vec::new();
    let mut start = 0usize;
    while start < body.len() {
        let mut end = start;
        let mut used = header_tokens;
        while end < body.len() {
            let t = estimate_tokens(&body[end]);
            if end > start && used + t > budget {
                break;
            }
            used += t;
            end += 1;
        }
        let first = u32::try_from(start + 1).unwrap_or(u32::MAX);
        let last = u32::try_from(end).unwrap_or(u32::MAX);
        let text = header(display, first, last, total) + &body[start..end].concat();
        let tokens = estimate_tokens(&text);
        parts.push(Part {
            file,
            first,
            last,
            text,
            tokens,
        });
        start = end;
    }
    parts
}

/// Pack sections into requests of at most `budget` section tokens.
pub fn plan(sections: Vec<Part>, budget: usize) -> Vec<Batch> {
    let mut batches: Vec<Batch> = Vec::new();
    let mut current: Batch = Vec::new();
    let mut used = 0;
    for part in sections {
        if !current.is_empty() && used + part.tokens > budget {
            batches.push(std::mem::take(&mut current));
            used = 0;
        }
        used += part.tokens;
        current.push(part);
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_files_share_a_request_and_lines_are_numbered() {
        let a = sections(0, "app/a.lua", "x = 1\ny = 2\n", 1000);
        assert_eq!(a.len(), 1);
        assert_eq!(
            a[0].text,
            "### File: app/a.lua (lines 1-2 of 2)\n1| x = 1\n2| y = 2\n"
        );
        let b = sections(1, "app/b.lua", "z = 3", 1000);
        let batches = plan([a, b].concat(), 1000);
        assert_eq!(batches.len(), 1);
        assert_eq!(batches[0].len(), 2);
    }

    #[test]
    fn the_budget_splits_requests() {
        let parts: Vec<Part> = (0..4)
            .map(|i| sections(i, &format!("f{i}.lua"), &"word ".repeat(40), 1000).remove(0))
            .collect();
        let t = parts[0].tokens;
        let batches = plan(parts, 2 * t);
        let files: Vec<Vec<usize>> = batches
            .iter()
            .map(|b| b.iter().map(|p| p.file).collect())
            .collect();
        assert_eq!(files, vec![vec![0, 1], vec![2, 3]]);
    }

    #[test]
    fn a_large_file_is_split_at_lines_and_keeps_its_numbers() {
        let content: String = (1..=30).map(|i| format!("line number {i:02}\n")).collect();
        let parts = sections(0, "big.lua", &content, 60);
        assert!(parts.len() > 1);
        assert_eq!(parts[0].first, 1);
        assert!(parts.iter().all(|p| p.tokens <= 60), "{parts:?}");
        for w in parts.windows(2) {
            assert_eq!(w[1].first, w[0].last + 1);
        }
        assert_eq!(parts.last().unwrap().last, 30);
        let second = &parts[1];
        assert!(second.text.starts_with(&format!(
            "### File: big.lua (lines {}-{} of 30)\n{}| line number",
            second.first, second.last, second.first
        )));
        // Each part goes alone when the budget is the part size.
        assert_eq!(plan(parts.clone(), 60).len(), parts.len());
    }

    #[test]
    fn budget_leaves_room_for_the_answer() {
        assert_eq!(section_budget(1000, 300), 500);
        assert_eq!(section_budget(100, 300), 1);
    }
}
