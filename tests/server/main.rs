//! The `slowfuse` binary as a child process: the command line, crashes and restarts, hostile clients, several instances behind nginx; one module per area.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli;
mod crash;
mod hostile;
mod scale_out;
