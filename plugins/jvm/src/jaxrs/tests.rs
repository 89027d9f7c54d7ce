use portolan_plugin_sdk::{Analyzer, Facts, Output, SourceFile};

use crate::quarkus::JavaQuarkus as JavaJaxrs;

#[test]
fn custom_http_method_annotation_and_quarkus_root_path() {
    let files = [
        (
            "src/main/resources/application.properties",
            "quarkus.http.root-path=/svc\nquarkus.rest.path=/rest\n",
        ),
        (
            "src/main/java/a/Purge.java",
            "package a;\n@Target(METHOD)\n@HttpMethod(\"PURGE\")\npublic @interface Purge {}\n",
        ),
        (
            "src/main/java/a/CacheResource.java",
            "package a;\n@Path(\"/cache/{name: [a-z]+}\")\npublic class CacheResource {\n  @Purge\n  public void purge(@PathParam(\"name\") String name) {}\n  @GET @Path(\"/keys\") public String keys(@QueryParam(\"prefix\") @DefaultValue(\"a\") String p) { return \"\"; }\n}\n",
        ),
    ];
    let mut facts = Facts::new(Vec::new());
    for (path, src) in files {
        let mut out = Output::new();
        JavaJaxrs.analyze(&SourceFile::new(path, src), &mut out);
        facts.extend(out.into_parts().1);
    }
    let eps = JavaJaxrs.link(&facts).expect("link");
    let got: Vec<_> = eps
        .iter()
        .map(|e| {
            format!(
                "{} {} {} {:?}",
                e.method,
                e.url,
                e.code_paths[0].line.unwrap_or(0),
                e.params
                    .iter()
                    .map(|p| (&p.name, &p.value))
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "PURGE /svc/rest/cache/{name} 4 [(\"name\", \"\")]",
            "GET /svc/rest/cache/{name}/keys 6 [(\"prefix\", \"a\")]",
        ]
    );
}
