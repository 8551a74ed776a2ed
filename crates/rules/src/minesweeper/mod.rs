//! Minesweeper (Daniil Frolov's variant): standard chess over hidden bombs, with the secret
//! state kept apart from what each audience may see.
//!
//! Before play each player secretly places 8 bombs on their own half (White
//! ranks 1–4, Black 5–8), under their own pieces if they like; whatever is
//! missing at the setup deadline is placed at random. Bombs never block. A
//! piece that arrives on a square holding an unexploded enemy bomb sets it
//! off: that piece and every piece on the 8 neighbouring squares, of both
//! colours and pawns included, are removed, and the bomb stays as a spent
//! bomb. Own bombs never harm own pieces. A piece arriving in the enemy
//! half tells its owner how many enemy bombs (spent ones included) lie
//! around it. A king lost to a bomb loses; both kings in one blast draw.
//! Legality is standard chess on the visible board; when a blast leaves the
//! mover's own king attacked, the opponent may capture it and wins. The
//! options ([`MinesweeperOptions`]) change who places the bombs, where, and
//! how far blasts reach. `docs/variants.md` gives every rule in full.
//!
//! Types keep the secrets apart:
//!
//! * [`MinesweeperGame`] is the full state, for the server only;
//! * [`PublicView`] is what anyone may see: no unexploded bomb, no count;
//! * [`PlayerView`] adds what one player may see: their own bombs (unless
//!   option 2 hides them) and the counts they were told;
//! * [`FullRecord`] reveals everything, and exists only once the game is over.
//!
//! ```
//! use slowfuse_rules::Color;
//! use slowfuse_rules::minesweeper::{MinesweeperGame, MinesweeperOptions, Placement, Square};
//!
//! let options = MinesweeperOptions { placement: Placement::Random, modest: false };
//! let game = MinesweeperGame::new(options).finish_setup(2024)?; // bombs at random
//! let (game, _) = game.play(Color::White, "Nf3")?;
//! let public = game.public_view();
//! assert_eq!(public.moves[0].san, "Nf3");
//! assert!(game.player_view(Color::White).own_bombs.unwrap().len() == 8);
//! assert!(game.full_record().is_err()); // nothing is revealed before the end
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod bombs;
mod chess;
mod error;
mod game;
mod options;
mod record;
mod view;

#[cfg(test)]
mod tests;

pub use bombs::Bomb;
pub use error::{BombError, NotOver, PlayError, RestoreError};
pub use game::MinesweeperGame;
pub use options::{MinesweeperOptions, Placement, UnknownOptions};
pub use record::{PGN_VARIANT, parse_squares};
pub use shakmaty::Square;
pub use view::{Blast, Count, FullRecord, MoveEvents, PlayerView, PublicMove, PublicView};
