//! `mcp`: Marks Model Context Protocol servers (the endpoints AI agents call for tools and resources). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "mcp",
    label: "Mcp",
    summary: "Marks Model Context Protocol servers (the endpoints AI agents call for tools and resources).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &["mcp", "model context protocol"],
    weak_url: &["sse", "messages", "message", "tools", "prompts"],
    strong_params: &["mcp session id", "mcp protocol version"],
    weak_params: &["jsonrpc"],
};

word_tagger!(WORDS, "mcp", "MCP endpoint: every tool it exposes is callable by whoever reaches it; check authentication and tool scopes.");
