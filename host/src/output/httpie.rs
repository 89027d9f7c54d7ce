//! `httpie`: one HTTPie command per HTTP endpoint (WebSocket endpoints are
//! skipped), in HTTPie's own request-item syntax so the command works as is:
//!
//! `http 'POST' '/users/{id}?page=' 'name=' 'X-API-Key;' 'Cookie:session='`
//!
//! JSON fields are `'name=value'` (HTTPie sends items as a JSON object by
//! default); a form body adds `--form` before the method; a header with a
//! value is `'Name:value'` and one without is `'Name;'` (HTTPie's spelling
//! of an empty header: `Name:` would remove it); all cookies go in one
//! `Cookie` header. Query params stay in the URL.

use super::bake::{bake, BodyKind};
use super::quote::shell;
use crate::model::{Endpoint, ParamType, Report};

pub fn render(report: &Report) -> String {
    super::commands(report, command)
}

pub fn command(e: &Endpoint) -> String {
    let b = bake(e);
    let mut cmd = String::from("http ");
    if b.body_kind == Some(BodyKind::Form) {
        cmd.push_str("--form ");
    }
    cmd.push_str(&format!("{} {}", shell(&e.method), shell(&b.url)));
    let body_types: &[ParamType] = match b.body_kind {
        Some(BodyKind::Json) => &[ParamType::Json],
        Some(BodyKind::Form) => &[ParamType::Form, ParamType::File],
        None => &[],
    };
    for p in e
        .params
        .iter()
        .filter(|p| body_types.contains(&p.param_type))
    {
        let item = if p.param_type == ParamType::File {
            format!("{}@{}", p.name, p.value)
        } else {
            format!("{}={}", p.name, p.value)
        };
        cmd.push(' ');
        cmd.push_str(&shell(&item));
    }
    for (name, value) in &b.headers {
        let item = if value.is_empty() {
            format!("{name};")
        } else {
            format!("{name}:{value}")
        };
        cmd.push(' ');
        cmd.push_str(&shell(&item));
    }
    if !b.cookies.is_empty() {
        let jar: Vec<String> = b.cookies.iter().map(|(n, v)| format!("{n}={v}")).collect();
        cmd.push(' ');
        cmd.push_str(&shell(&format!("Cookie:{}", jar.join("; "))));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Param;
    use crate::output::testing::example;

    #[test]
    fn json_and_form() {
        assert_eq!(
            command(&example()),
            "http 'POST' '/users/{id}?page=' 'name=' 'X-API-Key;' 'Cookie:session='"
        );
        let mut e = Endpoint::new("POST", "/login");
        e.params.push(Param::new("user", ParamType::Form));
        e.params.push(Param {
            value: "Bearer x".into(),
            ..Param::new("Authorization", ParamType::Header)
        });
        assert_eq!(
            command(&e),
            "http --form 'POST' '/login' 'user=' 'Authorization:Bearer x'"
        );
    }
}
