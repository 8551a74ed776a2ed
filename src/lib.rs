//! Slowfuse: a correspondence-chess server. `main` is a thin wrapper over [`cli::run`].

pub mod analysis_worker;
pub mod analysts;
pub mod backup_cli;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod export;
pub mod export_cli;
pub mod game;
pub mod import_cli;
pub mod logging;
pub mod mail;
pub mod metrics;
pub mod models;
pub mod openings;
pub mod passwords;
pub mod pgn_import;
pub mod random;
pub mod rules_cli;
// `schema.rs` is written by `diesel print-schema` (see `diesel.toml`, checked by
// `scripts/check-schema.sh`) and never edited by hand, so its module doc lives here.
/// Diesel's table definitions, generated from the PostgreSQL migrations and shared by both
/// backends (`tests/app/schema.rs` holds the SQLite migrations to the same tables and columns).
pub mod schema;
pub mod shutdown;
pub mod startup;
pub mod usecases;
pub mod usernames;
pub mod web;
pub mod worker;
