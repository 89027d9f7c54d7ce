use super::*;

use crate::js::test_support::{ps, rows, Row};

fn run(files: &[(&str, &str)]) -> Vec<Row> {
    rows(&Hono, files)
}

#[test]
fn apps_routes_and_validators() {
    let rows = run(&[
        (
            "app/src/index.ts",
            "import { Hono } from 'hono';\nimport books from './books';\nconst app = new Hono().basePath('/api');\nconst v2 = app.basePath('/v2');\napp.route('/books', books);\napp.get('/health', (c) => c.text(c.req.query('deep') ?? ''))\n  .on(['PUT', 'DELETE'], '/cache/:key', (c) => c.text(c.req.param('key')));\nv2.get('/me', (c) => c.json({ t: getCookie(c, 'token') }));\n// app.get('/old', h);\nexport default app;\n",
        ),
        (
            "app/src/books.ts",
            "import { Hono } from 'hono';\nimport { zValidator } from '@hono/zod-validator';\nimport { z } from 'zod';\nconst createBook = z.object({ title: z.string(), author: z.string() });\nconst app = new Hono();\napp.get('/', (c) => { const { page } = c.req.query(); return c.json([]); });\napp.post('/', zValidator('json', createBook), zValidator('query', z.object({ draft: z.string() })), async (c) => {\n  const key = c.req.header('X-Api-Key');\n  return c.json(c.req.valid('json'));\n});\nexport default app;\n",
        ),
        ("app/src/books.test.ts", "const app = new Hono();\napp.get('/test-only', (c) => c.text(''));\n"),
        ("app/src/client.ts", "const res = await client.get('/x', {});\nmap.get(a, b);\n"),
    ]);
    assert_eq!(
        rows,
        vec![
            (
                "DELETE".to_string(),
                "/api/cache/:key".to_string(),
                7,
                ps(&[("key", "path")])
            ),
            (
                "GET".into(),
                "/api/books".into(),
                6,
                ps(&[("page", "query")])
            ),
            (
                "GET".into(),
                "/api/health".into(),
                6,
                ps(&[("deep", "query")])
            ),
            (
                "GET".into(),
                "/api/v2/me".into(),
                8,
                ps(&[("token", "cookie")])
            ),
            (
                "POST".into(),
                "/api/books".into(),
                7,
                ps(&[
                    ("title", "json"),
                    ("author", "json"),
                    ("draft", "query"),
                    ("X-Api-Key", "header")
                ])
            ),
            (
                "PUT".into(),
                "/api/cache/:key".into(),
                7,
                ps(&[("key", "path")])
            ),
        ]
    );
}
