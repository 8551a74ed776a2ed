//! Use cases: one function, one transaction; no HTML, no mail sending.

pub mod accounts;
pub mod challenges;
pub mod clocks;
pub mod games;
pub mod play;
