//! The parser against lines as Stockfish 15.1 and Fairy-Stockfish 11.1 write them, and broken ones.

use super::*;

fn info(line: &str) -> Info {
    parse_info(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn moves(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_stockfish_line_with_wdl_and_pv() {
    let line = "info depth 16 seldepth 26 multipv 1 score cp -24 wdl 31 927 42 nodes 190362 \
                nps 428743 hashfull 70 tbhits 0 time 444 pv c7c5 g1f3 d7d6 b1c3";
    assert_eq!(
        info(line),
        Info {
            depth: Some(16),
            seldepth: Some(26),
            multipv: Some(1),
            score: Some(Score::Cp(-24)),
            bound: Bound::Exact,
            nodes: Some(190_362),
            time_ms: Some(444),
            pv: moves("c7c5 g1f3 d7d6 b1c3"),
            currmove: None,
            string: None,
        }
    );
}

#[test]
fn bounds_after_the_score() {
    let lower = info(
        "info depth 12 seldepth 15 multipv 1 score cp -35 lowerbound nodes 5123 nps 1 time 3 pv e7e5",
    );
    assert_eq!(
        (lower.score, lower.bound),
        (Some(Score::Cp(-35)), Bound::Lower)
    );
    assert_eq!(lower.nodes, Some(5123));
    assert_eq!(lower.pv, moves("e7e5"));
    let upper = info("info depth 9 score cp 112 upperbound nodes 800 pv d2d4 d7d5");
    assert_eq!(
        (upper.score, upper.bound),
        (Some(Score::Cp(112)), Bound::Upper)
    );
    assert_eq!(upper.pv, moves("d2d4 d7d5"));
}

#[test]
fn mate_scores_both_ways_and_mated_already() {
    assert_eq!(
        info("info depth 20 score mate -3 nodes 1 pv e8d8 a1a8").score,
        Some(Score::Mate(-3))
    );
    assert_eq!(info("info depth 245 seldepth 2 multipv 1 score mate 1 nodes 4165 nps 1388333 hashfull 0 tbhits 0 time 3 pv a1a8").score, Some(Score::Mate(1)));
    let mated = info("info depth 0 score mate 0");
    assert_eq!(
        (mated.depth, mated.score, mated.pv.len()),
        (Some(0), Some(Score::Mate(0)), 0)
    );
}

#[test]
fn promotions_and_drops_in_the_pv() {
    let line = "info depth 7 seldepth 9 multipv 1 score mate 2 nodes 3300 time 2 pv P@e4 d5e4 e7e8q g8h7 N@g5";
    assert_eq!(info(line).pv, moves("P@e4 d5e4 e7e8q g8h7 N@g5"));
    let underpromotion = info("info depth 3 score cp 900 pv b7b8n a8b8 time 1");
    assert_eq!(
        underpromotion.pv,
        moves("b7b8n a8b8"),
        "the pv ends at the next field"
    );
    assert_eq!(underpromotion.time_ms, Some(1));
}

#[test]
fn a_second_line_of_a_multipv_search() {
    let line = "info depth 10 seldepth 14 multipv 2 score cp 15 nodes 40000 pv g1f3";
    assert_eq!(info(line).multipv, Some(2));
}

#[test]
fn string_lines_keep_their_text_and_nothing_else() {
    let line = "info string NNUE evaluation using nn-ad9b42354671.nnue enabled depth 5";
    let parsed = info(line);
    assert_eq!(
        parsed.string.as_deref(),
        Some("NNUE evaluation using nn-ad9b42354671.nnue enabled depth 5")
    );
    assert_eq!(
        (parsed.depth, parsed.score),
        (None, None),
        "words after `string` are its text"
    );
    assert_eq!(
        parse_line("info string variant crazyhouse files 8 ranks 8 pocket 5")
            .map(|l| matches!(l, EngineLine::Info(i) if i.string.is_some())),
        Ok(true)
    );
}

#[test]
fn currmove_lines_have_no_score() {
    let parsed = info("info depth 24 currmove g1f3 currmovenumber 3");
    assert_eq!(parsed.currmove.as_deref(), Some("g1f3"));
    assert_eq!((parsed.depth, parsed.score), (Some(24), None));
    assert!(
        info("info nodes 12000000 nps 1000000 hashfull 400 tbhits 0 time 12000")
            .score
            .is_none()
    );
}

#[test]
fn refutation_and_unknown_fields_are_read_past() {
    let parsed = info("info refutation d1h5 g6h5 depth 3 ebf 1.7 score cp 4 pv e2e4");
    assert_eq!((parsed.depth, parsed.score), (Some(3), Some(Score::Cp(4))));
    assert_eq!(parsed.pv, moves("e2e4"));
}

#[test]
fn malformed_info_lines_are_errors() {
    for line in [
        "info depth x",
        "info depth",
        "info score cp",
        "info score cp ten",
        "info score pawns 3",
        "info nodes -5",
        "info depth 3 wdl 1 2",
        "info currmove",
        "bestmove e2e4",
    ] {
        assert!(parse_info(line).is_err(), "{line} should not parse");
    }
}

#[test]
fn bestmove_lines() {
    let parse = |line| parse_bestmove(line).unwrap();
    assert_eq!(
        parse("bestmove c7c5 ponder g1f3"),
        BestMove {
            best: Some("c7c5".into()),
            ponder: Some("g1f3".into())
        }
    );
    assert_eq!(
        parse("bestmove R@a8"),
        BestMove {
            best: Some("R@a8".into()),
            ponder: None
        }
    );
    assert_eq!(
        parse("bestmove e7e8q"),
        BestMove {
            best: Some("e7e8q".into()),
            ponder: None
        }
    );
    assert_eq!(
        parse("bestmove (none)"),
        BestMove {
            best: None,
            ponder: None
        }
    );
    assert_eq!(
        parse("bestmove 0000"),
        BestMove {
            best: None,
            ponder: None
        }
    );
    assert_eq!(parse("bestmove a1a8 ponder (none)").ponder, None);
    assert!(parse_bestmove("bestmove").is_err());
    assert!(parse_line("bestmove   ").is_err());
}

#[test]
fn option_lines() {
    let hash = parse_option("option name Hash type spin default 16 min 1 max 33554432").unwrap();
    assert_eq!(
        hash,
        UciOption {
            name: "Hash".into(),
            kind: "spin".into(),
            default: Some("16".into()),
            min: Some(1),
            max: Some(33_554_432),
            vars: vec![],
        }
    );
    let log = parse_option("option name Debug Log File type string default ").unwrap();
    assert_eq!(
        (log.name.as_str(), log.kind.as_str(), log.default.as_deref()),
        ("Debug Log File", "string", Some(""))
    );
    let path = parse_option("option name VariantPath type string default <empty>").unwrap();
    assert_eq!(path.default.as_deref(), Some(""));
    let clear = parse_option("option name Clear Hash type button").unwrap();
    assert_eq!((clear.kind.as_str(), clear.default), ("button", None));
    let ponder = parse_option("option name Ponder type check default false").unwrap();
    assert_eq!(ponder.default.as_deref(), Some("false"));
}

#[test]
fn combo_options_list_their_values() {
    let line = "option name UCI_Variant type combo default chess var 3check var 5check var antichess \
                var chess var crazyhouse var kingofthehill var racingkings var xiangqi";
    let variant = parse_option(line).unwrap();
    assert_eq!(variant.name, "UCI_Variant");
    assert_eq!(variant.default.as_deref(), Some("chess"));
    assert_eq!(
        variant.vars,
        moves("3check 5check antichess chess crazyhouse kingofthehill racingkings xiangqi")
    );
    let style = parse_option(
        "option name Style type combo default Solid Positional var Solid Positional var Risky",
    )
    .unwrap();
    assert_eq!(style.default.as_deref(), Some("Solid Positional"));
    assert_eq!(
        style.vars,
        vec!["Solid Positional".to_string(), "Risky".to_string()]
    );
}

#[test]
fn malformed_option_lines_are_errors() {
    for line in [
        "option name Hash",
        "option name type spin",
        "option name Hash type",
        "option name Hash type spin min x",
        "option Hash type spin",
        "option name Hash type spin default 16 min 1 max",
    ] {
        assert!(parse_option(line).is_err(), "{line} should not parse");
    }
}

#[test]
fn lines_by_their_first_word() {
    assert_eq!(
        parse_line("id name Fairy-Stockfish 11.1 LB 64"),
        Ok(EngineLine::Id {
            key: "name".into(),
            value: "Fairy-Stockfish 11.1 LB 64".into()
        })
    );
    assert_eq!(parse_line("uciok"), Ok(EngineLine::UciOk));
    assert_eq!(parse_line("readyok  "), Ok(EngineLine::ReadyOk));
    assert_eq!(
        parse_line("Fairy-Stockfish 11.1 LB 64 by Fabian Fichter"),
        Ok(EngineLine::Other)
    );
    assert_eq!(parse_line(""), Ok(EngineLine::Other));
    assert_eq!(
        parse_line("uci"),
        Ok(EngineLine::Other),
        "an echo of our own command"
    );
    assert!(
        matches!(parse_line("option name Threads type spin default 1 min 1 max 1024"), Ok(EngineLine::Option(o)) if o.max == Some(1024))
    );
    assert!(parse_line("id").is_err());
}
