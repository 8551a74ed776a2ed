//! Minesweeper options: who places the bombs, where, and how far a blast reaches.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Color, Rank, Square};

/// Where the bombs go and who places them: the variant page's options 1 to 4
/// (the default is none of them: each player chooses their own bombs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Each player places 8 bombs on their own half (White ranks 1–4, Black
    /// 5–8); what is missing at the setup deadline is placed at random.
    #[default]
    Chosen,
    /// Option 1: 8 bombs per player, placed at random on the owner's half;
    /// the owner sees them.
    Random,
    /// Option 2: as [`Placement::Random`], but not even the owner is told
    /// where their bombs are.
    RandomHidden,
    /// Option 3: each player places 8 bombs anywhere except on the
    /// opponent's opening squares and their neighbours (White ranks 1–5,
    /// Black 4–8); a white and a black bomb may share a square, and only
    /// the one hostile to the arriving piece goes off.
    Anywhere,
    /// Option 4: no player owns a bomb; 16 neutral bombs are placed at random
    /// off the opening squares (ranks 3–6) and go off under any piece.
    Neutral,
}

impl Placement {
    /// Every placement, in the order of the variant page.
    pub const ALL: &'static [Placement] = &[
        Placement::Chosen,
        Placement::Random,
        Placement::RandomHidden,
        Placement::Anywhere,
        Placement::Neutral,
    ];

    /// The stable name: `"chosen"`, `"random"`, `"random_hidden"`,
    /// `"anywhere"` or `"neutral"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::Chosen => "chosen",
            Placement::Random => "random",
            Placement::RandomHidden => "random_hidden",
            Placement::Anywhere => "anywhere",
            Placement::Neutral => "neutral",
        }
    }

    /// Words for people, e.g. `"bombs placed at random, unknown even to their owner"`.
    pub fn describe(self) -> &'static str {
        match self {
            Placement::Chosen => "each player places 8 bombs on their own half",
            Placement::Random => "8 bombs per player placed at random on their own half",
            Placement::RandomHidden => {
                "8 bombs per player placed at random, unknown even to their owner"
            }
            Placement::Anywhere => {
                "each player places 8 bombs anywhere but next to the opponent's pieces"
            }
            Placement::Neutral => "16 neutral bombs placed at random, dangerous to both sides",
        }
    }
}

/// The options of one minesweeper game: a [`Placement`] and, combinable with
/// any of them, option 5, modest blasts.
///
/// The stable text form ([`MinesweeperOptions::as_str`], read back by
/// `FromStr`) is the placement name, followed by `+modest` when blasts are
/// modest: `"chosen"`, `"anywhere+modest"`.
///
/// ```
/// use slowfuse_rules::minesweeper::{MinesweeperOptions, Placement};
///
/// let options: MinesweeperOptions = "3+5".parse()?;
/// assert_eq!(options, MinesweeperOptions { placement: Placement::Anywhere, modest: true });
/// assert_eq!(options.as_str(), "anywhere+modest");
/// # Ok::<_, slowfuse_rules::minesweeper::UnknownOptions>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MinesweeperOptions {
    /// Who places the bombs and where.
    pub placement: Placement,
    /// Option 5: a blast removes only the piece that set the bomb off, not
    /// its neighbours.
    pub modest: bool,
}

impl MinesweeperOptions {
    /// The stable text form, e.g. `"random_hidden"` or `"neutral+modest"`.
    pub fn as_str(&self) -> String {
        if self.modest {
            format!("{}+modest", self.placement.as_str())
        } else {
            self.placement.as_str().to_owned()
        }
    }

    /// Words for people, e.g. `"each player places 8 bombs on their own
    /// half; modest blasts"`.
    pub fn describe(&self) -> String {
        let placement = self.placement.describe();
        if self.modest {
            format!("{placement}; modest blasts (only the piece on the bomb is removed)")
        } else {
            placement.to_owned()
        }
    }

    /// Whether the players choose their bombs during a setup phase
    /// ([`Placement::Chosen`] and [`Placement::Anywhere`]). Otherwise the
    /// server places every bomb at random when the game is created.
    pub fn players_place(&self) -> bool {
        matches!(self.placement, Placement::Chosen | Placement::Anywhere)
    }

    /// Whether a player is shown their own bombs (all but option 2; in
    /// option 4 nobody owns any).
    pub fn owner_sees_bombs(&self) -> bool {
        self.placement != Placement::RandomHidden
    }

    /// How many bombs the game holds in all: 16 (8 per player, or 16 neutral).
    pub fn total_bombs(&self) -> usize {
        16
    }

    /// How many bombs `owner` places (`None`: the neutral ones): 8 per
    /// player, and 16 neutral bombs in option 4; 0 where the owner has none.
    pub fn bombs_of(&self, owner: Option<Color>) -> usize {
        match (self.placement, owner) {
            (Placement::Neutral, None) => 16,
            (Placement::Neutral, Some(_)) | (_, None) => 0,
            (_, Some(_)) => 8,
        }
    }

    /// The squares where a bomb of `owner` (`None`: a neutral bomb) may lie,
    /// a1 first; empty where the owner has no bombs.
    pub fn allowed_squares(&self, owner: Option<Color>) -> Vec<Square> {
        let Some((low, high)) = self.allowed_ranks(owner) else {
            return Vec::new();
        };
        Square::ALL
            .into_iter()
            .filter(|sq| (low..=high).contains(&sq.rank()))
            .collect()
    }

    /// Whether a bomb of `owner` may lie on `square`.
    pub fn allows(&self, owner: Option<Color>, square: Square) -> bool {
        self.allowed_ranks(owner)
            .is_some_and(|(low, high)| (low..=high).contains(&square.rank()))
    }

    /// The ranks `owner`'s bombs may lie on, in words: `"ranks 1–4"`.
    pub fn allowed_region(&self, owner: Option<Color>) -> String {
        match self.allowed_ranks(owner) {
            Some((low, high)) => format!("ranks {}–{}", low.char(), high.char()),
            None => "nowhere".to_owned(),
        }
    }

    /// The lowest and highest rank of `owner`'s region.
    fn allowed_ranks(&self, owner: Option<Color>) -> Option<(Rank, Rank)> {
        use Rank::*;
        match (self.placement, owner) {
            (Placement::Neutral, None) => Some((Third, Sixth)),
            (Placement::Neutral, Some(_)) | (_, None) => None,
            (Placement::Anywhere, Some(Color::White)) => Some((First, Fifth)),
            (Placement::Anywhere, Some(Color::Black)) => Some((Fourth, Eighth)),
            (_, Some(Color::White)) => Some((First, Fourth)),
            (_, Some(Color::Black)) => Some((Fifth, Eighth)),
        }
    }
}

impl fmt::Display for MinesweeperOptions {
    /// Writes [`MinesweeperOptions::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_str())
    }
}

/// Options text that names no known option; holds the text as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown minesweeper options \"{0}\": write one of chosen, random, random_hidden, anywhere, \
     neutral (or 1 to 4), optionally with +modest (or +5)"
)]
pub struct UnknownOptions(pub String);

impl FromStr for MinesweeperOptions {
    type Err = UnknownOptions;

    /// Reads [`MinesweeperOptions::as_str`], ignoring case; words may be
    /// separated by `+`, `,` or spaces, and the variant page's numbers work
    /// too (`"2"`, `"3+5"`). The empty string and `"modest"` alone mean
    /// [`Placement::Chosen`]. At most one placement may be named.
    fn from_str(s: &str) -> Result<MinesweeperOptions, UnknownOptions> {
        let unknown = || UnknownOptions(s.to_owned());
        let mut options = MinesweeperOptions::default();
        let mut placement: Option<Placement> = None;
        for word in s
            .split(['+', ',', ' '])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            let word = word.to_ascii_lowercase().replace('-', "_");
            let named = match word.as_str() {
                "modest" | "5" => {
                    options.modest = true;
                    continue;
                }
                "chosen" => Placement::Chosen,
                "random" | "1" => Placement::Random,
                "random_hidden" | "hidden" | "2" => Placement::RandomHidden,
                "anywhere" | "3" => Placement::Anywhere,
                "neutral" | "4" => Placement::Neutral,
                _ => return Err(unknown()),
            };
            if placement.is_some_and(|p| p != named) {
                return Err(unknown());
            }
            placement = Some(named);
        }
        options.placement = placement.unwrap_or_default();
        Ok(options)
    }
}
