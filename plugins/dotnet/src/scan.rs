//! Map step shared by the ASP.NET Core analyzers: the outline of every
//! C# file and its endpoint-builder flow, as facts for the link step.

use portolan_plugin_sdk::prelude::*;
use serde::{Deserialize, Serialize};

use crate::cs::flow::{self, Call, Route};
use crate::cs::is_test_code;
use crate::cs::outline::{self, CsFile};
use crate::cs::tokens::{Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    File(CsFile),
    Route(Route),
    Call(Call),
    /// `new RouteTokenTransformerConvention(new X())`: the MVC options
    /// transform every `[controller]`/`[action]`/`[area]` token with `X`.
    TokenConvention(String),
    /// A class implementing `IOutboundParameterTransformer`, as far as its
    /// source tells.
    Transformer(Transformer),
    /// A global route prefix added by an application-model convention:
    /// `Conventions.Insert(0, new RoutePrefixConvention(new
    /// RouteAttribute("api")))`, `options.UseGeneralRoutePrefix("api")`.
    GlobalPrefix(String),
    /// `services.AddRouting(o => o.LowercaseUrls = true)`: the app's URLs
    /// are written in lower case (token values are lowered).
    LowercaseUrls,
    /// A Razor Page (`.cshtml` starting with `@page`).
    RazorPage(crate::razor::Page),
    EndpointGroup(EndpointGroup),
}

/// Endpoint groups found by reflection: every type deriving from `base`
/// gets a `RouteGroupBuilder` under `before` + its type name + `after`
/// (`app.MapGroup($"/api/{type.Name}")` over the types assignable to
/// `typeof(IEndpointGroup)`, each group then handed to the type's `Map`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointGroup {
    pub base: String,
    pub before: String,
    pub after: String,
}

/// How an `IOutboundParameterTransformer` rewrites a token value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transformer {
    pub class: String,
    /// Separator inserted between a lower-case letter and an upper-case
    /// one (`Regex.Replace(v, "([a-z])([A-Z])", "$1-$2")`).
    pub separator: Option<char>,
    /// `ToLower()`/`ToLowerInvariant()` applied.
    pub lower: bool,
}

impl Transformer {
    /// The slugify transformer of the ASP.NET Core documentation, assumed
    /// when the convention's class is not in the tree.
    pub fn slugify(class: &str) -> Self {
        Transformer {
            class: class.to_string(),
            separator: Some('-'),
            lower: true,
        }
    }

    pub fn apply(&self, value: &str) -> String {
        let mut out = String::with_capacity(value.len() + 4);
        let mut prev_lower = false;
        for c in value.chars() {
            if let Some(sep) = self.separator {
                if prev_lower && c.is_ascii_uppercase() {
                    out.push(sep);
                }
            }
            prev_lower = c.is_ascii_lowercase();
            out.push(c);
        }
        if self.lower {
            out.to_lowercase()
        } else {
            out
        }
    }
}

/// Route prefixes given to application-model conventions: `new
/// RouteAttribute("p")` in a file registering `Conventions`, and
/// `…RoutePrefix("p")` extension calls (`UseGeneralRoutePrefix`,
/// `UseCentralRoutePrefix`; not the classic `[RoutePrefix]` attribute).
fn global_prefixes(toks: &[Token], out: &mut Output) {
    let conventions = toks.iter().any(|t| t.is_ident("Conventions"));
    for (i, w) in toks.windows(4).enumerate() {
        let prev_is_new = i > 0 && toks[i - 1].is_ident("new");
        let via_attr = conventions && prev_is_new && w[0].is_ident("RouteAttribute");
        let via_call = w[0].kind == Kind::Ident
            && w[0].text.len() > "RoutePrefix".len()
            && w[0].text.ends_with("RoutePrefix")
            && i > 0
            && toks[i - 1].is('.');
        if (via_attr || via_call) && w[1].is('(') && w[2].kind == Kind::Str && w[3].is(')') {
            out.fact(&Fact::GlobalPrefix(w[2].text.clone()));
        }
    }
}

/// `RouteTokenTransformerConvention(new X(…))` conventions and the
/// `IOutboundParameterTransformer` classes of a file.
fn token_transformers(outline: &CsFile, toks: &[Token], out: &mut Output) {
    for w in toks.windows(4) {
        if w[0].is_ident("RouteTokenTransformerConvention")
            && w[1].is('(')
            && w[2].is_ident("new")
            && w[3].kind == Kind::Ident
        {
            out.fact(&Fact::TokenConvention(w[3].text.clone()));
        }
    }
    if !toks
        .iter()
        .any(|t| t.is_ident("IOutboundParameterTransformer"))
    {
        return;
    }
    let separator = toks.iter().find_map(|t| {
        (t.kind == Kind::Str)
            .then(|| {
                t.text
                    .strip_prefix("$1")?
                    .strip_suffix("$2")?
                    .chars()
                    .next()
            })
            .flatten()
    });
    let lower = toks
        .iter()
        .any(|t| t.is_ident("ToLower") || t.is_ident("ToLowerInvariant"));
    for t in &outline.types {
        if t.bases.iter().any(|b| b == "IOutboundParameterTransformer") {
            out.fact(&Fact::Transformer(Transformer {
                class: t.name.clone(),
                separator,
                lower,
            }));
        }
    }
}

/// Reflection-driven endpoint groups: a method that looks up the types
/// assignable to `typeof(Base)` and maps a group whose interpolated
/// pattern holds the type's name (`{type.Name}`, or a variable assigned
/// from `….Name`).
fn endpoint_groups(outline: &CsFile, t: &[Token], out: &mut Output) {
    for m in outline.types.iter().flat_map(|ty| &ty.methods) {
        let Some((a, b)) = m.body else { continue };
        let body = t.get(a..b.min(t.len())).unwrap_or(&[]);
        let Some(base) = body.windows(4).find_map(|w| {
            (w[0].is_ident("typeof") && w[1].is('(') && w[2].kind == Kind::Ident && w[3].is(')'))
                .then(|| w[2].text.clone())
        }) else {
            continue;
        };
        let mut names = Vec::new();
        for (k, x) in body.iter().enumerate() {
            if x.kind != Kind::Ident || !body.get(k + 1).is_some_and(|y| y.is('=')) {
                continue;
            }
            let end = body[k + 1..]
                .iter()
                .position(|y| y.is(';'))
                .map(|e| k + 1 + e);
            if let Some(e) = end.filter(|&e| e >= k + 4) {
                if body[e - 1].is_ident("Name") && body[e - 2].is('.') {
                    names.push(x.text.as_str());
                }
            }
        }
        let template = body
            .iter()
            .filter(|x| x.kind == Kind::Str && x.interp)
            .find_map(|x| {
                let open = x.text.find('{')?;
                let close = open + x.text[open..].find('}')?;
                let hole = &x.text[open + 1..close];
                (names.contains(&hole) || hole.ends_with(".Name"))
                    .then(|| (x.text[..open].to_string(), x.text[close + 1..].to_string()))
            });
        if let Some((before, after)) = template {
            out.fact(&Fact::EndpointGroup(EndpointGroup {
                base,
                before,
                after,
            }));
        }
    }
}

/// The map step of every ASP.NET Core analyzer. Several run on the same
/// files (MVC, SignalR, minimal APIs, …) and record the same facts: the
/// scan runs once per file and the other technologies reuse its output.
pub fn analyze(file: &SourceFile, out: &mut Output) {
    struct Scanned(Output);
    let scanned = file.memo(|f| {
        let mut out = Output::new();
        scan_file(f, &mut out);
        Scanned(out)
    });
    out.extend_from(&scanned.0);
}

fn scan_file(file: &SourceFile, out: &mut Output) {
    if is_test_code(&file.path, &file.content) || crate::migrations::is_ef_migration(file) {
        return;
    }
    let (outline, toks) = outline::parse(file);
    if file.content.contains("Transformer") {
        token_transformers(&outline, &toks, out);
    }
    if file.content.contains("LowercaseUrls")
        && toks
            .windows(3)
            .any(|w| w[0].is_ident("LowercaseUrls") && w[1].is('=') && w[2].is_ident("true"))
    {
        out.fact(&Fact::LowercaseUrls);
    }
    if file.content.contains("RoutePrefix") || file.content.contains("Conventions") {
        global_prefixes(&toks, out);
    }
    if file.content.contains("Map") || file.content.contains("UseMvcWithDefaultRoute") {
        if file.content.contains("typeof") && file.content.contains("MapGroup") {
            endpoint_groups(&outline, &toks, out);
        }
        let (routes, calls) = flow::scan(file, &outline, &toks);
        for r in routes {
            out.fact(&Fact::Route(r));
        }
        for c in calls {
            out.fact(&Fact::Call(c));
        }
    }
    if !outline.types.is_empty() {
        out.fact(&Fact::File(outline));
    }
}

/// The facts split by kind.
pub struct Facts2 {
    pub files: Vec<CsFile>,
    pub routes: Vec<Route>,
    pub calls: Vec<Call>,
    /// The token transformer of a `RouteTokenTransformerConvention`, if any.
    pub token_transformer: Option<Transformer>,
    /// The global prefix of attribute routes added by a convention, if any.
    pub global_prefix: Option<String>,
    pub pages: Vec<crate::razor::Page>,
    pub groups: Vec<EndpointGroup>,
}

pub fn split(facts: &Facts) -> Facts2 {
    let mut out = Facts2 {
        files: Vec::new(),
        routes: Vec::new(),
        calls: Vec::new(),
        token_transformer: None,
        global_prefix: None,
        pages: Vec::new(),
        groups: Vec::new(),
    };
    let mut prefixes = Vec::new();
    let mut conventions = Vec::new();
    let mut transformers = Vec::new();
    let mut lowercase = false;
    for f in facts.iter::<Fact>() {
        match f {
            Fact::File(x) => out.files.push(x),
            Fact::Route(x) => out.routes.push(x),
            Fact::Call(x) => out.calls.push(x),
            Fact::TokenConvention(x) => conventions.push(x),
            Fact::Transformer(x) => transformers.push(x),
            Fact::GlobalPrefix(x) => prefixes.push(x),
            Fact::LowercaseUrls => lowercase = true,
            Fact::RazorPage(x) => out.pages.push(x),
            Fact::EndpointGroup(x) => out.groups.push(x),
        }
    }
    prefixes.sort();
    out.global_prefix = prefixes.into_iter().next();
    conventions.sort();
    out.token_transformer = conventions.first().map(|c| {
        transformers
            .iter()
            .find(|t| &t.class == c)
            .cloned()
            .unwrap_or_else(|| Transformer::slugify(c))
    });
    if lowercase {
        let t = out.token_transformer.get_or_insert_with(|| Transformer {
            class: "LowercaseUrls".to_string(),
            separator: None,
            lower: true,
        });
        t.lower = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Transformer;

    #[test]
    fn slugify_inserts_separators_and_lowers() {
        let t = Transformer::slugify("Slugify");
        assert_eq!(t.apply("ArticleFavorites"), "article-favorites");
        assert_eq!(t.apply("Tags"), "tags");
        assert_eq!(t.apply("GetAPIKeys"), "get-apikeys");
        let snake = Transformer {
            class: "Snake".to_string(),
            separator: Some('_'),
            lower: false,
        };
        assert_eq!(snake.apply("OrderItems"), "Order_Items");
    }
}
