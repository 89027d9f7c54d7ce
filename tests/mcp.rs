//! `portolan mcp` driven by a real MCP client: the official Python SDK
//! (PyPI `mcp`) runs initialize → tools/list → tools/call against the
//! binary (`tests/mcp/client.py`). `scripts/test` installs the SDK into
//! `target/mcp-venv`; `PORTOLAN_MCP_PYTHON` names another interpreter.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("PORTOLAN_MCP_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = repo().join("target/mcp-venv/bin/python");
    assert!(
        venv.is_file(),
        "the MCP Python SDK is missing: run scripts/test, or\n  python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install mcp"
    );
    venv
}

#[test]
fn official_python_client_initializes_lists_and_calls_tools() {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("portolan-tests/cache");
    let out = Command::new(python())
        .arg(repo().join("tests/mcp/client.py"))
        .arg(env!("CARGO_BIN_EXE_portolan"))
        .arg(repo().join("examples/flask-shop"))
        .env("PORTOLAN_CACHE_DIR", cache)
        .output()
        .expect("run the MCP client");
    assert!(
        out.status.success(),
        "client failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["server"], "portolan");
    assert_eq!(
        v["tools"],
        serde_json::json!(["scan", "list_techs", "diff", "endpoint_context"])
    );
    assert!(v["instructions"]
        .as_str()
        .unwrap()
        .contains("Untrusted data"));
    assert_eq!(v["scan_is_error"], false);
    assert!(v["scan_note"]
        .as_str()
        .unwrap()
        .starts_with("Untrusted data"));
    let urls: Vec<&str> = v["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    assert!(
        urls.contains(&"/api/v1/cart/items/<int:item_id>"),
        "{urls:?}"
    );
    assert!(urls.len() >= 10, "{urls:?}");
    // `{item_id}` found the route the code spells `<int:item_id>`, with its
    // params and the ai_context the tool asks for.
    let ctx = &v["context"];
    assert_eq!(ctx["method"], "DELETE");
    assert_eq!(ctx["url"], "/api/v1/cart/items/<int:item_id>");
    assert!(ctx["ai_context"].is_object(), "{ctx}");
    assert!(ctx["params"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "item_id" && p["param_type"] == "path"));
    assert_eq!(v["missing_is_error"], true);
    assert_eq!(v["missing"], "no endpoint GET /nowhere in this scan");
    assert!(v["techs"].as_u64().unwrap() > 100);
    assert_eq!(v["diff"], "0 added, 0 removed, 0 changed\n");
}
