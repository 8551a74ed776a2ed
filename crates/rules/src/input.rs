//! Reading a move typed by a player (SAN or UCI) into a legal move.

use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::variant::VariantPosition;
use shakmaty::{Move, Position, Role};

use crate::error::MoveError;

/// What one reading of the input led to.
enum Attempt {
    Found(Move),
    Ambiguous(String),
    Illegal,
    Unreadable,
}

/// Resolves `input` to a legal move in `pos`.
///
/// Accepts SAN (`Nf3`, `exd5`, `O-O`, `0-0`, `e8=Q`, `e8Q`, with or without
/// `+`, `#`, `!`, `?` and a leading move number) and UCI (`g1f3`, `e7e8q`,
/// castling also as king-takes-rook `e1h1`). A lowercase piece letter
/// (`nf3`) is read as the piece when that gives a legal move.
pub(crate) fn resolve(pos: &VariantPosition, input: &str) -> Result<Move, MoveError> {
    let written = input.trim();
    let core = strip_decorations(written);
    if core.is_empty() || !core.is_ascii() {
        return Err(MoveError::Unparsable(written.to_owned()));
    }

    // Exactly as written, in correct SAN or UCI: no second-guessing.
    if let Some(m) = strict(pos, &core) {
        return Ok(m);
    }

    // Otherwise every lenient reading that gives a legal move must agree.
    let mut found: Vec<Move> = Vec::new();
    let mut best = Attempt::Unreadable;
    for candidate in readings(&core) {
        let attempt = if looks_like_uci(&candidate) {
            try_uci(pos, &candidate)
        } else {
            try_san(pos, &candidate, written)
        };
        match attempt {
            Attempt::Found(m) => {
                if !found.contains(&m) {
                    found.push(m);
                }
            }
            Attempt::Ambiguous(_) => {
                if !matches!(best, Attempt::Ambiguous(_)) {
                    best = attempt;
                }
            }
            Attempt::Illegal => {
                if matches!(best, Attempt::Unreadable) {
                    best = attempt;
                }
            }
            Attempt::Unreadable => {}
        }
    }
    match found.as_slice() {
        [m] => return Ok(*m),
        [first, second, ..] => {
            // Lenient readings disagree, e.g. "bc4" as Bc4 or as bxc4.
            let first = San::from_move(pos, *first);
            let second = San::from_move(pos, *second);
            return Err(MoveError::Ambiguous(format!(
                "{written} is ambiguous: write {first} or {second}"
            )));
        }
        [] => {}
    }
    Err(match best {
        Attempt::Found(_) | Attempt::Unreadable => MoveError::Unparsable(written.to_owned()),
        Attempt::Illegal => MoveError::Illegal(written.to_owned()),
        Attempt::Ambiguous(message) => MoveError::Ambiguous(message),
    })
}

/// Resolves a move read from PGN movetext: exact SAN first; a token that is
/// not legal SAN but reads as UCI (`g1f3`, as some files hold) is tried as
/// UCI.
pub(crate) fn resolve_san(pos: &VariantPosition, san: &San) -> Result<Move, MoveError> {
    if matches!(san, San::Null) {
        return Err(MoveError::Unparsable(san.to_string()));
    }
    // The text is written out only when it is needed: not for a legal move.
    match san.to_move(pos) {
        Ok(m) => Ok(m),
        Err(SanError::AmbiguousSan) => {
            Err(MoveError::Ambiguous(ambiguity(pos, *san, &san.to_string())))
        }
        Err(SanError::IllegalSan) => {
            let text = san.to_string();
            match try_uci(pos, &text) {
                Attempt::Found(m) if looks_like_uci(&text) => Ok(m),
                _ => Err(MoveError::Illegal(text)),
            }
        }
    }
}

/// Resolves a stored UCI move (`e2e4`, `e7e8q`, `e1g1` or `e1h1`, `P@e4`)
/// strictly.
pub(crate) fn resolve_uci(pos: &VariantPosition, uci: &str) -> Result<Move, MoveError> {
    let written = uci.trim();
    if !looks_like_uci(written) {
        return Err(MoveError::Unparsable(written.to_owned()));
    }
    match try_uci(pos, written) {
        Attempt::Found(m) => Ok(m),
        Attempt::Ambiguous(message) => Err(MoveError::Ambiguous(message)),
        Attempt::Illegal => Err(MoveError::Illegal(written.to_owned())),
        Attempt::Unreadable => Err(MoveError::Unparsable(written.to_owned())),
    }
}

/// The move `text` denotes as correct SAN or UCI, if legal and unique.
///
/// Text that reads both ways is tried both ways, SAN first when it starts
/// with a capital piece letter: `B3b4` is the bishop on the third rank going
/// to b4 (as the server itself writes it when two bishops on one file can),
/// not the UCI `b3b4`, whose squares are written in lower case.
fn strict(pos: &VariantPosition, text: &str) -> Option<Move> {
    let as_san = || San::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok();
    if !looks_like_uci(text) {
        return as_san();
    }
    let piece_letter = text.starts_with(['N', 'B', 'R', 'Q', 'K']);
    let as_uci = || UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok();
    if piece_letter {
        as_san().or_else(as_uci)
    } else {
        as_uci().or_else(as_san)
    }
}

/// Removes a leading move number (`12.`, `12...`), trailing annotations
/// (`+ # ! ?`), an `e.p.` mark, and spaces.
fn strip_decorations(written: &str) -> String {
    let mut s = written.trim();
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && s[digits..].starts_with('.') {
        s = s[digits..].trim_start_matches('.').trim_start();
    }
    let s = s.trim_end_matches(['+', '#', '!', '?', ' ']);
    let s = s.strip_suffix("e.p.").unwrap_or(s);
    let s = s.trim_end_matches(['+', '#', '!', '?', ' ']);
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The ways to read the stripped input, most literal first.
fn readings(core: &str) -> Vec<String> {
    let mut out = vec![core.to_owned()];
    let mut push = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };

    // Castling written with zeros or lowercase letters.
    let castle = core.replace(['0', 'o'], "O");
    if castle == "O-O" || castle == "O-O-O" {
        push(castle);
    }

    // Promotion without '=' (e8Q, exd8N, e8q).
    let bytes = core.as_bytes();
    if bytes.len() >= 3 && !looks_like_uci(core) {
        let last = bytes[bytes.len() - 1];
        let before = bytes[bytes.len() - 2];
        if matches!(last.to_ascii_uppercase(), b'Q' | b'R' | b'B' | b'N')
            && (before == b'1' || before == b'8')
        {
            let head = &core[..core.len() - 1];
            push(format!("{head}={}", char::from(last.to_ascii_uppercase())));
        }
    }

    // A drop with a lowercase piece letter: p@e4, n@f3.
    if bytes.len() == 4 && bytes[1] == b'@' {
        push(format!(
            "{}{}",
            char::from(bytes[0].to_ascii_uppercase()),
            &core[1..]
        ));
    }

    // A lowercase piece letter: nf3, qxd7, and bc4 for a bishop.
    if let Some(first) = core.chars().next()
        && matches!(first, 'n' | 'b' | 'r' | 'q' | 'k')
        && !looks_like_uci(core)
    {
        push(format!("{}{}", first.to_ascii_uppercase(), &core[1..]));
    }
    out
}

/// `e2e4` or `e7e8q`: two squares and an optional promotion letter; or a
/// drop `P@e4` (piece letter in either case).
fn looks_like_uci(s: &str) -> bool {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| {
        (b'a'..=b'h').contains(&f.to_ascii_lowercase()) && (b'1'..=b'8').contains(&r)
    };
    match b.len() {
        4 if b[1] == b'@' => {
            matches!(
                b[0].to_ascii_uppercase(),
                b'P' | b'N' | b'B' | b'R' | b'Q' | b'K'
            ) && square(b[2], b[3])
        }
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => {
            square(b[0], b[1])
                && square(b[2], b[3])
                && matches!(b[4].to_ascii_lowercase(), b'q' | b'r' | b'b' | b'n' | b'k')
        }
        _ => false,
    }
}

fn try_uci(pos: &VariantPosition, text: &str) -> Attempt {
    // Stored moves are already in shakmaty's case; only typed ones are copied.
    let mut normalised = [0; 5];
    let len = text.len();
    if len > normalised.len() {
        return Attempt::Unreadable;
    }
    for (index, (to, from)) in normalised.iter_mut().zip(text.as_bytes()).enumerate() {
        *to = if index == 0 && text.as_bytes().get(1) == Some(&b'@') {
            from.to_ascii_uppercase()
        } else {
            from.to_ascii_lowercase()
        };
    }
    let Ok(uci) = UciMove::from_ascii(&normalised[..len]) else {
        return Attempt::Unreadable;
    };
    if let Ok(m) = uci.to_move(pos) {
        return Attempt::Found(m);
    }
    // A pawn reaching the last rank without a promotion piece.
    if let UciMove::Normal {
        from,
        to,
        promotion: None,
    } = uci
    {
        let queen = UciMove::Normal {
            from,
            to,
            promotion: Some(Role::Queen),
        };
        if queen.to_move(pos).is_ok() {
            return Attempt::Ambiguous(format!(
                "{text} is ambiguous: say which piece to promote to, e.g. {queen}"
            ));
        }
    }
    Attempt::Illegal
}

fn try_san(pos: &VariantPosition, text: &str, written: &str) -> Attempt {
    let Ok(san) = San::from_ascii(text.as_bytes()) else {
        return Attempt::Unreadable;
    };
    if matches!(san, San::Null) {
        return Attempt::Unreadable;
    }
    match san.to_move(pos) {
        Ok(m) => Attempt::Found(m),
        Err(SanError::AmbiguousSan) => Attempt::Ambiguous(ambiguity(pos, san, written)),
        Err(SanError::IllegalSan) => retry_san(pos, san, written),
    }
}

/// Second chances for a SAN that matched nothing: a capture written without
/// `x`, or a promotion written without its piece.
fn retry_san(pos: &VariantPosition, san: San, written: &str) -> Attempt {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return Attempt::Illegal;
    };
    if !capture {
        let with_x = San::Normal {
            role,
            file,
            rank,
            capture: true,
            to,
            promotion,
        };
        match with_x.to_move(pos) {
            Ok(m) => return Attempt::Found(m),
            Err(SanError::AmbiguousSan) => {
                return Attempt::Ambiguous(ambiguity(pos, with_x, written));
            }
            Err(SanError::IllegalSan) => {}
        }
    }
    if role == Role::Pawn && promotion.is_none() {
        let queen = San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: Some(Role::Queen),
        };
        if queen.to_move(pos).is_ok() {
            return Attempt::Ambiguous(format!(
                "{written} is ambiguous: say which piece to promote to, e.g. {queen}"
            ));
        }
    }
    Attempt::Illegal
}

/// Explains an ambiguous SAN with an unambiguous example.
fn ambiguity(pos: &VariantPosition, san: San, written: &str) -> String {
    let example = pos
        .legal_moves()
        .into_iter()
        .find(|m| san.matches(*m))
        .map(|m| San::from_move(pos, m).to_string());
    let piece = match san {
        San::Normal { role, .. } => role_name(role),
        _ => "piece",
    };
    match example {
        Some(example) => format!("{written} is ambiguous: say which {piece}, e.g. {example}"),
        None => format!("{written} is ambiguous: say which {piece}"),
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, fen::Fen, variant::Variant};

    fn pos(fen: &str) -> VariantPosition {
        let setup = Fen::from_ascii(fen.as_bytes()).unwrap().into_setup();
        VariantPosition::from_setup(Variant::Chess, setup, CastlingMode::Standard).unwrap()
    }

    fn uci(p: &VariantPosition, input: &str) -> Result<String, MoveError> {
        resolve(p, input).map(|m| UciMove::from_standard(m).to_string())
    }

    #[test]
    fn reads_many_spellings() {
        let start = VariantPosition::new(Variant::Chess);
        for input in [
            "Nf3", "nf3", "g1f3", " Nf3+ ", "Nf3!?", "1. Nf3", "Ng1f3", "G1F3",
        ] {
            assert_eq!(uci(&start, input).as_deref(), Ok("g1f3"), "{input}");
        }
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for input in ["O-O", "0-0", "o-o", "e1g1", "e1h1"] {
            assert_eq!(uci(&castle, input).as_deref(), Ok("e1g1"), "{input}");
        }
        assert_eq!(uci(&castle, "O-O-O").as_deref(), Ok("e1c1"));
        let promo = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        for input in ["e8=Q", "e8Q", "e8=q", "e7e8q", "e8=Q+"] {
            assert_eq!(uci(&promo, input).as_deref(), Ok("e7e8q"), "{input}");
        }
        assert_eq!(uci(&promo, "e8=N").as_deref(), Ok("e7e8n"));
    }

    #[test]
    fn bishop_and_b_pawn_are_told_apart() {
        let p = pos("4k3/8/8/8/8/2p5/1P6/2B1K3 w - - 0 1");
        assert_eq!(uci(&p, "bxc3").as_deref(), Ok("b2c3"));
        assert_eq!(uci(&p, "bd2").as_deref(), Ok("c1d2"));
        assert_eq!(uci(&p, "Bd2").as_deref(), Ok("c1d2"));
    }

    #[test]
    fn lowercase_b_that_fits_bishop_and_pawn_is_ambiguous() {
        let p = pos("4k3/8/8/8/2p5/8/1P1B4/4K3 w - - 0 1");
        assert_eq!(uci(&p, "Bc3").as_deref(), Ok("d2c3"));
        assert_eq!(uci(&p, "b4").as_deref(), Ok("b2b4"));
        let p = pos("4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1");
        assert_eq!(
            resolve(&p, "bc3").unwrap_err().to_string(),
            "bc3 is ambiguous: write bxc3 or Bxc3"
        );
        assert_eq!(uci(&p, "bxc3").as_deref(), Ok("b2c3"));
    }

    #[test]
    fn capture_without_x_is_accepted() {
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(uci(&p, "exd5").as_deref(), Ok("e4d5"));
        assert_eq!(uci(&p, "ed5").as_deref(), Ok("e4d5"));
    }

    #[test]
    fn errors_explain() {
        let start = VariantPosition::new(Variant::Chess);
        assert_eq!(
            resolve(&start, "Nf5"),
            Err(MoveError::Illegal("Nf5".to_owned()))
        );
        assert_eq!(
            resolve(&start, "hello"),
            Err(MoveError::Unparsable("hello".to_owned()))
        );
        assert_eq!(
            resolve(&start, ""),
            Err(MoveError::Unparsable(String::new()))
        );
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(
            resolve(&p, "Nd2").unwrap_err().to_string(),
            "Nd2 is ambiguous: say which knight, e.g. Nbd2"
        );
        let promo = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        assert_eq!(
            resolve(&promo, "e8").unwrap_err().to_string(),
            "e8 is ambiguous: say which piece to promote to, e.g. e8=Q"
        );
        assert_eq!(
            resolve(&promo, "e7e8").unwrap_err().to_string(),
            "e7e8 is ambiguous: say which piece to promote to, e.g. e7e8q"
        );
    }

    #[test]
    fn stored_uci_is_strict() {
        let start = VariantPosition::new(Variant::Chess);
        assert!(resolve_uci(&start, "g1f3").is_ok());
        assert_eq!(
            resolve_uci(&start, "Nf3"),
            Err(MoveError::Unparsable("Nf3".to_owned()))
        );
        assert_eq!(
            resolve_uci(&start, "g1g3"),
            Err(MoveError::Illegal("g1g3".to_owned()))
        );
    }
}
