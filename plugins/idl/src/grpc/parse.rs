//! The parts of a `.proto` file (proto2 and proto3) that define RPCs: the
//! package, the messages (nested ones by their full name) with their field
//! names and types, and the services' rpcs with request types and
//! `google.api.http` rules. Enums, extensions, options and reserved ranges
//! are skipped.

/// A message: its full name (`pkg.Outer.Inner`) and fields.
#[derive(Debug, PartialEq, Eq)]
pub struct Message {
    pub name: String,
    /// (field name, type as written); `map<K, V>` fields have type `map`.
    pub fields: Vec<(String, String)>,
}

/// `get: "/v1/{name=users/*}"`, `body: "*"` of a `google.api.http` option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRule {
    pub method: String,
    pub path: String,
    pub body: Option<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Rpc {
    pub service: String,
    pub name: String,
    /// Offset of the `rpc` keyword.
    pub at: usize,
    /// The request type as written (`GetRequest`, `.a.b.GetRequest`).
    pub request: String,
    pub http: Vec<HttpRule>,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Proto {
    pub package: String,
    pub messages: Vec<Message>,
    pub rpcs: Vec<Rpc>,
    /// (offset, message): what was read around an error is kept.
    pub errors: Vec<(usize, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// An identifier, possibly dotted (`a.b.C`, `.a.B`).
    Ident(String),
    Str(String),
    Punct(u8),
    /// Numbers and anything else.
    Other,
}

fn tokenize(src: &str) -> Result<Vec<(Tok, usize)>, (usize, String)> {
    let s = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if s[i..].starts_with(b"//") {
            while i < s.len() && s[i] != b'\n' {
                i += 1;
            }
        } else if s[i..].starts_with(b"/*") {
            match src[i + 2..].find("*/") {
                Some(p) => i += 2 + p + 2,
                None => return Err((i, "unterminated comment".into())),
            }
        } else if b == b'"' || b == b'\'' {
            let start = i;
            let mut value = Vec::new();
            i += 1;
            loop {
                match s.get(i) {
                    None | Some(b'\n') => return Err((start, "unterminated string".into())),
                    Some(b'\\') => {
                        if let Some(&c) = s.get(i + 1) {
                            value.push(c);
                        }
                        i += 2;
                    }
                    Some(&c) if c == b => {
                        i += 1;
                        break;
                    }
                    Some(&c) => {
                        value.push(c);
                        i += 1;
                    }
                }
            }
            let value = String::from_utf8_lossy(&value).into_owned();
            out.push((Tok::Str(value), start));
        } else if b == b'_'
            || b.is_ascii_alphabetic()
            || (b == b'.'
                && s.get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_'))
        {
            let start = i;
            i += 1;
            while i < s.len() && (s[i] == b'_' || s[i] == b'.' || s[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            out.push((Tok::Ident(src[start..i].to_string()), start));
        } else if b"{}()[]<>;=,:".contains(&b) {
            out.push((Tok::Punct(b), i));
            i += 1;
        } else {
            let start = i;
            i += src[i..].chars().next().map_or(1, char::len_utf8);
            while i < s.len()
                && (s[i].is_ascii_alphanumeric() || matches!(s[i], b'.' | b'+' | b'-'))
            {
                i += 1;
            }
            out.push((Tok::Other, start));
        }
    }
    Ok(out)
}

pub fn parse(src: &str) -> Proto {
    let mut proto = Proto::default();
    let tokens = match tokenize(src) {
        Ok(t) => t,
        Err(e) => {
            proto.errors.push(e);
            return proto;
        }
    };
    let mut p = Parser {
        t: &tokens,
        i: 0,
        end: src.len(),
    };
    let mut messages = Vec::new();
    while let Some(tok) = p.tok() {
        let result = match tok {
            Tok::Ident(k) if k == "package" => {
                p.i += 1;
                if let Some(Tok::Ident(name)) = p.tok() {
                    proto.package = name.trim_start_matches('.').to_string();
                }
                p.skip_statement()
            }
            Tok::Ident(k) if k == "message" => {
                p.i += 1;
                p.message("", &mut messages)
            }
            Tok::Ident(k) if k == "service" => {
                p.i += 1;
                p.service(&mut proto.rpcs, &mut proto.errors)
            }
            Tok::Punct(b'{') => p.skip_group(),
            Tok::Punct(b'}') => {
                p.i += 1;
                Err(p.error_at(p.i - 1, "unbalanced `}`"))
            }
            // syntax, import, option, enum X { }, extend X { }.
            _ => p.skip_statement(),
        };
        if let Err(e) = result {
            proto.errors.push(e);
        }
    }
    let prefix = if proto.package.is_empty() {
        String::new()
    } else {
        format!("{}.", proto.package)
    };
    proto.messages = messages
        .into_iter()
        .map(|m: Message| Message {
            name: format!("{prefix}{}", m.name),
            fields: m.fields,
        })
        .collect();
    proto
}

struct Parser<'t> {
    t: &'t [(Tok, usize)],
    i: usize,
    end: usize,
}

impl<'t> Parser<'t> {
    fn tok(&self) -> Option<&'t Tok> {
        self.t.get(self.i).map(|(t, _)| t)
    }

    fn at(&self) -> usize {
        self.t.get(self.i).map_or(self.end, |(_, at)| *at)
    }

    fn error_at(&self, i: usize, message: &str) -> (usize, String) {
        (
            self.t.get(i).map_or(self.end, |(_, at)| *at),
            message.to_string(),
        )
    }

    fn ident(&mut self) -> Option<String> {
        match self.tok() {
            Some(Tok::Ident(name)) => {
                let name = name.clone();
                self.i += 1;
                Some(name)
            }
            _ => None,
        }
    }

    fn eat(&mut self, punct: u8) -> bool {
        if self.tok() == Some(&Tok::Punct(punct)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// From `{`, `(`, `[` or `<`, past the matching close.
    fn skip_group(&mut self) -> Result<(), (usize, String)> {
        let start = self.at();
        let mut depth = 0usize;
        while let Some(tok) = self.tok() {
            self.i += 1;
            match tok {
                Tok::Punct(b'{' | b'(' | b'[') => depth += 1,
                Tok::Punct(b'}' | b')' | b']') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err((start, "unbalanced `{`".into()))
    }

    /// Past the next `;` at this level, or past a `{ … }` group ending the
    /// statement (`enum E { … }`, `option (x) = { … };`). Stops before a `}`
    /// closing the enclosing block.
    fn skip_statement(&mut self) -> Result<(), (usize, String)> {
        while let Some(tok) = self.tok() {
            match tok {
                Tok::Punct(b';') => {
                    self.i += 1;
                    return Ok(());
                }
                Tok::Punct(b'}') => return Ok(()),
                Tok::Punct(b'{') => {
                    self.skip_group()?;
                    self.eat(b';');
                    return Ok(());
                }
                Tok::Punct(b'(' | b'[') => self.skip_group()?,
                _ => self.i += 1,
            }
        }
        Ok(())
    }

    /// After `message`: the name and body; nested messages are named
    /// `Outer.Inner`.
    fn message(&mut self, scope: &str, out: &mut Vec<Message>) -> Result<(), (usize, String)> {
        let at = self.at();
        let name = self
            .ident()
            .ok_or_else(|| self.error_at(self.i, "expected a message name"))?;
        let full = if scope.is_empty() {
            name
        } else {
            format!("{scope}.{name}")
        };
        if !self.eat(b'{') {
            return Err(self.error_at(self.i, "expected `{`"));
        }
        let index = out.len();
        out.push(Message {
            name: full.clone(),
            fields: Vec::new(),
        });
        let mut fields = Vec::new();
        let result = self.message_body(&full, &mut fields, out);
        if let Some(m) = out.get_mut(index) {
            m.fields = fields;
        }
        // An unclosed body is reported where the message starts.
        result.map_err(|(offset, message)| (if offset == self.end { at } else { offset }, message))
    }

    fn message_body(
        &mut self,
        scope: &str,
        fields: &mut Vec<(String, String)>,
        out: &mut Vec<Message>,
    ) -> Result<(), (usize, String)> {
        loop {
            let Some(tok) = self.tok() else {
                return Err((self.end, format!("message `{scope}` is never closed")));
            };
            match tok {
                Tok::Punct(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                Tok::Punct(b';') => self.i += 1,
                Tok::Ident(k) if k == "message" => {
                    self.i += 1;
                    self.message(scope, out)?;
                }
                Tok::Ident(k) if k == "oneof" => {
                    self.i += 1;
                    self.ident();
                    if !self.eat(b'{') {
                        return Err(self.error_at(self.i, "expected `{`"));
                    }
                    // Its fields belong to the message.
                    self.message_body(scope, fields, out)?;
                }
                Tok::Ident(k)
                    if matches!(
                        k.as_str(),
                        "enum" | "extend" | "option" | "reserved" | "extensions"
                    ) =>
                {
                    self.skip_statement()?
                }
                _ => self.field(fields)?,
            }
        }
    }

    /// `[label] Type name = N [options];` or `map<K, V> name = N;`.
    fn field(&mut self, fields: &mut Vec<(String, String)>) -> Result<(), (usize, String)> {
        let start = self.i;
        let mut words = Vec::new();
        loop {
            match self.tok() {
                Some(Tok::Ident(w)) => {
                    words.push(w.clone());
                    self.i += 1;
                }
                Some(Tok::Punct(b'<')) => {
                    // map<K, V>: skip to `>`.
                    while !matches!(self.tok(), None | Some(Tok::Punct(b'>' | b';' | b'}'))) {
                        self.i += 1;
                    }
                    self.eat(b'>');
                }
                Some(Tok::Punct(b'=')) => break,
                _ => return Err(self.error_at(start, "expected a field")),
            }
        }
        let name = words
            .pop()
            .ok_or_else(|| self.error_at(start, "expected a field name"))?;
        let ty = words
            .into_iter()
            .find(|w| !matches!(w.as_str(), "repeated" | "optional" | "required"))
            .unwrap_or_default();
        fields.push((name, ty));
        self.skip_statement()
    }

    /// After `service`: the name, then rpcs up to the closing `}`.
    /// A malformed rpc is reported in `errors` and skipped; the rpcs after
    /// it are still read.
    fn service(
        &mut self,
        rpcs: &mut Vec<Rpc>,
        errors: &mut Vec<(usize, String)>,
    ) -> Result<(), (usize, String)> {
        let at = self.at();
        let service = self
            .ident()
            .ok_or_else(|| self.error_at(self.i, "expected a service name"))?;
        if !self.eat(b'{') {
            return Err(self.error_at(self.i, "expected `{`"));
        }
        loop {
            match self.tok() {
                None => return Err((at, format!("service `{service}` is never closed"))),
                Some(Tok::Punct(b'}')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Tok::Ident(k)) if k == "rpc" => {
                    let at = self.at();
                    self.i += 1;
                    match self.rpc(&service, at) {
                        Ok(rpc) => rpcs.push(rpc),
                        Err(e) => {
                            errors.push(e);
                            self.skip_statement()?;
                        }
                    }
                }
                Some(Tok::Punct(b';')) => self.i += 1,
                _ => self.skip_statement()?,
            }
        }
    }

    /// After `rpc`: `Name (stream Req) returns (stream Resp)` then `;` or
    /// an options block.
    fn rpc(&mut self, service: &str, at: usize) -> Result<Rpc, (usize, String)> {
        let name = self
            .ident()
            .ok_or_else(|| self.error_at(self.i, "expected an rpc name"))?;
        if !self.eat(b'(') {
            return Err(self.error_at(self.i, "expected `(`"));
        }
        let mut request = self.ident().unwrap_or_default();
        if request == "stream" {
            if let Some(ty) = self.ident() {
                request = ty;
            }
        }
        if !self.eat(b')') {
            return Err(self.error_at(self.i, "expected `)`"));
        }
        let mut rpc = Rpc {
            service: service.to_string(),
            name,
            at,
            request,
            http: Vec::new(),
        };
        // returns (…)
        while !matches!(self.tok(), None | Some(Tok::Punct(b';' | b'{' | b'}'))) {
            if self.tok() == Some(&Tok::Punct(b'(')) {
                self.skip_group()?;
            } else {
                self.i += 1;
            }
        }
        if self.eat(b'{') {
            self.rpc_options(&mut rpc)?;
        } else {
            self.eat(b';');
        }
        Ok(rpc)
    }

    /// The body of an rpc: `option (google.api.http) = { … };` read, other
    /// options skipped, up to the closing `}`.
    fn rpc_options(&mut self, rpc: &mut Rpc) -> Result<(), (usize, String)> {
        loop {
            match self.tok() {
                None => return Err((self.end, format!("rpc `{}` is never closed", rpc.name))),
                Some(Tok::Punct(b'}')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Tok::Ident(k)) if k == "option" => {
                    let is_http = matches!(
                        (self.t.get(self.i + 1), self.t.get(self.i + 2), self.t.get(self.i + 3), self.t.get(self.i + 4)),
                        (Some((Tok::Punct(b'('), _)), Some((Tok::Ident(n), _)), Some((Tok::Punct(b')'), _)), Some((Tok::Punct(b'='), _)))
                            if n == "google.api.http" || n == ".google.api.http"
                    );
                    if is_http && self.t.get(self.i + 5).map(|t| &t.0) == Some(&Tok::Punct(b'{')) {
                        self.i += 6;
                        self.http_rule(&mut rpc.http)?;
                        self.eat(b';');
                    } else {
                        self.skip_statement()?;
                    }
                }
                _ => self.skip_statement()?,
            }
        }
    }

    /// After the `{` of an HTTP rule: `get: "/path"`, `body: "*"`,
    /// `additional_bindings { … }`, up to the closing `}`.
    fn http_rule(&mut self, rules: &mut Vec<HttpRule>) -> Result<(), (usize, String)> {
        let mut rule: Option<HttpRule> = None;
        let mut body = None;
        let mut nested = Vec::new();
        loop {
            match self.tok().cloned() {
                None => return Err((self.end, "`google.api.http` option is never closed".into())),
                Some(Tok::Punct(b'}')) => {
                    self.i += 1;
                    break;
                }
                Some(Tok::Ident(key)) => {
                    self.i += 1;
                    self.eat(b':');
                    if key == "additional_bindings" {
                        if !self.eat(b'{') {
                            return Err(self.error_at(self.i, "expected `{`"));
                        }
                        self.http_rule(&mut nested)?;
                        continue;
                    }
                    if key == "custom" && self.eat(b'{') {
                        // custom { kind: "HEAD" path: "/x" }
                        let (mut kind, mut path) = (String::new(), String::new());
                        while let Some(Tok::Ident(k)) = self.tok().cloned() {
                            self.i += 1;
                            self.eat(b':');
                            if let Some(Tok::Str(v)) = self.tok().cloned() {
                                self.i += 1;
                                if k == "kind" {
                                    kind = v;
                                } else if k == "path" {
                                    path = v;
                                }
                            }
                        }
                        self.eat(b'}');
                        rule = Some(HttpRule {
                            method: kind,
                            path,
                            body: None,
                        });
                        continue;
                    }
                    let Some(Tok::Str(value)) = self.tok().cloned() else {
                        continue;
                    };
                    self.i += 1;
                    match key.as_str() {
                        "get" | "put" | "post" | "delete" | "patch" => {
                            rule = Some(HttpRule {
                                method: key.to_ascii_uppercase(),
                                path: value,
                                body: None,
                            })
                        }
                        "body" => body = Some(value),
                        _ => {}
                    }
                }
                Some(_) => self.i += 1,
            }
        }
        if let Some(mut rule) = rule {
            rule.body = body;
            rules.push(rule);
        }
        rules.extend(nested);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn services_messages_and_http_rules() {
        let proto = parse(
            r#"syntax = "proto3";
package shop.v1; // the package
import "google/api/annotations.proto";
option go_package = "x/y;z";
/* service Commented { rpc No(A) returns (B); } */
message GetItemRequest {
  string item_id = 1 [(validate.rules).string.min_len = 1];
  optional int32 page = 2;
  map<string, string> labels = 3;
  oneof lookup { string sku = 4; int64 legacy_id = 5; }
  message Filter { repeated string tags = 1; }
  Filter filter = 6;
  enum Mode { MODE_UNSPECIFIED = 0; }
  reserved 7, 8;
}
service Items {
  option (svc) = { a: 1 };
  rpc GetItem(GetItemRequest) returns (Item) {
    option (google.api.http) = {
      get: "/v1/items/{item_id}"
      additional_bindings { post: "/v1/items:lookup" body: "*" }
    };
    option deprecated = true;
  }
  rpc Watch(stream .shop.v1.GetItemRequest.Filter) returns (stream Item);
}
"#,
        );
        assert!(proto.errors.is_empty(), "{:?}", proto.errors);
        assert_eq!(proto.package, "shop.v1");
        let messages: Vec<String> = proto
            .messages
            .iter()
            .map(|m| {
                let f: Vec<String> = m.fields.iter().map(|(n, t)| format!("{n}:{t}")).collect();
                format!("{} {}", m.name, f.join(","))
            })
            .collect();
        assert_eq!(
            messages,
            [
                "shop.v1.GetItemRequest item_id:string,page:int32,labels:map,sku:string,legacy_id:int64,filter:Filter",
                "shop.v1.GetItemRequest.Filter tags:string",
            ]
        );
        let rpcs: Vec<String> = proto
            .rpcs
            .iter()
            .map(|r| format!("{}.{}({}) {:?}", r.service, r.name, r.request, r.http))
            .collect();
        assert_eq!(rpcs.len(), 2);
        assert_eq!(proto.rpcs[0].request, "GetItemRequest");
        assert_eq!(
            proto.rpcs[0].http,
            [
                HttpRule {
                    method: "GET".into(),
                    path: "/v1/items/{item_id}".into(),
                    body: None
                },
                HttpRule {
                    method: "POST".into(),
                    path: "/v1/items:lookup".into(),
                    body: Some("*".into())
                },
            ]
        );
        assert_eq!(proto.rpcs[1].request, ".shop.v1.GetItemRequest.Filter");
    }

    #[test]
    fn errors_keep_what_was_read() {
        let proto = parse("package a;\nservice S {\n  rpc A(X) returns (Y);\n  rpc B(X returns (Y);\n  rpc C(X) returns (Y);\n}\nmessage X { string q = 1; }\n");
        let names: Vec<&str> = proto.rpcs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["A", "C"]);
        assert_eq!(proto.errors, [(57, "expected `)`".to_string())]);
        assert_eq!(proto.messages.len(), 1);
        let proto = parse("service S { rpc A(X) returns (Y); }\nmessage X { string q = 1;\n");
        assert_eq!(proto.rpcs.len(), 1);
        assert_eq!(
            proto.errors,
            [(44, "message `X` is never closed".to_string())]
        );
        assert_eq!(
            parse("option x = \"open;\n").errors[0].1,
            "unterminated string"
        );
    }
}
