use super::*;

use crate::js::test_support::{ps, Row};

fn run(path: &str, src: &str) -> Vec<Row> {
    let mut out = Output::new();
    NextJs.analyze(&SourceFile::new(path, src), &mut out);
    out.endpoints()
        .iter()
        .map(|e| {
            let ps = e
                .params
                .iter()
                .map(|p| (p.name.clone(), format!("{:?}", p.kind).to_lowercase()))
                .collect();
            (
                e.method.clone(),
                e.url.clone(),
                e.code_paths[0].line.unwrap_or(0),
                ps,
            )
        })
        .collect()
}

#[test]
fn segments() {
    let r = |p: &str| route_of(p).map(|(k, u, d)| (k, u, d.len()));
    assert_eq!(
        r("web/src/app/(shop)/api/products/[id]/route.ts"),
        Some((Kind::App, "/api/products/{id}".into(), 1))
    );
    assert_eq!(
        r("app/app/docs/[[...slug]]/route.js"),
        Some((Kind::App, "/docs/{slug}".into(), 1))
    );
    assert_eq!(
        r("app/pages/api/files/[...path].ts"),
        Some((Kind::Pages, "/api/files/{path}".into(), 1))
    );
    assert_eq!(
        r("app/pages/api/index.js"),
        Some((Kind::Pages, "/api".into(), 0))
    );
    assert_eq!(r("app/pages/about.tsx"), None);
    assert_eq!(r("app/app/_lib/route.ts"), None);
    assert_eq!(r("app/app/page.tsx"), None);
}

#[test]
fn pages_api_methods_and_params() {
    let rows = run(
        "app/pages/api/users/[id].ts",
        "import type { NextApiRequest, NextApiResponse } from 'next';\n\nexport default async function handler(req: NextApiRequest, res: NextApiResponse) {\n  const { id } = req.query;\n  if (req.method === 'PUT') {\n    const { name } = req.body;\n    return res.json({ id, name });\n  }\n  // if (req.method === 'PATCH') {}\n  switch (req.method) {\n    case 'DELETE':\n      return res.status(204).end();\n  }\n  res.json({ token: req.headers['x-token'] });\n}\n",
    );
    let p = ps(&[("name", "json"), ("x-token", "header")]);
    assert_eq!(
        rows,
        vec![
            ("PUT".into(), "/api/users/{id}".into(), 3, p.clone()),
            ("DELETE".into(), "/api/users/{id}".into(), 3, p),
        ]
    );
    let rows = run(
        "app/src/pages/api/hello.js",
        "export default (req, res) => res.json({ q: req.query.q });\n",
    );
    assert_eq!(
        rows,
        vec![
            ("GET".into(), "/api/hello".into(), 1, ps(&[("q", "query")])),
            ("POST".into(), "/api/hello".into(), 1, ps(&[("q", "query")])),
        ]
    );
}

#[test]
fn app_router_handlers() {
    let rows = run(
        "app/src/app/(api)/api/posts/route.ts",
        "import { NextResponse } from 'next/server';\nimport { cookies, headers } from 'next/headers';\n\nexport async function GET(request: Request) {\n  const { searchParams } = new URL(request.url);\n  const page = searchParams.get('page');\n  const lang = (await headers()).get('accept-language');\n  return NextResponse.json({ page, lang, s: cookies().get('session') });\n}\n\nexport const POST = async (req: Request) => {\n  const { title, tags } = await req.json();\n  const auth = req.headers.get('authorization');\n  return NextResponse.json({ title });\n};\n\nasync function update(req) {\n  const body = await req.json();\n  return body.title + body.draft;\n}\nexport { update as PUT, update as PATCH };\nfunction DELETE() {}\n",
    );
    assert_eq!(
        rows,
        vec![
            (
                "GET".into(),
                "/api/posts".into(),
                4,
                ps(&[
                    ("page", "query"),
                    ("accept-language", "header"),
                    ("session", "cookie")
                ])
            ),
            (
                "POST".into(),
                "/api/posts".into(),
                11,
                ps(&[
                    ("title", "json"),
                    ("tags", "json"),
                    ("authorization", "header")
                ])
            ),
            (
                "PUT".into(),
                "/api/posts".into(),
                21,
                ps(&[("title", "json"), ("draft", "json")])
            ),
            (
                "PATCH".into(),
                "/api/posts".into(),
                21,
                ps(&[("title", "json"), ("draft", "json")])
            ),
        ]
    );
    assert!(run("app/app/api/x/route.test.ts", "export function GET() {}").is_empty());
}

#[test]
fn app_route_helper_validating_with_a_local_schema() {
    let src = "import { z } from 'zod';\nimport { parseRequest } from '@/lib/request';\n\nexport async function POST(request: Request) {\n  const schema = z.object({\n    username: z.string(),\n    password: z.string(),\n  });\n  const { body, error } = await parseRequest(request, schema, { skipAuth: true });\n  return Response.json(body);\n}\n\nconst listSchema = z.object({ page: z.number(), search: z.string() });\n\nexport async function GET(req: Request) {\n  const { query } = await parseRequest(req, listSchema);\n  return Response.json(query);\n}\n";
    assert_eq!(
        run("src/app/api/auth/login/route.ts", src),
        vec![
            (
                "GET".into(),
                "/api/auth/login".into(),
                15,
                ps(&[("page", "query"), ("search", "query")])
            ),
            (
                "POST".into(),
                "/api/auth/login".into(),
                4,
                ps(&[("username", "json"), ("password", "json")])
            ),
        ]
    );
}
