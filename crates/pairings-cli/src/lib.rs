//! The TRF side of the Dutch engine: [`trf_input`] turns a Tournament Report File into the
//! `swiss` engine's state before the round to pair (used by `arbiter-pairings`, the `arbiter`
//! CLI and the pairing service, so every path pairs from the same reading of the file).
pub mod trf_input;
