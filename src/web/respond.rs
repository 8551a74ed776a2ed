//! The answers every page handler shares: a rendered template with its status, the 303 that
//! follows a successful form, and the local redirect target taken from a form or an address.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use crate::web::errors::WebError;

/// Renders a template with a status code.
pub fn render(status: StatusCode, page: &impl Template) -> Result<HttpResponse, WebError> {
    let body = page.render().map_err(WebError::internal)?;
    Ok(crate::web::errors::with_retry_after(
        HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .body(body),
    ))
}

/// `next` if it is a path on this site (a redirect target from a form or the address), else
/// `fallback`: never another host. Browsers drop tabs and line breaks from an address and read
/// `\` as `/`, so `/\t/evil.example` would lead to `//evil.example`: a path with a control
/// character, white space or a backslash is not taken.
pub fn local_path(next: Option<&str>, fallback: &str) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && !n.contains(|c: char| c == '\\' || c.is_control() || c.is_whitespace()) =>
        {
            n.to_string()
        }
        _ => fallback.to_string(),
    }
}

/// A 303 redirect, the answer to every successful form post.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, location))
        .finish()
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn a_redirect_target_stays_on_the_site() {
        for ok in ["/", "/games/7?ply=3", "/search?player=alice&page=2"] {
            assert_eq!(local_path(Some(ok), "/"), ok);
        }
        for other in [
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r/evil.example",
            "/ /evil.example",
            "https://evil.example",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(local_path(Some(other), "/"), "/", "{other:?}");
        }
        assert_eq!(local_path(None, "/games"), "/games");
    }
}
