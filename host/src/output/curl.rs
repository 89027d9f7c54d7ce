//! `curl`: one command per HTTP endpoint (WebSocket endpoints are skipped).
//!
//! `curl -i -X 'POST' '/users/{id}?page=' -d '{"name":""}' -H 'Content-Type: application/json' -H 'X-API-Key: ' --cookie 'session='`
//!
//! Every argument is single-quoted for POSIX shells; a form body gets
//! `Content-Type: application/x-www-form-urlencoded`; all cookies go in one
//! `--cookie 'a=; b='`.

use super::bake::bake;
use super::quote::shell;
use crate::model::{Endpoint, Report};

pub fn render(report: &Report) -> String {
    super::commands(report, command)
}

pub fn command(e: &Endpoint) -> String {
    let b = bake(e);
    let mut cmd = format!("curl -i -X {} {}", shell(&e.method), shell(&b.url));
    if let (Some(body), Some(kind)) = (&b.body, b.body_kind) {
        cmd.push_str(&format!(
            " -d {} -H {}",
            shell(body),
            shell(&format!("Content-Type: {}", kind.content_type()))
        ));
    }
    for (name, value) in &b.headers {
        cmd.push_str(&format!(" -H {}", shell(&format!("{name}: {value}"))));
    }
    if !b.cookies.is_empty() {
        let jar: Vec<String> = b.cookies.iter().map(|(n, v)| format!("{n}={v}")).collect();
        cmd.push_str(&format!(" --cookie {}", shell(&jar.join("; "))));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Param, ParamType};
    use crate::output::testing::example;

    #[test]
    fn output_md_example() {
        assert_eq!(
            command(&example()),
            "curl -i -X 'POST' '/users/{id}?page=' -d '{\"name\":\"\"}' -H 'Content-Type: application/json' -H 'X-API-Key: ' --cookie 'session='"
        );
    }

    #[test]
    fn form_body_and_quotes() {
        let mut e = Endpoint::new("PUT", "/it's");
        e.params.push(Param {
            value: "o'k".into(),
            ..Param::new("a", ParamType::Form)
        });
        assert_eq!(
            command(&e),
            "curl -i -X 'PUT' '/it'\\''s' -d 'a=o'\\''k' -H 'Content-Type: application/x-www-form-urlencoded'"
        );
        let mut ws = Endpoint::new("GET", "/ws");
        ws.protocol = "ws".into();
        let r = crate::output::testing::report(vec![ws]);
        assert_eq!(render(&r), "");
    }

    #[test]
    fn other_protocols_are_a_comment_saying_why() {
        let mut link = Endpoint::new("GET", "shopapp://product/{id}\n+curl evil");
        link.protocol = "shopapp".into();
        let mut https = Endpoint::new("GET", "/orders");
        https.protocol = "https".into();
        let r = crate::output::testing::report(vec![link, https]);
        assert_eq!(
            render(&r),
            "# skipped GET shopapp://product/{id}\\x0a+curl evil: protocol `shopapp` is not HTTP, so there is no request to replay\ncurl -i -X 'GET' '/orders'\n"
        );
        for text in [
            crate::output::oas3::render(&r, &Default::default()),
            crate::output::postman::render(&r, &Default::default()),
        ] {
            assert!(
                !text.contains("shopapp") && !text.contains("product"),
                "{text}"
            );
            assert!(text.contains("/orders"), "{text}");
        }
    }
}
