use portolan_plugin_sdk::{Analyzer, Endpoint, Facts, Output, SourceFile};

use super::link::strip_patterns;
use super::{JavaSpring, KotlinSpring};

fn run(analyzer: &dyn Analyzer, files: &[(&str, &str)]) -> Vec<Endpoint> {
    let mut facts = Facts::new(Vec::new());
    for (path, src) in files {
        let mut out = Output::new();
        analyzer.analyze(&SourceFile::new(*path, *src), &mut out);
        facts.extend(out.into_parts().1);
    }
    analyzer.link(&facts).expect("link")
}

fn summary(eps: &[Endpoint]) -> Vec<String> {
    eps.iter()
        .map(|e| {
            let params: Vec<String> = e
                .params
                .iter()
                .map(|p| format!("{:?}:{}={}", p.kind, p.name, p.value).to_lowercase())
                .collect();
            format!(
                "{} {} {}:{} [{}]{}",
                e.method,
                e.url,
                e.code_paths[0].path,
                e.code_paths[0].line.unwrap_or(0),
                params.join(","),
                if e.internal { " internal" } else { "" }
            )
        })
        .collect()
}

#[test]
fn regex_constraints_are_dropped_from_placeholders() {
    assert_eq!(
        strip_patterns("/a/{id:\\d+}/{slug:[a-z]{2,3}}/x"),
        "/a/{id}/{slug}/x"
    );
    assert_eq!(strip_patterns("/a/{b"), "/a/{b");
}

#[test]
fn java_functional_routes_with_nesting() {
    let src = r#"package com.acme;
import static org.springframework.web.reactive.function.server.RequestPredicates.*;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;

@Configuration
public class Routes {
    static final String USERS = "/users";

    @Bean
    RouterFunction<ServerResponse> routes(UserHandler h) {
        return RouterFunctions.route()
            .path("/api", b -> b
                .GET(USERS + "/{id}", h::get)
                .nest(path("/admin"), a -> a.DELETE("/cache", h::purge)))
            .POST("/login", h::login)
            .build()
            .and(nest(path("/v2"), route(GET("/items").and(accept(JSON)), h::items)
                .andRoute(PUT("/items/{id}"), h::put)));
    }
}
"#;
    let eps = run(&JavaSpring, &[("src/main/java/com/acme/Routes.java", src)]);
    assert_eq!(
        summary(&eps),
        [
            "GET /api/users/{id} src/main/java/com/acme/Routes.java:14 []",
            "DELETE /api/admin/cache src/main/java/com/acme/Routes.java:15 []",
            "POST /login src/main/java/com/acme/Routes.java:16 []",
            "GET /v2/items src/main/java/com/acme/Routes.java:18 []",
            "PUT /v2/items/{id} src/main/java/com/acme/Routes.java:19 []",
        ]
    );
}

#[test]
fn each_language_reports_its_own_controllers_and_tests_are_skipped() {
    let java = r#"package a;
@RestController
@RequestMapping("/j")
public class J { @GetMapping("/x") String x() { return ""; } }
"#;
    let kotlin = "package a\n@RestController\nclass K {\n  @PostMapping(\"/k\") fun k(@RequestBody b: Body) = 1\n}\n";
    let body = "package a;\npublic class Body { private String name; }\n";
    let test = "package a;\n@RestController\npublic class T { @GetMapping(\"/t\") String t() { return \"\"; } }\n";
    let files = [
        ("src/main/java/a/J.java", java),
        ("src/main/kotlin/a/K.kt", kotlin),
        ("src/main/java/a/Body.java", body),
        ("src/test/java/a/T.java", test),
    ];
    assert_eq!(
        summary(&run(&JavaSpring, &files)),
        ["GET /j/x src/main/java/a/J.java:4 []"]
    );
    assert_eq!(
        summary(&run(&KotlinSpring, &files)),
        ["POST /k src/main/kotlin/a/K.kt:4 [json:name=]"]
    );
}

#[test]
fn api_interface_without_implementation_is_reported_and_unresolved_paths_are_not() {
    let api = r#"package a;
@RequestMapping("/api")
public interface UsersApi {
    @GetMapping("/users") List<User> list(@RequestParam("q") String q);
    @GetMapping(Missing.PATH) void unknown();
}
"#;
    let eps = run(&JavaSpring, &[("src/main/java/a/UsersApi.java", api)]);
    assert_eq!(
        summary(&eps),
        ["GET /api/users src/main/java/a/UsersApi.java:4 [query:q=]"]
    );
}

#[test]
fn feign_request_line_and_any_method_mapping() {
    let client = r#"package a;
@FeignClient(name = "x", path = "/remote")
interface Remote {
    @RequestLine("POST /items/{id}?force={force}")
    void post(@Param("id") String id);
}
@Controller
class Legacy {
    @RequestMapping("/old")
    String old() { return "x"; }
}
"#;
    let eps = run(&JavaSpring, &[("src/main/java/a/Remote.java", client)]);
    assert_eq!(
        summary(&eps),
        [
            "POST /remote/items/{id} src/main/java/a/Remote.java:4 [query:force=] internal",
            "GET /old src/main/java/a/Remote.java:9 []",
            "POST /old src/main/java/a/Remote.java:9 []",
            "PUT /old src/main/java/a/Remote.java:9 []",
            "PATCH /old src/main/java/a/Remote.java:9 []",
            "DELETE /old src/main/java/a/Remote.java:9 []",
        ]
    );
}
