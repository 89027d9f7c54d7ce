//! A cross-file index of the outlines of a tree: resolves type names as
//! seen from a file (same file, imports, same package, wildcard imports,
//! then any type of that name), walks supertypes and subtypes, evaluates
//! string constants (also inherited, statically imported, Kotlin
//! top-level and companion ones) and lists DTO fields.

use std::collections::{HashMap, HashSet};

use super::expr::{StrExpr, MAX_DEPTH};
use super::outline::{find, Field, JFile, TypeDecl, TypeKind};

/// (file index, type index in that file).
pub type TypeId = (usize, usize);

pub struct Index<'a> {
    pub files: &'a [JFile],
    by_name: HashMap<&'a str, Vec<TypeId>>,
    supers: HashMap<TypeId, Vec<TypeId>>,
    subs: HashMap<TypeId, Vec<TypeId>>,
}

/// The bare type name: no type arguments, nullability, arrays, varargs.
pub fn bare_type(ty: &str) -> &str {
    let ty = ty.trim();
    let end = ty.find(['<', '?', '[']).unwrap_or(ty.len());
    ty[..end].trim_end_matches("...").trim()
}

/// A header-name constant of a framework class not in the tree
/// (`HttpHeaders.AUTHORIZATION` of Spring, JAX-RS, Micronaut, Netty's
/// `HttpHeaderNames.IF_NONE_MATCH`): the header it names
/// (`Authorization`, `If-None-Match`).
pub fn header_constant(owner: &str, member: &str) -> Option<String> {
    let simple = owner.rsplit('.').next().unwrap_or(owner);
    if !matches!(simple, "HttpHeaders" | "HttpHeaderNames" | "HttpHeader") {
        return None;
    }
    if member.is_empty()
        || !member
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    let words: Vec<String> = member
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let lower = w.to_ascii_lowercase();
            let mut cs = lower.chars();
            match cs.next() {
                Some(c) => c.to_ascii_uppercase().to_string() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect();
    Some(words.join("-"))
}

/// Type arguments of `ty` (`Mono<List<Dto>>` → `["List<Dto>"]`).
pub fn type_args(ty: &str) -> Vec<&str> {
    let Some(open) = ty.find('<') else {
        return Vec::new();
    };
    let Some(close) = ty.rfind('>') else {
        return Vec::new();
    };
    if close <= open {
        return Vec::new();
    }
    let inner = &ty[open + 1..close];
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(inner[start..].trim());
    out
}

/// Containers whose element type is what a client sends.
const WRAPPERS: &[&str] = &[
    "List",
    "Set",
    "Collection",
    "Iterable",
    "Optional",
    "Mono",
    "Flux",
    "Flow",
    "Array",
    "MutableList",
    "MutableSet",
    "ArrayList",
    "HashSet",
    "Publisher",
    "CompletableFuture",
    "HttpEntity",
    "RequestEntity",
    "JAXBElement",
];

/// The element type after unwrapping `List<…>`, `Mono<…>`, `Optional<…>`.
pub fn element_type(ty: &str) -> &str {
    let mut ty = ty.trim().trim_end_matches('?');
    for _ in 0..4 {
        let bare = bare_type(ty);
        let simple = bare.rsplit('.').next().unwrap_or(bare);
        if !WRAPPERS.contains(&simple) {
            break;
        }
        match type_args(ty).first() {
            Some(arg) => {
                ty = arg
                    .trim_start_matches("out ")
                    .trim_start_matches("? extends ")
            }
            None => break,
        }
    }
    bare_type(ty)
}

impl<'a> Index<'a> {
    pub fn new(files: &'a [JFile]) -> Self {
        let mut by_name: HashMap<&str, Vec<TypeId>> = HashMap::new();
        for (fi, f) in files.iter().enumerate() {
            for (ti, t) in f.types.iter().enumerate() {
                if !t.name.is_empty() {
                    by_name.entry(t.name.as_str()).or_default().push((fi, ti));
                }
            }
        }
        let mut index = Index {
            files,
            by_name,
            supers: HashMap::new(),
            subs: HashMap::new(),
        };
        let mut supers = HashMap::new();
        let mut subs: HashMap<TypeId, Vec<TypeId>> = HashMap::new();
        for (fi, f) in files.iter().enumerate() {
            for (ti, t) in f.types.iter().enumerate() {
                let resolved: Vec<TypeId> = t
                    .supers
                    .iter()
                    .filter_map(|s| index.resolve_type(fi, s))
                    .filter(|s| *s != (fi, ti))
                    .collect();
                for s in &resolved {
                    subs.entry(*s).or_default().push((fi, ti));
                }
                supers.insert((fi, ti), resolved);
            }
        }
        index.supers = supers;
        index.subs = subs;
        index
    }

    pub fn ty(&self, id: TypeId) -> &'a TypeDecl {
        &self.files[id.0].types[id.1]
    }

    pub fn file(&self, id: TypeId) -> &'a JFile {
        &self.files[id.0]
    }

    /// Every type, in file order.
    pub fn all(&self) -> impl Iterator<Item = TypeId> + '_ {
        self.files
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| (0..f.types.len()).map(move |ti| (fi, ti)))
    }

    /// Resolve a type name as written in file `f`.
    pub fn resolve_type(&self, f: usize, name: &str) -> Option<TypeId> {
        let name = bare_type(name);
        let last = name.rsplit('.').next().unwrap_or(name);
        let cands = self.by_name.get(last)?;
        let file = self.files.get(f)?;
        let full = |id: &TypeId| {
            let t = self.ty(*id);
            let pkg = &self.files[id.0].package;
            if pkg.is_empty() {
                t.qual.clone()
            } else {
                format!("{pkg}.{}", t.qual)
            }
        };
        let matches_written = |id: &&TypeId| {
            let fq = full(id);
            fq == name || fq.ends_with(&format!(".{name}"))
        };
        let cands: Vec<&TypeId> = cands.iter().filter(matches_written).collect();
        if cands.is_empty() {
            return None;
        }
        let first_seg = name.split('.').next().unwrap_or(name);
        let rank = |id: &TypeId| -> u8 {
            let t = self.ty(*id);
            let fq = full(id);
            if id.0 == f {
                return 0;
            }
            let outer_fq = fq
                .strip_suffix(&name[first_seg.len()..])
                .unwrap_or(&fq)
                .to_string();
            if file.imports.iter().any(|i| {
                !i.wildcard && (i.name == fq || i.name == outer_fq)
                    || i.alias.as_deref() == Some(first_seg)
            }) {
                return 1;
            }
            if self.files[id.0].package == file.package && t.qual.starts_with(first_seg) {
                return 2;
            }
            if file.imports.iter().any(|i| {
                i.wildcard && (fq.strip_prefix(&i.name).is_some_and(|r| r.starts_with('.')))
            }) {
                return 3;
            }
            4
        };
        cands.into_iter().min_by_key(|id| rank(id)).copied()
    }

    /// Direct supertypes found in the tree.
    pub fn supertypes(&self, id: TypeId) -> &[TypeId] {
        self.supers.get(&id).map_or(&[], Vec::as_slice)
    }

    /// Direct subtypes found in the tree.
    pub fn subtypes(&self, id: TypeId) -> &[TypeId] {
        self.subs.get(&id).map_or(&[], Vec::as_slice)
    }

    /// `id` and all its supertypes, nearest first (breadth-first).
    pub fn lineage(&self, id: TypeId) -> Vec<TypeId> {
        let mut out = vec![id];
        let mut seen: HashSet<TypeId> = HashSet::from([id]);
        let mut i = 0;
        while i < out.len() && out.len() < 64 {
            for s in self.supertypes(out[i]) {
                if seen.insert(*s) {
                    out.push(*s);
                }
            }
            i += 1;
        }
        out
    }

    /// All subtypes of `id`, transitively.
    pub fn descendants(&self, id: TypeId) -> Vec<TypeId> {
        let mut out = Vec::new();
        let mut seen: HashSet<TypeId> = HashSet::from([id]);
        let mut stack = vec![id];
        while let Some(t) = stack.pop() {
            for s in self.subtypes(t) {
                if seen.insert(*s) && out.len() < 256 {
                    out.push(*s);
                    stack.push(*s);
                }
            }
        }
        out
    }

    /// The type enclosing `id` in its file (`Outer` for `Outer.Inner`).
    fn outer(&self, id: TypeId) -> Option<TypeId> {
        let t = self.ty(id);
        let (outer, _) = t.qual.rsplit_once('.')?;
        let f = self.file(id);
        f.types
            .iter()
            .position(|o| o.qual == outer)
            .map(|ti| (id.0, ti))
    }

    /// Evaluate a string expression written in file `f`, inside type `ctx`.
    pub fn eval(&self, f: usize, ctx: Option<TypeId>, e: &StrExpr) -> Option<String> {
        self.eval_depth(f, ctx, e, 0)
    }

    fn eval_depth(
        &self,
        f: usize,
        ctx: Option<TypeId>,
        e: &StrExpr,
        depth: usize,
    ) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        e.resolve(&mut |name| self.constant(f, ctx, name, depth + 1))
    }

    fn field_value(&self, id: TypeId, field: &Field, depth: usize) -> Option<String> {
        let init = field.init.as_ref()?;
        self.eval_depth(id.0, Some(id), init, depth)
    }

    /// A constant field `name` visible in type `id` (its own, its outer
    /// types', its supertypes').
    fn member_constant(&self, id: TypeId, name: &str, depth: usize) -> Option<String> {
        let mut scope = Some(id);
        let mut hops = 0;
        while let Some(s) = scope {
            for t in self.lineage(s) {
                if let Some(field) = self.ty(t).fields.iter().find(|x| x.name == name) {
                    if let Some(v) = self.field_value(t, field, depth) {
                        return Some(v);
                    }
                }
            }
            scope = self.outer(s);
            hops += 1;
            if hops > 8 {
                break;
            }
        }
        None
    }

    /// Resolve a constant reference written in file `f` inside `ctx`.
    pub fn constant(
        &self,
        f: usize,
        ctx: Option<TypeId>,
        name: &str,
        depth: usize,
    ) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let file = self.files.get(f)?;
        if let Some((ty, member)) = name.rsplit_once('.') {
            let Some(id) = self.resolve_type(f, ty) else {
                return header_constant(ty, member);
            };
            return self.member_constant(id, member, depth);
        }
        if let Some(ctx) = ctx {
            if let Some(v) = self.member_constant(ctx, name, depth) {
                return Some(v);
            }
        }
        // Static imports.
        for imp in file.imports.iter() {
            let (owner, member) = if imp.wildcard {
                (imp.name.as_str(), name)
            } else {
                match imp.name.rsplit_once('.') {
                    Some((o, m)) if m == name || imp.alias.as_deref() == Some(name) => (o, m),
                    _ => continue,
                }
            };
            if let Some(id) = self.resolve_type(f, owner) {
                if let Some(v) = self.member_constant(id, member, depth) {
                    return Some(v);
                }
            } else if let Some(v) = header_constant(owner, member).filter(|_| !imp.wildcard) {
                return Some(v);
            }
            // Kotlin top-level constant imported by name.
            if !imp.wildcard {
                if let Some(v) = self.top_level(owner, member, depth) {
                    return Some(v);
                }
            }
        }
        // Kotlin top-level constants of the same package.
        if let Some(v) = self.top_level(&file.package, name, depth) {
            return Some(v);
        }
        // A type of the same file.
        for ti in 0..file.types.len() {
            if let Some(v) = self.member_constant((f, ti), name, depth) {
                return Some(v);
            }
        }
        None
    }

    fn top_level(&self, package: &str, name: &str, depth: usize) -> Option<String> {
        for (fi, f) in self.files.iter().enumerate() {
            if f.package != package {
                continue;
            }
            if let Some(field) = f.consts.iter().find(|c| c.name == name) {
                if let Some(init) = &field.init {
                    return self.eval_depth(fi, None, init, depth + 1);
                }
            }
        }
        None
    }

    /// Request body field names of the DTO type `ty` written in file `f`:
    /// instance fields of the class and its superclasses (record
    /// components, Kotlin constructor properties), renamed by
    /// `@JsonProperty`/`@SerializedName`/`@JsonAlias`-less rules, without
    /// `@JsonIgnore`d, static or transient ones. `None` if the type is not
    /// in the tree.
    pub fn dto_fields(&self, f: usize, ty: &str) -> Option<Vec<String>> {
        let id = self.resolve_type(f, element_type(ty))?;
        let mut out: Vec<String> = Vec::new();
        let snake = self
            .ty(id)
            .annotation("JsonNaming")
            .is_some_and(|a| a.args.iter().any(|x| x.raw.contains("Snake")));
        let chain = self.lineage(id);
        // Superclass fields first, as Jackson serialises them.
        for t in chain.iter().rev() {
            let decl = self.ty(*t);
            if matches!(
                decl.kind,
                TypeKind::Interface | TypeKind::Enum | TypeKind::Annotation
            ) {
                continue;
            }
            for field in &decl.fields {
                let hidden = find(&field.annotations, "Schema")
                    .and_then(|a| a.raw(&["hidden"]))
                    .is_some_and(|v| v.trim() == "true");
                if field.is_static
                    || hidden
                    || field.ty.starts_with("MultiValueMap")
                    || find(&field.annotations, "JsonIgnore").is_some()
                    || find(&field.annotations, "Transient").is_some()
                {
                    continue;
                }
                let renamed = [
                    "JsonProperty",
                    "SerializedName",
                    "Json",
                    "SerialName",
                    "JsonbProperty",
                ]
                .iter()
                .filter_map(|a| find(&field.annotations, a))
                .find_map(|a| {
                    a.items(&["value", "name"])
                        .first()
                        .and_then(|e| self.eval(t.0, Some(*t), e))
                })
                .filter(|n| !n.is_empty());
                let name = renamed.unwrap_or_else(|| {
                    if snake {
                        to_snake(&field.name)
                    } else {
                        field.name.clone()
                    }
                });
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        // An interface documenting a body by its getters (`FilePart
        // getFile()`, `String getPolicyName()`).
        if out.is_empty() && self.ty(id).kind == TypeKind::Interface {
            self.getters(id, &mut out);
        }
        Some(out)
    }

    /// Properties of a class documented as a form: its fields (as
    /// [`Self::dto_fields`]) and its getters (form wrappers read their
    /// parts in getters: `FilePart getFile() { return parts.getFirst("file"); }`).
    pub fn form_fields(&self, f: usize, ty: &str) -> Option<Vec<String>> {
        let mut out = self.dto_fields(f, ty)?;
        if let Some(id) = self.resolve_type(f, element_type(ty)) {
            self.getters(id, &mut out);
        }
        Some(out)
    }

    /// `getX()` / `isX()` methods without parameters of `id`, as `x`.
    fn getters(&self, id: TypeId, out: &mut Vec<String>) {
        {
            for m in &self.ty(id).methods {
                let prop = m
                    .name
                    .strip_prefix("get")
                    .or_else(|| m.name.strip_prefix("is"))
                    .filter(|p| p.starts_with(|c: char| c.is_ascii_uppercase()));
                if let (Some(p), true) = (prop, m.params.is_empty()) {
                    let mut name = p[..1].to_ascii_lowercase();
                    name.push_str(&p[1..]);
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
        }
    }
}

fn to_snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jvm::outline::{parse, Lang};
    use portolan_plugin_sdk::SourceFile;

    fn files(srcs: &[(&str, &str)]) -> Vec<JFile> {
        srcs.iter()
            .map(|(p, s)| {
                let lang = Lang::of_path(p).unwrap_or(Lang::Java);
                parse(&SourceFile::new(*p, *s), lang)
            })
            .collect()
    }

    #[test]
    fn constants_across_files_and_inheritance() {
        let fs = files(&[
            (
                "a/ApiPaths.java",
                "package a; public final class ApiPaths { public static final String API = \"/api\"; public static final String USERS = API + \"/users\"; public static class V2 { public static final String ROOT = API + \"/v2\"; } }",
            ),
            (
                "b/Base.java",
                "package b; public interface Base { String ITEMS = \"/items\"; }",
            ),
            (
                "b/C.java",
                "package b; import a.ApiPaths; import static a.ApiPaths.API; public class C implements Base { static final String LOCAL = ApiPaths.V2.ROOT + ITEMS; }",
            ),
            ("k/Paths.kt", "package k\nconst val ROOT = \"/k\"\nobject P { const val X = \"$ROOT/x\" }\n"),
            ("k/Use.kt", "package k2\nimport k.P\nimport k.ROOT\nclass U { companion object { const val Y = \"${P.X}/y\" } }\n"),
        ]);
        let idx = Index::new(&fs);
        let c = idx.resolve_type(2, "C").unwrap();
        assert_eq!(
            idx.constant(2, Some(c), "ApiPaths.USERS", 0).as_deref(),
            Some("/api/users")
        );
        assert_eq!(idx.constant(2, Some(c), "API", 0).as_deref(), Some("/api"));
        assert_eq!(
            idx.constant(2, Some(c), "ITEMS", 0).as_deref(),
            Some("/items")
        );
        assert_eq!(
            idx.constant(2, Some(c), "LOCAL", 0).as_deref(),
            Some("/api/v2/items")
        );
        let u = idx.resolve_type(4, "U").unwrap();
        assert_eq!(idx.constant(4, Some(u), "Y", 0).as_deref(), Some("/k/x/y"));
        assert_eq!(idx.constant(4, Some(u), "ROOT", 0).as_deref(), Some("/k"));
        assert_eq!(idx.constant(4, Some(u), "NOPE", 0), None);
    }

    #[test]
    fn dto_fields_with_renames_and_superclass() {
        let fs = files(&[
            (
                "m/Base.java",
                "package m; public abstract class Base { protected Long id; @JsonIgnore String secret; }",
            ),
            (
                "m/User.java",
                "package m; public class User extends Base { @JsonProperty(\"user_name\") private String name; private static final long serialVersionUID = 1L; private transient int t; private List<String> roles; }",
            ),
            ("m/Rec.java", "package m; public record Rec(String a, @JsonProperty(\"b_b\") int b) {}"),
            ("m/K.kt", "package m\n@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy::class)\ndata class K(val firstName: String, var age: Int)\n"),
        ]);
        let idx = Index::new(&fs);
        assert_eq!(
            idx.dto_fields(1, "List<User>").unwrap(),
            ["id", "user_name", "roles"]
        );
        assert_eq!(idx.dto_fields(2, "Rec").unwrap(), ["a", "b_b"]);
        assert_eq!(idx.dto_fields(3, "Mono<K>").unwrap(), ["first_name", "age"]);
        assert!(idx.dto_fields(3, "String").is_none());
        assert_eq!(idx.descendants((0, 0)), [(1, 0)]);
    }

    #[test]
    fn type_helpers() {
        assert_eq!(element_type("Mono<List<com.x.Dto>>"), "com.x.Dto");
        assert_eq!(element_type("List<Dto>?"), "Dto");
        assert_eq!(bare_type("Dto[]"), "Dto");
        assert_eq!(
            type_args("Map<String,List<Integer>>"),
            ["String", "List<Integer>"]
        );
    }
}
