//! Connect RPC (`go_connect_rpc`, `connectrpc.com/connect`, formerly
//! `github.com/bufbuild/connect-go`).
//!
//! A Connect service is served by the handler the generated `*connect`
//! package builds: `path, h := userv1connect.NewUserServiceHandler(svc)`
//! then `mux.Handle(path, h)`, or `mux.Handle(userv1connect.
//! NewUserServiceHandler(svc))`, or wrapped (`vanguard.NewService(…)`).
//! Every such call (a `New<Service>Handler` function of a package whose
//! name ends in `connect`) reports one `POST /<package>.<Service>/<Method>`
//! endpoint per RPC of the service, at the line of the call, plus a `GET`
//! one (Connect's GET form: the message in the `message`, `encoding`,
//! `base64`, `compression`, `connect` query parameters) for RPCs free of
//! side effects (`connect.WithIdempotency(connect.IdempotencyNoSideEffects)`
//! in the generated handler, `option idempotency_level = NO_SIDE_EFFECTS`
//! in the `.proto`). The RPCs come
//! from the generated package's procedure constants
//! (`UserServiceGetUserProcedure = "/user.v1.UserService/GetUser"`), found
//! by package name and by the import path's trailing directories (so two
//! services of a monorepo with the same package name are told apart), or,
//! when the generated code is not in the tree, from the `.proto` declaring
//! `service UserService` (its `package` gives the prefix).
//!
//! Parameters: when the `.proto` is in the tree, the fields of the RPC's
//! request message, as JSON, named as declared (`user_id`: Connect's
//! protojson codec accepts them as well as `userId`, and they are the
//! names the `grpc` analyzer reports for the same procedure, which the
//! host merges into this endpoint).
//!
//! Not reported: the generated package's own code and clients
//! (`New<Service>Client`), `_test.go` files and test paths, services whose
//! RPCs are found nowhere in the tree. Gaps: prefixes added by
//! `http.StripPrefix` around the handler, gRPC reflection/health handlers.

pub mod proto;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::golang::{self, syntax};

pub struct ConnectRpc;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Fact {
    /// A generated `*connect` package file: its directory, package name and
    /// procedure paths.
    Gen {
        dir: String,
        package: String,
        procedures: Vec<String>,
        /// Procedures handled with `IdempotencyNoSideEffects`: Connect
        /// also serves them with GET.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        get: Vec<String>,
    },
    /// A `.proto` file.
    Proto(proto::ProtoFile),
    /// A `go.mod`: its directory and module path.
    Module { dir: String, module: String },
    /// `pkg.NewXHandler(…)` in application code.
    Handler {
        path: String,
        line: u32,
        package: String,
        import: Option<String>,
        service: String,
    },
}

impl Analyzer for ConnectRpc {
    fn tech(&self) -> Tech {
        Tech::new("go_connect_rpc", "Go", "Connect RPC")
            .aliases(["connect", "connect-go", "connectrpc", "go-connect"])
            .files(["*.go", "go.mod", "*.proto"])
            .detect(golang::gomod_requires(&[
                "connectrpc.com/connect",
                "github.com/bufbuild/connect-go",
            ]))
            .detect(golang::go_imports(&[
                "connectrpc.com/connect",
                "github.com/bufbuild/connect-go",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        if is_test_path(&path) {
            return;
        }
        if path == "go.mod" || path.ends_with("/go.mod") {
            let module = file.content.lines().find_map(|l| {
                l.trim()
                    .strip_prefix("module ")
                    .map(|m| m.trim().trim_matches('"').to_string())
            });
            if let Some(module) = module {
                out.fact(&Fact::Module {
                    dir: golang::scan::dir_of(&path),
                    module,
                });
            }
            return;
        }
        if path.ends_with(".proto") {
            let p = proto::parse(file);
            if !p.services.is_empty() || !p.messages.is_empty() {
                out.fact(&Fact::Proto(p));
            }
            return;
        }
        if !path.ends_with(".go") {
            return;
        }
        let code = file.code(Syntax::GO);
        let package = package_name(&code);
        let consts = procedures(&code);
        if !consts.is_empty() {
            let get = side_effect_free(&code, &consts);
            out.fact(&Fact::Gen {
                dir: golang::scan::dir_of(&path),
                package,
                procedures: consts.into_iter().map(|(_, v)| v).collect(),
                get,
            });
            return;
        }
        for h in handlers(file, &code) {
            out.fact(&h);
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        Ok(link(&facts.all()))
    }
}

fn package_name(code: &Code<'_>) -> String {
    code.find_word("package")
        .next()
        .and_then(|i| code.ident_at(i + "package".len()))
        .unwrap_or("")
        .to_string()
}

/// `XProcedure = "/pkg.Service/Method"` constants: (name, value).
fn procedures(code: &Code<'_>) -> Vec<(String, String)> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for i in code.find_all("Procedure") {
        let after = i + "Procedure".len();
        if bytes
            .get(after)
            .is_some_and(|b| portolan_plugin_sdk::lex::is_ident_byte(*b))
        {
            continue;
        }
        let eq = code.skip_inline_ws(after);
        if bytes.get(eq) != Some(&b'=') || bytes.get(eq + 1) == Some(&b'=') {
            continue;
        }
        if let Some(lit) = code.string_at(eq + 1) {
            if lit.value.starts_with('/') && lit.value[1..].contains('/') {
                if let Some(name) = code.ident_before(after) {
                    out.push((name.to_string(), lit.value));
                }
            }
        }
    }
    out
}

/// Procedures whose `connect.NewUnaryHandler(XProcedure, …)` passes
/// `connect.WithIdempotency(connect.IdempotencyNoSideEffects)`.
fn side_effect_free(code: &Code<'_>, consts: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for i in code.find_all("NewUnaryHandler") {
        let open = code.skip_ws(i + "NewUnaryHandler".len());
        let args = code.args(open);
        let Some(first) = args.first() else { continue };
        let name = code.slice(first.clone()).trim();
        let Some((_, value)) = consts.iter().find(|(n, _)| n == name) else {
            continue;
        };
        if args
            .iter()
            .any(|a| code.slice(a.clone()).contains("IdempotencyNoSideEffects"))
            && !out.contains(value)
        {
            out.push(value.clone());
        }
    }
    out
}

/// `qual.NewXHandler(` calls, `qual` a package ending in `connect`.
fn handlers(file: &SourceFile, code: &Code<'_>) -> Vec<Fact> {
    let text = code.text();
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for i in code.find_all(".New") {
        let Some(qual) = code.ident_before(i) else {
            continue;
        };
        if !qual.to_ascii_lowercase().ends_with("connect") || qual == "connect" {
            continue;
        }
        let Some(func) = code.ident_at(i + 1) else {
            continue;
        };
        let Some(service) = func
            .strip_prefix("New")
            .and_then(|f| f.strip_suffix("Handler"))
        else {
            continue;
        };
        let open = code.skip_ws(i + 1 + func.len());
        if service.is_empty() || bytes.get(open) != Some(&b'(') {
            continue;
        }
        out.push(Fact::Handler {
            path: file.slash_path(),
            line: file.line_of(i - qual.len()),
            package: qual.to_string(),
            import: import_of(code, qual),
            service: service.to_string(),
        });
    }
    out
}

/// The import path of package `qual`: `alias "path"` or `"…/qual"`.
fn import_of(code: &Code<'_>, qual: &str) -> Option<String> {
    let mut fallback = None;
    for lit in code.strings() {
        let v = &lit.value;
        if v.contains(' ') || !v.contains('/') {
            continue;
        }
        let before = syntax::prev_non_ws(code, lit.start)
            .and_then(|p| code.ident_before(p + 1).map(str::to_string));
        if before.as_deref() == Some(qual) {
            return Some(v.clone());
        }
        if v.rsplit('/').next() == Some(qual) && fallback.is_none() {
            fallback = Some(v.clone());
        }
    }
    fallback
}

/// The import path of the package in `dir`, from the closest `go.mod`.
fn import_path(facts: &[Fact], dir: &str) -> Option<String> {
    facts
        .iter()
        .filter_map(|f| match f {
            Fact::Module { dir: d, module } => {
                let rel = if d.is_empty() {
                    Some(dir)
                } else if dir == d {
                    Some("")
                } else {
                    dir.strip_prefix(d.as_str())
                        .and_then(|r| r.strip_prefix('/'))
                }?;
                Some((d.len(), module, rel))
            }
            _ => None,
        })
        .max_by_key(|(len, _, _)| *len)
        .map(|(_, m, rel)| {
            if rel.is_empty() {
                m.clone()
            } else {
                format!("{m}/{rel}")
            }
        })
}

/// Trailing path segments two paths share.
fn shared_tail(a: &str, b: &str) -> usize {
    a.rsplit('/')
        .zip(b.rsplit('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// `/user.v1.UserService/GetUser` → (`user.v1.UserService`, `GetUser`).
fn split_procedure(p: &str) -> Option<(&str, &str)> {
    let p = p.strip_prefix('/')?;
    let (svc, method) = p.rsplit_once('/')?;
    Some((svc, method))
}

fn short(svc: &str) -> &str {
    svc.rsplit('.').next().unwrap_or(svc)
}

fn link(facts: &[Fact]) -> Vec<Endpoint> {
    let protos: Vec<&proto::ProtoFile> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::Proto(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for f in facts {
        let Fact::Handler {
            path,
            line,
            package,
            import,
            service,
        } = f
        else {
            continue;
        };
        // Generated procedure constants of this service, best directory
        // match first.
        let mut best: Option<(usize, Vec<&String>, &Vec<String>)> = None;
        for g in facts {
            let Fact::Gen {
                dir,
                package: gp,
                procedures,
                get,
            } = g
            else {
                continue;
            };
            if gp != package {
                continue;
            }
            let procs: Vec<&String> = procedures
                .iter()
                .filter(|p| split_procedure(p).is_some_and(|(s, _)| short(s) == service))
                .collect();
            if procs.is_empty() {
                continue;
            }
            let score = match (import.as_deref(), import_path(facts, dir)) {
                (Some(i), Some(full)) if i == full => usize::MAX,
                (Some(i), _) => shared_tail(i, dir),
                _ => 0,
            };
            if best.as_ref().is_none_or(|(s, _, _)| score > *s) {
                best = Some((score, procs, get));
            }
        }
        let (procedures, get): (Vec<String>, Vec<String>) = match best {
            Some((_, p, g)) => (p.into_iter().cloned().collect(), g.clone()),
            None => proto_procedures(&protos, service, import.as_deref()),
        };
        for p in procedures {
            let fields = split_procedure(&p)
                .map(|(svc, method)| proto::request_fields(&protos, svc, method))
                .unwrap_or_default();
            let mut e = Endpoint::new("POST", p.clone()).at_path(path.clone(), *line);
            for field in &fields {
                e.push_param(Param::json(field.clone()));
            }
            out.push(e);
            if get.contains(&p) {
                // Connect's GET form: the message travels in the query.
                out.push(
                    Endpoint::new("GET", p.clone())
                        .at_path(path.clone(), *line)
                        .params([
                            Param::query("message"),
                            Param::query("encoding").value("json"),
                            Param::query("base64"),
                            Param::query("compression"),
                            Param::query("connect").value("v1"),
                        ]),
                );
            }
        }
    }
    out
}

/// Procedures of `service` from the `.proto` files, preferring the file
/// whose package best matches the import path (`gen/user/v1/userv1connect`
/// ↔ `user.v1`).
/// Procedures, and those also served with GET.
type Procedures = (Vec<String>, Vec<String>);

fn proto_procedures(
    protos: &[&proto::ProtoFile],
    service: &str,
    import: Option<&str>,
) -> Procedures {
    let mut best: Option<(usize, Procedures)> = None;
    for p in protos {
        for s in &p.services {
            if s.name != service {
                continue;
            }
            let pkg_path = p.package.replace('.', "/");
            let score = import.map_or(0, |i| {
                let dir = i.rsplit_once('/').map_or("", |(d, _)| d);
                shared_tail(dir, &pkg_path)
            });
            let full = if p.package.is_empty() {
                s.name.clone()
            } else {
                format!("{}.{}", p.package, s.name)
            };
            let procs = s
                .rpcs
                .iter()
                .map(|r| format!("/{full}/{}", r.name))
                .collect();
            let get = s
                .rpcs
                .iter()
                .filter(|r| r.no_side_effects)
                .map(|r| format!("/{full}/{}", r.name))
                .collect();
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, (procs, get)));
            }
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(files: &[(&str, &str)]) -> Vec<String> {
        let mut facts = Facts::new(Vec::new());
        for (path, content) in files {
            let mut out = Output::new();
            ConnectRpc.analyze(&SourceFile::new(*path, *content), &mut out);
            facts.extend(out.into_parts().1);
        }
        ConnectRpc
            .link(&facts)
            .unwrap_or_default()
            .iter()
            .map(|e| {
                format!(
                    "{} {} {:?}",
                    e.method,
                    e.url,
                    e.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>()
                )
            })
            .collect()
    }

    #[test]
    fn generated_constants_and_proto() {
        let gen = "package petv1connect\nconst (\n PetStoreGetPetProcedure = \"/pet.v1.PetStore/GetPet\"\n)\nfunc NewPetStoreHandler(svc PetStoreHandler) (string, http.Handler) { return \"\", nil }\n";
        let main = "package main\nimport \"example.com/gen/pet/v1/petv1connect\"\nfunc main() {\n mux.Handle(petv1connect.NewPetStoreHandler(s))\n // mux.Handle(petv1connect.NewOtherHandler(s))\n c := petv1connect.NewPetStoreClient(h, u)\n}\n";
        let proto = "syntax = \"proto3\";\npackage pet.v1;\nservice PetStore { rpc GetPet(GetPetRequest) returns (Pet) { option idempotency_level = NO_SIDE_EFFECTS; } }\nmessage GetPetRequest { string pet_id = 1; }\n";
        assert_eq!(
            run(&[
                ("gen/pet/v1/petv1connect/pet.connect.go", gen),
                ("cmd/main.go", main),
                ("proto/pet/v1/pet.proto", proto)
            ]),
            vec!["POST /pet.v1.PetStore/GetPet [\"pet_id\"]"]
        );
        // Without the generated package: the RPCs of the `.proto`.
        assert_eq!(
            run(&[("cmd/main.go", main), ("proto/pet/v1/pet.proto", proto)]),
            vec![
                "POST /pet.v1.PetStore/GetPet [\"pet_id\"]",
                "GET /pet.v1.PetStore/GetPet [\"message\", \"encoding\", \"base64\", \"compression\", \"connect\"]"
            ]
        );
        // Neither: nothing.
        assert!(run(&[("cmd/main.go", main)]).is_empty());
        // Broken input does not panic.
        assert!(run(&[("a.go", "x.New"), ("b.proto", "service {")]).is_empty());
    }
}
