//! Guidelines I: adjourned games (Laws 2023; the same text in the seeds 000 and 001).
//!
//! What the machine applies, through [`crate::laws::Game`]:
//!
//! * I.1.1: the player having the move seals it and stops the clock
//!   ([`GameEvent::Adjourn`](crate::laws::GameEvent::Adjourn)): the move is recorded, not
//!   played; the clock stops; I.1.2: a player who seals before the end of the session is
//!   charged the time up to the session's scheduled end;
//! * I.2: the [`Envelope`]: the position before the sealed move, the time used and left by
//!   each player, who sealed, the number of the sealed move (the players' names and the
//!   resumption's date, time and place are the service's);
//! * I.5 / I.9.1: at resumption the clocks show the times recorded at adjournment, the
//!   sealed move is played and the responder's clock started;
//! * I.9.2: the responder absent: the clock runs for the responder from the resumption, the
//!   sealed move stays hidden until the envelope is opened on arrival (ADR clock-009);
//! * I.6: a draw agreed, or a resignation, before resumption ends the game;
//! * I.8: a sealed move that is ambiguous (I.8.1), unreadable (I.8.2) or illegal (I.8.3)
//!   loses, unless the opponent cannot checkmate by any series of legal moves (as 6.9: a
//!   draw; ADR clock-009) — [`judge_sealed_move`];
//! * I.10: a player arriving after the default time loses, unless the sealed move ends the
//!   game (that conclusion applies);
//! * I.12.1: the envelope missing: the game goes on from the position before the adjournment
//!   with the recorded times, the sealer to play the move they say they sealed.
//!
//! Not applied by the machine: I.3 (the arbiter checks the envelope), I.4 (a draw offer:
//! the Laws' draw offers are not events here), I.9.3 (the responder's reply sealed in a new
//! envelope), I.11, I.13, I.14 (the arbiter's watch) — see ADR clock-009.

use crate::laws::game::MoveText;
use crate::side::Side;
use crate::time_control::Millis;
use serde::{Deserialize, Serialize};
use shakmaty::{
    Chess, Move,
    san::{San, SanError, SanPlus},
    uci::UciMove,
};

/// I.2: what the envelope holds (and what the arbiter keeps).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// I.2.4: who sealed (the player having the move, I.1.1).
    pub sealed_by: Side,
    /// The sealed move as written: hidden from everyone but the arbiter until it is played.
    pub sealed_move: MoveText,
    /// I.2.5: the number of the sealed move (the full-move number).
    pub move_number: u32,
    /// I.2.2: the position before the sealed move (FEN).
    pub fen: String,
    /// I.2.3 / I.5: the time left on each clock at adjournment, White first.
    pub remaining_ms: [Millis; 2],
    /// The instant the clock was stopped.
    pub at: u64,
    /// I.1.2: time charged to the sealer for sealing before the session's scheduled end.
    pub charged_ms: Millis,
    /// I.9.2: the game resumed with the responder absent; the envelope is still closed
    /// (the sealed move is played in the machine, hidden until the opening).
    pub resumed_unopened: bool,
}

/// I.8: why a sealed move loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SealedMoveFault {
    /// I.8.1
    Ambiguous,
    /// I.8.2
    Unreadable,
    /// I.8.3
    Illegal,
}

impl SealedMoveFault {
    /// The article.
    pub fn article(self) -> &'static str {
        match self {
            SealedMoveFault::Ambiguous => "Guidelines I.8.1",
            SealedMoveFault::Unreadable => "Guidelines I.8.2",
            SealedMoveFault::Illegal => "Guidelines I.8.3",
        }
    }
}

/// How the envelope is opened (I.9, I.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Resumption {
    /// I.9.1: the responder present: the envelope opened, the sealed move played.
    ResponderPresent,
    /// I.9.2: the responder absent: their clock runs; the sealed move stays hidden until
    /// they arrive ([`crate::laws::GameEvent::OpenEnvelope`]).
    ResponderAbsent,
    /// I.12.1: the envelope is missing: play goes on from the position before the
    /// adjournment, the sealer to move.
    EnvelopeMissing,
}

/// I.8: the sealed move read on the position before it. A SAN that fits two legal moves is
/// ambiguous (I.8.1), text that is no move at all is unreadable (I.8.2), a move that is not
/// legal is illegal (I.8.3). Castling is read in the game's mode (Chess960: II.3).
pub fn judge_sealed_move(position: &Chess, sealed: &MoveText) -> Result<Move, SealedMoveFault> {
    match sealed {
        MoveText::San(t) => {
            let t = t.trim();
            let san = SanPlus::from_ascii(t.as_bytes())
                .map(|s| s.san)
                .or_else(|_| San::from_ascii(t.as_bytes()))
                .map_err(|_| SealedMoveFault::Unreadable)?;
            san.to_move(position).map_err(|e| match e {
                SanError::AmbiguousSan => SealedMoveFault::Ambiguous,
                SanError::IllegalSan => SealedMoveFault::Illegal,
            })
        }
        MoveText::Uci(t) => {
            let uci = UciMove::from_ascii(t.trim().as_bytes())
                .map_err(|_| SealedMoveFault::Unreadable)?;
            uci.to_move(position).map_err(|_| SealedMoveFault::Illegal)
        }
    }
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
    fn i_8_sealed_moves_are_judged_ambiguous_unreadable_or_illegal() {
        // knights on b1 and f3... two knights can reach d2: "Nd2" is ambiguous
        let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let san = |t: &str| MoveText::San(t.into());
        assert_eq!(
            judge_sealed_move(&p, &san("Nd2")),
            Err(SealedMoveFault::Ambiguous)
        );
        assert!(judge_sealed_move(&p, &san("Nbd2")).is_ok());
        assert_eq!(
            judge_sealed_move(&p, &san("knight somewhere")),
            Err(SealedMoveFault::Unreadable)
        );
        assert_eq!(
            judge_sealed_move(&p, &san("Qd2")),
            Err(SealedMoveFault::Illegal)
        );
        assert_eq!(
            judge_sealed_move(&p, &MoveText::Uci("e1e3".into())),
            Err(SealedMoveFault::Illegal)
        );
        assert_eq!(
            judge_sealed_move(&p, &MoveText::Uci("zz".into())),
            Err(SealedMoveFault::Unreadable)
        );
        assert!(judge_sealed_move(&p, &MoveText::Uci("f3d2".into())).is_ok());
        assert_eq!(SealedMoveFault::Illegal.article(), "Guidelines I.8.3");
    }
}
