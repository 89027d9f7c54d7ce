//! A routing-DSL view of a whole Ruby file, for frameworks whose routes
//! are calls with blocks (Sinatra, Grape, Roda, Padrino, Hanami, …).
//!
//! Every statement becomes a [`Node`]: a [`Call`] with its line, its block
//! (as nodes) and, for the calls the framework asks for and for every
//! `def`, what the block/body reads from the request ([`Reads`]).
//! `class A::B < C` becomes a node named `class` with arguments
//! `[Const("A::B"), Const("C")]` (the superclass as written, `Expr` if
//! none); `module M` a node named `module`; `def name(a, b)` a node named
//! `def` with `[Sym(name)]` and the parameter names in `block_params`
//! (`def self.x` is `self.x`). Conditionals and `begin` are nodes named
//! after the keyword whose body holds every branch.

use portolan_plugin_sdk::rubyish::dsl;
pub use portolan_plugin_sdk::rubyish::dsl::{
    collect_consts, const_matches, const_of, str_value, tokens_in, Body, Reader,
};
use portolan_plugin_sdk::SourceFile;

use super::call::Call;
use super::request::{reads, Options, Reads};
use super::tokens::Token;

/// A statement of the file (see the module doc) with Ruby's request reads.
pub type Node = dsl::Node<Reads>;

/// A file's nodes, as recorded by a map step.
pub type FileNodes = dsl::FileNodes<Reads>;

/// Parse `file` into nodes.
pub fn file_nodes(
    file: &SourceFile,
    opts: Options,
    wants_reads: &dyn Fn(&Call) -> bool,
) -> Vec<Node> {
    let toks = super::tokens_of(&file.content);
    let stmts = super::tree::parse(&toks, &super::RULES);
    let read = |t: &[Token]| reads(t, opts);
    let reader = Reader {
        file,
        toks: &toks,
        reads: &read,
        wants_reads,
        crystal: false,
    };
    reader.nodes(&stmts)
}

/// An endpoint with the parameters in `reads`: generic `params` reads are
/// query parameters on GET/HEAD/DELETE/OPTIONS and `body` ones otherwise;
/// names that are URL placeholders (and Sinatra's `splat`/`captures`,
/// Rails' `format`) are left to the path parameters.
pub fn endpoint_with(
    method: &str,
    url: &str,
    file: &str,
    line: u32,
    reads: &Reads,
    body: Body,
) -> portolan_plugin_sdk::Endpoint {
    use portolan_plugin_sdk::Param;
    let mut e = portolan_plugin_sdk::Endpoint::new(method, url).at_path(file, line);
    let placeholders = portolan_plugin_sdk::urls::path_placeholders(url);
    let skip = |n: &str| {
        placeholders.iter().any(|p| p == n) || matches!(n, "splat" | "captures" | "format")
    };
    let body_param = |n: &str| match body {
        Body::Form => Param::form(n),
        Body::Json => Param::json(n),
    };
    let query_like = matches!(method, "GET" | "HEAD" | "DELETE" | "OPTIONS");
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
    for n in reads.body.iter().filter(|n| !skip(n)) {
        e.push_param(body_param(n));
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
    e
}

/// Join URL pieces with single slashes, no trailing `/` (the SDK helper).
pub use portolan_plugin_sdk::paths::join_trimmed as join_url;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rb::call::Val;

    #[test]
    fn classes_defs_and_reads() {
        let src = "module Api\n  class Users < Sinatra::Base\n    get '/u/:id' do |id|\n      params[:q]\n    end\n    def self.registered(app)\n      app.get('/x') { request.env['HTTP_X_KEY'] }\n    end\n  end\nend\n";
        let file = SourceFile::new("a.rb", src);
        let nodes = file_nodes(&file, Options::default(), &|c| c.name == "get");
        assert_eq!(nodes[0].name(), "module");
        let class = &nodes[0].children()[0];
        assert_eq!(
            class.call.args,
            [
                Val::Const("Users".into()),
                Val::Const("Sinatra::Base".into())
            ]
        );
        let get = &class.children()[0];
        assert_eq!(get.line, 3);
        assert_eq!(get.block_params, ["id"]);
        assert_eq!(
            get.reads.as_ref().map(|r| r.params.clone()),
            Some(vec!["q".to_string()])
        );
        let def = &class.children()[1];
        assert_eq!(def.call.args, [Val::Sym("self.registered".into())]);
        assert_eq!(def.block_params, ["app"]);
        let inner = &def.children()[0];
        assert_eq!((inner.call.recv.as_str(), inner.line), ("app", 7));
        assert_eq!(
            inner.reads.as_ref().map(|r| r.headers.clone()),
            Some(vec!["X-Key".to_string()])
        );
    }
}
