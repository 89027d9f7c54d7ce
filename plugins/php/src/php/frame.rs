//! The scaffolding the route-chain frameworks (CakePHP, CodeIgniter,
//! Hyperf, Laminas/Mezzio, Yii) share: which files they read, route chains
//! over a whole file, and the per-class facts their link step indexes.

use portolan_plugin_sdk::prelude::*;
use serde::Serialize;

use super::expr::{chains, Chain, Ctx};
use super::handler::Index;
use super::outline::{classes, Class};
use super::tokens::{tokenize, Token};
use crate::symfony::scan::is_vendor;

/// The tokens of an application PHP file; `None` for tests, vendored code
/// and other files.
pub fn app_tokens(file: &SourceFile) -> Option<Vec<Token>> {
    let path = file.slash_path();
    if is_test_path(&path) || is_vendor(&path) || !path.ends_with(".php") {
        return None;
    }
    Some(tokenize(&file.content))
}

/// The route chains of a whole token list, starting where `is_start` says.
pub fn file_chains(
    toks: &[Token],
    line_of: &dyn Fn(usize) -> u32,
    is_start: &dyn Fn(&[Token], usize) -> bool,
) -> Vec<Chain> {
    let cx = Ctx {
        toks,
        line_of,
        is_chain_start: is_start,
    };
    chains(&cx, 0, toks.len())
}

/// One fact `make(path, items)` when `items` is not empty.
pub fn fact_if_any<T, F: Serialize>(
    out: &mut Output,
    file: &SourceFile,
    items: Vec<T>,
    make: impl FnOnce(String, Vec<T>) -> F,
) {
    if !items.is_empty() {
        out.fact(&make(file.path.clone(), items));
    }
}

/// One fact `make(path, class)` per class the file declares.
pub fn class_facts<F: Serialize>(
    out: &mut Output,
    file: &SourceFile,
    toks: &[Token],
    line_of: &dyn Fn(usize) -> u32,
    make: impl Fn(String, Class) -> F,
) {
    let text = &file.content;
    if text.contains("class ") {
        for class in classes(text, toks, line_of) {
            out.fact(&make(file.path.clone(), class));
        }
    }
}

/// The class index of the facts `class_of` picks.
pub fn class_index<'a, F>(
    facts: &'a [F],
    class_of: impl Fn(&'a F) -> Option<(&'a String, &'a Class)>,
) -> Index<'a> {
    let mut index = Index::default();
    for (path, class) in facts.iter().filter_map(class_of) {
        index.push(path, class);
    }
    index
}
