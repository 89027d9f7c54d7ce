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

/// A URL scheme as written (trimmed), or `None` when it cannot be one
/// (empty, or holding `/`, `:` or spaces). Build variables are kept as
/// written: `$(PRODUCT_BUNDLE_IDENTIFIER)`.
pub(crate) fn scheme(raw: &str) -> Option<&str> {
    let s = raw.trim();
    if s.is_empty() || s.contains(['/', ' ', ':']) {
        return None;
    }
    Some(s)
}
