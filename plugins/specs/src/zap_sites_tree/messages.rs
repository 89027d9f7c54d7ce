//! ZAP's message export (History → Export Messages to File, a text file):
//! every message starts with a `==== <id> ==========` line, followed by
//! the raw request (request line with the absolute URL, headers, blank
//! line, body) and the raw response (status line, headers, body).
//!
//! The request of each message follows the capture rules of HAR
//! ([`crate::capture`]): static assets skipped, transport and
//! browser-added headers left out, one endpoint per method and path (first
//! message's location, union of the params). The request body ends where
//! the response's status line (`HTTP/1.1 200 …`) starts. Location: the
//! message's `====` line.

use portolan_plugin_sdk::prelude::*;

use crate::capture::{self, parse_raw};

/// A message separator line.
pub const DETECT_REGEX: &str = r"(?m)^==== \d+ ==========\s*$";

/// Is the line a message separator (`==== 12 ==========`)?
fn separator(line: &str) -> bool {
    let Some(rest) = line.trim_end().strip_prefix("==== ") else {
        return false;
    };
    let Some((id, bar)) = rest.split_once(' ') else {
        return false;
    };
    !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
        && bar.len() >= 3
        && bar.bytes().all(|b| b == b'=')
}

/// Reads a message export (see the module doc).
pub fn analyze(file: &SourceFile, out: &mut Output) {
    if !file.content.contains("==== ") {
        return;
    }
    let mut found = capture::Merged::default();
    // (line of the separator, byte range of the message).
    let mut messages: Vec<(u32, usize, usize)> = Vec::new();
    let mut offset = 0;
    for (i, line) in file.content.split_inclusive('\n').enumerate() {
        let end = offset + line.len();
        if separator(line) {
            if let Some(last) = messages.last_mut() {
                last.2 = offset;
            }
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            messages.push((number, end, file.content.len()));
        }
        offset = end;
    }
    for (line, start, end) in messages {
        let Some(message) = file.content.get(start..end) else {
            continue;
        };
        let request = message.trim_start_matches(['\r', '\n']);
        let request = request.get(..response_start(request)).unwrap_or(request);
        let Some(captured) = parse_raw(request) else {
            continue;
        };
        let body = captured.body.trim_end_matches(['\r', '\n']);
        let captured = capture::Captured { body, ..captured };
        if let Some(endpoint) = capture::endpoint(&captured) {
            found.add(endpoint.at(file, line));
        }
    }
    for endpoint in found.into_endpoints() {
        out.endpoint(endpoint);
    }
}

/// Where the response's status line starts after the request's headers
/// (`HTTP/<version> <3 digits>`), else the end.
fn response_start(message: &str) -> usize {
    let head_end = message
        .find("\r\n\r\n")
        .or_else(|| message.find("\n\n"))
        .unwrap_or(message.len());
    let Some(tail) = message.get(head_end..) else {
        return message.len();
    };
    for (i, _) in tail.match_indices("HTTP/") {
        let rest = &tail[i + 5..];
        let Some((version, after)) = rest.split_once(' ') else {
            continue;
        };
        let version_ok = !version.is_empty()
            && version.len() <= 3
            && version.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        let code = after.as_bytes().get(..3);
        let code_ok = code.is_some_and(|c| c.iter().all(u8::is_ascii_digit));
        if version_ok && code_ok {
            return head_end + i;
        }
    }
    message.len()
}
