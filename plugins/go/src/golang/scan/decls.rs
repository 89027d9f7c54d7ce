//! The top level of a Go file: function and method declarations,
//! package-level `const`/`var` declarations (string constants, router
//! variables, typed handler variables) and `type` declarations.

use super::*;

impl Scanner<'_, '_> {
    pub(super) fn top_level(&mut self, out: &mut GoFile) {
        let b = bytes(self.code);
        let mut i = 0;
        let mut line_start = true;
        while i < b.len() {
            let c = b[i];
            if c == b'\n' {
                line_start = true;
                i += 1;
                continue;
            }
            if c == b' ' || c == b'\t' || c == b'\r' || !self.code.is_code(i) {
                if !self.code.is_code(i) && !self.code.is_comment(i) {
                    line_start = false;
                }
                i += 1;
                continue;
            }
            if !line_start {
                // Skip bracketed groups we are not interested in.
                if matches!(c, b'(' | b'[' | b'{') {
                    i = self.code.matching(i).map_or(i + 1, |e| e + 1);
                } else {
                    i += 1;
                }
                continue;
            }
            line_start = false;
            let Some((word, end)) = ident_here(self.code, i) else {
                i += 1;
                continue;
            };
            i = match word {
                "package" => {
                    if let Some((name, e)) = ident_here(self.code, skip_ws(self.code, end)) {
                        out.package = name.to_string();
                        e
                    } else {
                        end
                    }
                }
                "import" => self.imports_at(end),
                "func" => self.func_decl(i, end, out),
                "const" | "var" => self.value_decls(end, word == "var", out),
                "type" => self.type_decls(end, out),
                _ => end,
            };
        }
    }

    pub(super) fn imports_at(&mut self, after: usize) -> usize {
        let b = bytes(self.code);
        let start = skip_ws(self.code, after);
        let (range, next) = if b.get(start) == Some(&b'(') {
            let close = self.code.matching(start).unwrap_or(b.len());
            (start + 1..close, close + 1)
        } else {
            let end = statement_end(self.code, start, b.len());
            (start..end, end)
        };
        for line in self.code.split_top_level(range.start, range.end, b'\n') {
            for spec in self.code.split_top_level(line.start, line.end, b';') {
                let lit_at = self.code.text()[spec.clone()]
                    .find(['"', '`'])
                    .map(|p| spec.start + p);
                let Some(lit_at) = lit_at else { continue };
                let Some(lit) = self.code.string_at(lit_at) else {
                    continue;
                };
                let alias = self.code.slice(spec.start..lit_at).trim().to_string();
                self.imports.push(Import {
                    alias: (!alias.is_empty()).then_some(alias),
                    path: lit.value,
                });
            }
        }
        next.min(b.len())
    }

    /// `func (recv) Name[T any](params) results { body }` at `at`.
    pub(super) fn func_decl(&mut self, at: usize, after_kw: usize, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let mut i = skip_ws(self.code, after_kw);
        let mut recv = None;
        let mut recv_name = None;
        if b.get(i) == Some(&b'(') {
            let Some(close) = self.code.matching(i) else {
                return after_kw;
            };
            let params = parse_params(self.code, i + 1, close);
            if let Some((name, ty)) = params.first() {
                recv = Some(type_name(ty).1);
                recv_name = Some(name.clone());
            }
            i = skip_ws(self.code, close + 1);
        }
        let Some((name, end)) = ident_here(self.code, i) else {
            return after_kw;
        };
        let name = name.to_string();
        let mut open = skip_ws(self.code, end);
        if b.get(open) == Some(&b'[') {
            match self.code.matching(open) {
                Some(close) => open = skip_ws(self.code, close + 1),
                None => return end,
            }
        }
        let Some(sig) = signature_at(self.code, open) else {
            return end;
        };
        let _ = at;
        let mut func = Func {
            name,
            recv: recv.clone(),
            ..Func::default()
        };
        let mut receiver_binding = None;
        if let (Some(n), Some(t)) = (recv_name, recv) {
            if !n.is_empty() {
                receiver_binding = Some((n, t));
            }
        }
        self.body(&sig, receiver_binding, &mut func);
        out.funcs.push(func);
        sig.body_close + 1
    }

    /// Function literals in a package-level initializer (GoFrame's
    /// `var Main = gcmd.Command{Func: func(ctx …) error { s := g.Server() … }}`)
    /// are scanned as functions of their own.
    pub(super) fn var_literals(&mut self, var: &str, value: Range<usize>, out: &mut GoFile) {
        let lits = func_literals(self.code, value);
        for (i, (at, sig)) in lits.iter().enumerate() {
            let nested = lits
                .iter()
                .any(|(o, l)| o != at && l.body_open < *at && *at < l.body_close);
            if nested {
                continue;
            }
            let mut func = Func {
                name: format!("{var}$func{i}"),
                ..Func::default()
            };
            self.body(sig, None, &mut func);
            out.funcs.push(func);
        }
    }

    /// `const X = …`, `var ( … )`: string constants and router variables.
    pub(super) fn value_decls(&mut self, after_kw: usize, is_var: bool, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let start = skip_ws(self.code, after_kw);
        let (specs, next) = if b.get(start) == Some(&b'(') {
            let close = self.code.matching(start).unwrap_or(b.len());
            (
                self.code.split_top_level(start + 1, close, b'\n'),
                close + 1,
            )
        } else {
            let end = statement_end(self.code, start, b.len());
            (std::iter::once(start..end).collect::<Vec<_>>(), end)
        };
        let env = Env::default();
        for spec in specs {
            for spec in self.code.split_top_level(spec.start, spec.end, b';') {
                let Some(eq) = find_assign_op(self.code, spec.clone()) else {
                    continue;
                };
                let names: Vec<String> = self
                    .code
                    .split_top_level(spec.start, eq, b',')
                    .into_iter()
                    .filter_map(|r| ident_here(self.code, r.start).map(|(n, _)| n.to_string()))
                    .collect();
                let values = self.code.split_top_level(eq + 1, spec.end, b',');
                if names.len() != values.len() {
                    continue;
                }
                for (name, value) in names.iter().zip(values) {
                    if is_var {
                        if let Some(h) = self.var_hint(value.clone()) {
                            out.var_hints.push((name.clone(), h));
                        }
                    }
                    if let Some(e) = crate::golang::strexpr::parse(self.code, value.clone()) {
                        out.consts.push((name.clone(), e));
                    } else if is_var {
                        if let Some(val) = self.eval(&env, value.clone(), value.start, 0) {
                            out.globals.push(Assign {
                                target: Origin::Global(None, name.clone()),
                                val,
                            });
                        } else {
                            self.var_literals(name, value.clone(), out);
                        }
                    }
                }
            }
        }
        next.min(b.len())
    }

    /// The type of a package-level variable's value, as a method hint:
    /// `new(pkg.T)` / `&T{}` (`pkg:T` / `T`), or a selector chain ending in
    /// an exported field (`api.Groups.System.UserApi` → `api:UserApi`: the
    /// type's name when the field is embedded, the usual way Go apps
    /// group their handler structs, and the package the chain starts from,
    /// whose methods are the candidates when no type has that name).
    pub(super) fn var_hint(&self, value: Range<usize>) -> Option<String> {
        if let Some(TypeRef::Named { qual, name }) = composite_type(self.code, value.clone()) {
            return Some(match qual {
                Some(q) => format!("{q}:{name}"),
                None => name,
            });
        }
        let text = self.code.slice(trim(self.code, value));
        let (head, last) = text.rsplit_once('.')?;
        let chain_ok = text.bytes().all(|b| is_ident_byte(b) || b == b'.');
        if !chain_ok || !head.contains('.') || !last.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let first = head.split('.').next().unwrap_or(head);
        Some(format!("{first}:{last}"))
    }

    /// `type X struct { … }` (also inside `type ( … )`).
    pub(super) fn type_decls(&mut self, after_kw: usize, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let start = skip_ws(self.code, after_kw);
        if b.get(start) == Some(&b'(') {
            let close = self.code.matching(start).unwrap_or(b.len());
            let mut i = start + 1;
            while i < close {
                i = skip_ws(self.code, i);
                if i >= close {
                    break;
                }
                i = self.type_spec(i, out).max(i + 1);
            }
            return (close + 1).min(b.len());
        }
        self.type_spec(start, out)
    }

    pub(super) fn type_spec(&mut self, at: usize, out: &mut GoFile) -> usize {
        let b = bytes(self.code);
        let Some((name, end)) = ident_here(self.code, at) else {
            return statement_end(self.code, at, b.len());
        };
        let mut i = skip_ws(self.code, end);
        if b.get(i) == Some(&b'[') {
            if let Some(c) = self.code.matching(i) {
                i = skip_ws(self.code, c + 1);
            }
        }
        if let Some((kw, kw_end)) = ident_here(self.code, i) {
            if kw == "struct" {
                let open = skip_ws(self.code, kw_end);
                if b.get(open) == Some(&b'{') {
                    if let Some(close) = self.code.matching(open) {
                        out.structs.push(Struct {
                            name: name.to_string(),
                            line: self.file.line_of(at),
                            fields: struct_fields(self.code, open, close),
                        });
                        return close + 1;
                    }
                }
            }
        }
        statement_end(self.code, i, b.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(src: &str) -> GoFile {
        scan_file(
            &SourceFile::new("router/enter.go", src),
            &crate::gin::FRAMEWORK,
        )
    }

    #[test]
    fn package_variables_give_constants_and_type_hints() {
        let f = scan(
            "package router\n\nconst base = \"/api\"\n\nvar (\n\titemApi = handler.All.Stock.ItemHandler\n\tcfg     = new(conf.Settings)\n\tcount   = 3\n)\n",
        );
        assert_eq!(f.package, "router");
        assert!(f
            .consts
            .iter()
            .any(|(n, e)| n == "base" && e.literal().as_deref() == Some("/api")));
        assert!(f
            .var_hints
            .contains(&("itemApi".to_string(), "handler:ItemHandler".to_string())));
        assert!(f
            .var_hints
            .contains(&("cfg".to_string(), "conf:Settings".to_string())));
        assert!(!f.var_hints.iter().any(|(n, _)| n == "count"));
    }

    #[test]
    fn methods_and_structs() {
        let f = scan(
            "package shop\n\ntype Order struct {\n\tID int `json:\"id\"`\n}\n\nfunc (r *OrderRouter) Init(g *gin.RouterGroup) {\n\tg.GET(\"/x\", h)\n}\n",
        );
        assert_eq!(f.structs.len(), 1);
        assert_eq!(f.structs[0].name, "Order");
        let init = f.funcs.iter().find(|x| x.name == "Init").expect("Init");
        assert_eq!(init.recv.as_deref(), Some("OrderRouter"));
        assert_eq!(init.routes.len(), 1);
    }
}
