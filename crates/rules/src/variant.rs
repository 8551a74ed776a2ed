//! The chess variants Slowfuse can play, with their stable names.

use std::fmt;
use std::str::FromStr;

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
    /// Atomic chess, SchemingMind ruleset (lichess legality).
    Atomic,
}

impl Variant {
    /// Every variant, in the order they are offered to players.
    pub const ALL: &'static [Variant] = &[Variant::Standard, Variant::Atomic];

    /// The stable lowercase name: `"standard"` or `"atomic"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Atomic => "atomic",
        }
    }

    /// The value of the PGN `Variant` tag: `"Standard"` or `"Atomic"`.
    pub fn pgn_name(self) -> &'static str {
        match self {
            Variant::Standard => "Standard",
            Variant::Atomic => "Atomic",
        }
    }

    /// The name shown to people: `"Standard"` or `"Atomic"`.
    pub fn display_name(self) -> &'static str {
        match self {
            Variant::Standard => "Standard",
            Variant::Atomic => "Atomic",
        }
    }

    /// The shakmaty variant that implements the rules.
    pub(crate) fn engine(self) -> shakmaty::variant::Variant {
        match self {
            Variant::Standard => shakmaty::variant::Variant::Chess,
            Variant::Atomic => shakmaty::variant::Variant::Atomic,
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

    /// Reads a variant name, ignoring case and surrounding spaces.
    ///
    /// `"chess"` and the empty string also mean [`Variant::Standard`], as in
    /// PGN files without a `Variant` tag.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let name = s.trim().to_ascii_lowercase();
        match name.as_str() {
            "" | "standard" | "chess" => Ok(Variant::Standard),
            "atomic" => Ok(Variant::Atomic),
            _ => Err(UnknownVariant(s.to_owned())),
        }
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
        }
        assert_eq!("Chess".parse::<Variant>(), Ok(Variant::Standard));
        assert_eq!("".parse::<Variant>(), Ok(Variant::Standard));
        assert_eq!(" ATOMIC ".parse::<Variant>(), Ok(Variant::Atomic));
        assert_eq!(
            "bughouse".parse::<Variant>(),
            Err(UnknownVariant("bughouse".to_owned()))
        );
        assert_eq!(
            "bughouse".parse::<Variant>().unwrap_err().to_string(),
            "unknown variant \"bughouse\""
        );
    }
}
