use super::scan::{scan, Read};
use portolan_plugin_sdk::{ParamKind, SourceFile};

#[test]
fn groups_resources_and_reads() {
    let src = "import router from '@adonisjs/core/services/router'\n\
        const C = () => import('#controllers/c')\n\
        router.group(() => {\n  router.group(() => {\n    router.resource('a.b', C).except(['create', 'edit', 'destroy'])\n  }).prefix('v1')\n  // router.get('/no', [C, 'x'])\n}).prefix('/api')\n\
        router.get('/x', async ({ request }) => request.qs().page)\n";
    let m = scan(&SourceFile::new("start/routes.ts", src));
    let urls: Vec<_> = m
        .routes
        .iter()
        .map(|r| (r.methods.join("+"), r.url.as_str(), r.line))
        .collect();
    assert_eq!(
        urls,
        vec![
            ("GET".to_string(), "/api/v1/a/:a_id/b", 5),
            ("POST".into(), "/api/v1/a/:a_id/b", 5),
            ("GET".into(), "/api/v1/a/:a_id/b/:id", 5),
            ("PUT+PATCH".into(), "/api/v1/a/:a_id/b/:id", 5),
            ("GET".into(), "/x", 9),
        ]
    );
    assert_eq!(
        m.routes[4].reads,
        vec![Read::Direct(ParamKind::Query, "page".into())]
    );
    assert_eq!(
        m.imports[1],
        ("C".to_string(), "#controllers/c".to_string())
    );
}
