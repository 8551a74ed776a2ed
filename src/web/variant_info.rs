//! The game page's "Variant information": the variant's section of `docs/variants.md` (built
//! into the binary, so the page and the documentation say the same), followed by the rules
//! every variant shares, rendered to HTML once; the whole of it for `/variants`, and one line
//! per variant for the front page.

use std::collections::HashMap;
use std::sync::OnceLock;

use pulldown_cmark::{Options, Parser, html};
use slowfuse_rules::{GameKind, Variant};

/// The variant pages, as written for readers of the repository.
const VARIANTS_MD: &str = include_str!("../../docs/variants.md");

/// The heading of the section that applies to every variant.
const SHARED: &str = "What every variant shares";

/// The HTML of the rules of a kind of game: its own section, then the shared one.
pub fn variant_info_html(kind: GameKind) -> &'static str {
    static PAGES: OnceLock<HashMap<GameKind, String>> = OnceLock::new();
    PAGES
        .get_or_init(|| render_all(VARIANTS_MD))
        .get(&kind)
        .map_or("", String::as_str)
}

/// One line saying what makes a kind of game itself, for lists of variants.
pub fn variant_tagline(kind: GameKind) -> &'static str {
    let variant = match kind {
        GameKind::Chess(variant) => variant,
        GameKind::Bughouse => {
            return "Four players, two boards: pieces you capture go to your partner's hand.";
        }
        GameKind::Minesweeper => {
            return "Hide bombs on your opponent's half; a piece that lands on one is blown up.";
        }
    };
    match variant {
        Variant::Standard => "Orthodox chess, one move at a time.",
        Variant::Chess960 => "The back rank shuffled: one of 960 start positions.",
        Variant::Atomic => "Every capture explodes; blow up the enemy king to win.",
        Variant::Antichess => "Captures are compulsory; lose all your pieces to win.",
        Variant::Crazyhouse => "Captured pieces change sides and drop back onto the board.",
        Variant::KingOfTheHill => "Bring your king to the centre to win.",
        Variant::ThreeCheck => "Give check three times to win.",
        Variant::Horde => "36 white pawns against a full black army.",
        Variant::RacingKings => "No checks allowed; the first king on the eighth rank wins.",
    }
}

/// One section of the variants page: its anchor (`atomic`, `kingofthehill`), heading and
/// rendered body.
#[derive(Clone, Debug)]
pub struct VariantSection {
    pub anchor: String,
    pub heading: String,
    pub html: String,
}

/// Every `## ` section of `docs/variants.md` in order, rendered once; the anchors of the
/// playable variants are their stored names (`Variant::as_str`).
pub fn variant_sections() -> &'static [VariantSection] {
    static SECTIONS: OnceLock<Vec<VariantSection>> = OnceLock::new();
    SECTIONS.get_or_init(|| {
        sections(VARIANTS_MD)
            .into_iter()
            .map(|(heading, body)| VariantSection {
                anchor: anchor_of(heading),
                heading: heading.to_string(),
                html: to_html(&body),
            })
            .collect()
    })
}

/// `King of the Hill` → `kingofthehill`: lower case, letters and digits only.
fn anchor_of(heading: &str) -> String {
    heading
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn render_all(markdown: &str) -> HashMap<GameKind, String> {
    let sections = sections(markdown);
    let shared = sections
        .iter()
        .find(|(heading, _)| *heading == SHARED)
        .map_or("", |(_, body)| body);
    GameKind::all()
        .filter_map(|kind| {
            let (_, own) = sections
                .iter()
                .find(|(heading, _)| *heading == kind.display_name())?;
            let text = format!("{own}\n\n### {SHARED}\n\n{shared}");
            Some((kind, to_html(&text)))
        })
        .collect()
}

/// The `## ` sections of the page: heading and body, in order.
fn sections(markdown: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    for line in markdown.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            out.push((heading.trim(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

fn to_html(markdown: &str) -> String {
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(markdown, Options::ENABLE_TABLES));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_rules_and_the_shared_ones() {
        for variant in GameKind::all() {
            let page = variant_info_html(variant);
            assert!(
                page.contains("Draws that must be claimed"),
                "{variant:?}: {page}"
            );
            assert!(page.len() > 600, "{variant:?} has a section of its own");
        }
        let atomic = variant_info_html(GameKind::Chess(Variant::Atomic));
        assert!(
            atomic.contains("<strong>Captures explode.</strong>"),
            "{atomic}"
        );
        assert!(
            !atomic.contains("Orthodox chess under FIDE"),
            "only its own section"
        );
        assert!(
            variant_info_html(GameKind::Chess(Variant::Crazyhouse)).contains("<code>N@f3</code>")
        );
    }

    #[test]
    fn every_playable_variant_has_an_anchor_on_the_variants_page() {
        let sections = variant_sections();
        for variant in GameKind::all() {
            let section = sections
                .iter()
                .find(|s| s.anchor == variant.as_str())
                .unwrap_or_else(|| panic!("{variant:?} has no section"));
            assert_eq!(section.heading, variant.display_name());
            assert!(!variant_tagline(variant).is_empty());
        }
        assert!(
            sections
                .iter()
                .any(|s| s.anchor == "whateveryvariantshares")
        );
    }
}
