//! The bare rules, for comparison: replaying the lines with the rules crate and with bare shakmaty.

use std::time::{Duration, Instant};

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::variant::Atomic;
use shakmaty::{Chess, Position};
use slowfuse_rules::{Game, STANDARD_START_FEN, Variant};

use crate::lines::Lines;
use crate::{BenchConfig, LINE, PAGE_PLIES};

/// Mean time of one call of `f`, calling it for about `budget`.
pub fn mean_time(budget: Duration, mut f: impl FnMut()) -> Duration {
    let started = Instant::now();
    let mut calls = 0u32;
    while calls < 10 || started.elapsed() < budget {
        f();
        calls += 1;
    }
    started.elapsed() / calls
}

/// Plays UCI moves on a bare shakmaty position (legality checked by `to_move`); with `san`,
/// also writes each move's SAN with its check suffix, as the rules crate stores it.
pub fn shakmaty_replay<P: Position + Default>(ucis: &[UciMove], san: bool) -> P {
    let mut pos = P::default();
    for uci in ucis {
        let m = uci.to_move(&pos).expect("legal");
        if san {
            std::hint::black_box(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        } else {
            pos.play_unchecked(m);
        }
    }
    pos
}

/// Time to replay the lines with the rules crate (as a request without the replay cache
/// would), and the 40-ply line on bare shakmaty.
pub fn rules_baselines(config: &BenchConfig, lines: &Lines) -> Vec<(String, Duration)> {
    let budget = Duration::from_secs_f64((config.seconds / 5.0).clamp(0.2, 2.0));
    let short: Vec<String> = LINE.iter().map(|u| u.to_string()).collect();
    let mut cases: Vec<(Variant, &[String], String)> = [
        (Variant::Atomic, 40),
        (Variant::Atomic, 20),
        (Variant::Standard, 40),
    ]
    .into_iter()
    .map(|(variant, plies)| (variant, &short[..plies], format!("{plies} plies")))
    .collect();
    for plies in PAGE_PLIES {
        let moves = &lines.long_ucis[..plies];
        cases.push((
            Variant::Atomic,
            moves,
            format!("{plies} plies of the long line"),
        ));
    }
    let mut rows = Vec::new();
    for (variant, moves, length) in cases {
        let time = mean_time(budget, || {
            let game = Game::replay(variant, STANDARD_START_FEN, std::hint::black_box(moves));
            std::hint::black_box(game.expect("legal"));
        });
        let what = format!("slowfuse_rules `Game::replay`, {variant:?}, {length}");
        rows.push((what, time));
    }
    rows.extend(shakmaty_baselines(budget));
    rows
}

/// The 40-ply line on bare shakmaty positions, without and with writing SAN.
pub fn shakmaty_baselines(budget: Duration) -> Vec<(String, Duration)> {
    let ucis: Vec<UciMove> = LINE.iter().map(|u| u.parse().expect("UCI")).collect();
    let mut rows = Vec::new();
    for san in [false, true] {
        let how = if san { "+ SAN" } else { "" };
        let atomic = mean_time(budget, || {
            std::hint::black_box(shakmaty_replay::<Atomic>(&ucis, san));
        });
        rows.push((
            format!("shakmaty `Atomic`, UCI `to_move` + play {how}"),
            atomic,
        ));
        let chess = mean_time(budget, || {
            std::hint::black_box(shakmaty_replay::<Chess>(&ucis, san));
        });
        rows.push((
            format!("shakmaty `Chess`, UCI `to_move` + play {how}"),
            chess,
        ));
    }
    rows
}
