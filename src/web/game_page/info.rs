//! The game's information lines: the variant with its rules ("Variant information") and the
//! material balance at the ply shown.

use slowfuse_rules::{Game, GameKind};

use crate::web::material::material_line;
use crate::web::variant_info::variant_info_html;

/// The variant as the page names and explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantPanel {
    /// Its stored name (`atomic`), as the API takes it.
    pub key: String,
    /// Its display name ("Atomic"), or the stored name if it is not one we know.
    pub name: String,
    /// Its rules as HTML from `docs/variants.md` (our own text, not escaped); empty if none.
    pub info: &'static str,
}

/// The variant panel of a game of this kind.
pub fn variant_panel(kind: GameKind) -> VariantPanel {
    VariantPanel {
        key: kind.as_str().to_string(),
        name: kind.display_name().to_string(),
        info: variant_info_html(kind),
    }
}

/// The material balance after `ply` moves (board, and pockets in crazyhouse); empty if none.
pub fn material_text(game: &Game, ply: u32) -> String {
    game.board_at(ply).map_or_else(String::new, |board| {
        material_line(&board, game.pockets_at(ply).as_ref())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_named_and_explained() {
        let atomic = variant_panel(GameKind::Chess(slowfuse_rules::Variant::Atomic));
        assert_eq!(
            (atomic.key.as_str(), atomic.name.as_str()),
            ("atomic", "Atomic")
        );
        for kind in GameKind::all() {
            let panel = variant_panel(kind);
            assert_eq!(panel.name, kind.display_name());
            assert!(!panel.info.is_empty(), "{kind:?} is explained");
        }
    }
}
