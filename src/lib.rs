//! Slowfuse: a correspondence-chess server. `main` is a thin wrapper over [`cli::run`].

pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod export;
pub mod mail;
pub mod models;
pub mod rules_cli;
pub mod schema;
pub mod startup;
pub mod usecases;
pub mod web;
pub mod worker;
