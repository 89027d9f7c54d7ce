//! picocli (`java_cli`; see docs/cli-surface.md).
//!
//! - A non-abstract type annotated `@Command` is a command; its
//!   `@Command(name = "x")` is its name (the program name for a root).
//!   `subcommands = {A.class, B.Inner.class}` (Kotlin `[A::class]`) hangs
//!   the named types below it, in any file (same file first, then the
//!   package the import or the file's own package names); a method
//!   annotated `@Command` of a command type is a subcommand named after
//!   `name` or the method, its parameters its params (unannotated ones
//!   are positional arguments). `new CommandLine(new Root())
//!   .addSubcommand("x", new X())` attaches too.
//! - Params: `@Option(names = {"-v", "--verbose"})` is a flag (long form
//!   preferred), `@Parameters(paramLabel = "FILE")` an argument (the label
//!   without `<>`, else the field name), an option's
//!   `defaultValue = "${env:X}"` (or `${X}` in capitals, which picocli
//!   looks up in the environment after the system properties) the
//!   environment variable `X`. Annotated setter methods count like fields.
//!   `@Mixin` and `@ArgGroup` fields pull in the params of their type, a
//!   superclass's annotated fields are inherited (types resolved by name
//!   across files). A type used as a mixin is not a command itself.
//! - `scope = ScopeType.INHERIT` options stay on the command declaring
//!   them (the model reports a parent's flags once).
//! - Test paths are skipped.

use portolan_plugin_sdk::cli::{self, Attach, Fact};
use portolan_plugin_sdk::paths::is_test_path;
use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

use super::{held_type, CliType, Item};
use crate::jvm::outline::{self, Annotation, JFile, Lang, TypeDecl};
use crate::jvm::tokens::{close_of, split_commas, tokenize, Kind, Token};

pub struct JavaCli;

impl Analyzer for JavaCli {
    fn tech(&self) -> Tech {
        Tech::new("java_cli", "Java", "CLI")
            .aliases(["picocli", "java-cli"])
            .files(["*.java", "*.kt"])
            .requires_any(["picocli", "commons.cli"])
            .detect(
                Detect::files(["*.java", "*.kt"])
                    .contains(["import picocli.", "import org.apache.commons.cli."]),
            )
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let path = file.slash_path();
        let Some(lang) = Lang::of_path(&path) else {
            return;
        };
        if is_test_path(&path) {
            return;
        }
        if lang == Lang::Java && file.content.contains("org.apache.commons.cli") {
            let code =
                portolan_plugin_sdk::Code::new(&file.content, portolan_plugin_sdk::Syntax::C_LIKE);
            if let Some(f) = super::commons::scan(file, &path, &tokenize(&code)) {
                out.fact(&PicoFact::Cli(f));
            }
        }
        if !file.content.contains("picocli") {
            return;
        }
        let jf = outline::parse(file, lang);
        for t in scan_types(&jf) {
            out.fact(&PicoFact::Type(t));
        }
        for f in scan_calls(file, &jf) {
            out.fact(&PicoFact::Cli(f));
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let mut cli_facts = Vec::new();
        let mut types = Vec::new();
        for f in facts.all::<PicoFact>() {
            match f {
                PicoFact::Cli(c) => cli_facts.push(c),
                PicoFact::Type(t) => types.push(t),
            }
        }
        cli_facts.extend(super::expand(&types));
        Ok(cli::link(cli_facts, &|_, _| 0))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum PicoFact {
    Cli(Fact),
    Type(CliType),
}

fn lit(a: &Annotation, names: &[&str]) -> Vec<String> {
    a.items(names).iter().filter_map(|e| e.literal()).collect()
}

/// `${env:X}`, `${env:X:-default}`, and `${X}` when `X` reads like an
/// environment variable.
fn env_of(default: &str) -> Option<String> {
    let start = default.find("${")?;
    let inner = default.get(start + 2..)?;
    let inner = inner.split('}').next()?;
    let inner = inner.split(":-").next()?;
    if let Some(v) = inner.strip_prefix("env:") {
        return (!v.is_empty()).then(|| v.to_string());
    }
    let looks_env = !inner.is_empty()
        && inner
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && inner.bytes().next().is_some_and(|b| b.is_ascii_uppercase());
    looks_env.then(|| inner.to_string())
}

/// The params an annotated element declares (`member` names it).
fn element_items(anns: &[Annotation], member: &str, ty: &str, out: &mut Vec<Item>) {
    for a in anns {
        match a.name.as_str() {
            "Option" => {
                let names = lit(a, &["names", "value"]);
                if let Some(f) = cli::flag_name(names.iter().map(String::as_str)) {
                    out.push(Item::P(Param::flag(f)));
                }
                for d in lit(a, &["defaultValue"]) {
                    if let Some(e) = env_of(&d) {
                        out.push(Item::P(Param::env(e)));
                    }
                }
            }
            "Parameters" => {
                let label = lit(a, &["paramLabel"])
                    .into_iter()
                    .next()
                    .map(|l| l.trim_matches(|c| c == '<' || c == '>').to_string())
                    // A label with spaces is display text: the member
                    // names the argument then.
                    .filter(|l| !l.is_empty() && !l.contains(char::is_whitespace))
                    .unwrap_or_else(|| member.to_string());
                out.push(Item::P(Param::argument(label)));
            }
            "Mixin" | "ArgGroup" => {
                let t = held_type(ty);
                if !t.is_empty() {
                    out.push(Item::Include(t));
                }
            }
            _ => {}
        }
    }
}

/// `setOutput` → `output`.
fn setter_name(m: &str) -> String {
    match m.strip_prefix("set") {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => {
            let mut s = rest[..1].to_ascii_lowercase();
            s.push_str(&rest[1..]);
            s
        }
        _ => m.to_string(),
    }
}

/// How a child type named `written` (as in `subcommands = {written.class}`)
/// is referred to from `t` in `jf`: the binary name of a type of this file
/// (nested in `t` first), else `pkg.Name` for the import or own package
/// (the link matches the package's last segment against directories).
fn child_ref(jf: &JFile, t: &TypeDecl, written: &str) -> String {
    let nested = format!("{}.{written}", t.qual);
    let local = jf
        .types
        .iter()
        .find(|x| x.qual == nested)
        .or_else(|| jf.types.iter().find(|x| x.qual == written))
        .or_else(|| {
            jf.types
                .iter()
                .find(|x| x.qual.ends_with(&format!(".{written}")))
        });
    if let Some(x) = local {
        return x.qual.replace('.', "$");
    }
    if written.contains('.') {
        return written.replace('.', "$");
    }
    let pkg = jf
        .imports
        .iter()
        .find(|i| !i.wildcard && i.name.rsplit('.').next() == Some(written))
        .map(|i| i.name.rsplit_once('.').map_or("", |(p, _)| p).to_string())
        .unwrap_or_else(|| jf.package.clone());
    match pkg.rsplit('.').next().filter(|s| !s.is_empty()) {
        Some(seg) => format!("{seg}.{written}"),
        None => written.to_string(),
    }
}

/// Type names of `A.class` / `A::class` items.
fn class_refs(raw: &str) -> Vec<String> {
    raw.trim_matches(|c| matches!(c, '{' | '}' | '[' | ']'))
        .trim()
        .trim_start_matches("arrayOf(")
        .trim_end_matches(')')
        .split(',')
        .filter_map(|s| {
            let s = s.trim();
            let s = s
                .strip_suffix(".class")
                .or_else(|| s.strip_suffix("::class"))?;
            (!s.is_empty()).then(|| s.to_string())
        })
        .collect()
}

fn scan_types(jf: &JFile) -> Vec<CliType> {
    let mut out = Vec::new();
    for t in &jf.types {
        let cmd = t.annotation("Command");
        let mut items = Vec::new();
        for f in &t.fields {
            element_items(&f.annotations, &f.name, &f.ty, &mut items);
        }
        let mut method_cmds = Vec::new();
        for m in &t.methods {
            if let Some(a) = outline::find(&m.annotations, "Command") {
                method_cmds.push((m, a));
                continue;
            }
            let ty = m.params.first().map(|p| p.ty.as_str()).unwrap_or("");
            element_items(&m.annotations, &setter_name(&m.name), ty, &mut items);
        }
        if cmd.is_none() && items.is_empty() {
            continue;
        }
        let binary = t.qual.replace('.', "$");
        let mut pt = CliType {
            path: jf.path.replace('\\', "/"),
            line: cmd.map_or(t.line, |a| a.line),
            name: t.name.clone(),
            binary: binary.clone(),
            command: cmd.is_some(),
            is_abstract: t.is_abstract(),
            cmd_name: cmd.and_then(|a| lit(a, &["name"]).into_iter().next()),
            prog: cmd.and_then(|a| lit(a, &["name"]).into_iter().next()),
            items,
            supers: t.supers.iter().map(|s| held_type(s)).collect(),
            subs: Vec::new(),
        };
        if let Some(raw) = cmd.and_then(|a| a.raw(&["subcommands"])) {
            pt.subs = class_refs(raw)
                .iter()
                .map(|w| child_ref(jf, t, w))
                .collect();
        }
        // `@Command` methods: subcommands of this type.
        for (m, a) in method_cmds {
            let mut items = Vec::new();
            for p in &m.params {
                let before = items.len();
                element_items(&p.annotations, &p.name, &p.ty, &mut items);
                if items.len() == before
                    && !p
                        .annotations
                        .iter()
                        .any(|a| matches!(a.name.as_str(), "Spec" | "ParentCommand" | "Unmatched"))
                {
                    items.push(Item::P(Param::argument(p.name.clone())));
                }
            }
            out.push(CliType {
                path: pt.path.clone(),
                line: a.line,
                name: format!("{}#{}", t.name, m.name),
                binary: format!("{binary}#{}", m.name),
                command: true,
                is_abstract: false,
                cmd_name: Some(
                    lit(a, &["name"])
                        .into_iter()
                        .next()
                        .unwrap_or_else(|| m.name.clone()),
                ),
                items,
                prog: None,
                supers: Vec::new(),
                subs: Vec::new(),
            });
            pt.subs.push(format!("{binary}#{}", m.name));
        }
        out.push(pt);
    }
    out
}

/// `new CommandLine(new Root()).addSubcommand("x", new X())` (also on a
/// variable holding `new CommandLine(…)`): an attachment. Only the
/// `new CommandLine(new T())` / `(T.class)` receivers are understood.
fn scan_calls(file: &SourceFile, jf: &JFile) -> Vec<Fact> {
    if !file.content.contains("addSubcommand") {
        return Vec::new();
    }
    let code = portolan_plugin_sdk::Code::new(&file.content, portolan_plugin_sdk::Syntax::C_LIKE);
    let t = tokenize(&code);
    let path = jf.path.replace('\\', "/");
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    // The type a `new CommandLine(new T(…))` / `CommandLine(T())` at `i`
    // (the `CommandLine` token) wraps.
    let wrapped = |i: usize| -> Option<String> {
        let open = i + 1;
        if !t.get(open)?.is('(') {
            return None;
        }
        let mut k = open + 1;
        if t.get(k)?.is_ident("new") {
            k += 1;
        }
        let (name, _) = crate::jvm::tokens::dotted(&t, k)?;
        Some(name.trim_end_matches(".class").to_string())
    };
    let mut i = 0;
    while i < t.len() {
        if t[i].is_ident("CommandLine") && t.get(i + 1).is_some_and(|x| x.is('(')) {
            if let Some(ty) = wrapped(i) {
                // `CommandLine cl = new CommandLine(…)` / `val cl = CommandLine(…)`.
                let mut b = i;
                if b > 0 && t[b - 1].is_ident("new") {
                    b -= 1;
                }
                if b >= 2 && t[b - 1].is('=') && t[b - 2].kind == Kind::Ident {
                    vars.insert(t[b - 2].text.clone(), ty.clone());
                }
            }
        }
        if t[i].is_ident("addSubcommand") && i >= 2 && t[i - 1].is('.') {
            let parent = receiver(&t, i - 2, &vars, &wrapped);
            if let (Some(parent), Some(close)) = (parent, close_of(&t, i + 1)) {
                let args = split_commas(&t, i + 2, close);
                let (name, obj) = match args.as_slice() {
                    [n, o, ..] if t[n.start].kind == Kind::Str => {
                        (Some(t[n.start].text.clone()), o.clone())
                    }
                    [o] => (None, o.clone()),
                    _ => (None, 0..0),
                };
                let mut k = obj.start;
                if t.get(k).is_some_and(|x| x.is_ident("new")) {
                    k += 1;
                }
                if let Some((child, _)) = crate::jvm::tokens::dotted(&t, k) {
                    let child = child.trim_end_matches(".class").to_string();
                    if let Some(td) = jf.types.first() {
                        out.push(Fact::Attach(Attach {
                            path: path.clone(),
                            parent: child_ref(jf, td, &parent)
                                .rsplit('.')
                                .next()
                                .unwrap_or_default()
                                .to_string(),
                            child: child_ref(jf, td, &child),
                            name,
                            merged: false,
                        }));
                    }
                }
            }
        }
        i += 1;
    }
    out
}

/// The command type of the receiver ending at `end`: a variable, or a
/// `new CommandLine(…)` / previous `.addSubcommand(…)` in the chain.
fn receiver(
    t: &[Token],
    end: usize,
    vars: &HashMap<String, String>,
    wrapped: &dyn Fn(usize) -> Option<String>,
) -> Option<String> {
    let mut e = end;
    // Walk back over `.addSubcommand(…)` links of a chain (bounded).
    for _ in 0..64 {
        let tok = t.get(e)?;
        if tok.kind == Kind::Ident {
            return vars.get(&tok.text).cloned();
        }
        if !tok.is(')') {
            return None;
        }
        let open = (e.saturating_sub(4096)..e)
            .rev()
            .find(|&o| t[o].is('(') && close_of(t, o) == Some(e))?;
        let callee = open.checked_sub(1)?;
        if t[callee].is_ident("CommandLine") {
            return wrapped(callee);
        }
        if t[callee].is_ident("addSubcommand") && callee >= 2 && t[callee - 1].is('.') {
            e = callee - 2;
            continue;
        }
        return None;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_defaults() {
        assert_eq!(env_of("${env:TOKEN}").as_deref(), Some("TOKEN"));
        assert_eq!(env_of("${env:TOKEN:-x}").as_deref(), Some("TOKEN"));
        assert_eq!(env_of("${API_URL}").as_deref(), Some("API_URL"));
        assert_eq!(env_of("${user.home}"), None);
        assert_eq!(env_of("plain"), None);
        assert_eq!(held_type("List<Dependent>"), "Dependent");
        assert_eq!(class_refs("{A.class, B.C.class}"), ["A", "B.C"]);
        assert_eq!(class_refs("[A::class]"), ["A"]);
        assert_eq!(setter_name("setOutput"), "output");
    }
}
