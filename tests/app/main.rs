//! The application in process, on port 0, against a fresh SQLite file or PostgreSQL database per test: the API, the pages, mail, clocks, every use case; one module per area.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod api;
mod api_fuzz;
mod authorization;
mod backup;
mod bughouse;
mod busy_writers;
mod challenges;
mod clocks;
mod computer;
mod conditional;
mod docs;
mod engine_analysis;
mod exports;
mod home;
mod images;
mod import;
mod mail;
mod migrations;
mod minesweeper;
mod operations;
mod pages;
mod query_plans;
mod ratings;
mod record_cache;
mod schema;
mod search;
mod upgrade;
