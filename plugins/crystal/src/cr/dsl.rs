//! A DSL view of a whole Crystal file (adapted from the Ruby plugin's
//! `rb::dsl`): every statement becomes a [`Node`], a [`Call`] with its
//! line, its block (as nodes) and, for the calls the framework asks for
//! and for every `def`, what the body reads from the request ([`Reads`]).
//! `class A::B < C` is a node named `class` with arguments
//! `[Const("A::B"), Const("C")]` (superclass `Expr("")` if none, generic
//! arguments dropped); `module M` a node named `module`; `def name(a, b)`
//! a node named `def` with `[Sym(name)]`; `NAME = value` a node named
//! `const=` whose body holds the value's block (`ROUTES = Map.draw do`).
//! Conditionals and `begin` are nodes named after the keyword whose body
//! holds every branch.

use portolan_plugin_sdk::rubyish::dsl;
pub use portolan_plugin_sdk::rubyish::dsl::{
    collect_consts, const_matches, const_of, str_value, tokens_in, Body, Reader,
};
use portolan_plugin_sdk::SourceFile;

use super::call::Call;
use super::request::{reads, Reads};

/// A statement of the file (see the module doc) with Crystal's request reads.
pub type Node = dsl::Node<Reads>;

/// A file's nodes, as recorded by a map step.
pub type FileNodes = dsl::FileNodes<Reads>;

/// Parse `file` into nodes.
pub fn file_nodes(file: &SourceFile, wants_reads: &dyn Fn(&Call) -> bool) -> Vec<Node> {
    let toks = super::tokens_of(&file.content);
    let stmts = super::tree::parse(&toks, &super::RULES);
    let reader = Reader {
        file,
        toks: &toks,
        reads: &reads,
        wants_reads,
        crystal: true,
    };
    reader.nodes(&stmts)
}

/// An endpoint with the parameters in `reads`: generic `params` reads are
/// query parameters on GET/HEAD/DELETE/OPTIONS and `body` ones otherwise;
/// names that are URL placeholders are left to the path parameters.
pub fn endpoint_with(
    method: &str,
    url: &str,
    file: &str,
    line: u32,
    reads: &Reads,
    body: Body,
) -> portolan_plugin_sdk::Endpoint {
    let mut e = portolan_plugin_sdk::Endpoint::new(method, url).at_path(file, line);
    add_reads(&mut e, reads, body);
    e
}

/// Add the parameters in `reads` to `e` (see [`endpoint_with`]).
pub fn add_reads(e: &mut portolan_plugin_sdk::Endpoint, reads: &Reads, body: Body) {
    use portolan_plugin_sdk::Param;
    let placeholders = portolan_plugin_sdk::urls::path_placeholders(&e.url);
    let skip = |n: &str| placeholders.iter().any(|p| p == n);
    let body_param = |n: &str| match body {
        Body::Form => Param::form(n),
        Body::Json => Param::json(n),
    };
    let query_like = matches!(e.method.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS");
    for n in reads.params.iter().filter(|n| !skip(n)) {
        e.push_param(if query_like {
            Param::query(n)
        } else {
            body_param(n)
        });
    }
    for n in reads.query.iter().filter(|n| !skip(n)) {
        e.push_param(Param::query(n));
    }
    for n in reads.form.iter().filter(|n| !skip(n)) {
        e.push_param(Param::form(n));
    }
    for n in &reads.json {
        e.push_param(Param::json(n));
    }
    for n in &reads.headers {
        e.push_param(Param::header(n));
    }
    for n in &reads.cookies {
        e.push_param(Param::cookie(n));
    }
}

/// The file's statement tree as a fact (no call's reads wanted).
pub fn push_nodes(file: &SourceFile, out: &mut portolan_plugin_sdk::Output) {
    out.fact(&FileNodes {
        path: file.path.clone(),
        nodes: file_nodes(file, &|_| false),
    });
}

/// Every constant of the trees, by full name (see [`collect_consts`]).
pub fn consts_of<'a>(
    trees: impl IntoIterator<Item = &'a [Node]>,
) -> std::collections::BTreeMap<String, super::call::Val> {
    let mut consts = std::collections::BTreeMap::new();
    for nodes in trees {
        collect_consts(nodes, "", &mut consts);
    }
    consts
}

/// Join URL pieces with single slashes, no trailing `/` (the SDK helper).
pub use portolan_plugin_sdk::paths::join_trimmed as join_url;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cr::call::Val;

    #[test]
    fn classes_defs_consts_and_reads() {
        let src = "module Blog\n  ROUTES = Marten::Routing::Map.draw do\n    path \"/\", A, name: \"a\"\n  end\n  class Show < Lucky::Action(String)\n    get \"/u/:id\" do\n      params.get(:q)\n    end\n    def get(x : Int32) : String\n      request.headers[\"X-Key\"]\n    end\n  end\nend\n";
        let file = SourceFile::new("a.cr", src);
        let nodes = file_nodes(&file, &|c| c.name == "get");
        let m = &nodes[0];
        assert_eq!(m.name(), "module");
        let routes = &m.children()[0];
        assert_eq!(routes.name(), "const=");
        assert_eq!(routes.children()[0].name(), "path");
        assert_eq!(routes.children()[0].line, 3);
        let class = &m.children()[1];
        assert_eq!(class.call.args[1], Val::Const("Lucky::Action".into()));
        let get = &class.children()[0];
        assert_eq!(
            get.reads.as_ref().map(|r| r.params.clone()),
            Some(vec!["q".to_string()])
        );
        let def = &class.children()[1];
        assert_eq!(def.call.args, [Val::Sym("get".into())]);
        assert_eq!(
            def.reads.as_ref().map(|r| r.headers.clone()),
            Some(vec!["X-Key".to_string()])
        );
    }
}
