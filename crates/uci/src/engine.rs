//! `UciEngine`: one running engine process, started with the `uci` handshake and the
//! operator's options, asked to analyse one position at a time.

use std::time::{Duration, Instant};

use crate::analysis::{SearchFold, UciAnalysis};
use crate::parse::{EngineLine, UciOption, parse_line};
use crate::process::EngineProcess;
use crate::{EngineConfig, UciError};

/// How long an engine has to answer `stop` with `bestmove` after a timeout.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// How long an engine has to end after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// One running engine process. Dropping it sends `quit` and ends the process.
pub struct UciEngine {
    /// `None` once the process has ended or was killed after an error.
    process: Option<EngineProcess>,
    name: String,
    author: Option<String>,
    options: Vec<UciOption>,
    nodes: u64,
    timeout: Duration,
    /// The values of `UCI_Variant` and `UCI_Chess960` the engine has now.
    variant: String,
    chess960: bool,
}

impl UciEngine {
    /// Starts the engine: `uci`, its `id` and `option` lines up to `uciok`, a `setoption` for
    /// each configured option, then `isready` / `readyok`. Each of the two waits may take
    /// `config.timeout`. An option the engine does not list is refused
    /// ([`UciError::InvalidInput`]); whatever fails, no process is left running.
    pub fn start(config: &EngineConfig) -> Result<UciEngine, UciError> {
        for (name, value) in &config.options {
            if name.trim().is_empty() || name.contains(" value ") {
                return Err(UciError::InvalidInput(format!("option name {name:?}")));
            }
            one_line(name)?;
            one_line(value)?;
        }
        let mut process = EngineProcess::spawn(&config.path, &config.args)?;
        process.send("uci")?;
        let deadline = Instant::now() + config.timeout;
        let (mut name, mut author, mut options) = (None, None, Vec::new());
        loop {
            let line = match process.read_line(deadline) {
                Err(UciError::Exited) => {
                    return Err(UciError::Protocol(
                        "the program ended before `uciok`: is it a UCI engine?".into(),
                    ));
                }
                other => other?,
            };
            match parse_line(&line).map_err(|e| UciError::Protocol(format!("{e}: `{line}`")))? {
                EngineLine::Id { key, value } if key == "name" => name = Some(value),
                EngineLine::Id { key, value } if key == "author" => author = Some(value),
                EngineLine::Option(option) => options.push(option),
                EngineLine::UciOk => break,
                _ => {}
            }
        }
        let name = name.unwrap_or_else(|| {
            let file = config.path.file_name().unwrap_or(config.path.as_os_str());
            file.to_string_lossy().into_owned()
        });
        let mut engine = UciEngine {
            process: Some(process),
            name,
            author,
            options,
            nodes: config.nodes,
            timeout: config.timeout,
            variant: String::new(),
            chess960: false,
        };
        engine.variant = engine.option_default("UCI_Variant", "chess");
        engine.chess960 = engine.option_default("UCI_Chess960", "false") == "true";
        for (name, value) in &config.options {
            let Some(option) = engine.option(name) else {
                return Err(UciError::InvalidInput(format!(
                    "the engine {:?} has no option {name:?}",
                    engine.name
                )));
            };
            match option.name.to_ascii_lowercase().as_str() {
                "uci_variant" => engine.variant = value.clone(),
                "uci_chess960" => engine.chess960 = value == "true",
                _ => {}
            }
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.wait_ready(Instant::now() + config.timeout)?;
        Ok(engine)
    }

    /// Sets how long each later [`UciEngine::analyse`] may take, from `isready` to `bestmove`
    /// (the start had `config.timeout`).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The engine's name (its `id name`, or the program's file name when it gave none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's `id author`, when it gave one.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine listed before `uciok`, in its order.
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// The engine's option of this name (UCI option names are case-insensitive).
    pub fn option(&self, name: &str) -> Option<&UciOption> {
        self.options
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// The process id while the engine runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(EngineProcess::id)
    }

    /// Whether the engine plays this variant (by its `UCI_Variant` name, e.g. `crazyhouse`,
    /// `atomic`, `3check`): always for `chess`, otherwise when its `UCI_Variant` combo lists it.
    pub fn supports_variant(&self, uci_variant: &str) -> bool {
        uci_variant == "chess"
            || self
                .option("UCI_Variant")
                .is_some_and(|option| option.vars.iter().any(|v| v == uci_variant))
    }

    /// Analyses one position: the start (`startpos`, or `start_fen`) and the moves played
    /// from it, in UCI notation, searched to the configured node count.
    ///
    /// `UCI_Variant` and `UCI_Chess960` are set when they differ from what the engine has.
    /// Everything, from `isready` to `bestmove`, must happen within the configured timeout;
    /// after it the engine is sent `stop` and the answer is [`UciError::Timeout`]. An engine
    /// that answers `stop` within a second stays usable; one that does not is killed, as it is
    /// after any other error once the position was sent (later calls then answer
    /// [`UciError::Exited`]).
    pub fn analyse(
        &mut self,
        variant: &str,
        start_fen: Option<&str>,
        moves: &[String],
        chess960: bool,
    ) -> Result<UciAnalysis, UciError> {
        if variant.is_empty() || variant.contains(char::is_whitespace) {
            return Err(UciError::InvalidInput(format!("variant {variant:?}")));
        }
        if let Some(fen) = start_fen {
            one_line(fen)?;
            if fen.trim().is_empty() {
                return Err(UciError::InvalidInput("an empty FEN".into()));
            }
        }
        if let Some(bad) = moves
            .iter()
            .find(|m| m.is_empty() || m.contains(char::is_whitespace))
        {
            return Err(UciError::InvalidInput(format!("move {bad:?}")));
        }
        if !self.supports_variant(variant) {
            return Err(UciError::UnsupportedVariant(variant.to_string()));
        }
        if chess960 && self.option("UCI_Chess960").is_none() {
            return Err(UciError::UnsupportedVariant("chess960".into()));
        }
        if self.process.is_none() {
            return Err(UciError::Exited);
        }
        let result = self.search(variant, start_fen, moves, chess960);
        if let Err(error) = &result
            && !matches!(error, UciError::Timeout)
        {
            self.end();
        }
        result
    }

    /// The steps of [`UciEngine::analyse`] once its input is checked. A timeout of the search
    /// itself ends the engine here unless it obeys `stop`; any other error is ended by the caller.
    fn search(
        &mut self,
        variant: &str,
        start_fen: Option<&str>,
        moves: &[String],
        chess960: bool,
    ) -> Result<UciAnalysis, UciError> {
        let deadline = Instant::now() + self.timeout;
        if self.variant != variant && self.option("UCI_Variant").is_some() {
            self.send(&format!("setoption name UCI_Variant value {variant}"))?;
            self.variant = variant.to_string();
        }
        if self.chess960 != chess960 && self.option("UCI_Chess960").is_some() {
            self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
            self.chess960 = chess960;
        }
        if let Err(error) = self.wait_ready(deadline) {
            self.end();
            return Err(error);
        }
        let mut position = match start_fen {
            Some(fen) => format!("position fen {}", fen.trim()),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        self.send(&format!("go nodes {}", self.nodes))?;
        let mut fold = SearchFold::new();
        loop {
            let line = match self.read_line(deadline) {
                Err(UciError::Timeout) => return Err(self.stop_after_timeout()),
                other => other?,
            };
            match parse_line(&line).map_err(|e| UciError::Protocol(format!("{e}: `{line}`")))? {
                EngineLine::Info(info) => fold.add(info),
                EngineLine::BestMove(bestmove) => return Ok(fold.finish(bestmove)),
                _ => {}
            }
        }
    }

    /// After a search ran out of time: `stop`, then a short wait for its `bestmove`; the
    /// engine is killed when it does not come. Always [`UciError::Timeout`].
    fn stop_after_timeout(&mut self) -> UciError {
        let deadline = Instant::now() + STOP_GRACE;
        let obeyed = self.send("stop").is_ok()
            && std::iter::from_fn(|| self.read_line(deadline).ok())
                .any(|line| line.starts_with("bestmove"));
        if !obeyed {
            self.end();
        }
        UciError::Timeout
    }

    /// `isready`, then every line up to `readyok` read past.
    fn wait_ready(&mut self, deadline: Instant) -> Result<(), UciError> {
        self.send("isready")?;
        while self.read_line(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), UciError> {
        self.process.as_mut().ok_or(UciError::Exited)?.send(line)
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, UciError> {
        self.process
            .as_mut()
            .ok_or(UciError::Exited)?
            .read_line(deadline)
    }

    fn option_default(&self, name: &str, otherwise: &str) -> String {
        self.option(name)
            .and_then(|option| option.default.clone())
            .unwrap_or_else(|| otherwise.to_string())
    }

    /// Kills the process (its state is unknown after an error).
    fn end(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.quit(QUIT_GRACE);
        }
    }
}

/// Refuses text that would not stay on one command line.
fn one_line(text: &str) -> Result<(), UciError> {
    if text.contains(['\n', '\r']) {
        return Err(UciError::InvalidInput(format!(
            "{text:?} holds a line break"
        )));
    }
    Ok(())
}
