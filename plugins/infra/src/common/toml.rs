//! A small TOML reader for deployment files (`netlify.toml`,
//! `wrangler.toml`, Traefik's file provider): tables, arrays of tables,
//! dotted and quoted keys, strings (basic, literal, multi-line), numbers,
//! booleans, dates (as strings), arrays and inline tables, into a
//! [`serde_json::Value`] with the line of every key.
//!
//! It is lenient where TOML is strict (duplicate keys overwrite) and
//! reports the first syntax error with its line.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

pub struct Toml {
    pub value: Value,
    lines: BTreeMap<String, u32>,
}

impl Toml {
    /// Line of the key at `path` (keys and array indexes as text), else of
    /// its deepest ancestor found, else 1.
    pub fn line(&self, path: &[&str]) -> u32 {
        let mut n = path.len();
        while n > 0 {
            if let Some(l) = self.lines.get(&path[..n].join("\u{1}")) {
                return *l;
            }
            n -= 1;
        }
        1
    }
}

pub fn parse(text: &str) -> Result<Toml, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
        line: 1,
        item_lines: Vec::new(),
    };
    let mut root = Value::Object(Map::new());
    let mut lines = BTreeMap::new();
    // Path of the current table (with the index of array-of-table items).
    let mut table: Vec<String> = Vec::new();
    loop {
        p.skip_blank_lines();
        if p.pos >= p.s.len() {
            break;
        }
        let line = p.line;
        if p.peek() == Some(b'[') {
            let array = p.s.get(p.pos + 1) == Some(&b'[');
            p.pos += if array { 2 } else { 1 };
            let keys = p.keys()?;
            p.skip_ws();
            let close: &[u8] = if array { b"]]" } else { b"]" };
            if !p.s[p.pos..].starts_with(close) {
                return Err(format!("unclosed table header on line {line}"));
            }
            p.pos += close.len();
            table = Vec::new();
            let mut cur = &mut root;
            for (i, k) in keys.iter().enumerate() {
                table.push(k.clone());
                let last = i + 1 == keys.len();
                let obj = cur
                    .as_object_mut()
                    .ok_or_else(|| format!("key {k} on line {line} is not a table"))?;
                if last && array {
                    let entry = obj
                        .entry(k.clone())
                        .or_insert_with(|| Value::Array(Vec::new()));
                    let arr = entry
                        .as_array_mut()
                        .ok_or_else(|| format!("key {k} on line {line} is not an array"))?;
                    arr.push(Value::Object(Map::new()));
                    let idx = arr.len() - 1;
                    table.push(idx.to_string());
                    lines.insert(table.join("\u{1}"), line);
                    cur = arr
                        .last_mut()
                        .ok_or_else(|| format!("empty array on line {line}"))?;
                } else {
                    let entry = obj
                        .entry(k.clone())
                        .or_insert_with(|| Value::Object(Map::new()));
                    lines.entry(table.join("\u{1}")).or_insert(line);
                    // `[a.b]` after `[[a]]` continues the last item.
                    cur = match entry {
                        Value::Array(items) => {
                            let idx = items.len().saturating_sub(1);
                            table.push(idx.to_string());
                            items
                                .last_mut()
                                .ok_or_else(|| format!("empty array on line {line}"))?
                        }
                        other => other,
                    };
                }
            }
            p.end_of_line()?;
            continue;
        }
        let keys = p.keys()?;
        p.skip_ws();
        if p.peek() != Some(b'=') {
            return Err(format!("expected `=` after a key on line {line}"));
        }
        p.pos += 1;
        p.skip_ws();
        p.item_lines.clear();
        let value = p.value(0)?;
        let item_lines = std::mem::take(&mut p.item_lines);
        p.end_of_line()?;
        let mut cur = &mut root;
        for k in &table {
            cur = match cur {
                Value::Object(m) => m.get_mut(k),
                Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
                _ => None,
            }
            .ok_or_else(|| format!("bad table on line {line}"))?;
        }
        let mut path = table.clone();
        for (i, k) in keys.iter().enumerate() {
            path.push(k.clone());
            lines.insert(path.join("\u{1}"), line);
            let obj = cur
                .as_object_mut()
                .ok_or_else(|| format!("key {k} on line {line} is not a table"))?;
            if i + 1 == keys.len() {
                for (n, l) in item_lines.iter().enumerate() {
                    lines.insert(format!("{}\u{1}{n}", path.join("\u{1}")), *l);
                }
                record_inline(&value, &path, line, &mut lines);
                obj.insert(k.clone(), value);
                break;
            }
            cur = obj
                .entry(k.clone())
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
    Ok(Toml { value: root, lines })
}

/// Keys and items inside an inline value get the line of the value (the
/// items of a top-level array their own line, recorded before).
fn record_inline(v: &Value, path: &[String], line: u32, lines: &mut BTreeMap<String, u32>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let mut p = path.to_vec();
                p.push(i.to_string());
                lines.entry(p.join("\u{1}")).or_insert(line);
                record_inline(item, &p, line, lines);
            }
        }
        Value::Object(m) => {
            for (k, item) in m {
                let mut p = path.to_vec();
                p.push(k.clone());
                lines.entry(p.join("\u{1}")).or_insert(line);
                record_inline(item, &p, line, lines);
            }
        }
        _ => {}
    }
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    line: u32,
    /// Lines of the items of the last top-level array value read.
    item_lines: Vec<u32>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn skip_comment(&mut self) {
        if self.peek() == Some(b'#') {
            while self.peek().is_some_and(|c| c != b'\n') {
                self.pos += 1;
            }
        }
    }

    /// Whitespace, newlines and comments (inside arrays and between lines).
    fn skip_blank_lines(&mut self) {
        loop {
            self.skip_ws();
            self.skip_comment();
            match self.peek() {
                Some(b'\n') => {
                    self.pos += 1;
                    self.line += 1;
                }
                Some(b'\r') => self.pos += 1,
                _ => return,
            }
        }
    }

    fn end_of_line(&mut self) -> Result<(), String> {
        self.skip_ws();
        self.skip_comment();
        match self.peek() {
            None | Some(b'\n' | b'\r') => Ok(()),
            Some(_) => Err(format!(
                "unexpected text after a value on line {}",
                self.line
            )),
        }
    }

    fn keys(&mut self) -> Result<Vec<String>, String> {
        let mut keys = Vec::new();
        loop {
            self.skip_ws();
            let key = match self.peek() {
                Some(b'"') => self.basic_string()?,
                Some(b'\'') => self.literal_string()?,
                _ => {
                    let start = self.pos;
                    while self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
                    {
                        self.pos += 1;
                    }
                    if start == self.pos {
                        return Err(format!("expected a key on line {}", self.line));
                    }
                    self.text[start..self.pos].to_string()
                }
            };
            keys.push(key);
            self.skip_ws();
            if self.peek() == Some(b'.') {
                self.pos += 1;
                continue;
            }
            return Ok(keys);
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > 64 {
            return Err(format!("values nested too deep on line {}", self.line));
        }
        match self.peek() {
            Some(b'"') => self.basic_string().map(Value::String),
            Some(b'\'') => self.literal_string().map(Value::String),
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_blank_lines();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        return Ok(Value::Array(items));
                    }
                    if self.peek().is_none() {
                        return Err(format!("unclosed array on line {}", self.line));
                    }
                    if depth == 0 {
                        self.item_lines.push(self.line);
                    }
                    items.push(self.value(depth + 1)?);
                    self.skip_blank_lines();
                    if self.peek() == Some(b',') {
                        self.pos += 1;
                    }
                }
            }
            Some(b'{') => {
                self.pos += 1;
                let mut map = Map::new();
                loop {
                    self.skip_blank_lines();
                    match self.peek() {
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(Value::Object(map));
                        }
                        Some(b',') => {
                            self.pos += 1;
                            continue;
                        }
                        None => return Err(format!("unclosed inline table on line {}", self.line)),
                        _ => {}
                    }
                    let keys = self.keys()?;
                    self.skip_ws();
                    if self.peek() != Some(b'=') {
                        return Err(format!("expected `=` on line {}", self.line));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let v = self.value(depth + 1)?;
                    let mut cur = &mut map;
                    for (i, k) in keys.iter().enumerate() {
                        if i + 1 == keys.len() {
                            cur.insert(k.clone(), v);
                            break;
                        }
                        let e = cur
                            .entry(k.clone())
                            .or_insert_with(|| Value::Object(Map::new()));
                        let Value::Object(m) = e else {
                            return Err(format!("key {k} is not a table on line {}", self.line));
                        };
                        cur = m;
                    }
                }
            }
            Some(_) => {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|c| !matches!(c, b',' | b']' | b'}' | b'\n' | b'\r' | b'#'))
                {
                    self.pos += 1;
                }
                let raw = self.text[start..self.pos].trim();
                Ok(match raw {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => raw
                        .replace('_', "")
                        .parse::<i64>()
                        .map(Value::from)
                        .or_else(|_| raw.parse::<f64>().map(Value::from))
                        .unwrap_or_else(|_| Value::String(raw.to_string())),
                })
            }
            None => Err(format!("missing value on line {}", self.line)),
        }
    }

    fn basic_string(&mut self) -> Result<String, String> {
        let multi = self.s[self.pos..].starts_with(b"\"\"\"");
        self.pos += if multi { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(format!("unterminated string on line {}", self.line));
            };
            if multi && self.s[self.pos..].starts_with(b"\"\"\"") {
                self.pos += 3;
                return Ok(out);
            }
            if !multi && c == b'"' {
                self.pos += 1;
                return Ok(out);
            }
            if c == b'\n' {
                if !multi {
                    return Err(format!("unterminated string on line {}", self.line));
                }
                self.line += 1;
            }
            if c == b'\\' {
                let esc = self.text.get(self.pos + 1..).and_then(|r| r.chars().next());
                self.pos += 1 + esc.map_or(0, char::len_utf8);
                match esc {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('\n') => self.line += 1,
                    Some(other) => {
                        out.push('\\');
                        out.push(other);
                    }
                    None => {}
                }
                continue;
            }
            let len = self.text[self.pos..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
            out.push_str(&self.text[self.pos..self.pos + len]);
            self.pos += len;
        }
    }

    fn literal_string(&mut self) -> Result<String, String> {
        let multi = self.s[self.pos..].starts_with(b"'''");
        let quote: &[u8] = if multi { b"'''" } else { b"'" };
        self.pos += quote.len();
        let start = self.pos;
        while self.pos < self.s.len() && !self.s[self.pos..].starts_with(quote) {
            if self.s[self.pos] == b'\n' {
                if !multi {
                    return Err(format!("unterminated string on line {}", self.line));
                }
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos >= self.s.len() {
            return Err(format!("unterminated string on line {}", self.line));
        }
        let out = self.text[start..self.pos].to_string();
        self.pos += quote.len();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tables_and_values() {
        let t = parse(
            "name = \"w\" # c\n[build]\ncommand = 'npm run build'\n\n[[redirects]]\nfrom = \"/api/*\"\nstatus = 200\nquery = {id = \":id\"}\n[[redirects]]\nfrom = \"/b\"\n[redirects.headers]\nX = \"1\"\nroutes = [\n  { pattern = \"a.com/*\", zone_name = \"a.com\" },\n  \"b.com/x/*\",\n]\n",
        )
        .map_err(|e| e)
        .unwrap();
        assert_eq!(t.value["redirects"][0]["query"], json!({"id": ":id"}));
        assert_eq!(t.value["redirects"][1]["headers"]["X"], json!("1"));
        assert_eq!(
            t.value["redirects"][1]["headers"]["routes"][1],
            json!("b.com/x/*")
        );
        assert_eq!(t.line(&["redirects", "1", "from"]), 10);
        assert_eq!(t.line(&["redirects", "0"]), 5);
        assert_eq!(t.value["build"]["command"], json!("npm run build"));
        assert_eq!(t.line(&["redirects", "1", "headers", "routes", "1"]), 15);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("a = 1\nb = \"x\n").err().unwrap_or_default();
        assert!(e.contains("line 2"), "{e}");
        assert!(parse("[a\n").is_err());
        assert!(parse("é = 1").is_err());
        assert_eq!(
            parse("a = \"\\é\"").map(|t| t.value).ok(),
            Some(json!({"a": "\\é"}))
        );
    }
}
