//! Usernames: what a name may hold, the form it is stored in, and the two keys that find it.
//! Pure functions; the rows are `usecases::accounts`'.
//!
//! **The rule.** What was typed is trimmed and normalised to NFC ([`normalise`]); that is the
//! name stored and shown. It has 3 to 20 characters (Unicode scalar values): letters and
//! digits of any script in current use, the combining marks that write them (after a letter or
//! a digit), `_` and `-`; it starts with a letter or a digit ([`check`]). "In current use" is
//! Unicode's identifier profile (UTS #39, `Identifier_Status=Allowed`): historic scripts,
//! symbols, emoji, spaces, punctuation and invisible characters are refused, and so are
//! compatibility forms such as a full-width `Ｚ` or a ligature, with the plain letter to type
//! instead.
//!
//! **Mixed scripts.** Scripts whose letters look alike are not mixed in one name: a name keeps
//! to one script, or mixes Latin with Chinese, Japanese or Korean (Han, kana, Hangul), or with
//! one other script that is neither Cyrillic nor Greek (UTS #39's "moderately restrictive"
//! level, which browsers also use for domain names). So "pаypal" with a Cyrillic `а` is
//! refused outright; a name wholly in Cyrillic is a name like any other, and the skeleton below
//! keeps it from passing for a Latin one already taken.
//!
//! **The keys.** [`lookup_key`], the NFC name in lower case, is `users.username_key`: it names
//! one account exactly and is unique, as it was when names were ASCII (for them it is the
//! same). [`skeleton_key`] is `users.username_skeleton`, unique too: the name case-folded in
//! Unicode's compatibility caseless form (NFKC and full case folding), reduced to its UTS #39
//! confusable skeleton, then folded and reduced once more (the skeleton writes `0` as `O`,
//! which the second fold meets with `o`). "Zoë", "ZOË", a decomposed "Zoe\u{308}", "соре" in
//! Cyrillic beside "cope", "paypa1" beside "paypal" have one skeleton each pair, so only the
//! first of each pair is taken. A name is looked up by its key first, then by its skeleton.

use caseless::Caseless;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// The fewest characters a username has.
pub const MIN_CHARS: usize = 3;
/// The most characters a username has.
pub const MAX_CHARS: usize = 20;

/// Text longer than this (in characters, before normalising) is no username at all: a lookup
/// of it finds nobody without computing a key.
pub const MAX_LOOKUP_CHARS: usize = 80;

/// What a username may hold, as every refusal says it.
const ALLOWED: &str = "letters and digits of any script in current use, _ and -";

/// Why a name cannot be a username; each message says what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("a username has 3 to 20 characters: {ALLOWED}")]
    Length,
    #[error(
        "a username may hold only {ALLOWED}: \"{0}\" (U+{code:04X}) is none of these",
        code = u32::from(*.0)
    )]
    Character(char),
    #[error(
        "a username may hold only {ALLOWED}: type \"{plain}\" rather than its variant \"{typed}\""
    )]
    Compatibility { typed: char, plain: String },
    #[error("a username starts with a letter or a digit, then holds only {ALLOWED}")]
    Start,
    #[error(
        "a username may not mix scripts whose letters look alike, such as Latin with Cyrillic or \
         Greek: keep to one script, or mix Latin only with Chinese, Japanese or Korean, or with \
         one other script that is neither Cyrillic nor Greek"
    )]
    MixedScripts,
}

/// What was typed as it is stored and checked: trimmed, in NFC.
pub fn normalise(typed: &str) -> String {
    typed.trim().nfc().collect()
}

/// Whether a normalised name may be a username (the rule in the module's doc).
pub fn check(name: &str) -> Result<(), Refusal> {
    let len = name.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&len) {
        return Err(Refusal::Length);
    }
    let mut after_letter = false;
    for c in name.chars() {
        if c == '_' || c == '-' {
            after_letter = false;
            continue;
        }
        let mark = is_combining_mark(c);
        if !(c.is_alphanumeric() || mark) || !c.identifier_allowed() {
            return Err(refusal_of(c));
        }
        if mark && !after_letter {
            return Err(if name.starts_with(c) {
                Refusal::Start
            } else {
                Refusal::Character(c)
            });
        }
        after_letter = true;
    }
    if !name.starts_with(char::is_alphanumeric) {
        return Err(Refusal::Start);
    }
    if name.detect_restriction_level() > RestrictionLevel::ModeratelyRestrictive {
        return Err(Refusal::MixedScripts);
    }
    Ok(())
}

/// The refusal of a character that is not allowed: the plain form to type when it is a
/// compatibility variant of allowed ones.
fn refusal_of(c: char) -> Refusal {
    let plain: String = std::iter::once(c).nfkc().collect();
    let is_variant = plain.chars().ne(std::iter::once(c))
        && !plain.is_empty()
        && plain
            .chars()
            .all(|p| (p.is_alphanumeric() || p == '_' || p == '-') && p.identifier_allowed());
    if is_variant {
        Refusal::Compatibility { typed: c, plain }
    } else {
        Refusal::Character(c)
    }
}

/// Whether a normalised name holds only what a player's name in the search may: letters,
/// digits and combining marks of any script, `_` and `-` (an imported game's PGN may name a
/// player in a script the sign-up refuses).
pub fn may_be_searched(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_alphanumeric() || is_combining_mark(c) || c == '_' || c == '-')
}

/// `users.username_key`: the NFC name in lower case.
pub fn lookup_key(name: &str) -> String {
    normalise(name).to_lowercase().nfc().collect()
}

/// Unicode's compatibility caseless form: NFKD(casefold(NFKD(casefold(NFD(s))))).
fn fold(s: &str) -> String {
    s.chars()
        .nfd()
        .default_case_fold()
        .nfkd()
        .default_case_fold()
        .nfkd()
        .collect()
}

/// `users.username_skeleton`: the folded name's confusable skeleton, folded and reduced once
/// more. Two names that look alike, whatever their case, share it.
pub fn skeleton_key(name: &str) -> String {
    let once: String = unicode_security::skeleton(&fold(name.trim())).collect();
    unicode_security::skeleton(&fold(&once)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_any_script_are_taken() {
        for name in [
            "alice",
            "Zoë",
            "李雷雷",
            "Ñandú_9",
            "Jürgen-1",
            "Ελένη",
            "Дмитрий",
            "हिन्दी",
            "さくら",
            "山田タロー",
            "김민준",
            "taro山田",
            "محمد",
            "ผู้เล่น",
            "cope",
            "соре",
            "a1ice",
        ] {
            assert_eq!(check(&normalise(name)), Ok(()), "{name}");
        }
    }

    #[test]
    fn what_is_refused_says_what_is_allowed() {
        let long = "a".repeat(21);
        let cases: [(&str, Refusal); 10] = [
            ("al", Refusal::Length),
            (&long, Refusal::Length),
            ("_alice", Refusal::Start),
            ("-alice", Refusal::Start),
            ("a<script>", Refusal::Character('<')),
            ("Zoë Smith", Refusal::Character(' ')),
            ("ali\u{200d}ce", Refusal::Character('\u{200d}')),
            ("chess♞", Refusal::Character('♞')),
            (
                "Ｚoe",
                Refusal::Compatibility {
                    typed: 'Ｚ',
                    plain: "Z".into(),
                },
            ),
            ("pаypal", Refusal::MixedScripts),
        ];
        for (name, refusal) in cases {
            assert_eq!(check(&normalise(name)), Err(refusal.clone()), "{name}");
            assert!(refusal.to_string().contains(ALLOWED) || refusal == Refusal::MixedScripts);
        }
        assert_eq!(
            Refusal::Character('<').to_string(),
            "a username may hold only letters and digits of any script in current use, _ and -: \
             \"<\" (U+003C) is none of these"
        );
        // A combining mark writes a letter; alone after `_` it is refused.
        assert_eq!(check("ab_\u{301}c"), Err(Refusal::Character('\u{301}')));
        assert_eq!(check("\u{301}abc"), Err(Refusal::Start));
        // Greek with Cyrillic, Latin with Greek.
        assert_eq!(check("αβгд"), Err(Refusal::MixedScripts));
        assert_eq!(check("alphaβ"), Err(Refusal::MixedScripts));
    }

    #[test]
    fn the_stored_form_is_nfc() {
        assert_eq!(normalise("  Zoe\u{308} "), "Zoë");
        assert_eq!(normalise("Zoe\u{308}").chars().count(), 3);
        assert_eq!(lookup_key("ZOË"), "zoë");
        assert_eq!(lookup_key("Zoe\u{308}"), "zoë");
        assert_eq!(lookup_key("Alice"), "alice");
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        let same = [
            ("Zoë", "zoë"),
            ("Zoë", "ZOË"),
            ("Zoë", "Zoe\u{308}"),
            ("paypal", "PayPal"),
            ("paypal", "pаypal"),
            ("cope", "соре"),
            ("cope", "СОРЕ"),
            ("paypal", "paypa1"),
            ("google", "g00gle"),
            ("mike", "rnike"),
            ("Weiß", "weiss"),
            ("李雷雷", "李雷雷"),
        ];
        for (a, b) in same {
            assert_eq!(skeleton_key(a), skeleton_key(b), "{a} and {b}");
        }
        let apart = [
            ("Zoë", "Zoe"),
            ("alice", "alicia"),
            ("李雷雷", "李雷"),
            ("bob", "bab"),
        ];
        for (a, b) in apart {
            assert_ne!(skeleton_key(a), skeleton_key(b), "{a} and {b}");
        }
    }
}
