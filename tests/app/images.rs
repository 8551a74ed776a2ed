//! Pictures of positions and games: `GET /games/{id}.svg`, `.png` and the animated `.gif` for
//! a game, a crazyhouse game, a bughouse match, on SQLite and (when configured) PostgreSQL.
//! Every SVG must parse as XML (checked by Python's own parser); every PNG and GIF must be read
//! by ImageMagick and by Pillow, at the size and with the frames asked for, and show the
//! position asked for (pixels read back by Pillow). Without ImageMagick or Pillow these tests
//! skip, except under CI, where they fail.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::TestApp;

on_both_databases!(
    a_position_is_drawn_as_svg_in_the_themes_and_sides_asked_for,
    the_svg_marks_the_squares_an_explosion_cleared_at_the_ply_asked_for,
    a_game_is_an_animated_gif_and_a_position_a_png,
    pockets_and_both_boards_of_a_match_are_in_the_pictures,
    the_game_page_shares_its_pictures,
);

/// Parses `svg` with Python's XML parser and gives back the root's tag and its children count.
fn parse(svg: &str) -> String {
    let mut child = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; r = E.fromstring(sys.stdin.read()); print(r.tag, len(list(r.iter())))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(svg.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the SVG does not parse:\n{svg}");
    String::from_utf8(out.stdout).unwrap()
}

fn svg(app: &TestApp, path: &str) -> (u16, String, String) {
    let res = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .expect("request");
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, res.text().unwrap_or_default())
}

fn a_position_is_drawn_as_svg_in_the_themes_and_sides_asked_for(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("atomic", &alice, &bob);
    app.play_all(g, &alice, &bob, &["e4", "d5", "exd5"]);

    let (status, kind, now) = svg(app, &format!("/games/{g}.svg"));
    assert_eq!(status, 200, "{now}");
    assert_eq!(kind, "image/svg+xml");
    assert!(parse(&now).starts_with("{http://www.w3.org/2000/svg}svg"));
    assert_eq!(now.matches("<rect ").count(), 64);
    // exd5 in atomic blew up the capturer and the captured: 30 pieces, not 31.
    assert_eq!(now.matches("<svg x=").count(), 30);
    let (_, _, start) = svg(app, &format!("/games/{g}.svg?ply=0"));
    assert_eq!(start.matches("<svg x=").count(), 32);
    assert_ne!(start, now);
    let (_, _, flipped) = svg(app, &format!("/games/{g}.svg?ply=0&flip=1"));
    assert_ne!(flipped, start, "Black's side at the bottom");
    let (_, _, brown) = svg(
        app,
        &format!("/games/{g}.svg?theme=brown&pieces=flat&coords=0"),
    );
    parse(&brown);
    assert!(brown.contains("#b58863"), "brown's dark squares");
    assert!(!brown.contains("<text "), "no coordinates");
    for bad in ["?theme=plaid", "?pieces=wooden", "?ply=99", "?ply=x"] {
        let (status, _, body) = svg(app, &format!("/games/{g}.svg{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
    }

    // A bughouse match: both boards side by side.
    let carol = app.user("carol");
    let dave = app.user("dave");
    let m = app.bughouse_match([&alice, &bob, &carol, &dave]);
    let (status, _, both) = svg(app, &format!("/games/{m}.svg"));
    assert_eq!(status, 200, "{both}");
    parse(&both);
    assert_eq!(both.matches("<rect ").count(), 128);
    assert!(both.contains(r#"viewBox="0 0 990 480""#));
}

/// The squares of an SVG (one board, White's side at the bottom) marked `class="exploded"`, by
/// name, with their fill, as Python's XML parser reads them.
fn exploded_in_svg(svg: &str) -> Vec<(String, String)> {
    let mut child = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E\n\
             r = E.fromstring(sys.stdin.read())\n\
             for e in r.iter('{http://www.w3.org/2000/svg}rect'):\n\
             \x20   if e.get('class') == 'exploded':\n\
             \x20       x, y = int(e.get('x')) // 60, int(e.get('y')) // 60\n\
             \x20       print('abcdefgh'[x] + str(8 - y), e.get('fill'))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(svg.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the SVG does not parse:\n{svg}");
    let mut found: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (square, fill) = l.split_once(' ').unwrap();
            (square.to_string(), fill.to_string())
        })
        .collect();
    found.sort();
    found
}

fn the_svg_marks_the_squares_an_explosion_cleared_at_the_ply_asked_for(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("atomic", &alice, &bob);
    // Nxc7 blows up the knight, the pawn on c7 and the pieces around it (b8, c8, d8); the
    // pawns on b7 and d7 stay. Then a quiet move.
    app.play_all(g, &alice, &bob, &["Nc3", "a6", "Nd5", "a5", "Nxc7", "h6"]);

    let (status, _, blast) = svg(app, &format!("/games/{g}.svg?ply=5&theme=brown"));
    assert_eq!(status, 200, "{blast}");
    let marked = exploded_in_svg(&blast);
    let squares: Vec<&str> = marked.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(squares, ["b8", "c7", "c8", "d8"], "{marked:?}");
    // Brown's explosion tints, dark (b8, c7, d8) and light (c8), over the last move's (c7).
    let fills: Vec<&str> = marked.iter().map(|(_, f)| f.as_str()).collect();
    assert_eq!(fills[0], fills[1], "b8 and c7 are dark squares");
    assert_eq!(fills[0], fills[3], "b8 and d8 are dark squares");
    assert_ne!(fills[0], fills[2], "c8 is a light square");
    for plain in ["#f0d9b5", "#b58863", "#f3df8e", "#c9a245"] {
        assert!(
            !fills.contains(&plain),
            "{plain} is not an explosion's tint"
        );
    }
    // The PNG of the same ply paints the same colours.
    if tools_present() {
        let (_, _, png) = fetch(app, &format!("/games/{g}.png?ply=5&theme=brown"));
        let (b8, c8) = (ground_of("b8"), ground_of("c8"));
        let (_, _, px) = pillow(&png, ".png", &[(0, b8.0, b8.1), (0, c8.0, c8.1)]);
        assert_eq!(px, [hex(fills[0]), hex(fills[2])]);
    }
    // Now and before the blast, no mark; none either without the highlights.
    for quiet in ["", "?ply=4", "?ply=0", "?ply=5&highlight=0"] {
        let (status, _, body) = svg(app, &format!("/games/{g}.svg{quiet}"));
        assert_eq!(status, 200, "{quiet}: {body}");
        assert!(exploded_in_svg(&body).is_empty(), "{quiet}");
    }
}

/// Pixels per square, and the height of the band above the board.
const SQUARE: u32 = 90;
const BAND: u32 = 60;

/// A picture's answer: status, content type, bytes.
fn fetch(app: &TestApp, path: &str) -> (u16, String, Vec<u8>) {
    let res = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .expect("request");
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, res.bytes().unwrap().to_vec())
}

/// Whether ImageMagick's `identify` and Pillow are here; under CI their absence fails.
fn tools_present() -> bool {
    let identify = Command::new("identify")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    let pillow = Command::new("/usr/bin/python3")
        .args(["-c", "import PIL"])
        .output()
        .is_ok_and(|o| o.status.success());
    if identify && pillow {
        return true;
    }
    assert!(
        !common::under_ci(),
        "CI must check the pictures with ImageMagick (identify: {identify}) and Pillow ({pillow}): \
         install imagemagick and python3-pil"
    );
    eprintln!("SKIPPED: the raster pictures' checks need ImageMagick and Pillow (python3-pil)");
    false
}

/// What ImageMagick reads: one line per frame with the picture's size (`WIDTHxHEIGHT`).
fn identify(bytes: &[u8], ext: &str) -> Vec<String> {
    let file = tempfile::Builder::new().suffix(ext).tempfile().unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    let out = Command::new("identify")
        .args(["-format", "%Wx%H\\n"])
        .arg(file.path())
        .output()
        .expect("identify");
    assert!(
        out.status.success(),
        "ImageMagick cannot read the picture: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// What Pillow reads: the frame count, the size, and the colour at each `(frame, x, y)` as the
/// frame is shown (earlier frames' pixels kept under transparent ones).
fn pillow(bytes: &[u8], ext: &str, points: &[(u32, u32, u32)]) -> (u32, (u32, u32), Vec<[u8; 3]>) {
    let file = tempfile::Builder::new().suffix(ext).tempfile().unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    let script = r#"
import sys
from PIL import Image
im = Image.open(sys.argv[1])
n = getattr(im, "n_frames", 1)
print(n, im.size[0], im.size[1])
for arg in sys.argv[2:]:
    f, x, y = map(int, arg.split(","))
    im.seek(f)
    print(*im.convert("RGB").getpixel((x, y)))
"#;
    let out = Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(script)
        .arg(file.path())
        .args(points.iter().map(|(f, x, y)| format!("{f},{x},{y}")))
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "Pillow cannot read the picture: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let head: Vec<u32> = lines
        .next()
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    let colours = lines
        .map(|l| {
            let c: Vec<u8> = l.split(' ').map(|n| n.parse().unwrap()).collect();
            [c[0], c[1], c[2]]
        })
        .collect();
    (head[0], (head[1], head[2]), colours)
}

/// A point near the bottom-left corner of a square (`e4`) seen from White's side, where no
/// piece and no coordinate is drawn: the square's own colour.
fn ground_of(square: &str) -> (u32, u32) {
    let (x, y) = centre_of(square);
    (x - 37, y + 41)
}

/// The middle of a square seen from White's side (on a board's first picture column).
fn centre_of(square: &str) -> (u32, u32) {
    let b = square.as_bytes();
    let (file, rank) = (u32::from(b[0] - b'a'), u32::from(b[1] - b'1'));
    (
        file * SQUARE + SQUARE / 2,
        BAND + (7 - rank) * SQUARE + SQUARE / 2,
    )
}

fn hex(c: &str) -> [u8; 3] {
    let p = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).unwrap();
    [p(1), p(3), p(5)]
}

fn a_game_is_an_animated_gif_and_a_position_a_png(app: &TestApp) {
    if !tools_present() {
        return;
    }
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("atomic", &alice, &bob);
    // exd5 in atomic: the capture blows up both pawns on d5.
    app.play_all(g, &alice, &bob, &["e4", "d5", "exd5"]);

    let (status, kind, gif) = fetch(app, &format!("/games/{g}.gif?theme=brown"));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&gif));
    assert_eq!(kind, "image/gif");
    assert_eq!(
        identify(&gif, ".gif"),
        vec!["720x840"; 4],
        "the start and one frame per ply"
    );
    let (e2, e4, d5) = (centre_of("e2"), centre_of("e4"), ground_of("d5"));
    let (frames, size, px) = pillow(
        &gif,
        ".gif",
        &[
            (0, e2.0, e2.1),
            (1, e2.0, e2.1),
            (0, e4.0, e4.1),
            (1, e4.0, e4.1),
            (0, d5.0, d5.1),
            (3, d5.0, d5.1),
            (0, ground_of("a1").0, ground_of("a1").1),
        ],
    );
    assert_eq!((frames, size), (4, (720, 840)));
    assert_ne!(px[0], px[1], "e2 changed when its pawn left");
    assert_ne!(px[2], px[3], "e4 changed when the pawn arrived");
    assert_eq!(px[6], hex("#b58863"), "a1 is brown's dark square");
    assert_eq!(px[4], hex("#f0d9b5"), "d5 is a light square at the start");
    let boom = px[5];
    assert!(
        boom[0] > boom[1].saturating_add(60) && boom[0] > boom[2].saturating_add(60),
        "the explosion on d5 is marked in red: {boom:?}"
    );

    let (status, _, part) = fetch(
        app,
        &format!("/games/{g}.gif?from=1&to=2&delay=250&pieces=flat&coords=0&highlight=0&flip=1"),
    );
    assert_eq!(status, 200);
    assert_eq!(identify(&part, ".gif").len(), 2, "plies 1 and 2");
    assert_eq!(pillow(&part, ".gif", &[]).0, 2);

    // The PNG of a position: the same board, one picture.
    let (status, kind, png) = fetch(app, &format!("/games/{g}.png?ply=0&theme=blue"));
    assert_eq!((status, kind.as_str()), (200, "image/png"));
    assert_eq!(identify(&png, ".png"), vec!["720x840"]);
    let a1 = centre_of("a1");
    let (_, size, px) = pillow(
        &png,
        ".png",
        &[(0, ground_of("a1").0, ground_of("a1").1), (0, a1.0, a1.1)],
    );
    assert_eq!(size, (720, 840));
    assert_eq!(px[0], hex("#8ca2ad"), "a1 is blue's dark square");
    let (_, _, flipped) = fetch(app, &format!("/games/{g}.png?ply=0&theme=blue&flip=1"));
    let (_, _, fpx) = pillow(&flipped, ".png", &[(0, a1.0, a1.1)]);
    let light = |c: [u8; 3]| u32::from(c[0]) + u32::from(c[1]) + u32::from(c[2]);
    assert!(
        light(px[1]) > light(fpx[0]) + 200,
        "White's rook at the bottom left, Black's when flipped: {:?} v {:?}",
        px[1],
        fpx[0]
    );
    let (_, _, now) = fetch(app, &format!("/games/{g}.png"));
    assert_ne!(now, fetch(app, &format!("/games/{g}.png?ply=0")).2);

    // Refusals: as the SVG's, with a message that says what to use.
    for bad in [
        ".gif?theme=plaid",
        ".gif?pieces=wooden",
        ".gif?delay=5",
        ".gif?delay=x",
        ".gif?from=3&to=1",
        ".gif?to=99",
        ".png?ply=99",
        ".png?theme=plaid",
    ] {
        let (status, _, body) = fetch(app, &format!("/games/{g}{bad}"));
        let body = String::from_utf8_lossy(&body).to_string();
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (_, _, body) = fetch(app, &format!("/games/{g}.gif?theme=plaid"));
    assert!(String::from_utf8_lossy(&body).contains("unknown theme: use green"));
    for missing in ["/games/424242.gif", "/games/424242.png", "/games/x.gif"] {
        assert_eq!(fetch(app, missing).0, 404, "{missing}");
    }
}

fn pockets_and_both_boards_of_a_match_are_in_the_pictures(app: &TestApp) {
    if !tools_present() {
        return;
    }
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("crazyhouse", &alice, &bob);
    app.play_all(g, &alice, &bob, &["e4", "d5", "exd5"]);
    // White's pawn in hand: drawn in the footer band (White at the bottom), at the pocket's
    // right end; nothing there before the capture.
    let pocket: Vec<(u32, u32, u32)> = (0..4)
        .flat_map(|f| (660..700).step_by(4).map(move |x| (f, x, 810)))
        .collect();
    let (_, _, gif) = fetch(app, &format!("/games/{g}.gif"));
    let (frames, _, px) = pillow(&gif, ".gif", &pocket);
    assert_eq!(frames, 4);
    let band = hex("#262421");
    let inked = |frame: usize| {
        px[frame * 10..frame * 10 + 10]
            .iter()
            .filter(|c| **c != band)
            .count()
    };
    assert_eq!(inked(2), 0, "no piece in hand before the capture");
    assert!(inked(3) >= 3, "the captured pawn in White's hand");
    let (_, _, png) = fetch(app, &format!("/games/{g}.png"));
    let (_, _, px) = pillow(
        &png,
        ".png",
        &pocket[..10]
            .iter()
            .map(|p| (0, p.1, p.2))
            .collect::<Vec<_>>(),
    );
    assert!(
        px.iter().filter(|c| **c != band).count() >= 3,
        "the PNG too"
    );

    // A bughouse match: two boards side by side, each with its bands.
    let carol = app.user("carol");
    let dave = app.user("dave");
    let m = app.bughouse_match([&alice, &bob, &carol, &dave]);
    // The match page's Share tab links both pictures.
    let (_, page) = app.get_text(&format!("/games/{m}"));
    for link in [
        format!(r#"id="png-link" href="/games/{m}.png""#),
        format!(r#"id="gif-link" href="/games/{m}.gif""#),
    ] {
        assert!(page.contains(&link), "no {link} on the match page");
    }
    let (status, _, gif) = fetch(app, &format!("/games/{m}.gif"));
    assert_eq!(status, 200);
    assert_eq!(
        identify(&gif, ".gif"),
        vec!["1470x840"],
        "the start of the match, both boards"
    );
    let (status, _, png) = fetch(app, &format!("/games/{m}.png?ply=0"));
    assert_eq!(status, 200);
    assert_eq!(identify(&png, ".png"), vec!["1470x840"]);
}

fn the_game_page_shares_its_pictures(app: &TestApp) {
    let alice = app.user("alice");
    let bob = app.user("bob");
    let g = app.game("standard", &alice, &bob);
    app.play_all(g, &alice, &bob, &["e4", "e5"]);
    let (status, page) = app.get_text(&format!("/games/{g}"));
    assert_eq!(status, 200);
    let meta = |property: &str| {
        let pattern = regex::Regex::new(&format!(
            r#"<meta (?:property|name)="{property}" content="([^"]*)">"#
        ))
        .unwrap();
        pattern
            .captures(&page)
            .map(|c| c[1].to_string())
            .unwrap_or_else(|| panic!("no {property} in the page's head"))
    };
    let image = meta("og:image");
    assert!(
        image.starts_with("http") && image.ends_with(&format!("/games/{g}.png?ply=2")),
        "{image}"
    );
    assert!(meta("og:title").contains("alice v bob"));
    assert_eq!(meta("twitter:card"), "summary_large_image");
    // The Share tab links the pictures, each with a name a screen reader says.
    for (id, ext) in [
        ("svg-link", "svg"),
        ("png-link", "png"),
        ("gif-link", "gif"),
    ] {
        let pattern = regex::Regex::new(&format!(
            r#"<a [^>]*id="{id}" href="([^"]+)" aria-label="([^"]+)""#
        ))
        .unwrap();
        let found = pattern
            .captures(&page)
            .unwrap_or_else(|| panic!("no {id} in the Share tab"));
        let href = found[1].replace("&amp;", "&");
        assert!(href.starts_with(&format!("/games/{g}.{ext}")), "{href}");
        assert!(found[2].contains(&ext.to_uppercase()), "{}", &found[2]);
        let (status, kind, _) = fetch(app, &href);
        assert_eq!(status, 200, "{href}");
        assert!(kind.starts_with("image/"), "{href}: {kind}");
    }
}
