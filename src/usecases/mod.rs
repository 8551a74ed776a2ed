//! Use cases: one function, one transaction; no HTML, no mail sending.

pub mod accounts;
pub mod analysis;
pub mod boards;
pub mod book;
pub mod bughouse;
pub mod challenges;
pub mod clocks;
pub mod conditional;
pub mod digest;
pub mod email_settings;
pub mod finish;
pub mod games;
pub mod import;
pub mod leave;
pub mod messages;
pub mod minesweeper;
pub mod notify;
pub mod outbox;
pub mod play;
pub mod preferences;
pub mod profiles;
pub mod ratings;
pub mod search;
pub mod seats;
pub mod submit;
pub mod tags;
