//! Actix Web vocabulary for the shared router scanner: attribute macros on
//! handlers, `web::scope`/`web::resource` chains, `.service`, `.route`,
//! `.configure`.

use std::ops::Range;

use portolan_plugin_sdk::lex::is_ident_byte;
use portolan_plugin_sdk::prelude::*;

use crate::rs::expr::{parse_str, Part};
use crate::rs::items::attrs_before;
use crate::rs::router::scan::{
    call_target, primary, target, Flavor, FnFacts, Op, Root, RouterDef, Seg, Target, ANY, METHODS,
};

/// `#[get("/x")]`, `#[post("/x", wrap = "…")]`,
/// `#[route("/x", method = "GET", method = "POST")]` on a handler: the
/// function returns that resource (registered with `.service(handler)`).
/// Actix: the `#[scope("/p")]` of enclosing inline modules prefix it.
pub fn attribute_routes(
    file: &SourceFile,
    code: &Code,
    f: &crate::rs::items::FnDecl,
    out: &mut FnFacts,
    flavor: Flavor,
    scopes: &[(Range<usize>, String)],
) {
    let mut ops = Vec::new();
    for attr in attrs_before(code, f.kw) {
        let Some(open) = attr.find('(') else { continue };
        let name = attr[..open].rsplit("::").next().unwrap_or("");
        let Some(args) = attr.get(open + 1..attr.len().saturating_sub(1)) else {
            continue;
        };
        let Some(path) = first_string(args) else {
            continue;
        };
        let (path, mut query) = match flavor.split_uri {
            Some(split) => split(&path),
            None => (path, Vec::new()),
        };
        // Rocket `?<filters..>`: the fields of the parameter's type.
        query.retain(|q| match q.strip_suffix("..") {
            Some(var) => {
                if let Some(p) = f.params.iter().find(|p| p.pattern == var) {
                    let ty = crate::rs::items::type_name(&p.ty);
                    out.bodies.push(("query".into(), ty));
                }
                false
            }
            None => true,
        });
        let methods: Vec<String> = if name == "route" && flavor.split_uri.is_some() {
            // `#[route(GET, uri = "/x")]`
            let m = args.split(',').next().unwrap_or("").to_ascii_uppercase();
            vec![m]
        } else if name == "route" {
            let mut ms = Vec::new();
            let mut rest = args;
            while let Some(pos) = rest.find("method=\"") {
                rest = &rest[pos + "method=\"".len()..];
                let m = rest.split('"').next().unwrap_or("").to_ascii_uppercase();
                ms.push(m);
            }
            ms
        } else if METHODS.contains(&name) {
            vec![name.to_ascii_uppercase()]
        } else {
            continue;
        };
        let line = attr_line(file, code, f.kw, name);
        let path = if flavor.scoped_modules.is_some() {
            let mut full = module_scopes(scopes, f.kw);
            full.push_str(&path);
            full
        } else {
            path
        };
        ops.push(Op::Route {
            path: vec![Part::Lit(path)],
            line,
            query,
            extract: Vec::new(),
            methods: methods
                .into_iter()
                .map(|m| {
                    (
                        m,
                        Some(Target::Call {
                            qual: None,
                            name: f.name.clone(),
                        }),
                    )
                })
                .collect(),
        });
    }
    if !ops.is_empty() {
        ops.reverse();
        out.routers.push(RouterDef {
            name: String::new(),
            ops,
        });
    }
}

/// The inline modules (`mod m { … }`) carrying `#[scope("/p")]` (actix-web
/// 4.5's attribute macro): (body range, prefix), in source order. Computed
/// once per file; [`module_scopes`] then answers per route.
pub fn scoped_modules(code: &Code) -> Vec<(Range<usize>, String)> {
    let bytes = code.text().as_bytes();
    let mut out = Vec::new();
    for m in code.find_word("mod") {
        let name_start = code.skip_ws(m + 3);
        let mut name_end = name_start;
        while bytes.get(name_end).copied().is_some_and(is_ident_byte) {
            name_end += 1;
        }
        let open = code.skip_ws(name_end);
        if name_end == name_start || bytes.get(open) != Some(&b'{') {
            continue;
        }
        let Some(close) = code.matching(open) else {
            continue;
        };
        for attr in attrs_before(code, m) {
            let Some(paren) = attr.find('(') else {
                continue;
            };
            if attr[..paren].rsplit("::").next() == Some("scope") {
                if let Some(p) = first_string(&attr[paren..]) {
                    out.push((open..close, p));
                }
            }
        }
    }
    out
}

/// Prefixes of the scoped modules enclosing `at`, outermost first.
fn module_scopes(scopes: &[(Range<usize>, String)], at: usize) -> String {
    scopes
        .iter()
        .filter(|(r, _)| r.start < at && at < r.end)
        .map(|(_, p)| p.as_str())
        .collect()
}

fn first_string(args: &str) -> Option<String> {
    let start = args.find('"')? + 1;
    let end = args[start..].find('"')? + start;
    Some(args[start..end].to_string())
}

/// Line of the `#[name(` attribute above the `fn` keyword at `kw`.
fn attr_line(file: &SourceFile, code: &Code, kw: usize, name: &str) -> u32 {
    let text = code.text();
    let needle = format!("{name}(");
    let from = text[..kw].rfind(&needle).unwrap_or(kw);
    file.line_of(from)
}

/// A chain rooted at `web::scope("/p")` (its operations nested under the
/// prefix) or `web::resource("/p")` (one route with the methods of its
/// `.route(web::get().to(h))` and `.to(h)` calls).
pub(crate) fn scope_or_resource(
    file: &SourceFile,
    code: &Code,
    first: &Seg,
    end: usize,
) -> Option<(Root, Vec<Op>, usize)> {
    let last = first.path.rsplit("::").next().unwrap_or("");
    if !matches!(last, "scope" | "resource") {
        return None;
    }
    let args = code.args(first.args.clone()?.start);
    let path = parse_str(code, args.first()?.clone())?;
    let line = file.line_of(first.at);
    let bytes = code.text().as_bytes();
    let mut ops = Vec::new();
    let mut methods = Vec::new();
    let mut end = end;
    loop {
        let p = code.skip_ws(end);
        if bytes.get(p) != Some(&b'.') {
            break;
        }
        let Some((seg, e)) = primary(code, p + 1) else {
            break;
        };
        end = e;
        let args = seg
            .args
            .clone()
            .map(|a| code.args(a.start))
            .unwrap_or_default();
        if last == "resource" {
            match seg.path.as_str() {
                "route" => {
                    if let Some(r) = args.first() {
                        methods.extend(method_route(file, code, r.clone()));
                    }
                }
                "to" | "to_async" => {
                    let h = args
                        .first()
                        .map(|r| target(file, code, r.start, &super::FRAMEWORK));
                    methods.extend(ANY.iter().map(|m| (m.to_string(), h.clone())));
                }
                m if METHODS.contains(&m) => {
                    let h = args
                        .first()
                        .map(|r| target(file, code, r.start, &super::FRAMEWORK));
                    methods.push((m.to_ascii_uppercase(), h));
                }
                _ => {}
            }
        } else if let Some(op) = chain_op(file, code, &seg, &args, file.line_of(seg.at)) {
            ops.push(op);
        }
    }
    let ops = if last == "resource" {
        vec![Op::Route {
            path,
            line,
            query: Vec::new(),
            extract: Vec::new(),
            methods,
        }]
    } else {
        vec![Op::Nest {
            path,
            line,
            target: Target::Inline(ops),
            service: false,
        }]
    };
    Some((Root::New, ops, end))
}

/// One `.route(path, web::get().to(h))`, `.service(x)` or
/// `.configure(f)` call of an `App`, scope or `ServiceConfig`.
pub(crate) fn chain_op(
    file: &SourceFile,
    code: &Code,
    seg: &Seg,
    args: &[Range<usize>],
    line: u32,
) -> Option<Op> {
    match seg.path.as_str() {
        "route" => {
            let path = parse_str(code, args.first()?.clone())?;
            let methods = method_route(file, code, args.get(1)?.clone());
            Some(Op::Route {
                path,
                line,
                query: Vec::new(),
                extract: Vec::new(),
                methods,
            })
        }
        "service" | "configure" => {
            let t = target(file, code, args.first()?.start, &super::FRAMEWORK);
            Some(Op::Merge(t))
        }
        _ => None,
    }
}

/// `web::get().to(h)`, `web::method(Method::PATCH).to(h)`,
/// `web::route().to(h)` (any method), `…guard(…)`/`…wrap(…)` ignored.
fn method_route(
    file: &SourceFile,
    code: &Code,
    range: Range<usize>,
) -> Vec<(String, Option<Target>)> {
    let bytes = code.text().as_bytes();
    let mut methods: Vec<String> = Vec::new();
    let mut handler = None;
    let mut i = range.start;
    while i < range.end {
        let Some((seg, end)) = primary(code, i) else {
            break;
        };
        let name = seg.path.rsplit("::").next().unwrap_or("");
        let args = seg
            .args
            .clone()
            .map(|a| code.args(a.start))
            .unwrap_or_default();
        if METHODS.contains(&name) {
            methods.push(name.to_ascii_uppercase());
        } else if name == "method" {
            if let Some(r) = args.first() {
                let m = code
                    .slice(r.clone())
                    .rsplit("::")
                    .next()
                    .unwrap_or("")
                    .trim();
                methods.push(m.to_ascii_uppercase());
            }
        } else if name == "route" {
            methods.extend(ANY.iter().map(|m| m.to_string()));
        } else if name == "to" || name == "to_async" {
            handler = args
                .first()
                .map(|r| match target(file, code, r.start, &super::FRAMEWORK) {
                    Target::Local(n) => call_target(&n),
                    t => t,
                });
        }
        let p = code.skip_ws(end);
        if bytes.get(p) != Some(&b'.') || p >= range.end {
            break;
        }
        i = p + 1;
    }
    methods.into_iter().map(|m| (m, handler.clone())).collect()
}

#[cfg(test)]
mod tests {
    use crate::rs::expr::Part;
    use crate::rs::router::scan::{scan_file, Op, Target};
    use portolan_plugin_sdk::SourceFile;

    #[test]
    fn attribute_macros() {
        let src = "#[route(\"/x\", method = \"GET\", method = \"POST\")]\npub async fn x() {}\n#[actix_web::delete(\"/y\")]\nasync fn y() {}\n";
        let f = scan_file(
            &SourceFile::new("src/main.rs", src),
            &crate::actix_web::FRAMEWORK,
        );
        let routes: Vec<_> = f
            .fns
            .iter()
            .flat_map(|f| f.routers.iter().flat_map(|r| r.ops.iter()))
            .map(|op| match op {
                Op::Route {
                    path,
                    line,
                    methods,
                    ..
                } => {
                    let ms: Vec<_> = methods.iter().map(|(m, _)| m.clone()).collect();
                    format!("{:?} {} {}", path, line, ms.join("|"))
                }
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            routes,
            ["[Lit(\"/x\")] 1 GET|POST", "[Lit(\"/y\")] 3 DELETE"]
        );
    }

    #[test]
    fn scopes_resources_and_configure() {
        let src = "fn config(cfg: &mut web::ServiceConfig) {\n cfg.service(web::scope(\"/a\").service(h).configure(more))\n .route(\"/r\", web::route().to(any));\n}";
        let f = scan_file(
            &SourceFile::new("src/main.rs", src),
            &crate::actix_web::FRAMEWORK,
        );
        let r = &f.fns[0].routers[0];
        assert_eq!(r.name, "");
        let Op::Merge(Target::Inline(scope)) = &r.ops[0] else {
            panic!("{:?}", r.ops)
        };
        let Op::Nest {
            path,
            target: Target::Inline(inner),
            ..
        } = &scope[0]
        else {
            panic!("{scope:?}")
        };
        assert_eq!(path, &[Part::Lit("/a".into())]);
        assert_eq!(
            inner,
            &[
                Op::Merge(Target::Local("h".into())),
                Op::Merge(Target::Local("more".into()))
            ]
        );
        let Op::Route { methods, .. } = &r.ops[1] else {
            panic!()
        };
        assert_eq!(methods.len(), 5);
    }
}
