//! A blocking client for an external chess engine that speaks UCI (Stockfish, Fairy-Stockfish),
//! used to analyse finished games when the operator configures one.
//!
//! ```no_run
//! use std::time::Duration;
//! use slowfuse_uci::{EngineConfig, UciEngine};
//!
//! let config = EngineConfig {
//!     options: vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())],
//!     nodes: 200_000,
//!     timeout: Duration::from_secs(10),
//!     ..EngineConfig::new("/usr/games/stockfish")
//! };
//! let mut engine = UciEngine::start(&config)?;
//! let analysis = engine.analyse("chess", None, &["e2e4".to_string()], false)?;
//! println!("{}: {:?} {:?} {:?}", engine.name(), analysis.score_cp, analysis.mate, analysis.best);
//! # Ok::<(), slowfuse_uci::UciError>(())
//! ```

mod analysis;
mod engine;
mod error;
pub mod parse;
mod process;

use std::path::PathBuf;
use std::time::Duration;

pub use analysis::UciAnalysis;
pub use engine::UciEngine;
pub use error::UciError;

/// How to start an engine and how long it may search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The engine's program.
    pub path: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// `setoption name X value Y` sent for each `(X, Y)` after `uciok`, in this order.
    pub options: Vec<(String, String)>,
    /// `go nodes N` for each position.
    pub nodes: u64,
    /// The time one position may take (and each of the start's waits, for `uciok` and
    /// `readyok`).
    pub timeout: Duration,
}

impl EngineConfig {
    /// The program at `path` without arguments or options, 1,000,000 nodes a position, 30
    /// seconds at most.
    pub fn new(path: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            path: path.into(),
            args: Vec::new(),
            options: Vec::new(),
            nodes: 1_000_000,
            timeout: Duration::from_secs(30),
        }
    }
}
