//! The game page's "Variant information": the variant's section of `docs/variants.md` (built
//! into the binary, so the page and the documentation say the same), followed by the rules
//! every variant shares, rendered to HTML once.

use std::collections::HashMap;
use std::sync::OnceLock;

use pulldown_cmark::{Options, Parser, html};
use slowfuse_rules::Variant;

/// The variant pages, as written for readers of the repository.
const VARIANTS_MD: &str = include_str!("../../docs/variants.md");

/// The heading of the section that applies to every variant.
const SHARED: &str = "What every variant shares";

/// The HTML of `variant`'s rules: its own section, then the shared one.
pub fn variant_info_html(variant: Variant) -> &'static str {
    static PAGES: OnceLock<HashMap<Variant, String>> = OnceLock::new();
    PAGES
        .get_or_init(|| render_all(VARIANTS_MD))
        .get(&variant)
        .map_or("", String::as_str)
}

fn render_all(markdown: &str) -> HashMap<Variant, String> {
    let sections = sections(markdown);
    let shared = sections
        .iter()
        .find(|(heading, _)| *heading == SHARED)
        .map_or("", |(_, body)| body);
    Variant::ALL
        .iter()
        .filter_map(|&variant| {
            let (_, own) = sections
                .iter()
                .find(|(heading, _)| *heading == variant.display_name())?;
            let text = format!("{own}\n\n### {SHARED}\n\n{shared}");
            Some((variant, to_html(&text)))
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
        for &variant in Variant::ALL {
            let page = variant_info_html(variant);
            assert!(
                page.contains("Draws that must be claimed"),
                "{variant:?}: {page}"
            );
            assert!(page.len() > 600, "{variant:?} has a section of its own");
        }
        let atomic = variant_info_html(Variant::Atomic);
        assert!(
            atomic.contains("<strong>Captures explode.</strong>"),
            "{atomic}"
        );
        assert!(
            !atomic.contains("Orthodox chess under FIDE"),
            "only its own section"
        );
        assert!(variant_info_html(Variant::Crazyhouse).contains("<code>N@f3</code>"));
    }
}
