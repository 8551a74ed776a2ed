//! The static files (CSS, script, piece images), built into the binary so it runs anywhere.

use crate::web::route_table::{Access, Routes};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

/// One embedded file.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
    /// [`content_hash`] of `bytes`, worked out when the binary is compiled.
    hash: u64,
}

macro_rules! asset {
    ($path:literal, $type:expr) => {{
        const BYTES: &[u8] = include_bytes!(concat!("../../static/", $path));
        Asset {
            path: $path,
            content_type: $type,
            bytes: BYTES,
            hash: content_hash(BYTES),
        }
    }};
}

const SVG: &str = "image/svg+xml";

static ASSETS: &[Asset] = &[
    asset!("site.css", "text/css; charset=utf-8"),
    asset!("board.js", "text/javascript; charset=utf-8"),
    asset!("navigate.js", "text/javascript; charset=utf-8"),
    asset!("panel.js", "text/javascript; charset=utf-8"),
    asset!("analysis.js", "text/javascript; charset=utf-8"),
    asset!("engine.js", "text/javascript; charset=utf-8"),
    asset!("match.js", "text/javascript; charset=utf-8"),
    asset!("mines.js", "text/javascript; charset=utf-8"),
    asset!("grid.js", "text/javascript; charset=utf-8"),
    asset!("comments.js", "text/javascript; charset=utf-8"),
    asset!("timezone.js", "text/javascript; charset=utf-8"),
    asset!("import.js", "text/javascript; charset=utf-8"),
    asset!("challenge.js", "text/javascript; charset=utf-8"),
    asset!("favicon.svg", SVG),
    asset!("pieces/wK.svg", SVG),
    asset!("pieces/wQ.svg", SVG),
    asset!("pieces/wR.svg", SVG),
    asset!("pieces/wB.svg", SVG),
    asset!("pieces/wN.svg", SVG),
    asset!("pieces/wP.svg", SVG),
    asset!("pieces/bK.svg", SVG),
    asset!("pieces/bQ.svg", SVG),
    asset!("pieces/bR.svg", SVG),
    asset!("pieces/bB.svg", SVG),
    asset!("pieces/bN.svg", SVG),
    asset!("pieces/bP.svg", SVG),
    asset!("pieces/flat/wK.svg", SVG),
    asset!("pieces/flat/wQ.svg", SVG),
    asset!("pieces/flat/wR.svg", SVG),
    asset!("pieces/flat/wB.svg", SVG),
    asset!("pieces/flat/wN.svg", SVG),
    asset!("pieces/flat/wP.svg", SVG),
    asset!("pieces/flat/bK.svg", SVG),
    asset!("pieces/flat/bQ.svg", SVG),
    asset!("pieces/flat/bR.svg", SVG),
    asset!("pieces/flat/bB.svg", SVG),
    asset!("pieces/flat/bN.svg", SVG),
    asset!("pieces/flat/bP.svg", SVG),
    asset!("pieces/letters/wK.svg", SVG),
    asset!("pieces/letters/wQ.svg", SVG),
    asset!("pieces/letters/wR.svg", SVG),
    asset!("pieces/letters/wB.svg", SVG),
    asset!("pieces/letters/wN.svg", SVG),
    asset!("pieces/letters/wP.svg", SVG),
    asset!("pieces/letters/bK.svg", SVG),
    asset!("pieces/letters/bQ.svg", SVG),
    asset!("pieces/letters/bR.svg", SVG),
    asset!("pieces/letters/bB.svg", SVG),
    asset!("pieces/letters/bN.svg", SVG),
    asset!("pieces/letters/bP.svg", SVG),
];

/// Registers `/static/...`.
pub fn routes(r: &mut Routes) {
    r.get("/static/{path:.*}", Access::Public, serve);
}

/// A stable hash of a file's content (FNV-1a), for its entity tag; a `const fn`, so that the
/// files' hashes are computed once, by the compiler, and not at every request.
const fn content_hash(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// The entity tag of a file, for conditional requests.
fn etag(asset: &Asset) -> String {
    format!("\"{:016x}\"", asset.hash)
}

/// A file of `static/`, or the site's 404 page for any other path under `/static/`.
async fn serve(
    req: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse, crate::web::errors::WebError> {
    let Some(asset) = ASSETS.iter().find(|a| a.path == path.as_str()) else {
        return Err(crate::web::errors::WebError::NotFound);
    };
    let tag = etag(asset);
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let mut res = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"));
    if matches {
        return Ok(res.finish());
    }
    Ok(res.content_type(asset.content_type).body(asset.bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_under_static_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let mut on_disk = Vec::new();
        for entry in walk(&dir) {
            let rel = entry
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            on_disk.push(rel);
        }
        on_disk.sort();
        let mut embedded: Vec<String> = ASSETS.iter().map(|a| a.path.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded, "add new static files to ASSETS");
        assert!(
            ASSETS
                .iter()
                .filter(|a| a.path.ends_with(".svg"))
                .all(|a| a.content_type == SVG)
        );
    }

    #[test]
    fn content_hash_is_fnv_1a_and_tells_the_files_apart() {
        // FNV-1a's published values for "" and "a".
        assert_eq!(content_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(content_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        for asset in ASSETS {
            assert_eq!(asset.hash, content_hash(asset.bytes), "{}", asset.path);
        }
        let mut tags: Vec<String> = ASSETS.iter().map(etag).collect();
        tags.sort();
        tags.dedup();
        let distinct = ASSETS
            .iter()
            .map(|a| a.bytes)
            .collect::<std::collections::HashSet<_>>();
        assert_eq!(tags.len(), distinct.len());
    }

    fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
        out
    }
}
