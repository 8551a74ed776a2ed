//! `UciAnalysis`, and how the `info` lines of one search fold into it: pure, no I/O.

use crate::parse::{BestMove, Bound, Info, Score};

/// What the engine said about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciAnalysis {
    /// Centipawns from the side to move's view, as UCI gives it; `None` when the score is a mate.
    pub score_cp: Option<i32>,
    /// Mate in this many moves, from the side to move's view: positive when the side to move
    /// mates, negative when it is mated, `Some(0)` when it is checkmated already.
    pub mate: Option<i32>,
    /// The move the engine would play; `None` for `(none)` / `0000` (no legal move).
    pub best: Option<String>,
    /// The line the engine expects, in its notation (`e7e8q`, `P@e4`); may be empty.
    pub pv: Vec<String>,
    /// The depth of the line kept.
    pub depth: u32,
    /// The nodes searched, as last reported.
    pub nodes: u64,
}

/// The `info` lines of one search, folded as they arrive.
///
/// Kept: the last line with a score of the first principal variation (`multipv` 1 or none) at
/// the deepest depth seen; at equal depth a bound (`lowerbound`, `upperbound`) does not replace
/// an exact score. Lines without a score (`currmove`, `info string`) only count their nodes.
#[derive(Debug, Default)]
pub struct SearchFold {
    kept: Option<Info>,
    nodes: u64,
}

impl SearchFold {
    pub fn new() -> SearchFold {
        SearchFold::default()
    }

    /// Takes one `info` line of the search.
    pub fn add(&mut self, info: Info) {
        if let Some(nodes) = info.nodes {
            self.nodes = self.nodes.max(nodes);
        }
        if info.score.is_none() || info.string.is_some() || info.multipv.unwrap_or(1) != 1 {
            return;
        }
        let replaces = match &self.kept {
            None => true,
            Some(kept) => {
                let (depth, kept_depth) = (info.depth.unwrap_or(0), kept.depth.unwrap_or(0));
                depth > kept_depth
                    || (depth == kept_depth
                        && (info.bound == Bound::Exact || kept.bound != Bound::Exact))
            }
        };
        if replaces {
            self.kept = Some(info);
        }
    }

    /// The analysis, once the search ended with `bestmove`.
    pub fn finish(self, bestmove: BestMove) -> UciAnalysis {
        let kept = self.kept.unwrap_or_default();
        let (score_cp, mate) = match kept.score {
            Some(Score::Cp(cp)) => (Some(cp), None),
            Some(Score::Mate(moves)) => (None, Some(moves)),
            None => (None, None),
        };
        UciAnalysis {
            score_cp,
            mate,
            best: bestmove.best,
            pv: kept.pv,
            depth: kept.depth.unwrap_or(0),
            nodes: self.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_bestmove, parse_info};

    fn fold(lines: &[&str], bestmove: &str) -> UciAnalysis {
        let mut fold = SearchFold::new();
        for line in lines {
            fold.add(parse_info(line).unwrap());
        }
        fold.finish(parse_bestmove(bestmove).unwrap())
    }

    #[test]
    fn the_deepest_scored_line_wins() {
        let analysis = fold(
            &[
                "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
                "info depth 1 seldepth 1 multipv 1 score cp 18 nodes 20 pv e2e4",
                "info depth 2 seldepth 2 multipv 1 score cp 46 nodes 51 pv d2d4 d7d5",
                "info depth 3 currmove g1f3 currmovenumber 2",
                "info depth 3 seldepth 3 multipv 1 score cp 20 nodes 160 pv e2e4 e7e5 g1f3",
                "info depth 3 seldepth 4 multipv 2 score cp 90 nodes 170 pv d2d4",
                "info nodes 200 time 5",
            ],
            "bestmove e2e4 ponder e7e5",
        );
        assert_eq!(
            analysis,
            UciAnalysis {
                score_cp: Some(20),
                mate: None,
                best: Some("e2e4".into()),
                pv: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
                depth: 3,
                nodes: 200,
            }
        );
    }

    #[test]
    fn a_bound_does_not_replace_an_exact_score_of_its_depth() {
        let analysis = fold(
            &[
                "info depth 12 score cp 30 nodes 1000 pv e2e4",
                "info depth 12 score cp -35 lowerbound nodes 1100 pv d2d4",
            ],
            "bestmove e2e4",
        );
        assert_eq!((analysis.score_cp, analysis.pv.len()), (Some(30), 1));
        assert_eq!(analysis.pv[0], "e2e4");
        let deeper = fold(
            &[
                "info depth 12 score cp 30 nodes 1000 pv e2e4",
                "info depth 13 score cp -35 lowerbound nodes 1100 pv d2d4",
                "info depth 13 score cp -20 nodes 1500 pv d2d4 d7d5",
            ],
            "bestmove d2d4",
        );
        assert_eq!(
            (deeper.score_cp, deeper.depth, deeper.nodes),
            (Some(-20), 13, 1500)
        );
    }

    #[test]
    fn mates_and_no_move() {
        let mate = fold(
            &["info depth 245 seldepth 2 multipv 1 score mate 1 nodes 4165 pv a1a8"],
            "bestmove a1a8",
        );
        assert_eq!(
            (mate.mate, mate.score_cp, mate.best.as_deref()),
            (Some(1), None, Some("a1a8"))
        );
        let mated = fold(&["info depth 0 score mate 0"], "bestmove (none)");
        assert_eq!((mated.mate, mated.best, mated.pv.len()), (Some(0), None, 0));
        let silent = fold(&[], "bestmove 0000");
        assert_eq!(
            (silent.score_cp, silent.mate, silent.depth),
            (None, None, 0)
        );
    }
}
