//! Rocket (`rust_rocket`).
//!
//! Routes: handler attributes `#[get("/x")]`, `#[post]`, `#[put]`,
//! `#[delete]`, `#[patch]`, `#[head]`, `#[options]` and
//! `#[route(GET, uri = "/x")]`, mounted with `.mount("/api", routes![a,
//! users::b])` on `rocket::build()`/`rocket::custom(…)` (also through
//! functions returning `routes![…]` or `Vec<Route>` built with `routes!`,
//! in other modules: `.mount("/users", users::routes())`). A route never
//! mounted is reported at its own URI.
//!
//! URIs: `<id>` path segments kept (the host treats them as placeholders),
//! `<path..>` becomes `<path>`; the query part `?<q>&<page>` gives query
//! params, `?<filters..>` the fields of the parameter's struct.
//!
//! Parameters: `data = "<body>"` bodies typed `Json<T>` (json fields of
//! `T`) or `Form<T>` (form fields); `&CookieJar` reads (`cookies.get("c")`,
//! `get_private`) → cookie.
//!
//! Not scanned: `tests/`, `benches/`, `examples/`, test paths and
//! `#[cfg(test)]` items.

use std::ops::Range;

use portolan_plugin_sdk::prelude::*;

use crate::rs::expr::parse_str;
use crate::rs::router;
use crate::rs::router::scan::{call_target, target, Op, Seg, Target};

use crate::rs::router::framework::Framework;
/// Rocket's vocabulary and hooks for the shared router scan.
pub const FRAMEWORK: Framework = Framework {
    chain_ops: &["mount"],
    attribute_routes: Some(crate::actix_web::builder::attribute_routes),
    split_uri: Some(split_uri),
    route_list: Some(("routes!", routes_macro)),
    chain_op: Some(chain_op),
    ..Framework::BASE
};

router::router_analyzer!(Rocket, "rust_rocket", "Rocket", ["rocket"], "rocket");

/// `/items/<id>/<path..>?<q>&<page>` → (`/items/<id>/<path>`, [`q`,
/// `page`]); `<filters..>` in the query kept as `filters..`.
pub fn split_uri(uri: &str) -> (String, Vec<String>) {
    let (path, query) = uri.split_once('?').unwrap_or((uri, ""));
    let path = path.replace("..>", ">");
    let query = query
        .split('&')
        .filter_map(|q| {
            let name = q.strip_prefix('<')?.strip_suffix('>')?;
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect();
    (path, query)
}

/// `routes![a, users::b]` at `at`: one merge per handler.
pub fn routes_macro(code: &Code, at: usize) -> Vec<Op> {
    let open = code.skip_ws(at + "routes!".len());
    code.args(open)
        .into_iter()
        .map(|r| Op::Merge(call_target(&crate::rs::items::compact(code.slice(r)))))
        .collect()
}

/// `.mount(base, routes![…])` / `.mount(base, api::routes())`.
pub(crate) fn chain_op(
    file: &SourceFile,
    code: &Code,
    seg: &Seg,
    args: &[Range<usize>],
    line: u32,
) -> Option<Op> {
    if seg.path != "mount" {
        return None;
    }
    let path = parse_str(code, args.first()?.clone())?;
    let arg = args.get(1)?.clone();
    let target = if code.slice(arg.clone()).starts_with("routes!") {
        Target::Inline(routes_macro(code, arg.start))
    } else {
        target(file, code, arg.start, &FRAMEWORK)
    };
    Some(Op::Nest {
        path,
        line,
        target,
        service: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rs::router::scan::scan_file;

    #[test]
    fn uris() {
        assert_eq!(
            split_uri("/items/<id>/<rest..>?<q>&<filters..>&lang=en"),
            (
                "/items/<id>/<rest>".to_string(),
                vec!["q".to_string(), "filters..".to_string()]
            )
        );
        assert_eq!(split_uri("/"), ("/".to_string(), vec![]));
    }

    #[test]
    fn mounts_and_routes_macro() {
        let src = "#[launch]\nfn rocket() -> _ {\n rocket::build()\n .mount(\"/api\", routes![a, users::b])\n .mount(BASE, admin::routes())\n}\npub fn routes() -> Vec<Route> { routes![x] }";
        let f = scan_file(&SourceFile::new("src/main.rs", src), &FRAMEWORK);
        let ops = &f.fns[0].routers[0].ops;
        assert_eq!(ops.len(), 2);
        let Op::Nest {
            target: Target::Inline(inner),
            line,
            ..
        } = &ops[0]
        else {
            panic!("{ops:?}")
        };
        assert_eq!(*line, 4);
        assert_eq!(
            inner[1],
            Op::Merge(Target::Call {
                qual: Some("users".into()),
                name: "b".into()
            })
        );
        assert_eq!(f.fns[1].routers[0].ops.len(), 1);
    }
}
