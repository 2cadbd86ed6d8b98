//! Position identity for Articles 9.2.3 (threefold claim) and 9.6.1 (fivefold, automatic).
//!
//! Positions are compared by Zobrist hash of the piece placement, side to move, castling
//! rights and *legal* en-passant square: exactly the 9.2.3 criteria ("same possible moves";
//! an en-passant capture that was possible makes a position different; castling rights count
//! only once lost). Only positions since the last capture or pawn move can repeat.

use shakmaty::{Chess, EnPassantMode, Position, zobrist::Zobrist64};

/// The 9.2.3 identity key of a position.
pub fn position_key(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// How many times the position with key `key` and halfmove clock `halfmoves` has appeared,
/// counting itself, given the keys of all earlier positions of the game (oldest first, not
/// including the position itself).
pub fn occurrences(earlier: &[u64], key: u64, halfmoves: u32) -> usize {
    let window = (halfmoves as usize).min(earlier.len());
    1 + earlier[earlier.len() - window..]
        .iter()
        .filter(|&&k| k == key)
        .count()
}
