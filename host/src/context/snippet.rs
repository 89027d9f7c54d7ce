//! Snippets: numbered source lines, `N: code | N+1: code`, each line
//! trimmed with whitespace runs collapsed, blank lines skipped, at most
//! [`MAX_CHARS`] characters. The text is copied from the repository as is
//! (comments and string literals included) and never interpreted.

use super::rules::Family;

pub const MAX_CHARS: usize = 240;
/// Decorator/annotation lines kept above the route line.
const MAX_DECORATORS: usize = 4;
/// Lines kept from the route line on.
const MAX_SCOPE_LINES: usize = 12;

/// Format numbered lines (1-based numbers); `None` when all are blank.
pub fn format<'a>(lines: impl IntoIterator<Item = (u32, &'a str)>) -> Option<String> {
    let parts: Vec<String> = lines
        .into_iter()
        .filter_map(|(n, text)| {
            let code = text.split_whitespace().collect::<Vec<_>>().join(" ");
            (!code.is_empty()).then(|| format!("{n}: {code}"))
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    let joined = parts.join(" | ");
    Some(match joined.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => joined[..cut].to_string(),
        None => joined,
    })
}

/// Lines `line - r ..= line + r` (clipped to the file).
pub fn window(lines: &[&str], line: u32, r: u32) -> Option<String> {
    let first = line.saturating_sub(r).max(1);
    let last = line.saturating_add(r).min(lines.len() as u32);
    if line == 0 || line as usize > lines.len() {
        return None;
    }
    format((first..=last).filter_map(|n| lines.get(n as usize - 1).map(|t| (n, *t))))
}

/// The route scope: up to 4 decorator/annotation lines directly above the
/// route line, then the route line and the handler block (at most 12 lines)
/// until it closes: by indentation in Python, by `end` in Ruby, Crystal and
/// Elixir, by balanced braces elsewhere, or at the end of a statement when
/// no block opens.
pub fn route_scope<'a>(lines: &[&'a str], line: u32, path: &str) -> Vec<(u32, &'a str)> {
    let at = line as usize;
    if at == 0 || at > lines.len() {
        return Vec::new();
    }
    let family = Family::of(path);
    let mut out = Vec::new();
    let mut above = Vec::new();
    let mut i = at - 1;
    while i > 0 && above.len() < MAX_DECORATORS {
        let text = lines[i - 1].trim_start();
        if text.starts_with('@') || text.starts_with("#[") || text.starts_with('[') {
            above.push((i as u32, lines[i - 1]));
            i -= 1;
        } else {
            break;
        }
    }
    above.reverse();
    out.extend(above);
    let end = (at - 1 + MAX_SCOPE_LINES).min(lines.len());
    let body = &lines[at - 1..end];
    let taken = if family == Family::Python {
        python_block(body)
    } else if family.uses_end(path) {
        end_block(body)
    } else {
        brace_block(body, family)
    };
    out.extend(
        body.iter()
            .take(taken)
            .enumerate()
            .map(|(k, t)| ((at + k) as u32, *t)),
    );
    out
}

fn indent(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// Decorators and the `def` line, then every line indented deeper than it.
fn python_block(body: &[&str]) -> usize {
    let mut k = 0;
    while k < body.len() && body[k].trim_start().starts_with('@') {
        k += 1;
    }
    let Some(def) = body.get(k) else {
        return body.len();
    };
    let base = indent(def);
    let trimmed = def.trim_start();
    if !(trimmed.starts_with("def ")
        || trimmed.starts_with("async def ")
        || trimmed.starts_with("class "))
    {
        // A call such as `app.add_url_rule(...)`: that statement only.
        return k + statement_lines(&body[k..]);
    }
    let mut n = k + 1;
    // The header may span lines until its `:`.
    while n < body.len() && !body[n - 1].trim_end().ends_with(':') && indent(body[n]) > base {
        n += 1;
    }
    while n < body.len() {
        let t = body[n];
        if !t.trim().is_empty() && indent(t) <= base {
            break;
        }
        n += 1;
    }
    n
}

/// Lines until the parentheses opened on the first line are balanced.
fn statement_lines(body: &[&str]) -> usize {
    let mut depth = 0i32;
    for (k, t) in body.iter().enumerate() {
        for c in code_chars(t) {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return k + 1;
        }
    }
    body.len()
}

/// Characters outside string literals and line comments (a rough,
/// line-local view: enough to count brackets).
fn code_chars(line: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev = ' ';
    for c in line.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '/' if prev == '/' => {
                out.pop();
                break;
            }
            '#' => break,
            _ => out.push(c),
        }
        prev = c;
    }
    out
}

/// Balanced braces; a statement without a block ends where its
/// parentheses close and it ends with `;` (or `)` in languages without
/// semicolons or method signatures that look like calls: JS, Go, …).
fn brace_block(body: &[&str], family: Family) -> usize {
    let bare_calls = matches!(family, Family::Js | Family::Go | Family::OtherCode);
    let mut braces = 0i32;
    let mut parens = 0i32;
    let mut opened = false;
    for (k, t) in body.iter().enumerate() {
        for c in code_chars(t) {
            match c {
                '{' => {
                    braces += 1;
                    opened = true;
                }
                '}' => braces -= 1,
                '(' => parens += 1,
                ')' => parens -= 1,
                _ => {}
            }
        }
        if opened {
            if braces <= 0 {
                return k + 1;
            }
            continue;
        }
        let trimmed = t.trim();
        let annotation = trimmed.starts_with('@') || trimmed.starts_with('[');
        if parens <= 0
            && !annotation
            && (trimmed.ends_with(';') || (bare_calls && trimmed.ends_with(')')))
        {
            return k + 1;
        }
    }
    body.len()
}

/// `do`/`def`/`if`… opened blocks closed by `end`.
fn end_block(body: &[&str]) -> usize {
    let mut depth = 0i32;
    for (k, t) in body.iter().enumerate() {
        let code: String = code_chars(t).into_iter().collect();
        let first = code.split_whitespace().next().unwrap_or("");
        for w in code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
        {
            match w {
                "do" | "def" | "fn" | "class" | "module" | "begin" | "case" => depth += 1,
                "if" | "unless" | "while" | "until" if first == w => depth += 1,
                "end" => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return k + 1;
        }
    }
    body.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_format() {
        let lines = [
            "a = 1",
            "",
            "  @app.get('/x')   # note",
            "def   x():",
            "    return  1",
        ];
        assert_eq!(
            window(&lines, 3, 2).as_deref(),
            Some("1: a = 1 | 3: @app.get('/x') # note | 4: def x(): | 5: return 1")
        );
        assert_eq!(window(&lines, 9, 2), None);
        let long = "x".repeat(300);
        assert_eq!(
            window(&[long.as_str()], 1, 0).map(|s| s.chars().count()),
            Some(240)
        );
        let wide = "é".repeat(300);
        assert_eq!(
            window(&[wide.as_str()], 1, 0).map(|s| s.chars().count()),
            Some(240)
        );
    }

    #[test]
    fn python_scope_stops_at_dedent() {
        let lines = [
            "@login_required",
            "@app.route('/a', methods=['POST'])",
            "@limiter.limit('5/m')",
            "def a():",
            "    x = request.args['q']",
            "",
            "    return x",
            "def b():",
            "    pass",
        ];
        let scope = route_scope(&lines, 2, "app.py");
        let numbers: Vec<u32> = scope.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, vec![1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn brace_and_statement_scopes() {
        let lines = [
            "router.get('/a', auth, (req, res) => {",
            "  const q = req.query.q; // {",
            "  res.send(q);",
            "});",
            "router.post('/b', h);",
        ];
        let n = |line| route_scope(&lines, line, "r.js").len();
        assert_eq!(n(1), 4);
        assert_eq!(n(5), 1);
        let java = [
            "@GetMapping(\"/x\")",
            "public String x(@RequestParam String q)",
            "{",
            "  return q;",
            "}",
            "@PostMapping(\"/y\")",
        ];
        assert_eq!(route_scope(&java, 1, "A.java").len(), 5);
    }

    #[test]
    fn ruby_scope_ends_with_end() {
        let lines = [
            "get '/a' do",
            "  if x",
            "    y",
            "  end",
            "end",
            "get '/b' do",
        ];
        assert_eq!(route_scope(&lines, 1, "app.rb").len(), 5);
    }
}
