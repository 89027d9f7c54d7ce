//! Command-line programs as endpoints (`*_cli` technologies; see
//! docs/cli-surface.md): the language-independent part. An analyzer
//! records every command it finds as a [`Command`] fact (with the name of
//! the command or group it hangs under) and every program name a manifest
//! declares as a [`Script`] fact; [`link`] builds the command tree across
//! files and reports one endpoint per command:
//!
//! - URL `cli://<binary>` for a root command, one more segment per
//!   subcommand (`cli://tool/remote/add`); method `CLI`, protocol `cli`.
//! - The binary is, in order: the manifest name whose entry point names
//!   the root (a Python `[project.scripts]` target `pkg.cli:main`, a Rust
//!   `[[bin]]` path), the program name given to the parser (`prog=`,
//!   `#[command(name)]`, `Use:` of a cobra root), the only program name the
//!   project's manifests declare, else the file stem of the root (`__main__`
//!   / `main` / `mod` / `index` take the directory's name).
//! - Params: flags named as written with their dashes (`--output`, `-v`
//!   when there is no long form), positional arguments by declared name,
//!   environment variables by name.

use crate::model::{Endpoint, Param};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A command (or group, or root parser) found in one file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    /// The file that declares it, and the line.
    pub path: String,
    pub line: u32,
    /// The names code uses to refer to it (a variable, a function, a type):
    /// children name their parent by one of these.
    pub symbols: Vec<String>,
    /// The symbol of the command it is a subcommand of; `None` for a root
    /// (unless an [`Attach`] says otherwise).
    pub parent: Option<String>,
    /// Its name on the command line (empty for a root).
    pub name: String,
    /// Program name given to the parser, for a root.
    pub prog: Option<String>,
    /// Names an entry point may use for it (`pkg.cli:main` → module path
    /// and function; Rust `src/bin/x.rs` → the file).
    pub entry: Vec<String>,
    pub params: Vec<Param>,
    /// The command's own name does not add a segment: its subcommands and
    /// params belong to its parent (Typer's unnamed `add_typer`).
    pub merged: bool,
}

/// `parent.add_command(child, name)` and the like, possibly in another
/// file than either command.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attach {
    /// The file that attaches (symbols declared there win).
    pub path: String,
    pub parent: String,
    /// The child's symbol, possibly qualified by the module it comes from
    /// (`tags.app`): a command of a file named after the qualifier wins.
    pub child: String,
    /// A name given at the attachment, overriding the child's own.
    pub name: Option<String>,
    /// The child's commands join the parent without a segment of their own.
    pub merged: bool,
}

/// A program a manifest declares: its name and the entry it runs
/// (`pkg.cli:main`, `src/bin/tool.rs`, `./bin/tool.js`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Script {
    pub name: String,
    pub entry: String,
}

/// One fact of a `*_cli` analyzer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Command(Command),
    Attach(Attach),
    Script(Script),
}

/// The file stem of a path, or its directory's name for the stems that
/// name a package rather than a program (`__main__`, `main`, `mod`,
/// `index`, `__init__`, `cli`, `lib`).
pub fn stem_name(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let file = parts.pop().unwrap_or("");
    let stem = file.split('.').next().unwrap_or(file);
    if matches!(
        stem,
        "__main__" | "main" | "mod" | "index" | "__init__" | "cli" | "lib"
    ) {
        if let Some(dir) = parts
            .iter()
            .rev()
            .find(|d| !matches!(**d, "src" | "cmd" | "bin" | "lib" | "cli" | "." | ".."))
        {
            return (*dir).to_string();
        }
    }
    stem.to_string()
}

/// Build the command tree from every file's facts and report one endpoint
/// per command. `entry_matches(script_entry, command)` tells how well a
/// manifest entry names a root command (language-specific): 0 not at all,
/// higher is better (the module, then the module and the function).
pub fn link(facts: Vec<Fact>, entry_matches: &dyn Fn(&str, &Command) -> u8) -> Vec<Endpoint> {
    let mut commands: Vec<Command> = Vec::new();
    let mut attaches: Vec<Attach> = Vec::new();
    let mut scripts: Vec<Script> = Vec::new();
    for f in facts {
        match f {
            Fact::Command(c) => commands.push(c),
            Fact::Attach(a) => attaches.push(a),
            Fact::Script(s) => {
                if !scripts.contains(&s) {
                    scripts.push(s)
                }
            }
        }
    }
    // Symbol → command index; a symbol declared in the same file wins, so
    // keep every candidate.
    let mut by_symbol: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, c) in commands.iter().enumerate() {
        for s in &c.symbols {
            by_symbol.entry(s.as_str()).or_default().push(i);
        }
    }
    let resolve = |symbol: &str, from: &str| -> Option<usize> {
        let list = by_symbol.get(symbol)?;
        list.iter()
            .copied()
            .find(|&i| commands[i].path == from)
            .or_else(|| (list.len() == 1).then(|| list[0]))
    };
    let n = commands.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut name: Vec<String> = commands.iter().map(|c| c.name.clone()).collect();
    let mut merged: Vec<bool> = commands.iter().map(|c| c.merged).collect();
    for (i, c) in commands.iter().enumerate() {
        if let Some(p) = &c.parent {
            parent[i] = resolve(p, &c.path).filter(|&j| j != i);
        }
    }
    for a in &attaches {
        let Some(p) = resolve(&a.parent, &a.path) else {
            continue;
        };
        let (qualifier, sym) = match a.child.rsplit_once('.') {
            Some((q, s)) => (q.rsplit('.').next(), s),
            None => (None, a.child.as_str()),
        };
        let Some(list) = by_symbol.get(sym) else {
            continue;
        };
        let candidates: Vec<usize> = list.iter().copied().filter(|&i| i != p).collect();
        let child = match qualifier {
            Some(q) => candidates.iter().copied().find(|&i| {
                let path = commands[i].path.replace('\\', "/");
                path.contains(&format!("/{q}."))
                    || path.contains(&format!("/{q}/"))
                    || path.starts_with(&format!("{q}."))
            }),
            None => candidates
                .iter()
                .copied()
                .find(|&i| commands[i].path == a.path),
        }
        .or_else(|| (candidates.len() == 1).then(|| candidates[0]));
        let Some(child) = child else {
            continue;
        };
        parent[child] = Some(p);
        if let Some(nm) = &a.name {
            name[child] = nm.clone();
        }
        if a.merged {
            merged[child] = true;
        }
    }
    // A command whose parent symbol never resolved is dropped rather than
    // reported as a root of its own (`@group.command` of a group we did not
    // see is not a program).
    let orphan = |i: usize| commands[i].parent.is_some() && parent[i].is_none();
    // Each command's path of names and its root, walking up with a bound
    // (a cycle in broken code must not loop).
    let mut out = Vec::new();
    for i in 0..n {
        let mut segments: Vec<String> = Vec::new();
        let mut at = i;
        let mut ok = !orphan(i);
        for _ in 0..=n {
            if !ok {
                break;
            }
            match parent[at] {
                Some(p) => {
                    if !merged[at] {
                        segments.push(name[at].clone());
                    }
                    if orphan(p) {
                        ok = false;
                    }
                    at = p;
                }
                None => break,
            }
        }
        if !ok || parent[at].is_some() {
            continue;
        }
        // A merged child adds its params and subcommands to its parent: it
        // is no endpoint of its own.
        if merged[i] && parent[i].is_some() {
            continue;
        }
        segments.reverse();
        let root = &commands[at];
        let binary = binary_name(root, &scripts, entry_matches);
        let c = &commands[i];
        let mut e = Endpoint::command(&binary, &segments).at_path(c.path.clone(), c.line);
        e = e.params(c.params.iter().cloned());
        // Params of merged children (Typer callbacks of unnamed sub-apps).
        for (j, cj) in commands.iter().enumerate() {
            if merged[j] && parent[j] == Some(i) {
                e = e.params(cj.params.iter().cloned());
            }
        }
        out.push(e);
    }
    out
}

fn binary_name(
    root: &Command,
    scripts: &[Script],
    entry_matches: &dyn Fn(&str, &Command) -> u8,
) -> String {
    if let Some((score, s)) = scripts
        .iter()
        .map(|s| (entry_matches(&s.entry, root), s))
        .max_by_key(|(score, _)| *score)
    {
        if score > 0 {
            return s.name.clone();
        }
    }
    if let Some(p) = root.prog.as_ref().filter(|p| !p.trim().is_empty()) {
        return p.trim().to_string();
    }
    let mut names: Vec<&str> = scripts.iter().map(|s| s.name.as_str()).collect();
    names.dedup();
    if names.len() == 1 {
        return names[0].to_string();
    }
    stem_name(&root.path)
}

/// The name a flag is reported under: the first long form (`--output`),
/// else the first short one (`-o`); `--shout/--no-shout` keeps `--shout`.
pub fn flag_name<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut short = None;
    for n in names {
        let n = n.split('/').next().unwrap_or(n).trim();
        if n.starts_with("--") && n.len() > 2 {
            return Some(n.to_string());
        }
        if short.is_none() && n.starts_with('-') && n.len() > 1 {
            short = Some(n.to_string());
        }
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(path: &str, sym: &str, parent: Option<&str>, name: &str) -> Fact {
        Fact::Command(Command {
            path: path.into(),
            line: 1,
            symbols: vec![sym.into()],
            parent: parent.map(str::to_string),
            name: name.into(),
            ..Command::default()
        })
    }

    #[test]
    fn tree_and_binary() {
        let facts = vec![
            cmd("tool/cli.py", "cli", None, ""),
            cmd("tool/remote.py", "remote", None, "remote"),
            cmd("tool/remote.py", "add", Some("remote"), "add"),
            cmd("tool/x.py", "lost", Some("nowhere"), "lost"),
            Fact::Attach(Attach {
                path: "tool/cli.py".into(),
                parent: "cli".into(),
                child: "remote".into(),
                name: None,
                merged: false,
            }),
        ];
        let urls: Vec<String> = link(facts.clone(), &|_, _| 0)
            .into_iter()
            .map(|e| e.url)
            .collect();
        assert_eq!(
            urls,
            ["cli://tool", "cli://tool/remote", "cli://tool/remote/add"]
        );
        let mut with_script = facts;
        with_script.push(Fact::Script(Script {
            name: "tl".into(),
            entry: "x".into(),
        }));
        assert_eq!(link(with_script, &|_, _| 0)[0].url, "cli://tl");
    }

    #[test]
    fn names() {
        assert_eq!(stem_name("src/tool/__main__.py"), "tool");
        assert_eq!(stem_name("cmd/tool/main.go"), "tool");
        assert_eq!(stem_name("scripts/deploy.py"), "deploy");
        assert_eq!(flag_name(["-c", "--count"]).as_deref(), Some("--count"));
        assert_eq!(
            flag_name(["--shout/--no-shout"]).as_deref(),
            Some("--shout")
        );
        assert_eq!(flag_name(["-v"]).as_deref(), Some("-v"));
        assert_eq!(flag_name(["name"]), None);
    }
}
