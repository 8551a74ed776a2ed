//! The tricky positions of the shared corpus (`positions/*.txt`), each
//! expectation checked against `Game`.
//!
//! Expectations about insufficient material describe the dead-position
//! test: in Slowfuse that makes a draw claimable and never ends the game by
//! itself, so such records check the predicate, that the game goes on, and
//! that the claim succeeds (corpus README, "How the expectations map").

mod common;

use std::collections::BTreeSet;
use std::fs;

use slowfuse_rules::{Color, EndReason, Game, Outcome, Role, Variant, square_index};

/// Records where the upstream expectation is not lichess's rule (ours):
/// (file, FEN, check, why). The test asserts that they still disagree.
const DIFFERENT_RULES: &[(&str, &str, &str, &str)] = &[
    (
        "atomic-positions.txt",
        "3N1NB1/2N1Q1N1/3RkR2/2NP1PN1/3NKN2/8/8/n7 w - - 0 1",
        "valid",
        "python-chess accepts an atomic position whose side not to move is in check; \
         lichess (our rules) refuses it, as no legal game reaches it",
    ),
    (
        "atomic-positions.txt",
        "8/8/8/8/5k2/8/1qK5/8 b - - 0 1",
        "outcome",
        "pychess (FICS rules) starts from a position whose side not to move is in \
         check; lichess (our rules) refuses it, as no legal game reaches it",
    ),
];

/// One line of a positions file.
struct Record {
    line: usize,
    variant: String,
    fen: String,
    moves: Vec<String>,
    check: String,
    expected: String,
}

fn parse(text: &str) -> Vec<Record> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            assert!(fields.len() >= 5, "line {}: too few fields", i + 1);
            Record {
                line: i + 1,
                variant: fields[0].to_owned(),
                fen: fields[1].to_owned(),
                moves: match fields[2] {
                    "-" | "" => Vec::new(),
                    moves => moves.split_whitespace().map(str::to_owned).collect(),
                },
                check: fields[3].to_owned(),
                expected: fields[4].to_owned(),
            }
        })
        .collect()
}

fn variant_of(name: &str) -> Variant {
    match name {
        // Chess960 castling: read from where kings and rooks stand.
        "atomic960" => Variant::Atomic,
        other => other.parse().unwrap_or_else(|e| panic!("{other}: {e}")),
    }
}

fn yes(word: &str) -> bool {
    match word {
        "yes" => true,
        "no" => false,
        other => panic!("expected yes or no, not {other}"),
    }
}

fn squares(list: &str) -> Vec<usize> {
    list.split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| usize::from(square_index(s).unwrap_or_else(|| panic!("square {s}"))))
        .collect()
}

fn piece_symbol(piece: (Color, Role)) -> char {
    let ch = piece.1.char();
    match piece.0 {
        Color::White => ch.to_ascii_uppercase(),
        Color::Black => ch,
    }
}

fn fen_fields(fen: &str, n: usize) -> Vec<String> {
    fen.split_whitespace().take(n).map(str::to_owned).collect()
}

/// `expected` as our FEN writer would write it (pocket order, en passant).
fn normalised(variant: Variant, expected: &str) -> String {
    Game::from_fen(variant, expected).map_or_else(|_| expected.to_owned(), |g| g.fen())
}

fn move_set(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_owned).collect()
}

/// Checks one record; returns a description of a failure.
fn check(record: &Record) -> Result<(), String> {
    let variant = variant_of(&record.variant);
    let start = Game::from_fen(variant, &record.fen);
    if record.check == "valid" {
        return if start.is_ok() == yes(&record.expected) {
            Ok(())
        } else {
            Err(format!("valid: {:?}", start.err()))
        };
    }
    let mut game = start.map_err(|e| format!("setup: {e}"))?;
    for m in &record.moves {
        game = game.play(m).map_err(|e| format!("move {m}: {e}"))?;
    }
    let legal: Vec<(String, String)> = game
        .legal_moves()
        .into_iter()
        .map(|m| (m.uci, m.san))
        .collect();
    let board = game.board_at(game.ply()).expect("current board");
    let expected = record.expected.as_str();
    let ok = match record.check.as_str() {
        "fen_after" => game.fen() == normalised(variant, expected),
        "fen4_after" => fen_fields(&game.fen(), 4) == fen_fields(&normalised(variant, expected), 4),
        "legal" => game.play(expected).is_ok(),
        "illegal" => game.play(expected).is_err(),
        "legal_count" => legal.len().to_string() == expected,
        "legal_moves_set" => {
            legal
                .iter()
                .map(|(u, _)| u.clone())
                .collect::<BTreeSet<_>>()
                == move_set(expected)
        }
        "in_check" => game.is_check() == yes(expected),
        "replay_ok" => yes(expected),
        "outcome" => return check_outcome(variant, &game, expected),
        "insufficient" => expected.split(',').all(|part| {
            let (side, answer) = part.split_once('=').expect("side=yes|no");
            let color = if side == "white" {
                Color::White
            } else {
                Color::Black
            };
            game.cannot_win(color) == yes(answer)
        }),
        "insufficient_both" | "lichess_autodraw" => {
            let dead = yes(expected);
            return if game.is_dead_position() != dead {
                Err(format!("dead position should be {dead}"))
            } else if dead {
                claim_only(&game)
            } else {
                Ok(())
            };
        }
        "empty_squares" => squares(expected).iter().all(|&sq| board[sq].is_none()),
        "occupied_squares" => squares(expected).iter().all(|&sq| board[sq].is_some()),
        "piece_at" => expected.split(',').all(|part| {
            let (sq, symbol) = part.split_once('=').expect("sq=piece");
            let sq = squares(sq)[0];
            board[sq].map(piece_symbol) == symbol.chars().next()
        }),
        "movable_from" => {
            let from: BTreeSet<String> = legal.iter().map(|(u, _)| u[..2].to_owned()).collect();
            from == move_set(&expected.replace(',', " "))
        }
        "no_captures_from" => !legal
            .iter()
            .any(|(u, s)| u.starts_with(expected) && s.contains('x')),
        "all_legal_are_captures" => legal.iter().all(|(_, s)| s.contains('x')) == yes(expected),
        "no_castling_moves" => legal.iter().all(|(_, s)| !s.starts_with("O-O")) == yes(expected),
        kind => {
            if let Some(from) = kind.strip_prefix("moves_from_") {
                let got: BTreeSet<String> = legal
                    .iter()
                    .filter(|(u, _)| u.starts_with(from))
                    .map(|(u, _)| u.clone())
                    .collect();
                got == move_set(expected)
            } else {
                return Err(format!("unknown check kind {kind}"));
            }
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} {} not met; position {}, legal {:?}",
            record.check,
            expected,
            game.fen(),
            legal.iter().map(|(u, _)| u.as_str()).collect::<Vec<_>>()
        ))
    }
}

/// A dead position: the game goes on, and the player to move may claim.
fn claim_only(game: &Game) -> Result<(), String> {
    if game.outcome().is_some() {
        return Err(format!(
            "dead position ended the game: {:?}",
            game.outcome()
        ));
    }
    match game.claim_draw() {
        Ok(drawn) if drawn.outcome() == Some(Outcome::draw(EndReason::DeadPosition)) => Ok(()),
        other => Err(format!("claim in a dead position: {other:?}")),
    }
}

fn check_outcome(variant: Variant, game: &Game, expected: &str) -> Result<(), String> {
    let (winner, reason) = match expected.split_once(':') {
        Some((w, r)) => (w, Some(r)),
        None => (expected, None),
    };
    if reason == Some("insufficient") {
        // Lichess ends the game here; Slowfuse lets it be claimed.
        if !game.is_dead_position() {
            return Err("should be a dead position".to_owned());
        }
        return claim_only(game);
    }
    let got = game.outcome();
    let winner = match winner {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        "draw" => None,
        "none" => {
            return match got {
                None => Ok(()),
                Some(o) => Err(format!("the game should go on, but ended: {o:?}")),
            };
        }
        other => return Err(format!("unknown outcome {other}")),
    };
    let Some(got) = got else {
        return Err(format!("the game should be over ({expected})"));
    };
    if got.winner != winner {
        return Err(format!("winner {:?}, expected {expected}", got.winner));
    }
    let reason_ok = match reason {
        None => true,
        Some("checkmate") => got.reason == EndReason::Checkmate,
        Some("stalemate") => got.reason == EndReason::Stalemate,
        Some("variant") => match variant {
            Variant::Atomic => got.reason == EndReason::Explosion,
            _ => got.reason == EndReason::VariantWin,
        },
        Some(other) => return Err(format!("unknown reason {other}")),
    };
    if reason_ok {
        Ok(())
    } else {
        Err(format!("reason {:?}, expected {expected}", got.reason))
    }
}

#[test]
fn tricky_positions_from_the_corpus() {
    let Some(corpus) = common::corpus_or_skip("tricky_positions_from_the_corpus") else {
        return;
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut differ = 0;
    for path in common::files_ending(&corpus.join("positions"), ".txt") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).expect("positions file");
        for record in parse(&text) {
            checked += 1;
            let known = DIFFERENT_RULES.iter().find(|(file, fen, kind, _)| {
                *file == name && *fen == record.fen && *kind == record.check
            });
            if let Some((_, _, _, why)) = known {
                assert!(
                    check(&record).is_err(),
                    "{name}:{} now agrees with its expectation; remove it from DIFFERENT_RULES",
                    record.line
                );
                println!("{name}:{} differs as expected: {why}", record.line);
                differ += 1;
                continue;
            }
            if let Err(problem) = check(&record) {
                failures.push(format!(
                    "{name}:{} [{} {}; {}; {}]: {problem}",
                    record.line,
                    record.variant,
                    record.fen,
                    record.moves.join(" "),
                    record.check
                ));
            }
        }
    }
    println!("checked {checked} position records, {differ} of them under other rules");
    assert_eq!(
        differ,
        DIFFERENT_RULES.len(),
        "a listed difference was not found"
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} records failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 80, "only {checked} position records");
}
