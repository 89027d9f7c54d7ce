use super::*;
use crate::testing::{fixture, report, run, summary};

fn analyze(path: &str, content: &str) -> (Vec<String>, Vec<String>) {
    let _ = host::take_logs();
    let mut out = Output::new();
    Oas3.analyze(&SourceFile::new(path, content), &mut out);
    (
        out.endpoints().iter().map(summary).collect(),
        host::take_logs(),
    )
}

fn endpoints(path: &str, content: &str) -> Vec<String> {
    let (endpoints, logs) = analyze(path, content);
    assert!(logs.is_empty(), "{logs:?}");
    endpoints
}

fn check_fixture(case: &str, expected: &[&str]) -> Vec<String> {
    let dir = fixture(&format!("oas3/{case}"));
    let result = run(&Oas3, &dir);
    let got: Vec<String> = result.endpoints.iter().map(summary).collect();
    assert_eq!(got, expected, "{case}: endpoints");
    let file = std::fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let mut want: Value = serde_json::from_str(&file).expect("expected.json is JSON");
    // The tree may hold other documents (a Swagger 2.0 file): oas3's part.
    if let Some(list) = want["endpoints"].as_array_mut() {
        list.retain(|e| e["details"]["technology"] == "oas3");
    }
    assert_eq!(
        report(&result.endpoints, "oas3"),
        want,
        "{case}: expected.json"
    );
    result.logs
}

#[test]
fn fixture_yaml() {
    let logs = check_fixture(
        "yaml",
        &[
            "GET /v1/pets @16 [query limit=20, query tag=, header X-Request-ID=]",
            "POST /v1/pets @36 [json name=doggie, json tag=dog, json owner=]",
            "GET /v1/pets/{petId} @52 [path petId=, header X-Tenant=public, cookie session=]",
            "PUT /v1/pets/{petId} @65 [path petId=, header X-Tenant=acme, json name=doggie, json tag=, json owner=, json status=available]",
            "DELETE /v1/pets/{petId} @82 [path petId=, header X-Tenant=acme]",
            "POST /v1/pets/{petId}/photos @88 [form caption=, file photo=, file thumbnails=]",
            "POST /v1/pets/batch @108 []",
            "POST /v1/login @121 [form username=, form password=, form remember_me=false]",
            "GET /metrics/v2/stats @137 [query period=daily]",
        ],
    );
    assert!(logs.is_empty(), "{logs:?}");
}

#[test]
fn fixture_json() {
    let logs = check_fixture(
        "json",
        &[
            "GET /v2/ @18 []",
            "GET /v2/books @20 [query page=1, query q=dune, query filter=]",
            "POST /v2/books @45 [json isbn=978-0441013593, json title=, json authors=, json published=1965, \
             form isbn=978-0441013593, form title=, form authors=, form published=1965]",
            "GET /v2/books/{isbn} @56 [path isbn=, cookie lang=en, header If-None-Match=]",
            "PATCH /v2/books/{isbn} @62 [path isbn=, cookie lang=en, json title=, json available=true]",
            "DELETE /v2/books/{isbn} @72 [path isbn=, header X-Api-Key=, cookie lang=fr]",
            "PUT /v2/books/{isbn}/cover @81 [file image=, file original=, form alt=Front cover]",
            "POST /v2/search @102 [json title=, json exact=, json author=]",
            "HEAD /v2/health @120 []",
            "GET /v2/health @121 []",
        ],
    );
    assert!(logs.is_empty(), "{logs:?}");
}

#[test]
fn fixture_noise() {
    let logs = check_fixture(
        "noise",
        &[
            "GET /internal/users @9 [query role=]",
            "POST /internal/users/{userId}/reset-password @14 [path userId=, json notify=]",
        ],
    );
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(
        logs[0].starts_with("warn: app/broken/openapi.yaml: invalid YAML: "),
        "{logs:?}"
    );
}

/// The detection regex, the text pre-check and the parsed document agree.
#[test]
fn detection_rule_matches_only_openapi_3() {
    let re = regex::Regex::new(DETECT_REGEX).expect("valid regex");
    let yes = [
        "openapi: 3.0.0\n",
        "openapi: \"3.1.0\"\n",
        "openapi: '3.0.3'\n",
        "# spec\n---\nopenapi: 3.1.0\n",
        "\u{feff}openapi: 3.0.1\n",
        "\"openapi\": 3.0\n",
        "{\"openapi\":\"3.0.0\",\"paths\":{}}",
        "{\n  \"info\": {},\n  \"openapi\": \"3.1.0\"\n}",
        "{\n\t\"openapi\" : \"3.0.2\"\n}",
        "info:\n  title: x\nopenapi: 3.0.0\n",
        "{openapi: 3.0.0, paths: {}}\n",
    ];
    let no = [
        "swagger: '2.0'\n",
        "{\"swagger\": \"2.0\", \"info\": {\"description\": \"openapi: 3.0\"}}",
        "openapi: 2.0\n",
        "openapi: 30\n",
        "openapi: 3\n",
        "info:\n  openapi: 3.0.0\n",
        "services:\n  api:\n    labels:\n      openapi: \"3.0.2\"\n",
        "description: see openapi: 3.0.0\n",
        "{\"dependencies\": {\"openapi-types\": \"^3.0.0\"}}",
        "x-openapi: 3.0.0\n",
        "name: openapi\nversion: 3.0.0\n",
    ];
    for text in yes {
        assert!(re.is_match(text), "regex should match {text:?}");
        assert!(declares_openapi_3(text), "pre-check should pass {text:?}");
    }
    for text in no {
        assert!(!re.is_match(text), "regex should not match {text:?}");
        assert!(!declares_openapi_3(text), "pre-check should fail {text:?}");
    }
    // Every fixture file: detected exactly when it is OpenAPI 3 (the broken
    // one declares it too).
    for (case, file, is_oas3) in [
        ("yaml", "openapi.yaml", true),
        ("json", "docs/library-api.json", true),
        ("noise", "api/openapi.yml", true),
        ("noise", "broken/openapi.yaml", true),
        ("noise", "package.json", false),
        ("noise", "docker-compose.yml", false),
        ("noise", "legacy/swagger.json", false),
    ] {
        let path = fixture(&format!("oas3/{case}/app/{file}"));
        let text = std::fs::read_to_string(path).expect("fixture");
        assert_eq!(re.is_match(&text), is_oas3, "{case}/{file}");
        assert_eq!(declares_openapi_3(&text), is_oas3, "{case}/{file}");
    }
}

#[test]
fn only_openapi_3_documents_are_analyzed() {
    let paths = "paths:\n  /a:\n    get: {}\n";
    assert_eq!(
        endpoints("a.yaml", &format!("openapi: 3.0.0\n{paths}")),
        ["GET /a @4 []"]
    );
    assert_eq!(
        endpoints("a.yaml", &format!("openapi: 3.1\n{paths}")),
        ["GET /a @4 []"]
    );
    assert!(endpoints("a.yaml", &format!("swagger: '2.0'\n{paths}")).is_empty());
    assert!(endpoints("a.yaml", &format!("openapi: 2.0.0\n{paths}")).is_empty());
    assert!(endpoints("a.yaml", &format!("openapi: 4.0\n{paths}")).is_empty());
    assert!(endpoints("a.yaml", &format!("openapi: [3.0]\n{paths}")).is_empty());
    // Nested `openapi` keys pass the pre-check but not the document check.
    assert!(endpoints(
        "a.json",
        "{\"docs\": {\"openapi\": \"3.0.0\", \"paths\": {\"/a\": {\"get\": {}}}}}"
    )
    .is_empty());
    // No paths at all (a 3.1 webhooks-only document): nothing, no warning.
    assert!(endpoints("a.yaml", "openapi: 3.1.0\nwebhooks: {}\n").is_empty());
    assert!(endpoints("a.yaml", "openapi: 3.1.0\npaths:\n").is_empty());
}

#[test]
fn malformed_documents_warn_and_yield_nothing() {
    for (path, text, why) in [
        ("a.yaml", "openapi: 3.0.0\npaths: [\n", "invalid YAML"),
        (
            "a.json",
            "{\"openapi\": \"3.0.0\", \"paths\": {",
            "invalid JSON",
        ),
        (
            "a.yaml",
            "openapi: 3.0.0\npaths:\n  - /a\n",
            "`paths` is not a mapping",
        ),
        ("a.yaml", "openapi: 3.0.0\na: 1\na: 2\n", "invalid YAML"),
    ] {
        let (found, logs) = analyze(path, text);
        assert!(found.is_empty(), "{text:?}: {found:?}");
        assert_eq!(logs.len(), 1, "{text:?}: {logs:?}");
        assert!(
            logs[0].starts_with(&format!("warn: {path}: {why}")),
            "{logs:?}"
        );
    }
    // Bad entries are skipped with a warning; good ones still count.
    let (found, logs) = analyze(
        "a.yaml",
        "openapi: 3.0.0\npaths:\n  /a: 3\n  /b:\n    get: nope\n    post:\n      parameters: 7\n      requestBody: {content: 1}\n  /c:\n  /d:\n    put:\n",
    );
    assert_eq!(found, ["POST /b @6 []", "PUT /d @11 []"]);
    assert_eq!(
        logs,
        [
            "warn: a.yaml: path `/a` is not a mapping",
            "warn: a.yaml: operation `get /b` is not a mapping"
        ]
    );
}

#[test]
fn server_urls_become_base_paths() {
    let doc = |servers: &str| {
        format!("openapi: 3.0.0\nservers:\n{servers}paths:\n  /a:\n    get: {{}}\n")
    };
    let cases = [
        ("  - url: https://api.example.com/v1\n", "/v1/a"),
        ("  - url: https://api.example.com/v1/\n", "/v1/a"),
        ("  - url: https://api.example.com\n", "/a"),
        ("  - url: /\n", "/a"),
        ("  - url: /api\n  - url: /other\n", "/api/a"),
        ("  - url: api\n", "/api/a"),
        ("  - url: '{scheme}://{host}/{basePath}'\n    variables:\n      scheme: {default: https}\n      host: {default: h.example.com}\n      basePath: {default: base/v3}\n", "/base/v3/a"),
        ("  - url: '/{missing}/v1'\n", "/v1/a"),
        ("  - url: 'https://h/v1?x=1'\n", "/v1/a"),
        ("  []\n", "/a"),
        ("  - description: no url\n", "/a"),
    ];
    for (servers, url) in cases {
        let found = endpoints("a.yaml", &doc(servers));
        assert_eq!(found.len(), 1, "{servers}");
        assert!(
            found[0].starts_with(&format!("GET {url} @")),
            "{servers}: {found:?}"
        );
    }
    // No servers: no prefix; a path of `/` stays.
    let found = endpoints(
        "a.yaml",
        "openapi: 3.0.0\npaths:\n  /:\n    get: {}\n  /b/:\n    get: {}\n",
    );
    assert_eq!(found, ["GET / @4 []", "GET /b/ @6 []"]);
    // Operation servers win over path servers, which win over the document's.
    let found = endpoints(
        "a.yaml",
        "openapi: 3.0.0\nservers: [{url: /doc}]\npaths:\n  /a:\n    servers: [{url: /item}]\n    get:\n      servers: [{url: /op}]\n    put: {}\n  /b:\n    get: {}\n",
    );
    assert_eq!(
        found,
        ["GET /op/a @6 []", "PUT /item/a @8 []", "GET /doc/b @10 []"]
    );
}

#[test]
fn parameters_refs_overrides_and_values() {
    let found = endpoints(
        "a.yaml",
        "\
openapi: 3.0.0
paths:
  /a:
    parameters:
      - {name: x, in: query, example: 1}
      - {name: y, in: query}
      - {$ref: '#/components/parameters/Z'}
      - {name: body, in: body}
      - {name: nameless}
      - {$ref: '#/components/parameters/Missing'}
    get:
      parameters:
        - {name: x, in: header, schema: {default: h}}
        - {name: y, in: query, schema: {$ref: '#/components/schemas/Y'}}
        - {name: w, in: query, examples: {a: {$ref: '#/components/examples/W'}}}
        - {name: v, in: query, example: {complex: true}, schema: {example: 5}}
        - {name: u, in: query, content: {application/json: {schema: {example: 9}}}}
components:
  parameters:
    Z: {name: z, in: cookie, schema: {type: boolean, default: true}}
  schemas:
    Y: {type: integer, default: 42}
  examples:
    W: {value: 2.5}
",
    );
    assert_eq!(
        found,
        ["GET /a @11 [query x=1, cookie z=true, header x=h, query y=42, query w=2.5, query v=5, query u=9]"]
    );
}

#[test]
fn request_bodies() {
    let found = endpoints(
        "a.yaml",
        "\
openapi: 3.0.0
paths:
  /a:
    post:
      requestBody:
        content:
          application/json; charset=utf-8:
            schema: {$ref: '#/components/schemas/Node'}
            examples:
              one: {value: {name: first}}
          application/xml:
            schema: {properties: {xml: {}}}
          text/plain: {}
          application/x-www-form-urlencoded:
            schema:
              anyOf:
                - properties: {a: {}}
                - properties: {b: {type: string, format: binary}}
          multipart/form-data:
            schema:
              properties:
                doc: {$ref: '#/components/schemas/Blob'}
                meta: {type: object}
            encoding:
              meta: {contentType: application/json}
    put:
      requestBody: {$ref: '#/components/requestBodies/Missing'}
components:
  schemas:
    Node:
      properties:
        name: {type: string}
        children: {type: array, items: {$ref: '#/components/schemas/Node'}}
      allOf: [{$ref: '#/components/schemas/Node'}]
    Blob: {type: string, format: binary}
",
    );
    assert_eq!(
        found,
        [
            "POST /a @4 [json name=first, json children=, form a=, form b=, file doc=, form meta=]",
            "PUT /a @26 []"
        ]
    );
}

#[test]
fn lines_in_json_and_flow_yaml() {
    let json = "{\"openapi\":\"3.0.0\",\"info\":{\"description\":\"\\\"/a\\\": {\\\"get\\\": 1}\"},\n\"paths\":{\"/a\":{\n\"get\":{},\"post\":{}},\n\"/b\":{\"$ref\":\"#/components/pathItems/B\"}},\n\"components\":{\"pathItems\":{\"B\":{\"get\":{}}}}}";
    assert_eq!(
        endpoints("a.json", json),
        ["GET /a @3 []", "POST /a @3 []", "GET /b @4 []"]
    );
    let yaml = "openapi: 3.0.0\ninfo: {description: \"/a: get:\"}\npaths: {/a: {get: {},\n  post: {}}, '/b/{id}': {\n    delete: {}}}\n";
    assert_eq!(
        endpoints("a.yml", yaml),
        ["GET /a @3 []", "POST /a @4 []", "DELETE /b/{id} @5 []"]
    );
    // Extensions and unknown keys in path items are not operations; method
    // keys are matched case-insensitively.
    let yaml = "openapi: 3.0.0\npaths:\n  x-internal: {get: {}}\n  /a:\n    summary: s\n    x-get: {}\n    GET: {}\n";
    assert_eq!(endpoints("a.yaml", yaml), ["GET /a @7 []"]);
}

/// Cut the fixtures at many places: never a panic, at most a warning.
#[test]
fn truncated_documents_never_panic() {
    for (case, file) in [
        ("yaml", "openapi.yaml"),
        ("json", "docs/library-api.json"),
        ("noise", "api/openapi.yml"),
    ] {
        let path = fixture(&format!("oas3/{case}/app/{file}"));
        let text = std::fs::read_to_string(path).expect("fixture");
        let mut cut = 0;
        while cut < text.len() {
            if text.is_char_boundary(cut) {
                let (_, logs) = analyze(file, &text[..cut]);
                assert!(logs.len() <= 1, "{logs:?}");
            }
            cut += 7;
        }
        // And with every line's indentation shifted.
        let shifted: String = text.lines().map(|l| format!(" {l}\n")).collect();
        let _ = analyze(file, &format!("openapi: 3.0.0\n{shifted}"));
    }
}

/// Real-world check: `OAS3_CORPUS=<dir> cargo test -- --ignored corpus`
/// analyzes every JSON/YAML file below `<dir>` and checks that each
/// endpoint's line is the line of its method key.
#[test]
#[ignore = "needs OAS3_CORPUS=<dir of OpenAPI documents>"]
fn corpus_lines_point_at_method_keys() {
    let Some(dir) = std::env::var_os("OAS3_CORPUS") else {
        return;
    };
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(d).expect("corpus dir").flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p
                .extension()
                .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
            {
                files.push(p);
            }
        }
    }
    files.sort();
    let re = regex::Regex::new(DETECT_REGEX).expect("regex");
    let (mut total, mut bad) = (0, Vec::new());
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let display = path.display().to_string();
        let _ = host::take_logs();
        let mut out = Output::new();
        Oas3.analyze(&SourceFile::new(display.clone(), text.clone()), &mut out);
        for log in host::take_logs() {
            println!("{log}");
        }
        if std::env::var_os("OAS3_CORPUS_DUMP").is_some() {
            for e in out.endpoints() {
                println!("{display}: {}", summary(e));
            }
        }
        let detected = re.is_match(&text);
        let parsed = load::parse(&display, &text).is_ok_and(|doc| is_openapi_3(&doc));
        if detected != parsed || declares_openapi_3(&text) != parsed {
            bad.push(format!(
                "{display}: detected {detected}, OpenAPI 3 {parsed}"
            ));
        }
        let lines: Vec<&str> = text.lines().collect();
        for e in out.endpoints() {
            total += 1;
            let line = e.code_paths[0].line.unwrap_or(0) as usize;
            let text = lines.get(line.wrapping_sub(1)).copied().unwrap_or("");
            let method = e.method.to_ascii_lowercase();
            let ok = [
                format!("{method}:"),
                format!("\"{method}\""),
                format!("'{method}'"),
            ]
            .iter()
            .any(|k| text.to_ascii_lowercase().contains(k.as_str()));
            // A path item that is a `$ref` is located at its path key.
            let path_ref = lines.get(line).is_some_and(|next| next.contains("$ref"));
            if !ok && !path_ref {
                bad.push(format!(
                    "{display}:{line}: {} {}: {text:?}",
                    e.method, e.url
                ));
            }
        }
    }
    println!("{total} endpoints, {} not on their method key", bad.len());
    for b in &bad {
        println!("  {b}");
    }
    assert!(bad.is_empty());
}
