//! Who judges the positions of one analysis: the built-in engine, or an external UCI engine
//! that the operator named for some variants (`[analysis] uci_*`). The external engine is
//! started once for the analysis; when it cannot start, does not play the variant, fails on a
//! position or answers a move our rules refuse, the built-in engine judges instead and the log
//! says why. The figures are always White's, in the built-in engine's scale (a mate as ±30000
//! less the plies to it), with the best line in SAN as well.

use std::time::{Duration, Instant};

use slowfuse_engine::{EnginePosition, Limits, analyse};
use slowfuse_rules::{Color, Game, Variant};
use slowfuse_uci::{EngineConfig, UciAnalysis, UciEngine};

use crate::config::AnalysisSettings;
use crate::usecases::engine_analysis::PositionFigures;

/// The built-in engine's name, as the analysis records it.
pub const BUILT_IN_ENGINE: &str = "Slowfuse";

/// The score of a mate on the board, as the built-in engine gives it.
const MATE: i32 = 30_000;

/// The engines of one analysis.
pub struct Analyst {
    external: Option<External>,
    nodes: u64,
    think: Duration,
}

struct External {
    engine: UciEngine,
    /// The variant as UCI names it (`chess`, `atomic`, `3check`, …).
    variant: &'static str,
    chess960: bool,
    nodes: u64,
}

impl Analyst {
    /// The engines for a game of `variant` under `settings`.
    pub fn for_variant(settings: &AnalysisSettings, variant: Variant) -> Analyst {
        Analyst {
            external: External::start(settings, variant),
            nodes: settings.nodes,
            think: Duration::from_secs(settings.seconds_per_position.max(1)),
        }
    }

    /// The name and node budget of the engine that judges now.
    pub fn engine(&self) -> (String, u64) {
        match &self.external {
            Some(e) => (e.engine.name().to_string(), e.nodes),
            None => (BUILT_IN_ENGINE.to_string(), self.nodes),
        }
    }

    /// The figures of the position `at` (a game with its moves from the start), the position
    /// after `ply` plies.
    pub fn judge(&mut self, at: &Game, ply: i32) -> PositionFigures {
        // A finished position needs no search: the built-in engine reads the result.
        if !at.is_over()
            && let Some(external) = &mut self.external
        {
            match external.judge(at, ply) {
                Ok(figures) => return figures,
                Err(e) => {
                    log::warn!(
                        "the external engine failed at ply {ply} ({e}); the built-in engine judges the rest"
                    );
                    self.external = None;
                }
            }
        }
        built_in(at, ply, self.nodes, self.think)
    }
}

impl External {
    fn start(settings: &AnalysisSettings, variant: Variant) -> Option<External> {
        if settings.uci_path.trim().is_empty()
            || !settings
                .uci_variants
                .iter()
                .any(|v| v.parse::<Variant>().ok() == Some(variant))
        {
            return None;
        }
        let config = EngineConfig {
            path: settings.uci_path.clone().into(),
            args: settings.uci_args.clone(),
            options: settings
                .uci_options
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            nodes: settings.uci_nodes,
            timeout: Duration::from_secs(settings.seconds_per_position.max(1)),
        };
        let engine = match UciEngine::start(&config) {
            Ok(engine) => engine,
            Err(e) => {
                log::error!(
                    "the external engine {} does not start ({e}); the built-in engine analyses",
                    settings.uci_path
                );
                return None;
            }
        };
        let name = uci_variant(variant);
        if !engine.supports_variant(name) {
            log::warn!(
                "the external engine {} does not play {name}; the built-in engine analyses",
                engine.name()
            );
            return None;
        }
        Some(External {
            engine,
            variant: name,
            chess960: variant == Variant::Chess960,
            nodes: settings.uci_nodes,
        })
    }

    fn judge(&mut self, at: &Game, ply: i32) -> anyhow::Result<PositionFigures> {
        let start = at.initial_fen();
        let start = (!at.is_standard_start()).then_some(start.as_str());
        let moves: Vec<String> = at.moves().iter().map(|m| m.uci.clone()).collect();
        let found = self
            .engine
            .analyse(self.variant, start, &moves, self.chess960)?;
        figures_for_white(at, ply, &found)
    }
}

/// The UCI engines' name of a variant (`UCI_Variant`), as Fairy-Stockfish writes them.
pub fn uci_variant(variant: Variant) -> &'static str {
    match variant {
        Variant::Standard | Variant::Chess960 => "chess",
        Variant::Atomic => "atomic",
        Variant::Antichess => "antichess",
        Variant::Crazyhouse => "crazyhouse",
        Variant::KingOfTheHill => "kingofthehill",
        Variant::ThreeCheck => "3check",
        Variant::Horde => "horde",
        Variant::RacingKings => "racingkings",
    }
}

/// An external engine's answer turned into our figures: White's side, the built-in scale, the
/// best move checked by our rules (an engine that plays other rules is refused here).
fn figures_for_white(at: &Game, ply: i32, found: &UciAnalysis) -> anyhow::Result<PositionFigures> {
    let best = found
        .best
        .clone()
        .ok_or_else(|| anyhow::anyhow!("no best move in a position that goes on"))?;
    at.play_uci(&best)
        .map_err(|e| anyhow::anyhow!("its move {best} is not legal here: {e}"))?;
    let for_white = |v: i32| if at.turn() == Color::White { v } else { -v };
    let (cp, mate) = match (found.mate, found.score_cp) {
        (Some(n), _) if n > 0 => (MATE - (2 * n - 1), Some(n)),
        (Some(n), _) => (-(MATE - 2 * -n), Some(n)),
        (None, Some(cp)) => (cp, None),
        (None, None) => anyhow::bail!("no score"),
    };
    let line_san = san_line(at, &found.pv);
    Ok(PositionFigures {
        ply,
        eval_cp: for_white(cp),
        mate: mate.map(for_white),
        best_san: line_san.first().cloned(),
        best_uci: Some(best),
        best_line: found.pv.clone(),
        best_line_san: line_san,
        depth: i32::try_from(found.depth).unwrap_or(i32::MAX),
        nodes: i64::try_from(found.nodes).unwrap_or(i64::MAX),
    })
}

/// The built-in engine's figures for the position of `game` (with its history, so repetitions
/// count), within `nodes` and `think`.
fn built_in(game: &Game, ply: i32, nodes: u64, think: Duration) -> PositionFigures {
    let started = Instant::now();
    let stop = move || started.elapsed() > think;
    let found = analyse(
        &EnginePosition::from_game(game),
        &Limits::nodes(nodes).with_stop(&stop),
    );
    let line_san = san_line(game, &found.pv);
    PositionFigures {
        ply,
        eval_cp: found.score_cp,
        mate: found.mate,
        best_san: found.best.as_ref().and_then(|_| line_san.first().cloned()),
        best_uci: found.best,
        best_line: found.pv,
        best_line_san: line_san,
        depth: i32::try_from(found.depth).unwrap_or(i32::MAX),
        nodes: i64::try_from(found.nodes).unwrap_or(i64::MAX),
    }
}

/// The moves of `line` (UCI) in SAN, played from `game`'s position; as far as they are legal.
pub fn san_line(game: &Game, line: &[String]) -> Vec<String> {
    let mut sans = Vec::with_capacity(line.len());
    let mut at = game.clone();
    for uci in line {
        let Ok(next) = at.play_uci(uci) else { break };
        if let Some(played) = next.moves().last() {
            sans.push(played.san.clone());
        }
        at = next;
    }
    sans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(cp: Option<i32>, mate: Option<i32>, best: &str) -> UciAnalysis {
        UciAnalysis {
            score_cp: cp,
            mate,
            best: Some(best.to_string()),
            pv: vec![best.to_string()],
            depth: 10,
            nodes: 1000,
        }
    }

    #[test]
    fn scores_turn_to_whites_side_and_mates_to_our_scale() {
        let start = Game::new(Variant::Standard);
        let f = figures_for_white(&start, 0, &answer(Some(30), None, "e2e4")).unwrap();
        assert_eq!((f.eval_cp, f.mate), (30, None));
        assert_eq!(f.best_san.as_deref(), Some("e4"));
        let black = start.play_uci("e2e4").unwrap();
        let f = figures_for_white(&black, 1, &answer(Some(30), None, "e7e5")).unwrap();
        assert_eq!(f.eval_cp, -30, "Black's +30 is White's −30");
        let f = figures_for_white(&black, 1, &answer(None, Some(2), "e7e5")).unwrap();
        assert_eq!((f.eval_cp, f.mate), (-(MATE - 3), Some(-2)));
        let f = figures_for_white(&black, 1, &answer(None, Some(-1), "e7e5")).unwrap();
        assert_eq!((f.eval_cp, f.mate), (MATE - 2, Some(1)));
    }

    #[test]
    fn a_move_our_rules_refuse_is_not_taken() {
        let start = Game::new(Variant::Atomic);
        assert!(figures_for_white(&start, 0, &answer(Some(0), None, "e2e5")).is_err());
    }

    #[test]
    fn variants_have_their_uci_names() {
        assert_eq!(uci_variant(Variant::ThreeCheck), "3check");
        assert_eq!(uci_variant(Variant::Chess960), "chess");
    }
}
