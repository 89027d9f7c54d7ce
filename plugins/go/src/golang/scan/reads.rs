//! What a handler reads from the request: the framework's accessor table
//! (`c.Query("q")`, `json.NewDecoder(r.Body).Decode(&v)`) matched against
//! normalised receiver chains, struct binds, helpers handed the context and
//! names read through constants.

use super::*;

impl Scanner<'_, '_> {
    // ------------------------------------------------------------ reads

    /// What the code in `body` reads from the request through the
    /// framework's accessors.
    pub(super) fn reads(&self, body: Range<usize>, hints: &[(String, String)]) -> Reads {
        let mut reads = Reads::default();
        if let Some((idx, kind)) = self.fw.param_bind {
            if let Some((_, ty)) = self.enclosing_params(body.clone()).get(idx) {
                if let Some(ty) = param_type_ref(ty) {
                    reads.binds.push(Bind { kind, ty });
                }
            }
        }
        let mut ctx: Vec<String> = self.context_names(body.clone());
        let wrappers = self.request_wrappers(body.clone(), &ctx);
        if ctx.is_empty() && wrappers.is_empty() {
            return reads;
        }
        let aliases = self.aliases(body.clone(), &ctx, &wrappers);
        // Helpers called with a wrapper get the request too.
        ctx.extend(wrappers.iter().cloned());
        let b = bytes(self.code);
        let mut types = var_types(self.code, body.clone());
        // The method's receiver (`func (v *LoginValidator) Bind(c)`
        // binding `v`): a typed value like a local one.
        if let Some((n, t)) = &self.receiver {
            types.insert(
                0,
                (
                    n.clone(),
                    TypeRef::Named {
                        qual: None,
                        name: t.clone(),
                    },
                ),
            );
        }
        let mut i = body.start;
        while i < body.end.min(b.len()) {
            let c = b[i];
            if !self.code.is_code(i) || (c != b'(' && c != b'[') {
                i += 1;
                continue;
            }
            if c == b'[' {
                self.index_read(i, &ctx, &wrappers, &aliases, &mut reads);
                i += 1;
                continue;
            }
            let Some(mut p) = prev_non_ws(self.code, i) else {
                i += 1;
                continue;
            };
            // A generic instantiation: `fiber.Query[int](c, "limit")`.
            if b[p] == b']' {
                if let Some(q) = type_args_open(b, p).and_then(|o| prev_non_ws(self.code, o)) {
                    p = q;
                }
            }
            if !is_ident_byte(b[p]) {
                i += 1;
                continue;
            }
            let mut s = p;
            while s > 0 && is_ident_byte(b[s - 1]) {
                s -= 1;
            }
            let method = &self.text()[s..=p];
            let mut k = s;
            while k > 0 && b[k - 1].is_ascii_whitespace() {
                k -= 1;
            }
            let args = self.code.args(i);
            if k > 0 && b[k - 1] == b'.' {
                let start = chain_start(self.code, k - 1);
                let chain = normalize(
                    &unwrap_requests(&compact(self.code, start..k - 1), &wrappers),
                    &ctx,
                    &aliases,
                );
                // A request-scoped builder made from the context and
                // binding the request (`e.MakeContext(c).MakeOrm().Bind(&req)`):
                // the context's own bind of that name.
                let builder = chain.contains("({})") && !chain.starts_with("{}");
                for rd in self.fw.reads {
                    let via_builder =
                        builder && rd.chain == "{}" && matches!(rd.kind, ReadKind::Bind(_));
                    if !(chain_matches(rd.chain, &chain) || via_builder) || rd.method != method {
                        continue;
                    }
                    let ReadArg::Arg(n) = rd.arg else { continue };
                    let Some(a) = args.get(n) else { continue };
                    match rd.kind {
                        ReadKind::Param(kind) => {
                            if let Some(lit) = self.literal_arg(a) {
                                if kind == ParamKind::Form && rd.method == "FormValue" {
                                    if !reads.form_values.contains(&lit) {
                                        reads.form_values.push(lit);
                                    }
                                } else {
                                    push_param(&mut reads.params, Param::new(kind, lit));
                                }
                            } else if let Some(e) =
                                crate::golang::strexpr::parse(self.code, a.clone())
                            {
                                // A name held in a constant, resolved later.
                                let entry = (kind, e);
                                if rd.method != "FormValue" && !reads.named.contains(&entry) {
                                    reads.named.push(entry);
                                }
                            }
                        }
                        ReadKind::Bind(kind) => {
                            let var = self.code.slice(a.clone()).trim().trim_start_matches('&');
                            // A helper binding into its own `any` parameter.
                            let own = self
                                .enclosing_params(body.clone())
                                .iter()
                                .position(|(n, t)| n == var && is_any_type(t))
                                .map(TypeRef::Param);
                            let ty = own.or_else(|| {
                                types
                                    .iter()
                                    .rev()
                                    .find(|(n, _)| n == var)
                                    .map(|(_, t)| t.clone())
                            });
                            if let Some(ty) = ty {
                                let bind = Bind { kind, ty };
                                if !reads.binds.contains(&bind) {
                                    reads.binds.push(bind);
                                }
                            }
                        }
                    }
                }
                // A helper called with the context: `bindPage(c)`.
                let chain_text = compact(self.code, start..k - 1);
                if !ctx.contains(&chain_text)
                    && args
                        .iter()
                        .any(|a| ctx.iter().any(|c| self.code.slice(a.clone()).trim() == c))
                    && chain_text.bytes().all(|c| is_ident_byte(c) || c == b'.')
                {
                    let fr = FuncRef {
                        qual: Some(chain_text.clone()),
                        name: method.to_string(),
                        hint: hint_for(hints, &chain_text),
                    };
                    self.helper_args(&fr, &args, &types, &mut reads);
                    if !reads.helpers.contains(&fr) {
                        reads.helpers.push(fr);
                    }
                }
            } else if !is_keyword(method)
                && args
                    .iter()
                    .any(|a| ctx.iter().any(|c| self.code.slice(a.clone()).trim() == c))
            {
                let fr = FuncRef {
                    qual: None,
                    name: method.to_string(),
                    hint: None,
                };
                self.helper_args(&fr, &args, &types, &mut reads);
                if !reads.helpers.contains(&fr) {
                    reads.helpers.push(fr);
                }
            }
            i += 1;
        }
        reads
    }

    /// The typed values (`req`, `&req`, `&dto.X{}`) passed to a helper
    /// called with the request context.
    pub(super) fn helper_args(
        &self,
        fr: &FuncRef,
        args: &[Range<usize>],
        types: &[(String, TypeRef)],
        reads: &mut Reads,
    ) {
        for (n, a) in args.iter().enumerate() {
            let text = self.code.slice(a.clone()).trim().trim_start_matches('&');
            let ty = if !text.is_empty() && text.bytes().all(is_ident_byte) {
                types
                    .iter()
                    .rev()
                    .find(|(v, _)| v == text)
                    .map(|(_, t)| t.clone())
            } else if text.ends_with('}') {
                composite_type(self.code, a.clone())
            } else {
                None
            };
            let Some(ty) = ty else { continue };
            if matches!(&ty, TypeRef::Named { name, .. } if is_any_type(name)) {
                continue;
            }
            let entry = (fr.clone(), n, ty);
            if !reads.helper_args.contains(&entry) {
                reads.helper_args.push(entry);
            }
        }
    }

    pub(super) fn literal_arg(&self, a: &Range<usize>) -> Option<String> {
        crate::golang::strexpr::parse(self.code, a.clone())?.literal()
    }

    /// `mux.Vars(r)["id"]`, `vars["id"]`, `r.URL.Query()["tags"]`.
    pub(super) fn index_read(
        &self,
        open: usize,
        ctx: &[String],
        wrappers: &[String],
        aliases: &[(String, String)],
        reads: &mut Reads,
    ) {
        let b = bytes(self.code);
        let Some(p) = prev_non_ws(self.code, open) else {
            return;
        };
        if !(is_ident_byte(b[p]) || b[p] == b')') {
            return;
        }
        let start = chain_start(self.code, p + 1);
        let chain = normalize(
            &unwrap_requests(&compact(self.code, start..p + 1), wrappers),
            ctx,
            aliases,
        );
        let Some(close) = self.code.matching(open) else {
            return;
        };
        for rd in self.fw.reads {
            if rd.arg != ReadArg::Index || rd.chain != chain {
                continue;
            }
            if let (ReadKind::Param(kind), Some(lit)) =
                (rd.kind, self.literal_arg(&(open + 1..close)))
            {
                push_param(&mut reads.params, Param::new(kind, lit));
            }
        }
    }

    /// Parameters (receiver excluded) of the function or literal whose
    /// body is `body`.
    pub(super) fn enclosing_params(&self, body: Range<usize>) -> Vec<(String, String)> {
        let search_from = self.signature_window(body.start);
        let head = self.text().get(search_from..body.start).unwrap_or("");
        let Some(f) = head.rfind("func") else {
            return Vec::new();
        };
        let b = bytes(self.code);
        let open = skip_ws(self.code, search_from + f + 4);
        let mut found = Vec::new();
        if b.get(open) == Some(&b'(') {
            if let Some(sig) = signature_at(self.code, open) {
                if sig.body_open == body.start {
                    found = sig.params;
                }
            }
            if let Some(c) = self.code.matching(open) {
                if let Some((_, e)) = ident_here(self.code, skip_ws(self.code, c + 1)) {
                    if let Some(sig) = signature_at(self.code, skip_ws(self.code, e)) {
                        if sig.body_open == body.start {
                            found = sig.params;
                        }
                    }
                }
            }
        } else if let Some((_, e)) = ident_here(self.code, open) {
            let mut o = skip_ws(self.code, e);
            if b.get(o) == Some(&b'[') {
                o = self
                    .code
                    .matching(o)
                    .map_or(o, |c| skip_ws(self.code, c + 1));
            }
            if let Some(sig) = signature_at(self.code, o) {
                if sig.body_open == body.start {
                    found = sig.params;
                }
            }
        }
        found
    }

    /// Where to look back for the `func` keyword of the function whose body
    /// opens at `body_start`: the last 400 bytes, or the last 4000 when
    /// those hold none (a parameter of an inline struct type with tagged
    /// fields, Huma's `input *struct { … }`, is long).
    fn signature_window(&self, body_start: usize) -> usize {
        let near = window_start(self.text(), body_start, 400);
        let head = self.text().get(near..body_start).unwrap_or("");
        if head.contains("func") {
            near
        } else {
            window_start(self.text(), body_start, 4000)
        }
    }

    /// Names of request-context parameters declared in `body`'s function
    /// and the function literals inside it.
    pub(super) fn context_names(&self, body: Range<usize>) -> Vec<String> {
        let mut out = Vec::new();
        // The enclosing signature: walk back from the body to `func`.
        let search_from = self.signature_window(body.start);
        let head = self.text().get(search_from..body.start).unwrap_or("");
        if let Some(f) = head.rfind("func") {
            let at = search_from + f;
            let mut open = skip_ws(self.code, at + 4);
            let b = bytes(self.code);
            if b.get(open) == Some(&b'(') {
                // A method receiver, then the name.
                if let Some(sig) = signature_at(self.code, open) {
                    if sig.body_open == body.start {
                        collect_ctx(self.fw, &sig.params, &mut out);
                        if self.fw.receiver_context {
                            for (n, _) in &sig.params {
                                if !n.is_empty() && !out.contains(n) {
                                    out.push(n.clone());
                                }
                            }
                        }
                    }
                }
                if let Some(c) = self.code.matching(open) {
                    open = skip_ws(self.code, c + 1);
                    if let Some((_, e)) = ident_here(self.code, open) {
                        let o = skip_ws(self.code, e);
                        if let Some(sig) = signature_at(self.code, o) {
                            if sig.body_open == body.start {
                                collect_ctx(self.fw, &sig.params, &mut out);
                            }
                        }
                    }
                }
            } else if let Some((_, e)) = ident_here(self.code, open) {
                let mut o = skip_ws(self.code, e);
                if b.get(o) == Some(&b'[') {
                    o = self
                        .code
                        .matching(o)
                        .map_or(o, |c| skip_ws(self.code, c + 1));
                }
                if let Some(sig) = signature_at(self.code, o) {
                    if sig.body_open == body.start {
                        collect_ctx(self.fw, &sig.params, &mut out);
                    }
                }
            }
        }
        for (_, lit) in func_literals(self.code, body) {
            collect_ctx(self.fw, &lit.params, &mut out);
        }
        out
    }

    /// Parameters of an application's own context type wrapping the
    /// `*http.Request` (`func h(deps Deps, c WebContext)` reading
    /// `c.Request().PathValue("id")`): their `.Request()` is the request.
    /// Only for frameworks whose handlers take `*http.Request`, and only
    /// parameters that are not contexts already.
    pub(super) fn request_wrappers(&self, body: Range<usize>, ctx: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if !self.fw.context_types.contains(&"*http.Request") {
            return out;
        }
        let text = self.code.slice(body.clone());
        if !text.contains(".Request()") {
            return out;
        }
        let mut params = self.enclosing_params(body.clone());
        for (_, lit) in func_literals(self.code, body) {
            params.extend(lit.params);
        }
        for (n, t) in params {
            if n.is_empty() || ctx.contains(&n) || out.contains(&n) || self.fw.is_context_type(&t) {
                continue;
            }
            let needle = format!("{n}.Request()");
            let used = text.match_indices(&needle).any(|(i, _)| {
                i == 0
                    || !text
                        .as_bytes()
                        .get(i - 1)
                        .copied()
                        .is_some_and(|c| is_ident_byte(c) || c == b'.')
            });
            if used {
                out.push(n);
            }
        }
        out
    }

    /// `q := r.URL.Query()`, `vars := mux.Vars(r)`: variables standing for
    /// an accessor expression on a context.
    pub(super) fn aliases(
        &self,
        body: Range<usize>,
        ctx: &[String],
        wrappers: &[String],
    ) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for at in self.code.find_all_in(":=", body.clone()) {
            if at < body.start || at >= body.end {
                continue;
            }
            let Some(mut name) = self.code.ident_before(at) else {
                continue;
            };
            // `body, _ := io.ReadAll(r.Body)`: the first name.
            if name == "_" {
                let before = self.text()[..at].trim_end();
                let before = before[..before.len() - 1].trim_end();
                match before
                    .strip_suffix(',')
                    .and_then(|b| self.code.ident_before(b.len()))
                {
                    Some(n) => name = n,
                    None => continue,
                }
            }
            let end = statement_end(self.code, at + 2, body.end);
            let norm = normalize(
                &unwrap_requests(&compact(self.code, at + 2..end), wrappers),
                ctx,
                &out,
            );
            if norm.contains("{}") && !ctx.iter().any(|c| c == name) {
                out.push((name.to_string(), norm));
            }
        }
        out
    }
}

pub(super) fn push_param(params: &mut Vec<Param>, p: Param) {
    if !params.iter().any(|q| q.name == p.name && q.kind == p.kind) && !p.name.is_empty() {
        params.push(p);
    }
}

pub(super) fn collect_ctx(fw: &Framework, params: &[(String, String)], out: &mut Vec<String>) {
    for (n, t) in params {
        if !n.is_empty() && fw.is_context_type(t) && !out.contains(n) {
            out.push(n.clone());
        }
    }
}

/// Does a compacted, normalized chain match an accessor table chain? A
/// JSON decoder matches on the request body it reads, through any reader
/// wrapping it (`json.NewDecoder(io.LimitReader(r.Body, n))`, or a copy of
/// the body: `b, _ := io.ReadAll(r.Body)` then `bytes.NewReader(b)`).
pub(super) fn chain_matches(table: &str, chain: &str) -> bool {
    if table == chain {
        return true;
    }
    const DECODER: &str = "json.NewDecoder(";
    match (
        table
            .strip_prefix(DECODER)
            .and_then(|t| t.strip_suffix(')')),
        chain.strip_prefix(DECODER),
    ) {
        (Some(body), Some(arg)) => body.ends_with(".Body") && arg.contains(body),
        _ => false,
    }
}

/// `c.Request()` on a request wrapper `c` (see `request_wrappers`) as the
/// request itself (`{}`), in a compacted chain.
pub(super) fn unwrap_requests(chain: &str, wrappers: &[String]) -> String {
    let mut out = chain.to_string();
    for w in wrappers {
        let needle = format!("{w}.Request()");
        let mut next = String::with_capacity(out.len());
        let mut rest = out.as_str();
        let mut prev: Option<u8> = None;
        while let Some(i) = rest.find(&needle) {
            let before = if i == 0 {
                prev
            } else {
                rest.as_bytes().get(i - 1).copied()
            };
            next.push_str(&rest[..i]);
            if before.is_some_and(|c| is_ident_byte(c) || c == b'.') {
                next.push_str(&needle);
            } else {
                next.push_str("{}");
            }
            prev = needle.as_bytes().last().copied();
            rest = &rest[i + needle.len()..];
        }
        next.push_str(rest);
        out = next;
    }
    out
}

/// Replace context variables (`{}`) and aliases in a compacted chain.
pub(super) fn normalize(chain: &str, ctx: &[String], aliases: &[(String, String)]) -> String {
    let mut out = String::with_capacity(chain.len());
    let bytes = chain.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if is_ident_start(c) && (i == 0 || (!is_ident_byte(bytes[i - 1]) && bytes[i - 1] != b'.')) {
            let mut e = i;
            while e < bytes.len() && is_ident_byte(bytes[e]) {
                e += 1;
            }
            let word = &chain[i..e];
            if ctx.iter().any(|c| c == word) {
                out.push_str("{}");
            } else if let Some((_, a)) = aliases.iter().rev().find(|(n, _)| n == word) {
                out.push_str(a);
            } else {
                out.push_str(word);
            }
            i = e;
            continue;
        }
        if is_ident_byte(c) {
            let mut e = i;
            while e < bytes.len() && is_ident_byte(bytes[e]) {
                e += 1;
            }
            out.push_str(&chain[i..e]);
            i = e;
            continue;
        }
        out.push(c as char);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_normalisation() {
        let ctx = vec!["r".to_string()];
        assert_eq!(normalize("r.URL.Query()", &ctx, &[]), "{}.URL.Query()");
        assert_eq!(normalize("mux.Vars(r)", &ctx, &[]), "mux.Vars({})");
        let aliases = vec![("q".to_string(), "{}.URL.Query()".to_string())];
        assert_eq!(normalize("q", &ctx, &aliases), "{}.URL.Query()");
        assert_eq!(normalize("x.r", &ctx, &[]), "x.r");
    }
}
