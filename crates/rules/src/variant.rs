//! The chess variants Slowfuse can play, with their stable names.

use std::fmt;
use std::str::FromStr;

use shakmaty::CastlingMode;

/// A chess variant played on the server.
///
/// The set grows as variants are added (deliberately not
/// `#[non_exhaustive]`: a new variant makes the compiler point at every
/// `match` that must learn it). [`Variant::as_str`] is the stable name
/// stored in the database and used in the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Orthodox chess (FIDE rules, correspondence draw conventions).
    Standard,
    /// Chess960 (Fischer random chess): orthodox rules from one of 960
    /// shuffled back ranks, castling to the usual king and rook squares.
    Chess960,
    /// Atomic chess, SchemingMind ruleset (lichess legality).
    Atomic,
    /// Antichess (also called giveaway), lichess rules: captures are
    /// compulsory, kings are ordinary pieces, no castling, and a player wins
    /// by losing all their pieces or by being stalemated.
    Antichess,
    /// Crazyhouse: captured pieces change colour and may be dropped back.
    Crazyhouse,
    /// King of the hill: bringing the king to a centre square also wins.
    KingOfTheHill,
    /// Three-check: giving check for the third time also wins.
    ThreeCheck,
    /// Horde: 36 white pawns against a normal black army.
    Horde,
    /// Racing kings: no checks allowed; the first king to the eighth rank wins.
    RacingKings,
}

impl Variant {
    /// Every variant, in the order they are offered to players.
    pub const ALL: &'static [Variant] = &[
        Variant::Standard,
        Variant::Chess960,
        Variant::Atomic,
        Variant::Antichess,
        Variant::Crazyhouse,
        Variant::KingOfTheHill,
        Variant::ThreeCheck,
        Variant::Horde,
        Variant::RacingKings,
    ];

    /// The stable lowercase name, e.g. `"standard"`, `"kingofthehill"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
            Variant::Atomic => "atomic",
            Variant::Antichess => "antichess",
            Variant::Crazyhouse => "crazyhouse",
            Variant::KingOfTheHill => "kingofthehill",
            Variant::ThreeCheck => "threecheck",
            Variant::Horde => "horde",
            Variant::RacingKings => "racingkings",
        }
    }

    /// The value of the PGN `Variant` tag, as lichess writes it, e.g.
    /// `"Atomic"`, `"King of the Hill"`, `"Three-check"`.
    pub fn pgn_name(self) -> &'static str {
        match self {
            Variant::Standard => "Standard",
            Variant::Chess960 => "Chess960",
            Variant::Atomic => "Atomic",
            Variant::Antichess => "Antichess",
            Variant::Crazyhouse => "Crazyhouse",
            Variant::KingOfTheHill => "King of the Hill",
            Variant::ThreeCheck => "Three-check",
            Variant::Horde => "Horde",
            Variant::RacingKings => "Racing Kings",
        }
    }

    /// The name shown to people, e.g. `"Standard"`, `"King of the Hill"`.
    pub fn display_name(self) -> &'static str {
        self.pgn_name()
    }

    /// The shakmaty variant that implements the rules.
    pub(crate) fn engine(self) -> shakmaty::variant::Variant {
        use shakmaty::variant::Variant as Engine;
        match self {
            Variant::Standard | Variant::Chess960 => Engine::Chess,
            Variant::Atomic => Engine::Atomic,
            Variant::Antichess => Engine::Antichess,
            Variant::Crazyhouse => Engine::Crazyhouse,
            Variant::KingOfTheHill => Engine::KingOfTheHill,
            Variant::ThreeCheck => Engine::ThreeCheck,
            Variant::Horde => Engine::Horde,
            Variant::RacingKings => Engine::RacingKings,
        }
    }

    /// The castling mode the variant forces, if any: Chess960 always reads
    /// and writes castling the Chess960 way; the others detect it from the
    /// position.
    pub(crate) fn forced_castling_mode(self) -> Option<CastlingMode> {
        match self {
            Variant::Chess960 => Some(CastlingMode::Chess960),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    /// Writes [`Variant::display_name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

/// A variant name that Slowfuse does not know; holds the name as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant \"{0}\"")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads a variant name as found in PGN `Variant` tags, ignoring case,
    /// spaces, `-` and `_`.
    ///
    /// Besides every [`Variant::as_str`] and [`Variant::pgn_name`]:
    /// `"chess"`, `"From Position"` and the empty string mean
    /// [`Variant::Standard`] (PGN files without a `Variant` tag);
    /// `"Fischerandom"` means [`Variant::Chess960`]; `"giveaway"` means
    /// [`Variant::Antichess`]; `"3check"` means [`Variant::ThreeCheck`].
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let name: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Ok(match name.as_str() {
            "" | "standard" | "chess" | "fromposition" => Variant::Standard,
            "chess960" | "fischerandom" | "fischerrandom" => Variant::Chess960,
            "atomic" => Variant::Atomic,
            "antichess" | "giveaway" => Variant::Antichess,
            "crazyhouse" => Variant::Crazyhouse,
            "kingofthehill" => Variant::KingOfTheHill,
            "threecheck" | "3check" => Variant::ThreeCheck,
            "horde" => Variant::Horde,
            "racingkings" => Variant::RacingKings,
            _ => return Err(UnknownVariant(s.to_owned())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases_are_read() {
        for &v in Variant::ALL {
            assert_eq!(v.as_str().parse::<Variant>(), Ok(v));
            assert_eq!(v.pgn_name().parse::<Variant>(), Ok(v));
            assert_eq!(v.as_str().to_uppercase().parse::<Variant>(), Ok(v));
        }
        assert_eq!("Chess".parse::<Variant>(), Ok(Variant::Standard));
        assert_eq!("".parse::<Variant>(), Ok(Variant::Standard));
        assert_eq!("From Position".parse::<Variant>(), Ok(Variant::Standard));
        assert_eq!(" ATOMIC ".parse::<Variant>(), Ok(Variant::Atomic));
        assert_eq!("giveaway".parse::<Variant>(), Ok(Variant::Antichess));
        assert_eq!(
            "King of the Hill".parse::<Variant>(),
            Ok(Variant::KingOfTheHill)
        );
        assert_eq!("Three-check".parse::<Variant>(), Ok(Variant::ThreeCheck));
        assert_eq!("3check".parse::<Variant>(), Ok(Variant::ThreeCheck));
        assert_eq!("Racing Kings".parse::<Variant>(), Ok(Variant::RacingKings));
        assert_eq!("Fischerandom".parse::<Variant>(), Ok(Variant::Chess960));
        assert_eq!(
            "starwars".parse::<Variant>(),
            Err(UnknownVariant("starwars".to_owned()))
        );
        assert_eq!(
            "starwars".parse::<Variant>().unwrap_err().to_string(),
            "unknown variant \"starwars\""
        );
    }
}
