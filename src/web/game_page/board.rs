//! The board panel: the position at the ply shown, from the viewer's side, whether they may
//! move on it, where the navigation stands, and the pieces in hand (crazyhouse).

use slowfuse_rules::{Color, Game, Pocket, Pockets};

use super::standing::Standing;
use super::viewer::{Rights, Viewer};
use crate::game::color_name;
use crate::usecases::preferences::Preferences;
use crate::web::board::{
    BoardView, PocketView, board_view, piece_base, pocket_letters, pocket_view,
};

/// The board panel as drawn.
#[derive(Clone, Debug)]
pub struct BoardPanel {
    pub view: BoardView,
    /// The ply shown and the last one (the navigation toolbar).
    pub view_ply: u32,
    pub last_ply: u32,
    /// The viewer may drag pieces: they act and the current position is shown.
    pub movable: bool,
    /// The viewer acts in the game (they may move once the last ply is shown).
    pub can_move: bool,
    /// The viewer's own side (`white` for spectators).
    pub own_side: &'static str,
    /// Seen from the other side than the viewer's own (`?flip=1`).
    pub flipped: bool,
    /// Whether Black is at the bottom of the board shown (the pictures' `flip`).
    pub bottom_black: bool,
    pub my_turn: bool,
    /// `white` or `black`: the side to move in the game.
    pub turn: &'static str,
    /// The board theme (`data-theme`), the piece images' folder, the 3D view and coordinates,
    /// from the viewer's preferences.
    pub theme: String,
    pub piece_set: String,
    pub piece_base: &'static str,
    pub board_3d: bool,
    pub coordinates: bool,
    pub animation_ms: i32,
    /// The preferences are the viewer's stored ones (logged in), not the defaults.
    pub saved_preferences: bool,
    /// The legal moves in UCI, space-separated, when the viewer may move now (the board shows
    /// their targets while a piece is held); empty otherwise.
    pub legal: String,
    /// The full FEN of the position shown (the Share tab).
    pub fen: String,
    /// Pieces in hand (crazyhouse): White's and Black's, e.g. `P P N`.
    pub pockets: Option<(String, String)>,
    /// The pockets drawn as pieces: above the board (the far side's) and below it.
    pub pocket_rows: Option<(PocketView, PocketView)>,
    /// A minesweeper board: its squares carry bombs, spent bombs and counts.
    pub mines: bool,
}

/// Pieces in hand as text, strongest first, e.g. `Q N P P`; empty when none.
pub fn pocket_text(p: &Pocket) -> String {
    let letters: Vec<String> = pocket_letters(p).chars().map(String::from).collect();
    letters.join(" ")
}

/// Where the navigation stands: the ply shown, the last one, and whether the board is seen
/// from the other side than the viewer's own (`?flip=1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Navigation {
    pub view_ply: u32,
    pub last_ply: u32,
    pub flipped: bool,
}

/// A position as any kind of game draws it for the panel: its squares, its FEN and the pieces
/// in hand (crazyhouse).
pub struct Drawn {
    pub view: BoardView,
    pub fen: String,
    pub pockets: Option<Pockets>,
}

/// The side at the bottom of the board: the viewer's own (White for others, or by the
/// "always White" preference), or the other one when `flipped`.
pub fn side_shown(viewer: &Viewer, prefs: &Preferences, flipped: bool) -> Color {
    let own_side = if prefs.always_white {
        Color::White
    } else {
        viewer.color().unwrap_or(Color::White)
    };
    if flipped { own_side.other() } else { own_side }
}

/// The board after `view_ply` moves (at most the last), as `viewer` sees it with their
/// preferences (or from the other side when `flipped`).
pub fn board_panel(
    game: &Game,
    view_ply: u32,
    flipped: bool,
    standing: &Standing,
    viewer: &Viewer,
    rights: &Rights,
    prefs: &Preferences,
) -> BoardPanel {
    let side = side_shown(viewer, prefs, flipped);
    let drawn = Drawn {
        view: board_view(game, view_ply, side),
        fen: game.fen_at(view_ply).unwrap_or_default(),
        pockets: game.pockets_at(view_ply),
    };
    let at = Navigation {
        view_ply,
        last_ply: game.ply(),
        flipped,
    };
    let looker = (viewer, rights, prefs);
    panel(drawn, at, standing, looker, || game.legal_ucis().join(" "))
}

/// The panel of a position `drawn` by any kind of game, at `at`, for the viewer with their
/// rights and preferences; `legal` (the legal moves in UCI, space-separated) is asked only when
/// the viewer may move now.
pub fn panel(
    drawn: Drawn,
    at: Navigation,
    standing: &Standing,
    (viewer, rights, prefs): (&Viewer, &Rights, &Preferences),
    legal: impl FnOnce() -> String,
) -> BoardPanel {
    let side = if drawn.view.orientation == "black" {
        Color::Black
    } else {
        Color::White
    };
    let pockets = drawn.pockets;
    BoardPanel {
        view: drawn.view,
        view_ply: at.view_ply,
        last_ply: at.last_ply,
        movable: rights.can_act && at.view_ply == at.last_ply,
        can_move: rights.can_act,
        own_side: color_name(viewer.color().unwrap_or(Color::White)),
        flipped: at.flipped,
        bottom_black: side == Color::Black,
        fen: drawn.fen,
        theme: prefs.board_theme.clone(),
        piece_set: prefs.piece_set.clone(),
        piece_base: piece_base(&prefs.piece_set),
        board_3d: prefs.board_3d,
        coordinates: prefs.coordinates,
        animation_ms: prefs.animation_ms,
        saved_preferences: viewer.id.is_some(),
        legal: if rights.my_turn && rights.can_act {
            legal()
        } else {
            String::new()
        },
        my_turn: rights.my_turn,
        turn: color_name(standing.turn),
        pockets: pockets
            .as_ref()
            .map(|p| (pocket_text(&p.white), pocket_text(&p.black))),
        pocket_rows: pockets.map(|p| {
            let (top, bottom) = match side {
                Color::White => ((p.black, Color::Black), (p.white, Color::White)),
                Color::Black => ((p.white, Color::White), (p.black, Color::Black)),
            };
            (pocket_view(&top.0, top.1), pocket_view(&bottom.0, bottom.1))
        }),
        mines: false,
    }
}

impl BoardPanel {
    /// The board of a move waiting for confirmation: nothing more to move on it.
    pub fn waiting(mut self, waiting: bool) -> BoardPanel {
        if waiting {
            self.movable = false;
            self.legal.clear();
        }
        self
    }

    /// The picture links' options: the board as shown here (theme, pieces, coordinates, side).
    pub fn picture_query(&self) -> String {
        format!(
            "theme={}&pieces={}{}{}",
            self.theme,
            self.piece_set,
            if self.coordinates { "" } else { "&coords=0" },
            if self.bottom_black { "&flip=1" } else { "" }
        )
    }

    /// What the toolbar's links add to keep the side shown: `&flip=1` or nothing.
    pub fn flip_query(&self) -> &'static str {
        if self.flipped { "&flip=1" } else { "" }
    }

    /// The toolbar's Flip link: the ply shown, from the other side.
    pub fn flip_link_query(&self) -> String {
        if self.flipped {
            format!("ply={}", self.view_ply)
        } else {
            format!("ply={}&flip=1", self.view_ply)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pockets_read_strongest_first() {
        let pocket = Pocket {
            pawns: 2,
            knights: 1,
            queens: 1,
            ..Pocket::default()
        };
        assert_eq!(pocket_text(&pocket), "Q N P P");
        assert_eq!(pocket_text(&Pocket::default()), "");
    }
}
