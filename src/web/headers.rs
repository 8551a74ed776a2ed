//! The security headers every response carries: a strict Content-Security-Policy and its
//! companions (no sniffing, no framing, no referrer to other sites).

use actix_web::middleware::DefaultHeaders;

/// The Content-Security-Policy of every response. Pages load scripts, styles and images from
/// this site only (`/static/`, built into the binary), images also as `data:` URLs; scripts
/// talk to this site only; forms post to it only; no site may frame a page; `<base>` is
/// refused. There is no `'unsafe-inline'` and no hash: no page has an inline script, event
/// handler, `style` attribute or `<style>` block (`tests/browser/browser_csp.rs` proves it in
/// Chromium). JSON, PGN and pictures get the same policy: opened on their own they need no
/// more, and a response that is none of ours to run stays inert.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

/// The headers added to every response that does not set them itself.
pub fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add(("Content-Security-Policy", CONTENT_SECURITY_POLICY))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("X-Frame-Options", "DENY"))
        .add(("Referrer-Policy", "same-origin"))
}

#[cfg(test)]
mod tests {
    use super::CONTENT_SECURITY_POLICY;

    #[test]
    fn the_policy_allows_nothing_inline() {
        assert!(CONTENT_SECURITY_POLICY.starts_with("default-src 'none';"));
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe"));
        for directive in [
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(CONTENT_SECURITY_POLICY.contains(directive), "{directive}");
        }
    }
}
