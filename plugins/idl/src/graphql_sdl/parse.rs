//! The parts of a GraphQL type-system document that define operations: the
//! `schema { query: … }` root declarations and the fields (with their
//! argument names) of object types and their extensions. Everything else —
//! interfaces, inputs, enums, unions, scalars, directive definitions, and the
//! operations of client documents (`query Foo { … }`) — is skipped by
//! bracket matching.

use super::lexer::{tokenize, Kind, Token};

/// `schema { <op>: <type> }` (or `extend schema`).
#[derive(Debug, PartialEq, Eq)]
pub struct Root {
    /// `query`, `mutation` or `subscription`.
    pub operation: String,
    pub type_name: String,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Field {
    /// The object type (or extension) declaring it.
    pub type_name: String,
    pub name: String,
    /// Byte offset of the field name.
    pub at: usize,
    pub args: Vec<String>,
}

/// A syntax error: where, and what.
#[derive(Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub at: usize,
    pub message: String,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub roots: Vec<Root>,
    pub fields: Vec<Field>,
    /// Errors; what was read around them is kept.
    pub errors: Vec<SyntaxError>,
}

pub fn parse(src: &str) -> Document {
    let mut doc = Document::default();
    let tokens = match tokenize(src) {
        Ok(tokens) => tokens,
        Err(e) => {
            doc.errors.push(SyntaxError {
                at: e.at,
                message: e.message.to_string(),
            });
            return doc;
        }
    };
    let mut p = Parser {
        t: &tokens,
        i: 0,
        end: src.len(),
    };
    while let Some(token) = p.peek() {
        match token.kind {
            Kind::Name("schema") => {
                p.i += 1;
                if let Err(e) = p.schema(&mut doc.roots) {
                    doc.errors.push(e);
                }
            }
            Kind::Name("type") => {
                p.i += 1;
                if let Err(e) = p.object_type(&mut doc.fields) {
                    doc.errors.push(e);
                }
            }
            Kind::Punct(open @ (b'{' | b'(' | b'[')) => {
                if let Err(e) = p.skip_group(open) {
                    doc.errors.push(e);
                }
            }
            Kind::Punct(close @ (b'}' | b')' | b']')) => {
                doc.errors.push(SyntaxError {
                    at: token.at,
                    message: format!("unbalanced `{}`", close as char),
                });
                p.i += 1;
            }
            _ => p.i += 1,
        }
    }
    doc
}

struct Parser<'t, 'a> {
    t: &'t [Token<'a>],
    i: usize,
    /// Offset of the end of the text (for errors at the end).
    end: usize,
}

impl<'a> Parser<'_, 'a> {
    fn peek(&self) -> Option<Token<'a>> {
        self.t.get(self.i).copied()
    }

    fn kind(&self) -> Option<Kind<'a>> {
        self.peek().map(|t| t.kind)
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            at: self.peek().map_or(self.end, |t| t.at),
            message: message.into(),
        }
    }

    fn eat(&mut self, punct: u8) -> bool {
        if self.kind() == Some(Kind::Punct(punct)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn name(&mut self, what: &str) -> Result<(&'a str, usize), SyntaxError> {
        match self.peek() {
            Some(Token {
                kind: Kind::Name(name),
                at,
            }) => {
                self.i += 1;
                Ok((name, at))
            }
            _ => Err(self.error(format!("expected {what}"))),
        }
    }

    /// From an opening bracket, past its matching close.
    fn skip_group(&mut self, open: u8) -> Result<(), SyntaxError> {
        let start = self.peek().map_or(self.end, |t| t.at);
        let mut stack = Vec::new();
        while let Some(token) = self.peek() {
            self.i += 1;
            match token.kind {
                Kind::Punct(b @ (b'{' | b'(' | b'[')) => stack.push(b),
                Kind::Punct(b @ (b'}' | b')' | b']')) => {
                    let want = match stack.pop() {
                        Some(b'{') => b'}',
                        Some(b'(') => b')',
                        Some(_) => b']',
                        None => b,
                    };
                    if want != b {
                        return Err(SyntaxError {
                            at: token.at,
                            message: format!("expected `{}`, found `{}`", want as char, b as char),
                        });
                    }
                    if stack.is_empty() {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(SyntaxError {
            at: start,
            message: format!("`{}` is never closed", open as char),
        })
    }

    /// `@name(args)` directives.
    fn directives(&mut self) -> Result<(), SyntaxError> {
        while self.eat(b'@') {
            self.name("a directive name")?;
            if self.kind() == Some(Kind::Punct(b'(')) {
                self.skip_group(b'(')?;
            }
        }
        Ok(())
    }

    /// `Name`, `[Type]`, with `!`s.
    fn type_ref(&mut self) -> Result<(), SyntaxError> {
        let mut depth = 0;
        while self.eat(b'[') {
            depth += 1;
        }
        self.name("a type")?;
        self.eat(b'!');
        for _ in 0..depth {
            if !self.eat(b']') {
                return Err(self.error("expected `]`"));
            }
            self.eat(b'!');
        }
        Ok(())
    }

    /// After `schema`: directives, then `{ operation: Type … }`.
    fn schema(&mut self, roots: &mut Vec<Root>) -> Result<(), SyntaxError> {
        self.directives()?;
        if !self.eat(b'{') {
            // `extend schema @link(…)` has no body.
            return Ok(());
        }
        loop {
            if self.eat(b'}') {
                return Ok(());
            }
            if self.kind() == Some(Kind::Str) {
                self.i += 1;
                continue;
            }
            let (operation, _) = self.name("an operation type")?;
            if !self.eat(b':') {
                return Err(self.error("expected `:`"));
            }
            let (type_name, _) = self.name("a type name")?;
            roots.push(Root {
                operation: operation.to_string(),
                type_name: type_name.to_string(),
            });
        }
    }

    /// After `type` (or `extend type`): the name, interfaces, directives,
    /// then the field definitions. On an error inside the body, the fields
    /// read so far are kept and the body is skipped.
    fn object_type(&mut self, fields: &mut Vec<Field>) -> Result<(), SyntaxError> {
        let (type_name, _) = self.name("a type name")?;
        if self.kind() == Some(Kind::Name("implements")) {
            self.i += 1;
            self.eat(b'&');
            while let Some(Kind::Name(_)) = self.kind() {
                self.i += 1;
                if !self.eat(b'&') {
                    break;
                }
            }
        }
        self.directives()?;
        if self.kind() != Some(Kind::Punct(b'{')) {
            // `extend type Query @key(fields: "id")`: no fields.
            return Ok(());
        }
        let open = self.i;
        self.i += 1;
        let result = self.fields(type_name, fields);
        if result.is_err() {
            self.i = open;
            // The body's end, or the end of the text.
            if self.skip_group(b'{').is_err() {
                self.i = self.t.len();
            }
        }
        result
    }

    fn fields(&mut self, type_name: &str, fields: &mut Vec<Field>) -> Result<(), SyntaxError> {
        loop {
            match self.kind() {
                None => {
                    return Err(self.error(format!("the fields of `{type_name}` are never closed")))
                }
                Some(Kind::Punct(b'}')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Kind::Str) => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let (name, at) = self.name("a field name")?;
            let mut args = Vec::new();
            if self.eat(b'(') {
                self.arguments(&mut args)?;
            }
            if !self.eat(b':') {
                return Err(self.error(format!("expected `:` after field `{name}`")));
            }
            self.type_ref()?;
            self.directives()?;
            fields.push(Field {
                type_name: type_name.to_string(),
                name: name.to_string(),
                at,
                args,
            });
        }
    }

    /// After `(`: `name: Type = default @directive …` up to `)`.
    fn arguments(&mut self, args: &mut Vec<String>) -> Result<(), SyntaxError> {
        loop {
            match self.kind() {
                Some(Kind::Punct(b')')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Kind::Str) => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let (name, _) = self.name("an argument name")?;
            if !self.eat(b':') {
                return Err(self.error(format!("expected `:` after argument `{name}`")));
            }
            self.type_ref()?;
            if self.eat(b'=') {
                match self.kind() {
                    Some(Kind::Punct(open @ (b'[' | b'{'))) => self.skip_group(open)?,
                    Some(Kind::Name(_) | Kind::Str | Kind::Other) => self.i += 1,
                    _ => return Err(self.error("expected a default value")),
                }
            }
            self.directives()?;
            args.push(name.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(doc: &Document) -> Vec<String> {
        doc.fields
            .iter()
            .map(|f| format!("{}.{}({})", f.type_name, f.name, f.args.join(",")))
            .collect()
    }

    #[test]
    fn types_extensions_and_roots() {
        let doc = parse(
            r#"
schema @link(url: "x") { query: RootQuery mutation: Ops }
"""Reads"""
type RootQuery implements Node & Entity @key(fields: "id") {
  "one"
  user(
    "the id" id: ID! @deprecated(reason: "x"),
    filter: UserFilter = {role: ADMIN, tags: ["a"]}
    first: Int = 10
  ): User @auth(requires: ADMIN)
  users: [User!]!
  type: String
}
input UserFilter { role: Role query: String }
extend type Ops { login(email: String!, password: String!): Token }
extend type Query @key(fields: "id")
interface Node { id: ID! }
query Client($id: ID!) { user(id: $id) { ... on User { name } } }
{ anonymous }
"#,
        );
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        assert_eq!(
            doc.roots,
            [
                Root {
                    operation: "query".into(),
                    type_name: "RootQuery".into()
                },
                Root {
                    operation: "mutation".into(),
                    type_name: "Ops".into()
                },
            ]
        );
        assert_eq!(
            fields(&doc),
            [
                "RootQuery.user(id,filter,first)",
                "RootQuery.users()",
                "RootQuery.type()",
                "Ops.login(email,password)",
            ]
        );
    }

    #[test]
    fn errors_keep_what_was_read() {
        let doc =
            parse("type Query {\n  a: Int\n  b(x: ): Int\n  c: Int\n}\ntype Mutation { d: Int }\n");
        assert_eq!(fields(&doc), ["Query.a()", "Mutation.d()"]);
        assert_eq!(doc.errors.len(), 1);
        assert_eq!(doc.errors[0].message, "expected a type");
        let doc = parse("type Query {\n  a: Int\n");
        assert_eq!(fields(&doc), ["Query.a()"]);
        assert_eq!(
            doc.errors[0].message,
            "the fields of `Query` are never closed"
        );
        let doc = parse("type Query { a: String \"open }\n");
        assert!(doc.fields.is_empty());
        assert_eq!(doc.errors[0].message, "unterminated string");
        assert_eq!(parse("}").errors[0].message, "unbalanced `}`");
        assert_eq!(
            parse("input X { a: [Int }").errors[0].message,
            "expected `]`, found `}`"
        );
    }
}
