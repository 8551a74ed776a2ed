//! Strength and speed measurements of the engine (written below).

fn main() {}
