//! Classes, modules and methods of a Ruby file, with what each method reads
//! from the request.

use serde::{Deserialize, Serialize};

use super::call::{call_of, Val};
use super::request::{reads, Options, Reads};
use super::tokens::{Kind, Token};
use super::tree::{self, Block, Stmt};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    pub name: String,
    pub line: u32,
    pub reads: Reads,
}

/// A class-level DSL call (`before_action :x, only: [:a]`, `include Y`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassCall {
    pub name: String,
    pub args: Vec<Val>,
    /// 1-based line of the call.
    #[serde(default)]
    pub line: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    /// Fully qualified (`Admin::UsersController`).
    pub name: String,
    /// As written after `<` (`ApplicationController`, `Grape::API`).
    pub superclass: String,
    /// Enclosing module path (`Admin`), for resolving the superclass.
    pub namespace: String,
    pub line: u32,
    pub is_module: bool,
    pub methods: Vec<Method>,
    pub calls: Vec<ClassCall>,
    /// Constants holding symbol/word lists (`FIELDS = %i[a b].freeze`).
    #[serde(default)]
    pub consts: Vec<(String, Vec<String>)>,
}

pub use portolan_plugin_sdk::rubyish::dsl::tokens_in;

/// The constant path following a `class`/`module` keyword.
fn const_path(toks: &[Token], from: usize) -> (String, usize) {
    let mut name = String::new();
    let mut i = from;
    while let Some(t) = toks.get(i) {
        if t.kind == Kind::Const || t.is("::") {
            name.push_str(&t.text);
            i += 1;
        } else {
            break;
        }
    }
    (name, i)
}

pub struct Outline {
    pub classes: Vec<Class>,
}

/// Outline a file: every class and module, nested names qualified.
pub fn outline(src: &str, line_of: &dyn Fn(usize) -> u32, opts: Options) -> Outline {
    let toks = super::tokens_of(src);
    let stmts = tree::parse(&toks, &super::RULES);
    let mut classes = Vec::new();
    visit(&stmts, &toks, "", line_of, opts, &mut classes);
    Outline { classes }
}

fn visit(
    stmts: &[Stmt],
    toks: &[Token],
    ns: &str,
    line_of: &dyn Fn(usize) -> u32,
    opts: Options,
    out: &mut Vec<Class>,
) {
    for s in stmts {
        let head = s.head();
        match head {
            Some(kw @ ("class" | "module"))
                if s.toks.get(1).is_some_and(|t| t.kind == Kind::Const) =>
            {
                let (name, i) = const_path(&s.toks, 1);
                let superclass = if s.toks.get(i).is_some_and(|t| t.is("<")) {
                    // `< Grape::API`, `< Sinatra::Base`, `< Hanami::Action`
                    let mut sup = String::new();
                    for t in &s.toks[i + 1..] {
                        if t.kind == Kind::Const || t.is("::") || t.kind == Kind::Ident || t.is(".")
                        {
                            sup.push_str(&t.text);
                        } else {
                            break;
                        }
                    }
                    sup
                } else {
                    String::new()
                };
                let full = if ns.is_empty() {
                    name.clone()
                } else {
                    format!("{ns}::{name}")
                };
                let Some(block) = s.blocks.first() else {
                    continue;
                };
                let mut class = Class {
                    name: full.clone(),
                    superclass,
                    namespace: ns.to_string(),
                    line: line_of(s.start()),
                    is_module: kw == "module",
                    ..Class::default()
                };
                collect_members(&block.body, toks, line_of, opts, &mut class);
                let idx = out.len();
                out.push(class);
                visit(&block.body, toks, &full, line_of, opts, out);
                // keep the outer class before its nested ones
                let _ = idx;
            }
            _ => {
                // Classes inside other blocks (`Module.new do`, conditionals).
                for b in &s.blocks {
                    if b.kind != "def" {
                        visit(&b.body, toks, ns, line_of, opts, out);
                    }
                }
            }
        }
    }
}

fn collect_members(
    body: &[Stmt],
    toks: &[Token],
    line_of: &dyn Fn(usize) -> u32,
    opts: Options,
    class: &mut Class,
) {
    for s in body {
        match s.head() {
            Some("class" | "module") => {}
            Some("def") => push_def(s, toks, line_of, opts, class),
            // `private def x`, `protected def y`
            Some("private" | "protected" | "public")
                if s.toks.get(1).is_some_and(|t| t.is_word("def")) =>
            {
                let inner = Stmt {
                    toks: s.toks[1..].to_vec(),
                    blocks: s.blocks.clone(),
                };
                push_def(&inner, toks, line_of, opts, class);
            }
            Some(_) if s.toks.len() > 2 && s.toks[0].kind == Kind::Const && s.toks[1].is("=") => {
                let mut words = Vec::new();
                for t in &s.toks[2..] {
                    match &t.kind {
                        Kind::Words(w) => words.extend(w.iter().cloned()),
                        Kind::Sym | Kind::Str => words.push(t.text.clone()),
                        _ => {}
                    }
                }
                if !words.is_empty() {
                    class.consts.push((s.toks[0].text.clone(), words));
                }
            }
            Some(_) => {
                if let Some(c) = call_of(s) {
                    if c.recv.is_empty() {
                        class.calls.push(ClassCall {
                            name: c.name,
                            args: c.args,
                            line: line_of(s.start()),
                        });
                    }
                }
                // `included do … end`, `class_methods do`, conditionals
                for b in &s.blocks {
                    collect_members(&b.body, toks, line_of, opts, class);
                }
            }
            None => {}
        }
    }
}

fn push_def(
    s: &Stmt,
    toks: &[Token],
    line_of: &dyn Fn(usize) -> u32,
    opts: Options,
    class: &mut Class,
) {
    // `def name`, `def self.name`
    let mut i = 1;
    if s.toks.get(1).is_some_and(|t| t.is_word("self")) && s.toks.get(2).is_some_and(|t| t.is("."))
    {
        i = 3;
    }
    let Some(name) = s.toks.get(i).map(|t| t.text.clone()) else {
        return;
    };
    let body: &[Token] = match s.blocks.first() {
        Some(Block { start, end, .. }) => tokens_in(toks, *start, *end),
        None => &s.toks[i + 1..], // endless def
    };
    class.methods.push(Method {
        name,
        line: line_of(s.start()),
        reads: reads(body, opts),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_classes_and_methods() {
        let src = "module Admin\n  class UsersController < ApplicationController\n    before_action :set_user, only: %i[show]\n    def index\n      params[:q]\n    end\n    private\n    def user_params\n      params.require(:user).permit(:name)\n    end\n  end\nend\n";
        let lines = portolan_plugin_sdk::SourceFile::new("x.rb", src);
        let o = outline(src, &|o| lines.line_of(o), Options::default());
        assert_eq!(o.classes.len(), 2);
        let c = &o.classes[1];
        assert_eq!(c.name, "Admin::UsersController");
        assert_eq!(c.superclass, "ApplicationController");
        assert_eq!(c.namespace, "Admin");
        assert_eq!(c.methods.len(), 2);
        assert_eq!(c.methods[0].reads.params, ["q"]);
        assert_eq!(c.methods[1].reads.params, ["name"]);
        assert_eq!(c.calls[0].name, "before_action");
        assert_eq!(c.methods[1].line, 8);
    }
}
