//! Law 5.2.2 (dead position) and the "cannot checkmate by any possible series of legal moves"
//! test used by 6.9 (flag), 7.5.5 (second illegal move) and A.5.3 (rapid/blitz flag claims).
//!
//! Implemented with shakmaty's material test, which is *sound*: when it says a side cannot
//! win, that side really has no helpmate. It covers at least the cases the brief names:
//! bare kings, K+minor v K, K+B v K+B(s) with all bishops on one colour, K+N v K with the
//! opponent having only queens. Blocked-pawn fortresses and other positional dead positions are
//! *not* detected (they need a helpmate search); see ADR `clock-003`.

use crate::side::Side;
use shakmaty::{Chess, Position};

/// Whether `side` cannot checkmate the opponent by any series of legal moves (material test).
pub fn cannot_checkmate(position: &Chess, side: Side) -> bool {
    position.has_insufficient_material(side.into())
}

/// Law 5.2.2: neither player can checkmate: the game ends at once in a draw.
pub fn is_dead_position(position: &Chess) -> bool {
    position.is_insufficient_material()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn bare_kings_and_minor_pieces_are_dead() {
        assert!(is_dead_position(&pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1")));
        assert!(is_dead_position(&pos("8/8/4k3/8/8/3KB3/8/8 w - - 0 1")));
        assert!(is_dead_position(&pos("8/8/4k3/8/8/3KN3/8/8 w - - 0 1")));
    }

    #[test]
    fn same_coloured_bishops_are_dead_opposite_are_not() {
        // c1 and f8 are both dark squares
        assert!(is_dead_position(&pos("5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1")));
        // c1 dark, c8 light: a helpmate exists
        assert!(!is_dead_position(&pos("2b5/8/4k3/8/8/3K4/8/2B5 w - - 0 1")));
    }

    #[test]
    fn lone_king_cannot_mate_but_rook_can() {
        let p = pos("8/8/4k3/8/8/3K4/8/7R w - - 0 1");
        assert!(cannot_checkmate(&p, Side::Black));
        assert!(!cannot_checkmate(&p, Side::White));
    }
}
