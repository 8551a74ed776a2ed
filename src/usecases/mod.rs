//! Use cases: one function, one transaction; no HTML, no mail sending.

pub mod accounts;
pub mod challenges;
pub mod games;
pub mod play;
