//! The Engine Analysis tab: closed while the game runs; for a finished game, the button that
//! asks for the analysis, its progress while the worker judges the positions, then the
//! evaluation graph, each side's inaccuracies, mistakes and blunders, and every move with its
//! evaluation, its judgement and the engine's better move and line.

use slowfuse_engine::{Eval, Judgement, winning_chances};

use super::move_lines::Numbering;
use crate::game::GameRecord;
use crate::usecases::engine_analysis::{self, EngineReview, PlyReview, status};
use crate::web::eval_graph::{GraphPoint, eval_graph};

/// The tab as drawn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnginePanel {
    /// The game is still being played: no engine.
    pub closed: bool,
    /// The engine analyses this variant.
    pub offered: bool,
    /// The viewer may ask for the analysis (logged in, nobody asked yet or it failed).
    pub may_ask: bool,
    /// `queued`, `running`, `done`, `failed`; empty when nobody asked.
    pub status: String,
    pub done_positions: i32,
    pub positions: i32,
    /// Percent judged.
    pub percent: u32,
    /// The engine and its budget ("Slowfuse, 300,000 nodes a position").
    pub engine: String,
    /// Why it failed.
    pub error: String,
    /// The graph's inline SVG (our own markup, its labels escaped).
    pub graph: String,
    /// White's and Black's counts.
    pub sides: Vec<SideSummary>,
    /// One row per move.
    pub rows: Vec<EngineRow>,
}

impl EnginePanel {
    pub fn is_waiting(&self) -> bool {
        self.status == status::QUEUED || self.status == status::RUNNING
    }
    pub fn is_done(&self) -> bool {
        self.status == status::DONE
    }
}

/// One side's judged moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideSummary {
    /// "White (alice)".
    pub side: String,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// One move of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRow {
    pub ply: i32,
    /// "12." for White's move, "12…" for Black's.
    pub number: String,
    pub san: String,
    /// The evaluation after it, from White's side: "+0.35", "−1.20", "#3", "#−2", or the result.
    pub eval: String,
    /// `inaccuracy`, `mistake`, `blunder` or empty.
    pub judgement: &'static str,
    /// `?!`, `?`, `??` or empty.
    pub symbol: &'static str,
    /// The move the engine preferred, when this one is judged ("Nf3"), and the rest of its line
    /// after that move ("Nc6 d4").
    pub best_san: String,
    pub best_line: String,
    /// The row is the ply shown on the board.
    pub shown: bool,
}

/// The tab for `record`, with its analysis if someone asked for one, for a viewer who is
/// logged in or not, with `shown` the ply on the board.
pub fn engine_panel(
    record: &GameRecord,
    numbering: Numbering,
    review: Option<&EngineReview>,
    logged_in: bool,
    shown: u32,
) -> EnginePanel {
    let closed = record.status.is_running();
    let offered = engine_analysis::offered_for(record.kind);
    let mut panel = EnginePanel {
        closed,
        offered,
        ..EnginePanel::default()
    };
    if closed || !offered {
        return panel;
    }
    let Some(review) = review else {
        panel.may_ask = logged_in;
        return panel;
    };
    panel.may_ask = logged_in && review.status == status::FAILED;
    panel.status.clone_from(&review.status);
    panel.done_positions = review.done_positions;
    panel.positions = review.positions;
    panel.percent = review.percent();
    if !review.engine.is_empty() {
        panel.engine = format!(
            "{}, {} nodes a position",
            review.engine,
            thousands(review.nodes)
        );
    }
    panel.error = review.error.clone().unwrap_or_default();
    // The move list's numbering: ply N is move N − 1 from the start's own number and side.
    let number_of = |ply: i32| {
        usize::try_from(ply - 1)
            .ok()
            .map(|index| numbering.of_move(index))
    };
    let white_moves_first = |ply: i32| number_of(ply).is_some_and(|(_, black)| !black);
    panel.rows = review
        .plies
        .iter()
        .filter(|p| p.figures.ply >= 1)
        .filter_map(|p| {
            let played = record.moves.get(usize::try_from(p.figures.ply - 1).ok()?)?;
            let before = review
                .plies
                .iter()
                .find(|b| b.figures.ply == p.figures.ply - 1);
            let (number, black) = number_of(p.figures.ply)?;
            let judged = p.judgement.is_some();
            Some(EngineRow {
                ply: p.figures.ply,
                number: if black {
                    format!("{number}…")
                } else {
                    format!("{number}.")
                },
                san: played.san.clone(),
                eval: eval_text(p),
                judgement: p.judgement.map_or("", Judgement::as_str),
                symbol: p.judgement.map_or("", Judgement::symbol),
                best_san: before
                    .filter(|_| judged)
                    .and_then(|b| b.figures.best_san.clone())
                    .unwrap_or_default(),
                // The line begins with the better move itself, shown just before it.
                best_line: before
                    .filter(|_| judged)
                    .map(|b| {
                        let line = &b.figures.best_line_san;
                        line.get(1..).unwrap_or_default().join(" ")
                    })
                    .unwrap_or_default(),
                shown: u32::try_from(p.figures.ply).is_ok_and(|ply| ply == shown),
            })
        })
        .collect();
    panel.sides = [true, false]
        .into_iter()
        .map(|white| {
            let color = if white {
                slowfuse_rules::Color::White
            } else {
                slowfuse_rules::Color::Black
            };
            let mine: Vec<&PlyReview> = review
                .plies
                .iter()
                .filter(|p| p.figures.ply >= 1 && white_moves_first(p.figures.ply) == white)
                .collect();
            let count = |j: Judgement| mine.iter().filter(|p| p.judgement == Some(j)).count();
            SideSummary {
                side: format!(
                    "{} ({})",
                    if white { "White" } else { "Black" },
                    record.shown_name_of(crate::game::Seat::first_board(color))
                ),
                inaccuracies: count(Judgement::Inaccuracy),
                mistakes: count(Judgement::Mistake),
                blunders: count(Judgement::Blunder),
            }
        })
        .collect();
    let points: Vec<GraphPoint> = review
        .plies
        .iter()
        .filter_map(|p| {
            let ply = u32::try_from(p.figures.ply).ok()?;
            let label = match panel.rows.iter().find(|r| r.ply == p.figures.ply) {
                Some(row) => format!("{} {}{} {}", row.number, row.san, row.symbol, row.eval),
                None => format!("Start {}", eval_text(p)),
            };
            Some(GraphPoint {
                ply,
                chances: winning_chances(Eval {
                    cp: p.figures.eval_cp,
                    mate: p.figures.mate,
                }),
                label,
                judgement: p.judgement,
            })
        })
        .collect();
    panel.graph = eval_graph(&points, shown);
    panel
}

/// An evaluation from White's side as players write it.
fn eval_text(p: &PlyReview) -> String {
    match p.figures.mate {
        Some(0) if p.figures.eval_cp > 0 => "1-0".to_string(),
        Some(0) if p.figures.eval_cp < 0 => "0-1".to_string(),
        Some(0) => "½-½".to_string(),
        Some(n) if n > 0 => format!("#{n}"),
        Some(n) => format!("#−{}", -n),
        None if p.figures.best_uci.is_none() && p.figures.eval_cp == 0 => "½-½".to_string(),
        None => {
            let pawns = f64::from(p.figures.eval_cp) / 100.0;
            if pawns < 0.0 {
                format!("−{:.2}", -pawns)
            } else {
                format!("+{pawns:.2}")
            }
        }
    }
}

/// 300000 as "300,000".
fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usecases::engine_analysis::PositionFigures;

    fn review(cp: i32, mate: Option<i32>, best: Option<&str>) -> PlyReview {
        PlyReview {
            figures: PositionFigures {
                ply: 1,
                eval_cp: cp,
                mate,
                best_uci: best.map(str::to_string),
                best_san: None,
                best_line: Vec::new(),
                best_line_san: Vec::new(),
                depth: 1,
                nodes: 1,
            },
            judgement: None,
        }
    }

    #[test]
    fn evaluations_read_as_players_write_them() {
        assert_eq!(eval_text(&review(35, None, Some("e2e4"))), "+0.35");
        assert_eq!(eval_text(&review(-120, None, Some("e2e4"))), "−1.20");
        assert_eq!(eval_text(&review(29_990, Some(3), Some("e2e4"))), "#3");
        assert_eq!(eval_text(&review(-29_990, Some(-2), Some("e2e4"))), "#−2");
        assert_eq!(eval_text(&review(30_000, Some(0), None)), "1-0");
        assert_eq!(eval_text(&review(0, None, None)), "½-½");
        assert_eq!(thousands(300_000), "300,000");
        assert_eq!(thousands(999), "999");
    }
}
