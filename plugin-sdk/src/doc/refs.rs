//! Local JSON references (`$ref: '#/components/schemas/Pet'`).
//!
//! Only references into the same document are followed; external ones
//! (`other.yaml#/Pet`, URLs) are left unresolved.

use serde_json::Value;

use super::url::percent_decode;

/// Most `$ref` hops followed for one value (a longer chain is a cycle).
const MAX_HOPS: usize = 32;

/// The target of a local reference (`#`, `#/a/b~1c/0`) in `root`.
/// Tokens are percent-decoded, then `~1` → `/` and `~0` → `~`.
pub fn pointer<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    let mut current = root;
    for token in fragment.strip_prefix('/')?.split('/') {
        let token = percent_decode(token).replace("~1", "/").replace("~0", "~");
        current = match current {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// The `$ref` string of a value, if it is a reference object.
pub fn ref_of(value: &Value) -> Option<&str> {
    value.get("$ref")?.as_str()
}

/// Follows references within one document.
#[derive(Clone, Copy)]
pub struct Resolver<'a> {
    root: &'a Value,
}

impl<'a> Resolver<'a> {
    pub fn new(root: &'a Value) -> Self {
        Resolver { root }
    }

    pub fn root(&self) -> &'a Value {
        self.root
    }

    /// The target of a local reference.
    pub fn target(&self, reference: &str) -> Option<&'a Value> {
        pointer(self.root, reference)
    }

    /// Follow `$ref` until a value that is not a reference. `None` when a
    /// reference is external, dangling, or part of a cycle.
    pub fn deref(&self, value: &'a Value) -> Option<&'a Value> {
        let mut current = value;
        for _ in 0..MAX_HOPS {
            match ref_of(current) {
                Some(reference) => current = self.target(reference)?,
                None => return Some(current),
            }
        }
        None
    }

    /// [`Resolver::deref`], or the value itself when it cannot be followed.
    pub fn resolve(&self, value: &'a Value) -> &'a Value {
        self.deref(value).unwrap_or(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers() {
        let doc = json!({"a": {"b/c": [1, {"d~e": 2}], "x y": 3}});
        assert_eq!(pointer(&doc, "#/a/b~1c/1/d~0e"), Some(&json!(2)));
        assert_eq!(pointer(&doc, "#/a/x%20y"), Some(&json!(3)));
        assert_eq!(pointer(&doc, "#"), Some(&doc));
        assert_eq!(pointer(&doc, "#/a/b~1c/9"), None);
        assert_eq!(pointer(&doc, "#/a/b~1c/x"), None);
        assert_eq!(pointer(&doc, "other.yaml#/a"), None);
        assert_eq!(pointer(&doc, "#a"), None);
    }

    #[test]
    fn chains_cycles_and_dangling() {
        let doc = json!({
            "a": {"$ref": "#/b"}, "b": {"$ref": "#/c"}, "c": {"v": 1},
            "x": {"$ref": "#/y"}, "y": {"$ref": "#/x"},
            "d": {"$ref": "#/nowhere"}, "e": {"$ref": "ext.yaml#/c"}
        });
        let r = Resolver::new(&doc);
        assert_eq!(r.deref(&doc["a"]), Some(&json!({"v": 1})));
        assert_eq!(r.deref(&doc["x"]), None);
        assert_eq!(r.deref(&doc["d"]), None);
        assert_eq!(r.resolve(&doc["e"]), &doc["e"]);
        assert_eq!(r.resolve(&doc["c"]), &doc["c"]);
    }
}
