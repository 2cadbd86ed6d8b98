//! FIDE C.05 Annex 1, "Berger Tables for Round-Robin Tournaments", for any number of players.
//!
//! The FIDE text prints the tables for 3–16 players and states: "Where there is an odd number of
//! players, the highest number counts as a bye." This module produces, for any `n`, exactly the
//! table FIDE prints (round by round, board by board, with colours), and extends it beyond 16 by
//! the same construction.
//!
//! Construction (checked against every FIDE table 4–16 in `tests/fide_berger_tables.rs`):
//! let `N` be `n` rounded up to even (the extra number is the bye), `m = N − 1` rounds,
//! `h = N / 2` boards. In round `r` (1-based) let `p = ((r − 1)·h mod m) + 1`.
//! - Board 1 is `p` against `N`: `p` has White in odd rounds, `N` has White in even rounds.
//! - Board `k + 1` (`k = 1..h−1`): White `((p − 1 + k) mod m) + 1`, Black `((p − 1 − k) mod m) + 1`.
//!
//! With an odd number of players, board 1 of the table (the game against number `N`) is the bye:
//! it is reported as [`Round::bye`] and the remaining games keep their order, renumbered from
//! board 1 (see ADR `docs/decisions/roundrobin-002-odd-players-bye-and-boards.md`).

use serde::{Deserialize, Serialize};

use crate::{MAX_PLAYERS, MIN_PLAYERS, PairingNumber, RoundRobinError};

/// One game of a round: who has White, who has Black, and on which board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Game {
    /// Board number, 1-based, in the order of the FIDE table.
    pub board: u32,
    /// Pairing number of the player with the white pieces.
    pub white: PairingNumber,
    /// Pairing number of the player with the black pieces.
    pub black: PairingNumber,
}

/// One round of a round-robin schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Round number, 1-based, in playing order (for a double round robin: `1..=2m`).
    pub number: u32,
    /// The games, in board order.
    pub games: Vec<Game>,
    /// With an odd number of players: the player who would have met the highest (phantom) number.
    pub bye: Option<PairingNumber>,
}

impl Round {
    /// The colour-reversed round (second cycle of a double round robin), renumbered.
    #[must_use]
    pub fn with_colours_reversed(&self, number: u32) -> Round {
        Round {
            number,
            games: self
                .games
                .iter()
                .map(|g| Game {
                    board: g.board,
                    white: g.black,
                    black: g.white,
                })
                .collect(),
            bye: self.bye,
        }
    }
}

/// Checks `players` against [`MIN_PLAYERS`]..=[`MAX_PLAYERS`].
pub(crate) fn check_players(players: u32) -> Result<(), RoundRobinError> {
    if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        Ok(())
    } else {
        Err(RoundRobinError::PlayerCountOutOfRange {
            got: players,
            min: MIN_PLAYERS,
            max: MAX_PLAYERS,
        })
    }
}

/// The table size used for `players`: `players` itself when even, `players + 1` when odd
/// ("the highest number counts as a bye").
#[must_use]
pub fn table_size(players: u32) -> u32 {
    players + players % 2
}

/// Number of rounds of one cycle: `n − 1` for even `n`, `n` for odd `n`.
///
/// # Errors
/// [`RoundRobinError::PlayerCountOutOfRange`] outside [`MIN_PLAYERS`]..=[`MAX_PLAYERS`].
pub fn rounds_in_cycle(players: u32) -> Result<u32, RoundRobinError> {
    check_players(players)?;
    Ok(table_size(players) - 1)
}

/// Round `round` (1-based) of the Berger table for `players` players (C.05 Annex 1).
///
/// # Errors
/// [`RoundRobinError::PlayerCountOutOfRange`] or [`RoundRobinError::RoundOutOfRange`].
pub fn berger_round(players: u32, round: u32) -> Result<Round, RoundRobinError> {
    let rounds = rounds_in_cycle(players)?;
    if round == 0 || round > rounds {
        return Err(RoundRobinError::RoundOutOfRange {
            round,
            players,
            rounds,
        });
    }
    let n = i64::from(table_size(players));
    let m = n - 1;
    let h = n / 2;
    let r = i64::from(round);
    let p = ((r - 1) * h).rem_euclid(m) + 1;
    // All values below are in 1..=n <= MAX_PLAYERS + 1, so the conversions cannot fail;
    // `to_number` still avoids a panic path.
    let to_number = |x: i64| PairingNumber::try_from(x).unwrap_or(PairingNumber::MAX);
    let mut table: Vec<(PairingNumber, PairingNumber)> =
        Vec::with_capacity(usize::try_from(h).unwrap_or(0));
    if r % 2 == 1 {
        table.push((to_number(p), to_number(n)));
    } else {
        table.push((to_number(n), to_number(p)));
    }
    for k in 1..h {
        let white = (p - 1 + k).rem_euclid(m) + 1;
        let black = (p - 1 - k).rem_euclid(m) + 1;
        table.push((to_number(white), to_number(black)));
    }
    let phantom = if players % 2 == 1 {
        Some(to_number(n))
    } else {
        None
    };
    let mut bye = None;
    let mut games = Vec::with_capacity(table.len());
    for (white, black) in table {
        if Some(white) == phantom {
            bye = Some(black);
        } else if Some(black) == phantom {
            bye = Some(white);
        } else {
            games.push(Game {
                board: u32::try_from(games.len() + 1).unwrap_or(u32::MAX),
                white,
                black,
            });
        }
    }
    Ok(Round {
        number: round,
        games,
        bye,
    })
}

/// The whole single-cycle Berger table for `players` players, rounds `1..=rounds_in_cycle`.
///
/// # Errors
/// [`RoundRobinError::PlayerCountOutOfRange`].
pub fn berger_table(players: u32) -> Result<Vec<Round>, RoundRobinError> {
    let rounds = rounds_in_cycle(players)?;
    (1..=rounds).map(|r| berger_round(players, r)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(round: &Round) -> Vec<(u32, u32)> {
        round.games.iter().map(|g| (g.white, g.black)).collect()
    }

    /// C.05 Annex 1, "3 or 4 players", round 2: "4-3, 1-2".
    #[test]
    fn c05_annex1_four_players_round_2() {
        assert_eq!(pairs(&berger_round(4, 2).unwrap()), vec![(4, 3), (1, 2)]);
    }

    /// C.05 Annex 1: "Where there is an odd number of players, the highest number counts as a
    /// bye." With 3 players, round 2 of the 4-table is "4-3, 1-2": 3 has the bye.
    #[test]
    fn c05_annex1_three_players_highest_number_is_bye() {
        let r = berger_round(3, 2).unwrap();
        assert_eq!(r.bye, Some(3));
        assert_eq!(
            r.games,
            vec![Game {
                board: 1,
                white: 1,
                black: 2
            }]
        );
    }

    #[test]
    fn out_of_range_inputs_are_typed_errors() {
        assert!(matches!(
            berger_table(1),
            Err(RoundRobinError::PlayerCountOutOfRange { got: 1, .. })
        ));
        assert!(matches!(
            berger_table(MAX_PLAYERS + 1),
            Err(RoundRobinError::PlayerCountOutOfRange { .. })
        ));
        assert!(matches!(
            berger_round(6, 0),
            Err(RoundRobinError::RoundOutOfRange { round: 0, .. })
        ));
        assert!(matches!(
            berger_round(6, 6),
            Err(RoundRobinError::RoundOutOfRange { rounds: 5, .. })
        ));
    }

    #[test]
    fn two_players_is_a_single_game() {
        let t = berger_table(2).unwrap();
        assert_eq!(t.len(), 1);
        assert_eq!(pairs(&t[0]), vec![(1, 2)]);
    }
}
