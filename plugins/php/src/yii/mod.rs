//! Yii 2 (`php_yii`).
//!
//! **URL rules**: the `'rules' => [...]` array of the `urlManager`
//! component in any config file (`config/web.php`, `backend/config/
//! main.php`, …): `'GET,HEAD api/users/<id:\d+>' => 'user/view'` (a rule
//! without a verb accepts every method: GET POST PUT PATCH DELETE are
//! reported), array rules `['pattern' => …, 'route' => …, 'verb' => …]`,
//! and REST rules `['class' => 'yii\rest\UrlRule', 'controller' => 'user']`
//! (also `UrlRule::class`, a list of controllers, `'alias' => 'controller'`
//! keys, `prefix`, `pluralize`, `only`, `except`, `extraPatterns`),
//! expanded to Yii's standard REST routes: `GET,HEAD users`, `POST users`,
//! `GET,HEAD users/<id>`, `PUT,PATCH users/<id>`, `DELETE users/<id>`,
//! `OPTIONS users` and `OPTIONS users/<id>`. The URL segment is the
//! controller id pluralised (`user` → `users`, `category` → `categories`)
//! unless `'pluralize' => false`. Placeholders `<id:\d+>` become `{id}`.
//!
//! **Default routes**: unless the urlManager sets `'enableStrictParsing' =>
//! true`, each `actionX` method of a web controller (`controllers/`
//! directories, modules' `modules/<m>/controllers/`) not already targeted by
//! a rule is reachable as `/<controller-id>/<action-id>` (kebab-case:
//! `PostCommentController::actionViewAll` → `/post-comment/view-all`;
//! `actionIndex` also as `/<controller-id>`), with every method (GET POST PUT
//! PATCH DELETE).
//!
//! **Parameters**: action arguments (`actionView($id)`) are query
//! parameters unless the URL has that placeholder; request reads through
//! `Yii::$app->request` or `$this->request` / `$request`: `get('x')` (query
//! on GET, body otherwise — the generic reader), `post('x')` and
//! `getBodyParam('x')` (form), `getQueryParam('x')` (query),
//! `headers->get('X')`, `cookies->get('c')`.

use std::collections::BTreeSet;

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::php::expr::{value, Ctx, Val};
use crate::php::frame::{app_tokens, class_facts};
use crate::php::handler::{http_method, BodyKind, Handler, Index, ANY};
use crate::php::inflect::{lower_words, pluralize};
use crate::php::outline::Class;
use crate::php::tokens::{matching, Kind, Token};
use crate::slim::link::text;

pub struct Yii;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub rules: Val,
    pub line: u32,
    /// Line of each top-level rule.
    pub lines: Vec<u32>,
    pub strict: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Rules { path: String, rules: Rules },
    Class { path: String, class: Class },
}

impl Analyzer for Yii {
    fn tech(&self) -> Tech {
        Tech::new("php_yii", "PHP", "Yii2")
            .aliases(["yii", "yii2", "php-yii"])
            .files(["*.php"])
            .detect(Detect::files(["composer.json"]).contains(["yiisoft/yii2"]))
            .detect(Detect::files(["*.php"]).contains([
                "yii\\web\\Controller",
                "yii\\rest\\ActiveController",
                "yii\\rest\\Controller",
                "yii\\rest\\UrlRule",
            ]))
    }

    fn analyze(&self, file: &SourceFile, out: &mut Output) {
        let Some(toks) = app_tokens(file) else {
            return;
        };
        let text = &file.content;
        let line_of = |o: usize| file.line_of(o);
        if text.contains("urlManager") {
            for rules in url_rules(&toks, &line_of) {
                out.fact(&Fact::Rules {
                    path: file.path.clone(),
                    rules,
                });
            }
        }
        if is_web_controller_path(&file.slash_path()) {
            class_facts(out, file, &toks, &line_of, |path, class| Fact::Class {
                path,
                class,
            });
        }
    }

    fn link(&self, facts: &Facts) -> Result<Vec<Endpoint>, String> {
        let facts: Vec<Fact> = facts.all();
        let mut l = Linker {
            index: Index::default(),
            ids: Vec::new(),
            out: Vec::new(),
            targeted: BTreeSet::new(),
        };
        for f in &facts {
            if let Fact::Class { path, class } = f {
                l.index.push(path, class);
                if let Some(id) = controller_id(path, class) {
                    l.ids.push((id, path, class));
                }
            }
        }
        let mut strict = false;
        for f in &facts {
            if let Fact::Rules { path, rules } = f {
                strict |= rules.strict;
                l.rules(rules, path);
            }
        }
        if !strict {
            l.defaults();
        }
        Ok(l.out)
    }
}

fn is_web_controller_path(path: &str) -> bool {
    path.contains("controllers/")
}

/// `PostCommentController` in `modules/admin/controllers/` → `admin/post-comment`.
fn controller_id(path: &str, class: &Class) -> Option<String> {
    let stem = class.name.strip_suffix("Controller")?;
    if stem.is_empty() || class.name.starts_with("Base") && class.methods.is_empty() {
        return None;
    }
    let mut id = kebab(stem);
    if let Some(i) = path.rfind("modules/") {
        let rest = &path[i + "modules/".len()..];
        if let Some((module, _)) = rest.split_once('/') {
            id = format!("{module}/{id}");
        }
    }
    Some(id)
}

/// `ViewAll` → `view-all`.
fn kebab(s: &str) -> String {
    lower_words(s, '-')
}

/// `view-all` → `ViewAll`.
fn camel(s: &str) -> String {
    s.split('-')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// Yii pattern → URL: `<id:\d+>` → `{id}`.
fn clean(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '<' {
            let mut name = String::new();
            let mut in_name = true;
            for d in chars.by_ref() {
                if d == '>' {
                    break;
                }
                if d == ':' {
                    in_name = false;
                }
                if in_name {
                    name.push(d);
                }
            }
            out.push('{');
            out.push_str(&name);
            out.push('}');
        } else {
            out.push(c);
        }
    }
    out
}

fn no_chain(_: &[Token], _: usize) -> bool {
    false
}

/// Every `'rules' => [...]` array (in a file mentioning `urlManager`).
fn url_rules(toks: &[Token], line_of: &dyn Fn(usize) -> u32) -> Vec<Rules> {
    let cx = Ctx {
        toks,
        line_of,
        is_chain_start: &no_chain,
    };
    let strict = toks.windows(3).any(|w| {
        w[0].kind == Kind::Str
            && w[0].text == "enableStrictParsing"
            && w[1].is("=>")
            && w[2].is_ident("true")
    });
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !(toks[i].kind == Kind::Str
            && toks[i].text == "rules"
            && toks.get(i + 1).is_some_and(|a| a.is("=>"))
            && toks.get(i + 2).is_some_and(|b| b.is("[")))
        {
            continue;
        }
        let open = i + 2;
        let Some(close) = matching(toks, open) else {
            continue;
        };
        let rules = value(&cx, open, close + 1);
        // Line of each top-level item: its first token.
        let mut lines = Vec::new();
        let mut depth = 0;
        let mut item_start = true;
        for t in &toks[open + 1..close] {
            if item_start && depth == 0 {
                lines.push(line_of(t.start));
                item_start = false;
            }
            match t.text.as_str() {
                "(" | "[" | "{" if t.kind == Kind::Punct => depth += 1,
                ")" | "]" | "}" if t.kind == Kind::Punct => depth -= 1,
                "," if t.kind == Kind::Punct && depth == 0 => item_start = true,
                _ => {}
            }
        }
        out.push(Rules {
            rules,
            line: line_of(toks[i].start),
            lines,
            strict,
        });
    }
    out
}

struct Linker<'a> {
    index: Index<'a>,
    /// `(controller id, file, class)`.
    ids: Vec<(String, &'a str, &'a Class)>,
    out: Vec<Endpoint>,
    /// `controller-id/action-id` targeted by a rule.
    targeted: BTreeSet<String>,
}

impl<'a> Linker<'a> {
    /// The class and method of a route `admin/user/view-all`.
    fn action(&self, route: &str) -> Option<(&'a Class, String)> {
        let route = route.trim_matches('/');
        let (ctrl, action) = route.rsplit_once('/').unwrap_or((route, "index"));
        let (_, _, class) = self.ids.iter().find(|(id, _, _)| id == ctrl).or_else(|| {
            let last = ctrl.rsplit('/').next().unwrap_or(ctrl);
            self.ids
                .iter()
                .find(|(id, _, _)| id.rsplit('/').next() == Some(last))
        })?;
        Some((class, format!("action{}", camel(action))))
    }

    fn emit(&mut self, methods: &[&str], url: &str, route: &str, path: &str, line: u32) {
        let url = clean(url);
        let target = self.action(route);
        let h: Option<Handler> = target.as_ref().and_then(|(c, m)| self.index.handler(c, m));
        let placeholders = portolan_plugin_sdk::urls::path_placeholders(&url);
        for m in methods {
            let mut e = Endpoint::new(*m, &url).at_path(path, line);
            if let Some(h) = &h {
                for a in &h.args {
                    if !placeholders.contains(&a.var) {
                        e.push_param(Param::query(&a.var));
                    }
                }
                for p in self.index.params(h, m, &url, BodyKind::Form) {
                    e.push_param(p);
                }
            }
            self.out.push(e);
        }
        let key = route.trim_matches('/');
        let key = if key.contains('/') {
            key.to_string()
        } else {
            format!("{key}/index")
        };
        self.targeted.insert(key);
    }

    fn rules(&mut self, r: &Rules, path: &str) {
        let Val::Array(items) = &r.rules else { return };
        for (n, (k, v)) in items.iter().enumerate() {
            let line = r.lines.get(n).copied().unwrap_or(r.line);
            match (k, v) {
                (Some(k), v) => {
                    let (Some(pattern), Some(route)) = (text(k), text(v)) else {
                        continue;
                    };
                    self.pattern_rule(&pattern, &route, None, path, line);
                }
                (None, v @ Val::Array(_)) => {
                    let class = match v.get("class") {
                        Some(Val::Str(s)) | Some(Val::Class(s)) => s.clone(),
                        _ => String::new(),
                    };
                    if class.ends_with("UrlRule") && v.get("controller").is_some() {
                        self.rest_rule(v, path, line);
                    } else if let (Some(pattern), Some(route)) = (
                        v.get("pattern").and_then(text),
                        v.get("route").and_then(text),
                    ) {
                        let verb = v.get("verb").map(|x| match x {
                            Val::Str(s) => s.split(',').map(str::to_string).collect(),
                            other => other.strings(),
                        });
                        self.pattern_rule(&pattern, &route, verb, path, line);
                    }
                }
                _ => {}
            }
        }
    }

    fn pattern_rule(
        &mut self,
        pattern: &str,
        route: &str,
        verb: Option<Vec<String>>,
        path: &str,
        line: u32,
    ) {
        let (verbs, pat) = match verb {
            Some(v) => (v, pattern.to_string()),
            None => match pattern.trim().split_once(' ') {
                Some((v, p)) if v.split(',').all(|m| http_method(m).is_some()) && !v.is_empty() => {
                    (
                        v.split(',').map(str::to_string).collect(),
                        p.trim().to_string(),
                    )
                }
                _ => (Vec::new(), pattern.trim().to_string()),
            },
        };
        let methods: Vec<&str> = if verbs.is_empty() {
            ANY.to_vec()
        } else {
            verbs.iter().filter_map(|m| http_method(m)).collect()
        };
        // A route with placeholders (`<controller>/<action>`) is generic.
        if route.contains('<') {
            return;
        }
        self.emit(&methods, &pat, route, path, line);
    }

    fn rest_rule(&mut self, v: &Val, path: &str, line: u32) {
        let prefix = v.get("prefix").and_then(text).unwrap_or_default();
        let pluralize_ids =
            !matches!(v.get("pluralize"), Some(Val::Const(c)) if c.eq_ignore_ascii_case("false"));
        let only = v.get("only").map(Val::strings);
        let except = v.get("except").map(Val::strings).unwrap_or_default();
        let controllers: Vec<(String, String)> = match v.get("controller") {
            Some(Val::Str(c)) => vec![(String::new(), c.clone())],
            Some(Val::Array(items)) => items
                .iter()
                .filter_map(|(k, c)| {
                    Some((k.as_ref().and_then(text).unwrap_or_default(), text(c)?))
                })
                .collect(),
            _ => Vec::new(),
        };
        let extra: Vec<(String, String)> = match v.get("extraPatterns") {
            Some(Val::Array(items)) => items
                .iter()
                .filter_map(|(k, a)| Some((text(k.as_ref()?)?, text(a)?)))
                .collect(),
            _ => Vec::new(),
        };
        for (alias, id) in controllers {
            let seg = if !alias.is_empty() {
                alias
            } else {
                let last = id.rsplit('/').next().unwrap_or(&id);
                let head = &id[..id.len() - last.len()];
                if pluralize_ids {
                    format!("{head}{}", pluralize(last))
                } else {
                    id.clone()
                }
            };
            let base = if prefix.is_empty() {
                seg
            } else {
                format!("{}/{seg}", prefix.trim_matches('/'))
            };
            let mut patterns: Vec<(String, String)> = extra.clone();
            for (p, a) in [
                ("PUT,PATCH {id}", "update"),
                ("DELETE {id}", "delete"),
                ("GET,HEAD {id}", "view"),
                ("POST", "create"),
                ("GET,HEAD", "index"),
                ("OPTIONS {id}", "options"),
                ("OPTIONS", "options"),
            ] {
                patterns.push((p.to_string(), a.to_string()));
            }
            for (p, action) in patterns {
                if only.as_ref().is_some_and(|o| !o.contains(&action)) || except.contains(&action) {
                    continue;
                }
                let (verbs, tail) = p.split_once(' ').unwrap_or((p.as_str(), ""));
                let methods: Vec<&str> = verbs.split(',').filter_map(http_method).collect();
                let url = if tail.is_empty() {
                    base.clone()
                } else {
                    format!("{base}/{tail}")
                };
                let route = format!("{id}/{action}");
                self.emit(&methods, &url, &route, path, line);
            }
        }
    }

    fn defaults(&mut self) {
        let mut found = Vec::new();
        for (id, path, class) in &self.ids {
            for m in &class.methods {
                let Some(action) = m.name.strip_prefix("action") else {
                    continue;
                };
                if m.hidden || action.is_empty() || action == "s" {
                    continue;
                }
                let action_id = kebab(action);
                let route = format!("{id}/{action_id}");
                if self.targeted.contains(&route) {
                    continue;
                }
                found.push((format!("/{route}"), route.clone(), *path, m.line));
                if action_id == "index" {
                    found.push((format!("/{id}"), route, *path, m.line));
                }
            }
        }
        for (url, route, path, line) in found {
            let before = self.targeted.clone();
            self.emit(&ANY, &url, &route, path, line);
            self.targeted = before;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(crate::php::inflect::pluralize("user"), "users");
        assert_eq!(crate::php::inflect::pluralize("category"), "categories");
        assert_eq!(crate::php::inflect::pluralize("box"), "boxes");
        assert_eq!(kebab("PostComment"), "post-comment");
        assert_eq!(camel("view-all"), "ViewAll");
        assert_eq!(clean("api/users/<id:\\d+>/<slug>"), "api/users/{id}/{slug}");
    }
}
