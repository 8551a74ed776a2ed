//! The engine's lines read into values (`id`, `uciok`, `readyok`, `option`, `info`, `bestmove`): pure, no I/O.

use std::fmt;

/// One line from the engine, by its first word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …` / `id author …`.
    Id { key: String, value: String },
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `option name … type …`.
    Option(UciOption),
    /// `info …`.
    Info(Info),
    /// `bestmove …`: the end of a search.
    BestMove(BestMove),
    /// Anything else (a banner, an empty line, a line of another protocol): ignored.
    Other,
}

/// A score as UCI gives it: from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves: positive when the side to move mates, negative when it is
    /// mated, 0 when it is mated already.
    Mate(i32),
}

/// Whether a score is exact or only a bound (`lowerbound`, `upperbound`) of a search that failed
/// high or low.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// The fields of an `info` line that the analysis uses; the others (`nps`, `hashfull`,
/// `wdl`, …) are read past.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// Which line of a multi-line search (`multipv`); `None` means the first.
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub bound: Bound,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    /// The principal variation, in the engine's move notation (`e7e8q`, `P@e4`).
    pub pv: Vec<String>,
    pub currmove: Option<String>,
    /// The text of `info string …` (the rest of the line).
    pub string: Option<String>,
}

/// A `bestmove` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// `None` for `(none)` or `0000`: the side to move has no move.
    pub best: Option<String>,
    pub ponder: Option<String>,
}

/// An `option` line: what the engine lets us set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciOption {
    /// The option's name, which may hold spaces (`Debug Log File`).
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string` (as the engine wrote it).
    pub kind: String,
    /// The default; `<empty>` is read as the empty string.
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The values of a `combo`, in the engine's order.
    pub vars: Vec<String>,
}

/// A line that starts like a known UCI line but does not go on like one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// Reads one line from the engine (without its line break).
pub fn parse_line(line: &str) -> Result<EngineLine, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.first().copied() {
        Some("id") => parse_id(&tokens),
        Some("uciok") => Ok(EngineLine::UciOk),
        Some("readyok") => Ok(EngineLine::ReadyOk),
        Some("option") => parse_option(line).map(EngineLine::Option),
        Some("info") => parse_info(line).map(EngineLine::Info),
        Some("bestmove") => parse_bestmove(line).map(EngineLine::BestMove),
        _ => Ok(EngineLine::Other),
    }
}

fn parse_id(tokens: &[&str]) -> Result<EngineLine, ParseError> {
    match tokens {
        [_, key, rest @ ..] => Ok(EngineLine::Id {
            key: (*key).to_string(),
            value: rest.join(" "),
        }),
        _ => Err(ParseError("`id` without a key".into())),
    }
}

/// The words that start a field of an `info` line.
const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
];

fn number<T: std::str::FromStr>(field: &str, token: Option<&&str>) -> Result<T, ParseError> {
    let token = token.ok_or_else(|| ParseError(format!("`{field}` without a value")))?;
    token
        .parse()
        .map_err(|_| ParseError(format!("`{field}` needs a number, not `{token}`")))
}

/// Reads an `info` line. Fields it does not know are read past; a known field with a value
/// that is not one (`depth x`, `score cp`) is an error.
pub fn parse_info(line: &str) -> Result<Info, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"info") {
        return Err(ParseError("not an `info` line".into()));
    }
    let mut info = Info::default();
    let mut i = 1;
    while i < tokens.len() {
        let field = tokens[i];
        i += 1;
        match field {
            "depth" => info.depth = Some(number(field, tokens.get(i))?),
            "seldepth" => info.seldepth = Some(number(field, tokens.get(i))?),
            "multipv" => info.multipv = Some(number(field, tokens.get(i))?),
            "nodes" => info.nodes = Some(number(field, tokens.get(i))?),
            "time" => info.time_ms = Some(number(field, tokens.get(i))?),
            "currmove" => {
                let mv = tokens
                    .get(i)
                    .ok_or_else(|| ParseError("`currmove` without a move".into()))?;
                info.currmove = Some((*mv).to_string());
            }
            "currmovenumber" | "hashfull" | "nps" | "tbhits" | "sbhits" | "cpuload" => {
                number::<u64>(field, tokens.get(i))?;
            }
            "wdl" => {
                for k in 0..3 {
                    number::<u32>(field, tokens.get(i + k))?;
                }
                i += 2;
            }
            "score" => {
                let value = number::<i32>("score", tokens.get(i + 1))?;
                info.score = Some(match tokens[i] {
                    "cp" => Score::Cp(value),
                    "mate" => Score::Mate(value),
                    other => return Err(ParseError(format!("unknown score kind `{other}`"))),
                });
                i += 1;
                match tokens.get(i + 1) {
                    Some(&"lowerbound") => (info.bound, i) = (Bound::Lower, i + 1),
                    Some(&"upperbound") => (info.bound, i) = (Bound::Upper, i + 1),
                    _ => {}
                }
            }
            "pv" | "refutation" | "currline" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| INFO_KEYWORDS.contains(t))
                    .map_or(tokens.len(), |p| i + p);
                if field == "pv" {
                    info.pv = tokens[i..end].iter().map(|t| (*t).to_string()).collect();
                }
                i = end;
                continue;
            }
            "string" => {
                info.string = Some(tokens[i..].join(" "));
                break;
            }
            // Unknown words (another engine's fields) are read past one at a time.
            _ => continue,
        }
        i += 1;
    }
    Ok(info)
}

/// Reads a `bestmove` line: `bestmove e2e4 ponder e7e5`, `bestmove (none)`, `bestmove 0000`.
pub fn parse_bestmove(line: &str) -> Result<BestMove, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (first, rest) = match tokens.as_slice() {
        ["bestmove", first, rest @ ..] => (*first, rest),
        _ => return Err(ParseError(format!("`bestmove` without a move: `{line}`"))),
    };
    let best = match first {
        "(none)" | "0000" => None,
        mv => Some(mv.to_string()),
    };
    let ponder = match rest {
        ["ponder", mv, ..] if !matches!(*mv, "(none)" | "0000") => Some((*mv).to_string()),
        _ => None,
    };
    Ok(BestMove { best, ponder })
}

/// The words that start a field of an `option` line after its name.
const OPTION_KEYWORDS: &[&str] = &["type", "default", "min", "max", "var"];

/// Reads an `option` line: `option name Hash type spin default 16 min 1 max 33554432`,
/// `option name UCI_Variant type combo default chess var 3check var crazyhouse …`.
pub fn parse_option(line: &str) -> Result<UciOption, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"option") || tokens.get(1) != Some(&"name") {
        return Err(ParseError(format!("not an `option name` line: `{line}`")));
    }
    let type_at = tokens
        .iter()
        .position(|t| *t == "type")
        .ok_or_else(|| ParseError(format!("option without a type: `{line}`")))?;
    let name = tokens[2..type_at].join(" ");
    let kind = tokens
        .get(type_at + 1)
        .filter(|t| !OPTION_KEYWORDS.contains(t));
    let (Some(kind), false) = (kind, name.is_empty()) else {
        return Err(ParseError(format!(
            "option without a name or type: `{line}`"
        )));
    };
    let mut option = UciOption {
        name,
        kind: (*kind).to_string(),
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut i = type_at + 2;
    while i < tokens.len() {
        let field = tokens[i];
        let end = tokens[i + 1..]
            .iter()
            .position(|t| OPTION_KEYWORDS.contains(t))
            .map_or(tokens.len(), |p| i + 1 + p);
        let value = tokens[i + 1..end].join(" ");
        match field {
            "default" if value == "<empty>" => option.default = Some(String::new()),
            "default" => option.default = Some(value),
            "min" => option.min = Some(number("min", tokens.get(i + 1))?),
            "max" => option.max = Some(number("max", tokens.get(i + 1))?),
            "var" => option.vars.push(value),
            other => return Err(ParseError(format!("unknown option field `{other}`"))),
        }
        i = end;
    }
    Ok(option)
}

#[cfg(test)]
mod tests;
