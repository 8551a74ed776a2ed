//! What a shared link to the game shows where it is posted (Open Graph): the players, the
//! variant, where the game stands, and the PNG of the current position.

use crate::export::two_player_captions;
use crate::game::GameRecord;

/// The page's Open Graph tags.
pub struct OpenGraph {
    pub title: String,
    pub description: String,
    /// The absolute address of the current position's PNG.
    pub image: String,
    /// When the picture was taken: `after move 12`, or `at the start`.
    pub moment: String,
}

/// The tags of `record`'s page (a two-player game); `variant` is the variant's name.
pub fn open_graph(record: &GameRecord, variant: &str, public_url: &str) -> OpenGraph {
    let bands = two_player_captions(record);
    let players = bands.header.first().cloned().unwrap_or_default();
    let standing = bands.footer.first().cloned().unwrap_or_default();
    let ply = record.game.ply;
    let moment = if ply == 0 {
        "at the start".to_string()
    } else {
        format!("after move {}", (ply + 1) / 2)
    };
    OpenGraph {
        title: format!("{players} ({variant})"),
        description: format!("{variant} on Slowfuse, {moment}: {standing}."),
        image: format!(
            "{}/games/{}.png?ply={ply}",
            public_url.trim_end_matches('/'),
            record.game.id
        ),
        moment,
    }
}
