//! Calls in a function body: route registrations (`r.GET(path, h)`),
//! groups and mounts, calls handing routers to other functions, and the
//! evaluation of router and string expressions (`v1 := r.Group("/v1")`,
//! `a.Accounts.router()`, `admin.NewAPI(db).Router()`).

use super::*;

impl Scanner<'_, '_> {
    /// Is `ty` one of the framework's own types (`*gin.RouterGroup`,
    /// `chi.Router`), judged by the package of its constructors?
    pub(super) fn is_framework_type(&self, ty: &str) -> bool {
        let (qual, _) = type_name(ty);
        qual.is_some_and(|q| {
            self.fw
                .constructors
                .iter()
                .chain(self.fw.context_types)
                .any(|c| c.trim_start_matches('*').split('.').next() == Some(q.as_str()))
        })
    }

    pub(super) fn call(
        &mut self,
        env: &mut Env,
        hints: &[(String, String)],
        open: usize,
        func: &mut Func,
    ) {
        let b = bytes(self.code);
        let Some(name_end) = prev_non_ws(self.code, open).map(|p| p + 1) else {
            return;
        };
        let mut name_start = name_end;
        while name_start > 0 && is_ident_byte(b[name_start - 1]) {
            name_start -= 1;
        }
        let name = &self.text()[name_start..name_end];
        if name == "func" {
            return;
        }
        // Receiver: the chain before `.name`.
        let mut k = name_start;
        while k > 0 && b[k - 1].is_ascii_whitespace() {
            k -= 1;
        }
        let dot = (k > 0 && b[k - 1] == b'.').then(|| k - 1);
        let recv_range = dot.map(|d| chain_start(self.code, d)..d);
        let Some(close) = self.code.matching(open) else {
            return;
        };
        let mut args = self.code.args(open);
        let pos = open;
        // `huma.Get(api, "/x", h)`: the router is the first argument.
        let mut router_arg = None;
        if let Some(rr) = &recv_range {
            let t = self.code.slice(rr.clone()).trim();
            if self.fw.router_arg_pkgs.contains(&t)
                && env.lookup(t, pos).is_none()
                && (self.fw.route_shape(name).is_some() || self.fw.groups.contains(&name))
                && !args.is_empty()
            {
                if let Some(v) = self.eval(env, args[0].clone(), pos, 0) {
                    router_arg = Some(v);
                    args.remove(0);
                }
            }
        }

        if let Some(recv_range) = recv_range.clone() {
            let recv_text = self.code.slice(recv_range.clone()).trim().to_string();
            let recv_val = match router_arg.clone() {
                Some(v) => Some(v),
                None => self.eval(env, recv_range.clone(), pos, 0),
            };
            let recv_val = match recv_val {
                Some(v) => Some(v),
                None if self.fw.package_routers.contains(&recv_text.as_str())
                    && env.lookup(&recv_text, pos).is_none() =>
                {
                    Some(RVal {
                        origin: Origin::Root,
                        prefix: StrExpr::default(),
                        guards: Vec::new(),
                    })
                }
                None => None,
            };
            let is_pkg = self.is_package(&recv_text) && env.lookup(&recv_text, pos).is_none();
            let recv_val = if is_pkg
                && router_arg.is_none()
                && !self.fw.package_routers.contains(&recv_text.as_str())
            {
                None
            } else {
                recv_val
            };
            if let Some(rv) = recv_val {
                if let Some(shape) = self.fw.route_shape(name) {
                    if let Some(route) = self.route(
                        env,
                        &rv,
                        recv_range.clone(),
                        shape,
                        name_start,
                        &args,
                        close,
                        pos,
                    ) {
                        // A route whose handler strips a prefix off a
                        // router mounts it (`http.StripPrefix("/api", api)`).
                        let handler_arg = args.last().cloned();
                        if let Some(h) = handler_arg {
                            if let Some(m) = self.strip_prefix_mount(env, &route, h, pos) {
                                // The mounted router's routes are reported,
                                // not the subtree pattern itself.
                                func.mounts.push(m);
                                return;
                            }
                        }
                        func.routes.push(route);
                    }
                    return;
                }
                if self.fw.groups.contains(&name) {
                    // Function-literal arguments receive the sub-router.
                    let prefix = args
                        .first()
                        .and_then(|a| self.str_arg(env, a, pos))
                        .unwrap_or_default();
                    let sub = RVal {
                        origin: rv.origin.clone(),
                        prefix: rv.prefix.concat(&prefix),
                        guards: self.with_guards(&rv.guards, args.get(1..).unwrap_or(&[])),
                    };
                    for a in &args {
                        if let Some(sig) = as_func_literal(self.code, a.clone()) {
                            if let Some((pname, _)) = sig.params.first() {
                                env.bind(
                                    pname,
                                    Val::Router(sub.clone()),
                                    sig.body_open,
                                    sig.body_close,
                                );
                            }
                        } else if let Some(callee) = self.func_ref_arg(env, a.clone(), pos) {
                            // A named callback (`api.PartyFunc("/x",
                            // routes.Comments)`) receives the sub-router.
                            func.calls.push(Call {
                                callee,
                                args: vec![Some(sub.clone())],
                            });
                        }
                    }
                    return;
                }
                if self.fw.mounts.contains(&name) && args.len() >= 2 {
                    let prefix = self.str_arg(env, &args[0], pos).unwrap_or_default();
                    if let Some(child) = self.eval(env, args[1].clone(), pos, 0) {
                        func.mounts.push(Mount {
                            parent: rv,
                            prefix,
                            child,
                        });
                    }
                    return;
                }
                // `r.Use(mw)` on a local router guards the routes
                // registered on it from here on.
                if name == "Use" && env.lookup(&recv_text, pos).is_some() {
                    let guards = self.with_guards(&rv.guards, &args);
                    if guards.len() > rv.guards.len() {
                        env.add_guards(&recv_text, pos, guards);
                    }
                    return;
                }
                let app_value = matches!(rv.origin, Origin::Param(_))
                    && self.foreign_params.contains(&recv_text)
                    && env.lookup(&recv_text, pos).is_some();
                if !app_value
                    && !matches!(
                        rv.origin,
                        Origin::Ret(_) | Origin::Global(..) | Origin::Field(_)
                    )
                {
                    // Another method on a router (`r.Use(mw)`).
                    return;
                }
            }
        }
        // A call passing routers to a function defined elsewhere.
        if args.is_empty() {
            return;
        }
        let mut any = false;
        let mut vals = Vec::new();
        for a in &args {
            let v = self.arg_router(env, a.clone(), pos);
            any |= v.is_some();
            vals.push(v);
        }
        if !any {
            return;
        }
        let callee = match &recv_range {
            Some(rr) => {
                let q = self.code.slice(rr.clone()).trim().to_string();
                if !q.bytes().all(|c| is_ident_byte(c) || c == b'.') {
                    return;
                }
                let hint = hint_for(hints, &q);
                FuncRef {
                    qual: Some(q),
                    name: name.to_string(),
                    hint,
                }
            }
            // `for _, f := range routers { f(v1) }`: every function put
            // in that slice (hint `[]routers`).
            None => FuncRef {
                qual: None,
                name: name.to_string(),
                hint: self
                    .range_loops
                    .iter()
                    .rev()
                    .find(|(v, _, r)| v == name && r.start < open && open < r.end)
                    .map(|(_, s, _)| format!("[]{s}")),
            },
        };
        if is_builtin(&callee) {
            return;
        }
        func.calls.push(Call { callee, args: vals });
    }

    /// A function named as a value (`routes.Comments`, `h.Routes`,
    /// `register`): not a string, call, literal or local non-function.
    pub(super) fn func_ref_arg(&self, env: &Env, r: Range<usize>, pos: usize) -> Option<FuncRef> {
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        if text.is_empty()
            || !text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || !text.bytes().all(|c| is_ident_byte(c) || c == b'.')
            || !self.code.is_code(r.start)
        {
            return None;
        }
        let (qual, name) = match text.rsplit_once('.') {
            Some((q, n)) => (Some(q.to_string()), n.to_string()),
            None => {
                if env.lookup(text, pos).is_some() || is_keyword(text) {
                    return None;
                }
                (None, text.to_string())
            }
        };
        let hint = qual.as_deref().and_then(|q| hint_for(&self.hints, q));
        Some(FuncRef { qual, name, hint })
    }

    /// A route or group path of a framework joining relative paths with a
    /// slash (`Group("user")` under `/api` is `/api/user`), made absolute.
    pub(super) fn rooted(&self, p: StrExpr) -> StrExpr {
        if !self.fw.relative_paths {
            return p;
        }
        match p.parts.first() {
            Some(Piece::Lit(s)) if !s.is_empty() && !s.starts_with('/') => {
                StrExpr::lit("/").concat(&p)
            }
            _ => p,
        }
    }

    /// An argument that is a router: a local router variable or a call
    /// whose result may be one, or a package-level/field router.
    pub(super) fn arg_router(&self, env: &Env, r: Range<usize>, pos: usize) -> Option<RVal> {
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        if text.is_empty() || text.starts_with('"') || text.starts_with('`') {
            return None;
        }
        if as_func_literal(self.code, r.clone()).is_some() {
            return None;
        }
        let v = self.eval(env, r, pos, 0)?;
        Some(v)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn route(
        &self,
        env: &Env,
        rv: &RVal,
        recv_range: Range<usize>,
        shape: Shape,
        name_start: usize,
        args: &[Range<usize>],
        close: usize,
        pos: usize,
    ) -> Option<Route> {
        if shape == Shape::Operation {
            let (methods, path) = self.operation(env, args.first()?.clone(), pos)?;
            // The handler follows the operation (`huma.Register(api, op,
            // h)`) or is its `Handler` field (`e.Router.AddRoute(
            // echo.Route{Method: …, Path: …, Handler: h})`).
            let handler_expr = match args.get(1) {
                Some(h) => h.clone(),
                None => self.keyword_value(args.first()?.clone(), "Handler")?,
            };
            let handler = self.handler_of(handler_expr, 0)?;
            return Some(Route {
                line: self.file.line_of(name_start),
                recv: rv.clone(),
                methods,
                path,
                pattern: false,
                controllers: false,
                handler,
                matched: Vec::new(),
            });
        }
        if shape == Shape::Controllers {
            // A local holding the controller (`ctrl := user.NewV1();
            // group.Bind(ctrl)`) stands for the expression it was assigned.
            let refs: Vec<FuncRef> = args
                .iter()
                .filter_map(|a| {
                    let text = self.code.slice(trim(self.code, a.clone()));
                    let local = text
                        .bytes()
                        .all(is_ident_byte)
                        .then(|| env.assigned_expr(text, pos))
                        .flatten();
                    self.controller(local.as_ref().unwrap_or(a))
                })
                .collect();
            if refs.is_empty() {
                return None;
            }
            return Some(Route {
                line: self.file.line_of(name_start),
                recv: rv.clone(),
                methods: Vec::new(),
                path: StrExpr::default(),
                pattern: false,
                controllers: true,
                handler: Handler::Refs(refs),
                matched: Vec::new(),
            });
        }
        let (methods, path_idx): (Vec<String>, Option<usize>) = match shape {
            Shape::Operation | Shape::Controllers => return None,
            Shape::Fixed(m) => (m.iter().map(|s| s.to_string()).collect(), Some(0)),
            Shape::MethodArg => (vec![self.method_value(args.first()?)?], Some(1)),
            Shape::MethodList => (self.method_list(args.first()?.clone()), Some(1)),
            Shape::Pattern => (Vec::new(), Some(0)),
            Shape::Chained => {
                let m = self.chained_methods(close + 1);
                (if m.is_empty() { vec!["GET".into()] } else { m }, Some(0))
            }
            Shape::Builder => {
                // `.Methods(…)` before the handler or after it
                // (`r.Path("/x").HandlerFunc(h).Methods("GET")`).
                let mut m = self.chained_methods_in(recv_range.clone());
                if m.is_empty() {
                    m = self.chained_methods(close + 1);
                }
                (if m.is_empty() { vec!["GET".into()] } else { m }, None)
            }
        };
        let path = match path_idx {
            Some(idx) => {
                // A route needs a path and a handler after it.
                if args.len() < idx + 2 {
                    return None;
                }
                let p = self.str_arg(env, &args[idx], pos)?;
                // A name holding a router or a request context
                // (`repo.Delete(ctx, id)` in a service method) is no path.
                if p.as_name().is_some_and(|n| {
                    matches!(
                        env.lookup(n, pos),
                        Some(Val::Router(_) | Val::Ctx | Val::Foreign)
                    )
                }) {
                    return None;
                }
                // `path, h := userv1connect.NewUserServiceHandler(svc);
                // mux.Handle(path, h)`: a Connect service (`go_connect_rpc`
                // reports its procedures), not a route at `/`.
                if p.as_name()
                    .is_some_and(|n| connect_path_var(self.code.text(), n))
                {
                    return None;
                }
                if let Some(lit) = p.literal() {
                    // `c.Get("X-Key", "default")` is not a route.
                    let path_like = lit.is_empty()
                        || lit.starts_with(['/', '*', ':'])
                        || (shape == Shape::Pattern && lit.contains(' '))
                        || (self.fw.relative_paths && relative_path(&lit));
                    if !path_like {
                        return None;
                    }
                }
                let handler = self.handler_arg(args, Some(idx))?;
                if self.code.string_at(handler.start).is_some() && !self.code.is_code(handler.start)
                {
                    return None;
                }
                self.rooted(p)
            }
            None => {
                if args.is_empty() {
                    return None;
                }
                StrExpr::default()
            }
        };
        let handler = self.handler_of(self.handler_arg(args, path_idx)?.clone(), 0)?;
        let matched = match shape {
            Shape::Chained => self.chained_matchers(close + 1),
            _ => Vec::new(),
        };
        Some(Route {
            line: self.file.line_of(name_start),
            recv: rv.clone(),
            methods,
            path,
            pattern: shape == Shape::Pattern,
            controllers: false,
            handler,
            matched,
        })
    }

    /// A controller value: `&Hello{}` / `new(pkg.Hello)` (that type),
    /// `user.NewV1()` / `controller.Hello` (any type of that package).
    pub(super) fn controller(&self, r: &Range<usize>) -> Option<FuncRef> {
        let text = self.code.slice(trim(self.code, r.clone()));
        let t = text.trim_start_matches('&').trim();
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
        let (head, is_type) = if let Some(inner) = t.strip_prefix("new(") {
            (inner.strip_suffix(')')?.trim(), true)
        } else if let Some(b) = t.find('{') {
            (t[..b].trim(), true)
        } else if let Some(p) = t.find('(') {
            (t[..p].trim(), false)
        } else {
            (t, false)
        };
        if head.is_empty() || !head.chars().all(word) {
            return None;
        }
        let (qual, name) = match head.rsplit_once('.') {
            Some((q, n)) => (Some(q.to_string()), n.to_string()),
            None => (None, head.to_string()),
        };
        Some(FuncRef {
            qual,
            name: if is_type { name } else { String::new() },
            hint: None,
        })
    }

    /// `huma.Operation{Method: http.MethodGet, Path: "/x/{id}", …}`.
    pub(super) fn operation(
        &self,
        env: &Env,
        r: Range<usize>,
        pos: usize,
    ) -> Option<(Vec<String>, StrExpr)> {
        let r = trim(self.code, r);
        let brace = self.code.slice(r.clone()).find('{')?;
        let mut method = None;
        let mut path = None;
        for arg in self.code.args(r.start + brace) {
            if let Some((key, value)) = self.code.keyword_arg(arg) {
                match key {
                    "Method" => method = self.method_value(&trim(self.code, value)),
                    "Path" => path = self.str_arg(env, &value, pos),
                    _ => {}
                }
            }
        }
        Some((vec![method.unwrap_or_else(|| "GET".into())], path?))
    }

    /// The value of field `key` in the composite literal at `r`.
    pub(super) fn keyword_value(&self, r: Range<usize>, key: &str) -> Option<Range<usize>> {
        let r = trim(self.code, r);
        let brace = self.code.slice(r.clone()).find('{')?;
        self.code
            .args(r.start + brace)
            .into_iter()
            .filter_map(|a| self.code.keyword_arg(a))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    pub(super) fn handler_arg<'r>(
        &self,
        args: &'r [Range<usize>],
        path_idx: Option<usize>,
    ) -> Option<&'r Range<usize>> {
        match path_idx {
            Some(i) if self.fw.handler_after_path => args.get(i + 1),
            _ => args.last(),
        }
    }

    /// `"GET"`, `http.MethodGet`, `fiber.MethodPost`.
    pub(super) fn method_value(&self, r: &Range<usize>) -> Option<String> {
        let text = self.code.slice(r.clone()).trim();
        if let Some(lit) = self.code.string_at(r.start) {
            if !self.code.is_code(r.start) {
                return Some(lit.value.to_ascii_uppercase());
            }
        }
        let last = text.rsplit('.').next().unwrap_or(text);
        let m = last.strip_prefix("Method")?;
        (!m.is_empty()).then(|| m.to_ascii_uppercase())
    }

    pub(super) fn method_list(&self, r: Range<usize>) -> Vec<String> {
        let text = self.code.slice(r.clone());
        let Some(brace) = text.find('{') else {
            return self.method_value(&r).into_iter().collect();
        };
        self.code
            .args(r.start + brace)
            .iter()
            .filter_map(|a| self.method_value(a))
            .collect()
    }

    /// The method calls chained after `after` (`.Name("x").Methods("GET")`):
    /// each method's name and the offset of its `(`, in order, up to the
    /// first thing that is not `.ident(…)`.
    fn chained_calls(&self, after: usize) -> Vec<(&str, usize)> {
        let b = bytes(self.code);
        let mut i = after;
        let mut out = Vec::new();
        loop {
            let j = skip_ws(self.code, i);
            if b.get(j) != Some(&b'.') {
                break;
            }
            let Some((name, e)) = ident_here(self.code, skip_ws(self.code, j + 1)) else {
                break;
            };
            let open = skip_ws(self.code, e);
            if b.get(open) != Some(&b'(') {
                break;
            }
            let Some(close) = self.code.matching(open) else {
                break;
            };
            out.push((name, open));
            i = close + 1;
        }
        out
    }

    /// `.Methods("GET", "POST")` (possibly after `.Name("x")`) following a
    /// gorilla/mux registration ending at `after`.
    pub(super) fn chained_methods(&self, after: usize) -> Vec<String> {
        self.chained_calls(after)
            .into_iter()
            .filter(|(name, _)| *name == "Methods")
            .flat_map(|(_, open)| {
                self.code
                    .args(open)
                    .iter()
                    .filter_map(|a| self.method_value(a))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Parameters required by gorilla/mux matchers following a
    /// registration ending at `after`: `.Queries("q", "{q}", "page", "")`
    /// (query) and `.Headers("X-Requested-With", "XMLHttpRequest")`
    /// (header); the names are the pairs' first halves.
    pub(super) fn chained_matchers(&self, after: usize) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        for (name, open) in self.chained_calls(after) {
            let kind = match name {
                "Queries" => ParamKind::Query,
                "Headers" => ParamKind::Header,
                _ => continue,
            };
            for a in self.code.args(open).iter().step_by(2) {
                if let Some(n) = self.literal_arg(a).filter(|n| !n.is_empty()) {
                    if !out.iter().any(|p| p.name == n) {
                        out.push(Param::new(kind, n));
                    }
                }
            }
        }
        out
    }

    /// `.Methods(…)` calls inside a builder chain.
    pub(super) fn chained_methods_in(&self, r: Range<usize>) -> Vec<String> {
        let mut out = Vec::new();
        // Only the receiver chain's own text: linear in the route, not the file.
        let text = self.code.slice(r.clone());
        for (i, _) in text.match_indices(".Methods(") {
            let at = r.start + i;
            if self.code.is_code(at) {
                let open = at + ".Methods".len();
                out.extend(
                    self.code
                        .args(open)
                        .iter()
                        .filter_map(|a| self.method_value(a)),
                );
            }
        }
        out
    }

    pub(super) fn strip_prefix_mount(
        &self,
        env: &Env,
        route: &Route,
        h: Range<usize>,
        pos: usize,
    ) -> Option<Mount> {
        let h = trim(self.code, h);
        let text = self.code.slice(h.clone());
        let paren = text.find('(')?;
        let callee: String = text[..paren]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if !self.fw.strip_prefix.contains(&callee.as_str()) {
            return None;
        }
        let args = self.code.args(h.start + paren);
        let prefix = self.str_arg(env, args.first()?, pos)?;
        let child = self.eval(env, args.get(1)?.clone(), pos, 0)?;
        if !matches!(
            child.origin,
            Origin::New(_) | Origin::Param(_) | Origin::Ret(_)
        ) {
            return None;
        }
        // `http.StripPrefix("/static/", http.FileServer(dir))`: a file
        // server, not a router; the pattern itself is the route.
        if matches!(&child.origin, Origin::Ret(f) if f.qual.as_deref() == Some("http")) {
            return None;
        }
        Some(Mount {
            parent: route.recv.clone(),
            prefix,
            child,
        })
    }

    /// What handles a route given its handler argument.
    pub(super) fn handler_of(&self, r: Range<usize>, depth: usize) -> Option<Handler> {
        if depth > 4 {
            return None;
        }
        let r = trim(self.code, r);
        if let Some(sig) = as_func_literal(self.code, r.clone()) {
            let body = sig.body_open..sig.body_close + 1;
            let mut hints: Vec<(String, String)> = sig
                .params
                .iter()
                .map(|(n, t)| (n.clone(), type_name(t).1))
                .collect();
            hints.extend(var_hints(self.code, body.clone()));
            return Some(Handler::Inline(self.reads(body, &hints)));
        }
        let mut refs = Vec::new();
        self.handler_refs(r.clone(), depth, &mut refs);
        // `Guard(func(c *fiber.Ctx) error { … })`: a function literal
        // wrapped by middleware reads what its body reads, plus what the
        // wrappers read.
        if let Some(sig) = self.wrapped_literal(r, 0) {
            let body = sig.body_open..sig.body_close + 1;
            let mut hints: Vec<(String, String)> = sig
                .params
                .iter()
                .map(|(n, t)| (n.clone(), type_name(t).1))
                .collect();
            hints.extend(var_hints(self.code, body.clone()));
            let mut reads = self.reads(body, &hints);
            for f in refs {
                if !reads.helpers.contains(&f) {
                    reads.helpers.push(f);
                }
            }
            return Some(Handler::Inline(reads));
        }
        Some(Handler::Refs(refs))
    }

    /// The function literal passed (possibly through nested calls) to the
    /// call at `r`: `auth(log(func(w, r) { … }))`.
    pub(super) fn wrapped_literal(&self, r: Range<usize>, depth: usize) -> Option<Signature> {
        if depth > 4 {
            return None;
        }
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        let paren = text.find('(')?;
        if !text[..paren]
            .bytes()
            .all(|c| is_ident_byte(c) || c == b'.' || c.is_ascii_whitespace())
        {
            return None;
        }
        for a in self.code.args(r.start + paren) {
            if let Some(sig) = as_func_literal(self.code, a.clone()) {
                return Some(sig);
            }
            if let Some(sig) = self.wrapped_literal(a, depth + 1) {
                return Some(sig);
            }
        }
        None
    }

    /// `guards` plus the middleware named among `args` (function values
    /// and factory calls; literals and strings are not middleware we can
    /// follow).
    pub(super) fn with_guards(&self, guards: &[FuncRef], args: &[Range<usize>]) -> Vec<FuncRef> {
        let mut out = guards.to_vec();
        for a in args {
            if as_func_literal(self.code, a.clone()).is_some() {
                continue;
            }
            let mut refs = Vec::new();
            self.handler_refs(a.clone(), 0, &mut refs);
            for r in refs {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        out
    }

    pub(super) fn handler_refs(&self, r: Range<usize>, depth: usize, out: &mut Vec<FuncRef>) {
        if depth > 4 {
            return;
        }
        let r = trim(self.code, r);
        let text = self.code.slice(r.clone());
        let b = bytes(self.code);
        if text.is_empty() || !b.get(r.start).copied().is_some_and(is_ident_start) {
            return;
        }
        // The callee or name: a selector chain up to the first `(`.
        let mut i = r.start;
        let mut dotted = String::new();
        while let Some((n, e)) = ident_here(self.code, i) {
            if !dotted.is_empty() {
                dotted.push('.');
            }
            dotted.push_str(n);
            let j = skip_ws(self.code, e);
            if b.get(j) == Some(&b'.') {
                i = skip_ws(self.code, j + 1);
            } else {
                i = j;
                break;
            }
        }
        if dotted.is_empty() {
            return;
        }
        let fr = match dotted.rsplit_once('.') {
            Some((q, n)) => FuncRef {
                qual: Some(q.to_string()),
                name: n.to_string(),
                hint: hint_for(&self.hints, q),
            },
            None => FuncRef {
                qual: None,
                name: dotted.clone(),
                hint: None,
            },
        };
        out.push(fr);
        if b.get(i) == Some(&b'(') && i < r.end {
            for a in self.code.args(i) {
                if let Some(sig) = as_func_literal(self.code, a.clone()) {
                    let _ = sig;
                    continue;
                }
                self.handler_refs(a, depth + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(src: &str, fw: &Framework) -> Vec<(Vec<String>, String, String)> {
        let f = scan_file(&SourceFile::new("routes.go", src), fw);
        f.funcs
            .iter()
            .flat_map(|x| x.routes.iter())
            .map(|r| {
                (
                    r.methods.clone(),
                    r.recv.prefix.literal().unwrap_or_default(),
                    r.path.literal().unwrap_or_default(),
                )
            })
            .collect()
    }

    const GROUPS: &str = "package r\n\nfunc Init(r *gin.Engine) {\n\tapi := r.Group(\"api\")\n\tapi.GET(\"list\", h)\n\tapi.POST(\"/create\", h)\n}\n";

    #[test]
    fn relative_paths_where_the_framework_joins_them() {
        assert_eq!(
            routes(GROUPS, &crate::gin::FRAMEWORK),
            vec![
                (
                    vec!["GET".to_string()],
                    "/api".to_string(),
                    "/list".to_string()
                ),
                (
                    vec!["POST".to_string()],
                    "/api".to_string(),
                    "/create".to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_header_lookup_is_not_a_route() {
        let src = "package r\n\nfunc H(c *fiber.Ctx) error {\n\tkey := c.Get(\"X-Key\", \"none\")\n\treturn nil\n}\n";
        assert!(routes(src, &crate::fiber::FRAMEWORK).is_empty());
    }

    #[test]
    fn methods_of_fields_return_routers() {
        let src = "package api\n\nfunc (a *API) Router() *chi.Mux {\n\tr := chi.NewRouter()\n\tr.Mount(\"/books\", a.Books.router())\n\treturn r\n}\n";
        let f = scan_file(&SourceFile::new("api.go", src), &crate::chi::FRAMEWORK);
        let m = &f.funcs[0].mounts[0];
        match &m.child.origin {
            Origin::Ret(r) => {
                assert_eq!(r.qual.as_deref(), Some("a.Books"));
                assert_eq!(r.name, "router");
                assert_eq!(r.hint.as_deref(), Some("API.Books"));
            }
            o => panic!("{o:?}"),
        }
    }
}
