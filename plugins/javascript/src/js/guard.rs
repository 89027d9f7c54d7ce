//! Validation middleware given one schema per request part, as route
//! arguments: `guard({ body: z.object({ title: z.string() }), query:
//! z.object({ page: … }) })` (Koa request guards, `validate({ body:
//! Joi.object({…}) })`, `celebrate({ [Segments.QUERY]: Joi.object({…}) })`,
//! zod-express-middleware's `validateRequest({ params })`). The keys of
//! each part's object schema (`z.object`, `Joi.object`, `yup.object`,
//! `object(…)`, also `.keys({…})`, `.extend({…})`, or a schema bound to a
//! name in the same module) are the parameters.

use portolan_plugin_sdk::{Code, Param, ParamKind};
use std::ops::Range;

use super::module;
use super::outline::{object_entries, Outline};
use super::schema::{self, Schema};
use super::syntax::is_js_ident;

/// The request part a guard key names.
fn part(key: &str) -> Option<ParamKind> {
    let key = key.rsplit('.').next().unwrap_or(key);
    Some(match key.to_ascii_lowercase().as_str() {
        "body" | "json" => ParamKind::Json,
        "query" | "querystring" => ParamKind::Query,
        "params" => ParamKind::Path,
        "headers" => ParamKind::Header,
        "cookies" => ParamKind::Cookie,
        "files" | "form" => ParamKind::Form,
        _ => return None,
    })
}

/// Parameters of a guard call at `r` (`name({ body: …, query: … })`);
/// `None` when `r` is not such a call.
pub fn guard_params(code: &Code<'_>, r: Range<usize>) -> Option<Vec<Param>> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let mut i = s;
    while i < r.end && bytes.get(i).is_some_and(|b| is_js_ident(*b) || *b == b'.') {
        i += 1;
    }
    if i == s {
        return None;
    }
    let open = code.skip_ws(i);
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    if let Some(files) = upload_fields(code, code.slice(s..i), open) {
        return Some(files);
    }
    let o = code.skip_ws(open + 1);
    if bytes.get(o) != Some(&b'{') {
        return None;
    }
    object_parts(code, o)
}

/// An object of schemas per request part whose `{` is at `o` (`{ body:
/// Joi.object().keys({…}), query: … }`): its parameters; `None` when no
/// key names a request part.
pub fn object_parts(code: &Code<'_>, o: usize) -> Option<Vec<Param>> {
    let mut out: Vec<Param> = Vec::new();
    let mut any = false;
    for e in object_entries(code, o) {
        let key = e.key.trim_start_matches('[').trim_end_matches(']');
        let Some(kind) = part(key) else { continue };
        any = true;
        for name in schema_keys(code, e.value.clone(), 0) {
            let p = Param::new(kind, name);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    any.then_some(out)
}

/// Module-level objects of schemas per request part, by scoped name, to
/// be named in route arguments elsewhere (`validate(userValidation.create)`
/// with `const create = { body: Joi.object().keys({…}) }` exported).
pub fn part_objects(code: &Code<'_>, outline: &Outline) -> Vec<(String, Vec<Param>)> {
    static OBJ: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let obj = OBJ.get_or_init(|| {
        crate::js::pattern::regex(
            r"(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)|\b(?:module\.)?exports\.([A-Za-z_$][\w$]*))\s*=\s*\{",
        ).unwrap_or_else(crate::js::pattern::never)
    });
    let text = code.text();
    if !["body", "query", "params"].iter().any(|k| text.contains(k)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in obj.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1).or(c.get(2))) else {
            continue;
        };
        if !code.is_code(all.start()) || !outline.is_top(all.start()) {
            continue;
        }
        if let Some(ps) = object_parts(code, all.end() - 1).filter(|p| !p.is_empty()) {
            out.push((outline.scoped(name.as_str(), all.start()), ps));
        }
    }
    out
}

/// Schemas of a guard call at `r` whose keys are not written in place
/// (`guard({ body: createGuard.pick({ name: true }), query: Paging })`):
/// per request part, the schema to resolve across modules in `link`.
pub fn guard_refs(code: &Code<'_>, outline: &Outline, r: Range<usize>) -> Vec<(ParamKind, Schema)> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let mut i = s;
    while i < r.end && bytes.get(i).is_some_and(|b| is_js_ident(*b) || *b == b'.') {
        i += 1;
    }
    let open = code.skip_ws(i);
    if i == s || bytes.get(open) != Some(&b'(') {
        return Vec::new();
    }
    let o = code.skip_ws(open + 1);
    if bytes.get(o) != Some(&b'{') {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in object_entries(code, o) {
        let key = e.key.trim_start_matches('[').trim_end_matches(']');
        let Some(kind) = part(key) else { continue };
        if !schema_keys(code, e.value.clone(), 0).is_empty() {
            continue;
        }
        if let Some(sc) = schema::parse(code, outline, e.value.clone()) {
            if !matches!(&sc, Schema::Keys(k) if k.is_empty()) {
                out.push((kind, sc));
            }
        }
    }
    out
}

/// express-validator chains as route arguments: `body('email').isEmail()`,
/// `query('page').optional().isInt()`, `param('id')`, `header('x-key')`,
/// `cookie('sid')`, also several fields (`body(['a', 'b'])`) and arrays of
/// chains (`[body('a'), query('b')]`). `None` when `r` is none of these.
pub fn validator_params(code: &Code<'_>, r: Range<usize>) -> Option<Vec<Param>> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    if bytes.get(s) == Some(&b'[') {
        let mut out = Vec::new();
        for e in code.args(s) {
            out.extend(validator_params(code, e)?);
        }
        return (!out.is_empty()).then_some(out);
    }
    let id = super::syntax::ident_at(code, s)?;
    let kind = match code.slice(id.clone()) {
        "body" => ParamKind::Json,
        "query" => ParamKind::Query,
        "param" => ParamKind::Path,
        "header" => ParamKind::Header,
        "cookie" => ParamKind::Cookie,
        _ => return None,
    };
    if bytes.get(id.end) != Some(&b'(') {
        return None;
    }
    let first = code.args(id.end).into_iter().next()?;
    let f = code.skip_ws(first.start);
    let mut out = Vec::new();
    if bytes.get(f) == Some(&b'[') {
        for e in code.args(f) {
            if let Some(l) = code.string_at(e.start).filter(|l| !l.interpolated) {
                out.push(Param::new(kind, l.value));
            }
        }
    } else if let Some(l) = code
        .string_at(f)
        .filter(|l| !l.interpolated && l.start == f)
    {
        out.push(Param::new(kind, l.value));
    }
    // Nested fields (`body('address.city')`) are the top-level field.
    for p in &mut out {
        if let Some((head, _)) = p.name.split_once('.') {
            p.name = head.to_string();
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Upload middleware (multer and its look-alikes) naming the multipart
/// fields it accepts: `upload.single('avatar')`, `upload.array('photos',
/// 12)`, `multer(opts).fields([{ name: 'a' }, { name: 'b', maxCount: 1 }])`
/// are file parameters. `callee` is the dotted name before the call's `(`
/// at `open`; a bare `single(…)` (no receiver) is not an upload.
fn upload_fields(code: &Code<'_>, callee: &str, open: usize) -> Option<Vec<Param>> {
    let (recv, method) = callee.rsplit_once('.')?;
    if recv.is_empty() || !matches!(method, "single" | "array" | "fields") {
        return None;
    }
    let args = code.args(open);
    let first = args.first()?;
    let mut out = Vec::new();
    if method == "fields" {
        let bytes = code.text().as_bytes();
        let a = code.skip_ws(first.start);
        if bytes.get(a) != Some(&b'[') {
            return None;
        }
        for item in code.args(a) {
            let o = code.skip_ws(item.start);
            if bytes.get(o) != Some(&b'{') {
                continue;
            }
            for e in object_entries(code, o) {
                if e.key == "name" {
                    if let Some(v) = code.string_at(e.value.start) {
                        out.push(Param::new(ParamKind::File, v.value));
                    }
                }
            }
        }
    } else {
        let v = code.string_at(first.start)?;
        out.push(Param::new(ParamKind::File, v.value));
    }
    (!out.is_empty()).then_some(out)
}

/// Keys of an object schema at `r`: `z.object({…})`, `Joi.object().keys({…})`,
/// `object({…})`, `.extend({…})`, or a name bound to one in this module.
pub fn schema_keys(code: &Code<'_>, r: Range<usize>, depth: usize) -> Vec<String> {
    let bytes = code.text().as_bytes();
    let s = code.skip_ws(r.start);
    let t = code.slice(s..r.end.max(s));
    let mut out: Vec<String> = Vec::new();
    for call in ["object(", ".keys(", ".extend("] {
        let mut from = 0;
        while let Some(k) = t.get(from..).and_then(|x| x.find(call)) {
            let at = from + k;
            from = at + call.len();
            // `object(` must start a name (not `isObject(`).
            if call == "object(" && at > 0 {
                let prev = t.as_bytes()[at - 1];
                if prev != b'.' && (is_js_ident(prev)) {
                    continue;
                }
            }
            let o = code.skip_ws(s + at + call.len());
            if bytes.get(o) == Some(&b'{') && code.is_code(o) {
                for e in object_entries(code, o) {
                    if !e.key.is_empty() && !e.key.starts_with("...") && !out.contains(&e.key) {
                        out.push(e.key);
                    }
                }
            }
            if call == "object(" {
                break;
            }
        }
    }
    if out.is_empty() && depth < 3 && t.bytes().all(|b| is_js_ident(b) || b.is_ascii_whitespace()) {
        let name = t.trim();
        if !name.is_empty() {
            if let Some(v) = module::declared_value(code, name, false, usize::MAX) {
                let end = module::statement_end(code, v);
                return schema_keys(code, v..end, depth + 1);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use portolan_plugin_sdk::{SourceFile, Syntax};

    #[test]
    fn reads_parts() {
        let src = "const Q = z.object({ page: z.number(), size: z.number() });\nr.get('/', guard({ body: z.object({ title: z.string(), tags: z.array(z.string()) }).extend({ isbn: z.string() }), query: Q, response: z.object({ id: z.string() }) }), h);\nr.get('/', isObject({ a: 1 }), h);\n";
        let f = SourceFile::new("a.ts", src);
        let code = f.code(Syntax::JAVASCRIPT);
        let at = src.find("guard(").unwrap_or(0);
        let ps = guard_params(&code, at..src.len()).unwrap_or_default();
        let names: Vec<String> = ps
            .iter()
            .map(|p| format!("{}:{:?}", p.name, p.kind))
            .collect();
        assert_eq!(
            names,
            vec![
                "title:Json",
                "tags:Json",
                "isbn:Json",
                "page:Query",
                "size:Query"
            ]
        );
        let at = src.find("isObject(").unwrap_or(0);
        assert!(guard_params(&code, at..src.len()).is_none());
    }
}
