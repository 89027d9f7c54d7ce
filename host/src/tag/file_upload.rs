//! `file_upload`: a POST/PUT endpoint that takes a file: a file parameter,
//! an upload-like parameter name, or an upload-like URL.

use super::{names, tag, Scope, Tagger};
use crate::model::{Endpoint, ParamType};

pub const TAGGER: Tagger = Tagger {
    id: "file_upload",
    label: "FileUpload",
    summary: "Marks POST/PUT endpoints that accept file uploads.",
    always: false,
    apply,
};

const WORDS: &[&str] = &[
    "file",
    "files",
    "upload",
    "attachment",
    "document",
    "image",
    "multipart",
    "content-type",
    "filename",
    "content-disposition",
];

const URL_WORDS: &[&str] = &["upload", "attach", "import"];

fn apply(e: &mut Endpoint, _: Scope) {
    if e.method != "POST" && e.method != "PUT" {
        return;
    }
    let url = e.url.to_ascii_lowercase();
    let by_param = e.params.iter().any(|p| p.param_type == ParamType::File)
        || names(e).iter().any(|n| WORDS.contains(&n.as_str()));
    if by_param || URL_WORDS.iter().any(|w| url.contains(w)) {
        tag(
            e,
            &TAGGER,
            "file_upload",
            "Accepts file uploads: check type and size limits, storage path and served content type.",
        );
    }
}
