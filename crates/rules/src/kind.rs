//! The kind of a game: one board for two players in one of the [`Variant`]s, the four-player
//! bughouse match over two boards, or minesweeper chess with its hidden bombs. A variant name,
//! as stored or as asked for, is read into a [`GameKind`] once; everything after matches on it,
//! so the compiler lists every place a new kind must be taught.

use std::fmt;
use std::str::FromStr;

use crate::variant::{UnknownVariant, Variant};

/// What kind of game a variant name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// One board, two players, by the rules of a shakmaty variant.
    Chess(Variant),
    /// Four players in two teams on two crazyhouse boards; a captured piece goes to the
    /// partner's hand.
    Bughouse,
    /// Standard chess in which each player hides bombs on the opponent's half.
    Minesweeper,
}

impl GameKind {
    /// The stored name of bughouse.
    pub const BUGHOUSE_NAME: &'static str = "bughouse";
    /// The stored name of minesweeper chess.
    pub const MINESWEEPER_NAME: &'static str = "minesweeper";

    /// Every kind, in the order they are offered: the two-player variants, then bughouse and
    /// minesweeper.
    pub fn all() -> impl Iterator<Item = GameKind> {
        Variant::ALL
            .iter()
            .map(|v| GameKind::Chess(*v))
            .chain([GameKind::Bughouse, GameKind::Minesweeper])
    }

    /// The stable lowercase name stored in `games.variant` and used in the API:
    /// [`Variant::as_str`], `"bughouse"` or `"minesweeper"`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Chess(variant) => variant.as_str(),
            GameKind::Bughouse => Self::BUGHOUSE_NAME,
            GameKind::Minesweeper => Self::MINESWEEPER_NAME,
        }
    }

    /// The name shown to people: "Atomic", "King of the Hill", "Bughouse", "Minesweeper".
    pub fn display_name(self) -> &'static str {
        match self {
            GameKind::Chess(variant) => variant.display_name(),
            GameKind::Bughouse => "Bughouse",
            GameKind::Minesweeper => "Minesweeper",
        }
    }

    /// The two-player variant, for the kinds played on one board by its rules alone.
    pub fn variant(self) -> Option<Variant> {
        match self {
            GameKind::Chess(variant) => Some(variant),
            GameKind::Bughouse | GameKind::Minesweeper => None,
        }
    }

    /// How many boards the game is played on.
    pub fn boards(self) -> usize {
        match self {
            GameKind::Bughouse => 2,
            GameKind::Chess(_) | GameKind::Minesweeper => 1,
        }
    }

    /// How many players sit at the game.
    pub fn seats(self) -> usize {
        match self {
            GameKind::Bughouse => 4,
            GameKind::Chess(_) | GameKind::Minesweeper => 2,
        }
    }
}

impl fmt::Display for GameKind {
    /// Writes [`GameKind::display_name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

impl FromStr for GameKind {
    type Err = UnknownVariant;

    /// Reads `"bughouse"` and `"minesweeper"` (ignoring case, spaces, `-` and `_`, as
    /// [`Variant`]'s names are read), else a [`Variant`] name with its aliases.
    fn from_str(s: &str) -> Result<GameKind, UnknownVariant> {
        let name: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match name.as_str() {
            Self::BUGHOUSE_NAME => Ok(GameKind::Bughouse),
            Self::MINESWEEPER_NAME => Ok(GameKind::Minesweeper),
            _ => s.parse().map(GameKind::Chess),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_stored_and_shown_names() {
        let kinds: Vec<GameKind> = GameKind::all().collect();
        assert_eq!(kinds.len(), Variant::ALL.len() + 2);
        for kind in kinds {
            assert_eq!(kind.as_str().parse::<GameKind>(), Ok(kind));
            assert_eq!(kind.display_name().parse::<GameKind>(), Ok(kind));
        }
        assert_eq!("Bug-House".parse::<GameKind>(), Ok(GameKind::Bughouse));
        assert_eq!(
            "giveaway".parse::<GameKind>(),
            Ok(GameKind::Chess(Variant::Antichess))
        );
        assert!("bughouse2".parse::<GameKind>().is_err());
        assert_eq!(GameKind::Bughouse.boards(), 2);
        assert_eq!(GameKind::Bughouse.seats(), 4);
        assert_eq!(GameKind::Minesweeper.variant(), None);
    }
}
