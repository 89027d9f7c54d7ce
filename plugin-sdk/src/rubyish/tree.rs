//! Statements and blocks: a tolerant outline of a Ruby (or Crystal) file.
//!
//! A [`Stmt`] is the tokens of one logical line (continuation lines joined:
//! a trailing `,`, operator or a next line starting with `.`), minus the
//! contents of the blocks it opens. Blocks are `do … end`, `{ … }` after a
//! call, and keyword bodies (`class`, `module`, `def`, `if`, `unless`,
//! `while`, `until`, `case`, `begin`, `for`), each matched with its `end`.
//! Modifier `if`/`unless`/`while`/`until` (after an expression) open
//! nothing, a keyword after `.` is a method name, and an endless
//! `def x = …` has no body. Unbalanced input never fails: an unexpected
//! closer ends the statement and is skipped. The language's extra block
//! keywords come from [`Rules`] ([`Rules::RUBY`], [`Rules::CRYSTAL`]).

use super::tokens::{Kind, Token};

#[derive(Clone, Debug)]
pub struct Stmt {
    /// The statement's own tokens (block contents excluded).
    pub toks: Vec<Token>,
    pub blocks: Vec<Block>,
}

#[derive(Clone, Debug)]
pub struct Block {
    /// `do`, `{`, or the opening keyword (`class`, `def`, `if`, …).
    pub kind: String,
    /// Block parameters (`|a, b|`) for `do`/`{` blocks.
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
    /// Byte offset of the opener and just past the closer.
    pub start: usize,
    pub end: usize,
}

impl Stmt {
    /// Byte offset of the first token.
    pub fn start(&self) -> usize {
        self.toks.first().map(|t| t.start).unwrap_or(0)
    }
    /// The first token's text, if it is an identifier.
    pub fn head(&self) -> Option<&str> {
        self.toks
            .first()
            .filter(|t| t.kind == Kind::Ident || t.kind == Kind::Const)
            .map(|t| t.text.as_str())
    }
    /// The last block (the one a DSL call like `namespace :x do` opens).
    pub fn block(&self) -> Option<&Block> {
        self.blocks.last()
    }
}

/// What differs between the Ruby-like languages' block structure.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Keywords that always open a body closed by `end` (never modifiers).
    pub openers: &'static [&'static str],
    /// `abstract def x` declares a method without a body (Crystal).
    pub abstract_defs: bool,
}

impl Rules {
    /// Ruby: `class`, `module`, `def`, `case`, `begin`, `for`.
    pub const RUBY: Rules = Rules {
        openers: &["class", "module", "def", "case", "begin", "for"],
        abstract_defs: false,
    };
    /// Crystal: Ruby's openers plus `struct`, `enum`, `macro`, `lib`,
    /// `annotation`, `union`; an `abstract def` has no body.
    pub const CRYSTAL: Rules = Rules {
        openers: &[
            "class",
            "module",
            "def",
            "case",
            "begin",
            "for",
            "struct",
            "enum",
            "macro",
            "lib",
            "annotation",
            "union",
        ],
        abstract_defs: true,
    };
}

const MODIFIABLE: &[&str] = &["if", "unless", "while", "until"];

/// Parse a token list into top-level statements.
pub fn parse(tokens: &[Token], rules: &Rules) -> Vec<Stmt> {
    let mut p = Parser {
        t: tokens,
        pos: 0,
        rules,
    };
    let mut out = Vec::new();
    while p.pos < p.t.len() {
        let before = p.pos;
        out.extend(p.body(Stop::Eof));
        if p.pos == before {
            p.pos += 1; // stray closer at top level
        } else if p.pos < p.t.len() {
            p.pos += 1; // skip the unmatched `end` / `}`
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    End,
    Brace,
    Eof,
}

struct Parser<'a> {
    t: &'a [Token],
    pos: usize,
    rules: &'a Rules,
}

fn ends_expression(t: &Token) -> bool {
    match t.kind {
        // A bare `return` is a whole expression: `return unless ok` is a
        // modifier, like `next if …`.
        Kind::Ident => !matches!(
            t.text.as_str(),
            "and" | "or" | "not" | "then" | "do" | "else" | "elsif" | "when" | "in"
        ),
        Kind::Const | Kind::Str | Kind::Sym | Kind::Int | Kind::Words(_) => true,
        Kind::Punct => matches!(t.text.as_str(), ")" | "]" | "}"),
        _ => false,
    }
}

fn continues_line(t: &Token) -> bool {
    match t.kind {
        Kind::Label => true,
        Kind::Punct => !matches!(t.text.as_str(), ")" | "]" | "}" | "?" | "!"),
        Kind::Ident => matches!(t.text.as_str(), "and" | "or" | "not"),
        _ => false,
    }
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.t.get(self.pos)
    }

    fn at_stop(&self, stop: Stop) -> bool {
        match self.peek() {
            None => true,
            Some(t) => match stop {
                Stop::End => t.is_word("end"),
                Stop::Brace => t.is("}"),
                Stop::Eof => t.is_word("end") || t.is("}"),
            },
        }
    }

    fn body(&mut self, stop: Stop) -> Vec<Stmt> {
        let mut out = Vec::new();
        loop {
            while self.peek().is_some_and(|t| t.kind == Kind::Newline) {
                self.pos += 1;
            }
            if self.at_stop(stop) {
                return out;
            }
            let before = self.pos;
            if let Some(s) = self.stmt(stop) {
                if !s.toks.is_empty() || !s.blocks.is_empty() {
                    out.push(s);
                }
            }
            if self.pos == before {
                // A closer that does not belong here: skip it.
                self.pos += 1;
            }
        }
    }

    /// Block parameters `|a, (b, c)|` right after `do`/`{`.
    fn block_params(&mut self) -> Vec<String> {
        let mut params = Vec::new();
        if self.peek().is_some_and(|t| t.is("|")) {
            self.pos += 1;
            while let Some(t) = self.peek() {
                if t.is("|") || t.kind == Kind::Newline {
                    self.pos += 1;
                    break;
                }
                if t.kind == Kind::Ident {
                    params.push(t.text.clone());
                }
                self.pos += 1;
            }
        } else if self.peek().is_some_and(|t| t.is("||")) {
            self.pos += 1;
        }
        params
    }

    /// A keyword body after its header: statements up to the matching `end`.
    fn keyword_block(&mut self, kind: &str, start: usize) -> Block {
        let body = self.body(Stop::End);
        let end = match self.peek() {
            Some(t) if t.is_word("end") => {
                self.pos += 1;
                t.end
            }
            Some(t) => t.start,
            None => self.t.last().map(|t| t.end).unwrap_or(start),
        };
        Block {
            kind: kind.to_string(),
            params: Vec::new(),
            body,
            start,
            end,
        }
    }

    fn stmt(&mut self, stop: Stop) -> Option<Stmt> {
        let mut toks: Vec<Token> = Vec::new();
        let mut blocks = Vec::new();
        let mut depth = 0usize;
        // A keyword header (`class X < Y`, `def x(a)`, `if cond`) ends at the
        // line end and is followed by a body.
        let mut pending_keyword: Option<(String, usize, usize)> = None;
        while let Some(t) = self.peek().cloned() {
            let prev = toks.last();
            let after_dot = prev.is_some_and(|p| p.is(".") || p.is("&.") || p.is("::"));
            match &t.kind {
                Kind::Newline => {
                    if depth > 0 || prev.is_some_and(continues_line) {
                        self.pos += 1;
                        continue;
                    }
                    // A next line starting with `.method` continues the chain.
                    let mut k = self.pos + 1;
                    while self.t.get(k).is_some_and(|t| t.kind == Kind::Newline) {
                        k += 1;
                    }
                    if self.t.get(k).is_some_and(|n| n.is(".") || n.is("&.")) && !toks.is_empty() {
                        self.pos = k;
                        continue;
                    }
                    if let Some((kind, start, _)) = pending_keyword.take() {
                        self.pos += 1;
                        blocks.push(self.keyword_block(&kind, start));
                        continue;
                    }
                    self.pos += 1;
                    break;
                }
                Kind::Ident if !after_dot && t.text == "end" => {
                    if let Some((kind, start, _)) = pending_keyword.take() {
                        // `def x; end` on one line (`;` was a newline) or
                        // `if x then y end`.
                        blocks.push(self.keyword_block(&kind, start));
                        continue;
                    }
                    break; // the enclosing block's end
                }
                Kind::Ident if !after_dot && t.text == "then" && pending_keyword.is_some() => {
                    self.pos += 1;
                    if let Some((kind, start, _)) = pending_keyword.take() {
                        blocks.push(self.keyword_block(&kind, start));
                    }
                    continue;
                }
                Kind::Ident if !after_dot && t.text == "do" => {
                    self.pos += 1;
                    if let Some((kind, start, _)) = pending_keyword.take() {
                        // `while cond do` / `for x in y do`
                        blocks.push(self.keyword_block(&kind, start));
                        continue;
                    }
                    let params = self.block_params();
                    let mut b = self.keyword_block("do", t.start);
                    b.params = params;
                    blocks.push(b);
                    continue;
                }
                Kind::Ident
                    if !after_dot
                        && pending_keyword.is_none()
                        && !(self.rules.abstract_defs
                            && t.text == "def"
                            && prev.is_some_and(|p| p.is_word("abstract")))
                        && (self.rules.openers.contains(&t.text.as_str())
                            || MODIFIABLE.contains(&t.text.as_str())
                                && !prev.is_some_and(ends_expression)) =>
                {
                    self.pos += 1;
                    toks.push(t.clone());
                    pending_keyword = Some((t.text.clone(), t.start, toks.len()));
                    continue;
                }
                Kind::Punct if t.text == "=" => {
                    // Endless method: `def name(args) = expr`.
                    if let Some((kind, _, at)) = &pending_keyword {
                        if kind == "def" && depth == 0 && toks.len() > *at {
                            pending_keyword = None;
                        }
                    }
                    self.pos += 1;
                    toks.push(t);
                    continue;
                }
                Kind::Punct if t.text == "{" => {
                    let block = prev.is_some_and(|p| {
                        (p.kind == Kind::Ident
                            && !p.text.starts_with('@')
                            && !p.text.starts_with('$')
                            || p.is(")")
                            || p.is("->"))
                            && !matches!(p.text.as_str(), "return" | "and" | "or" | "not")
                    });
                    self.pos += 1;
                    if block {
                        let params = self.block_params();
                        let body = self.body(Stop::Brace);
                        let end = match self.peek() {
                            Some(c) if c.is("}") => {
                                self.pos += 1;
                                c.end
                            }
                            Some(c) => c.start,
                            None => t.end,
                        };
                        blocks.push(Block {
                            kind: "{".into(),
                            params,
                            body,
                            start: t.start,
                            end,
                        });
                    } else {
                        depth += 1;
                        toks.push(t);
                    }
                    continue;
                }
                Kind::Punct if t.text == "(" || t.text == "[" => {
                    depth += 1;
                    self.pos += 1;
                    toks.push(t);
                    continue;
                }
                Kind::Punct if t.text == ")" || t.text == "]" || t.text == "}" => {
                    if depth == 0 {
                        if t.text == "}" && stop == Stop::Brace {
                            break;
                        }
                        if toks.is_empty() && blocks.is_empty() {
                            return None; // stray closer: caller skips it
                        }
                        break;
                    }
                    depth -= 1;
                    self.pos += 1;
                    toks.push(t);
                    continue;
                }
                _ => {
                    self.pos += 1;
                    toks.push(t);
                }
            }
        }
        if let Some((kind, start, _)) = pending_keyword.take() {
            blocks.push(self.keyword_block(&kind, start));
        }
        Some(Stmt { toks, blocks })
    }
}

/// Walk every statement depth-first (blocks included), with the chain of
/// enclosing statements.
pub fn walk<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt, &[&'a Stmt])) {
    fn go<'a>(
        stmts: &'a [Stmt],
        stack: &mut Vec<&'a Stmt>,
        f: &mut dyn FnMut(&'a Stmt, &[&'a Stmt]),
    ) {
        for s in stmts {
            f(s, stack);
            stack.push(s);
            for b in &s.blocks {
                go(&b.body, stack, f);
            }
            stack.pop();
        }
    }
    go(stmts, &mut Vec::new(), f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubyish::tokens::tokenize;
    use crate::{lex::Code, Syntax};

    fn outline(src: &str) -> String {
        outline_with(src, &Rules::RUBY)
    }

    fn outline_with(src: &str, rules: &Rules) -> String {
        let code = Code::new(src, Syntax::RUBY);
        let toks = tokenize(&code);
        let stmts = parse(&toks, rules);
        fn show(stmts: &[Stmt]) -> String {
            stmts
                .iter()
                .map(|s| {
                    let head: Vec<&str> = s.toks.iter().take(2).map(|t| t.text.as_str()).collect();
                    let blocks: Vec<String> = s
                        .blocks
                        .iter()
                        .map(|b| format!("{}[{}]", b.kind, show(&b.body)))
                        .collect();
                    format!("{}{}", head.join(" "), blocks.join(""))
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        show(&stmts)
    }

    #[test]
    fn nested_blocks_and_modifiers() {
        let src = "Rails.application.routes.draw do\n  resources :a do\n    get :x, on: :member if true\n  end\n  if ENV['X']\n    get 'y'\n  else\n    get 'z'\n  end\n  scope(path: 'p') { get 'w' }\nend\n";
        assert_eq!(
            outline(src),
            "Rails .do[resources ado[get x]; if ENVif[get y; else; get z]; scope ({[get w]]"
        );
    }

    #[test]
    fn classes_defs_and_endless_defs() {
        let src = "module Admin\n  class UsersController < Base\n    def index; end\n    def show = render\n    def create\n      x = if a then 1 else 2 end\n      params.require(:u)\n        .permit(:a)\n    end\n    private def y\n      z.each { |q| q }\n    end\n  end\nend\n";
        assert_eq!(
            outline(src),
            "module Adminmodule[class UsersControllerclass[def indexdef[]; def show; def createdef[x =if[1 else]; params .]; private defdef[z .{[q]]]]"
        );
    }

    #[test]
    fn crystal_structs_and_abstract_defs() {
        let src = "abstract struct A\n  abstract def call(x : Int32) : String\n  def y : String\n    z\n  end\nend\nget 1\n";
        assert_eq!(
            outline_with(src, &Rules::CRYSTAL),
            "abstract structstruct[abstract def; def ydef[z]]; get 1"
        );
        // Ruby has neither: `struct` is a plain call and `abstract def`
        // opens a body (which takes the `end` meant for the struct).
        assert_eq!(
            outline(src),
            "abstract struct; abstract defdef[def ydef[z]]; get 1"
        );
    }

    #[test]
    fn return_with_a_modifier() {
        let src = "def a\n  return unless ok\n  x\nend\ndef b\n  y\nend\n";
        assert_eq!(outline(src), "def adef[return unless; x]; def bdef[y]");
    }

    #[test]
    fn keyword_after_dot_is_a_method() {
        assert_eq!(outline("x = foo.class\nbar.end\n"), "x =; bar .");
    }
}
