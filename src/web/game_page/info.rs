//! The game's information lines: the variant with its rules ("Variant information") and the
//! material balance at the ply shown.

use slowfuse_rules::{Game, Variant};

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

/// The variant panel of a game stored as `variant`.
pub fn variant_panel(variant: &str) -> VariantPanel {
    match variant.parse::<Variant>() {
        Ok(v) => VariantPanel {
            key: v.as_str().to_string(),
            name: v.display_name().to_string(),
            info: variant_info_html(v),
        },
        Err(_) => VariantPanel {
            key: variant.to_string(),
            name: variant.to_string(),
            info: "",
        },
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
    fn a_known_variant_is_named_and_explained_an_unknown_one_only_named() {
        let atomic = variant_panel("atomic");
        assert_eq!(atomic.name, "Atomic");
        assert!(!atomic.info.is_empty());
        assert_eq!(variant_panel("fairy").name, "fairy");
        assert!(variant_panel("fairy").info.is_empty());
    }
}
