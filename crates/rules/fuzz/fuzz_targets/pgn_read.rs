//! Fuzz target: any bytes read as PGN or as BPGN (bughouse) give games or errors with a
//! message, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use slowfuse_rules::{PgnReadOptions, read_bpgn, read_pgn};

fuzz_target!(|data: &[u8]| {
    for read in read_pgn(data, PgnReadOptions::default()) {
        if let Err(error) = read {
            assert!(!error.to_string().is_empty());
        }
    }
    for read in read_bpgn(data) {
        if let Err(error) = read {
            assert!(!error.to_string().is_empty());
        }
    }
});
