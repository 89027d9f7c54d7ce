//! Mobile application link sources: what a phone app accepts from the
//! outside (deep links, universal/App Links, exported components) and the
//! files a web site serves to claim those links.
//!
//! - [`android`]: `AndroidManifest.xml` deep links and exported components.
//! - [`ios`]: `Info.plist` URL schemes and `*.entitlements` associated domains.
//! - [`well_known_applinks`]: `assetlinks.json` and `apple-app-site-association`.
//!
//! Endpoint shapes (also in `docs/mobile.md`): a deep link is `GET` on its
//! full URL (`myapp://host/path`, `https://example.com/path`) with the
//! scheme as `protocol`; an Android component is `GET intent://<package>/<class>`
//! (protocol `intent`) or `GET content://<authority>` (protocol `content`).

pub mod android;
pub mod ios;
pub mod well_known_applinks;

/// A URL scheme as written (trimmed), or `None` when it is not one
/// (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`). Build
/// variables (`$(PRODUCT_BUNDLE_IDENTIFIER)`, `${scheme}`) are not URLs
/// until the build resolves them, so they are `None` too.
pub(crate) fn scheme(raw: &str) -> Option<&str> {
    let s = raw.trim();
    let mut bytes = s.bytes();
    let first = bytes.next()?;
    let valid = first.is_ascii_alphabetic()
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    valid.then_some(s)
}
