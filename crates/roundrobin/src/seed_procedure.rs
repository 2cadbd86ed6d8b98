//! Seed 000 (FEFB Vade-mecum 2018), "Tournoi toutes rondes": the colour laws and the
//! "Procédé d'établissement des rondes", implemented independently of the closed-form generator
//! in [`mod@crate::berger_table`] so that each checks the other (see `tests/seed_procedure_check.rs`).
//!
//! The seed's laws (translated):
//! 1. If both numbers are even or both odd, the higher number has White; otherwise Black.
//!    The last number is the exception: White against the second half of the players, Black
//!    against the first half.
//! 2. "Pour déterminer l'appariement de n'importe quelle ronde":
//!    1. pair the last number (or the bye) first: round 1 against number 1, round 2 against the
//!       first of the second half, round 3 against the second of the first half, round 4
//!       against the second of the second half, and so on;
//!    2. x = round + 1: make every pair whose numbers add up to x;
//!    3. y = number of players + round: make the remaining pairs adding up to y (the last
//!       number excepted).
//!
//! Example of the seed, "10 joueurs ronde 6": 10-8; x = 7: 1-6, 2-5, 3-4; y = 16: 9-7.
//!
//! This procedure gives the pairs and colours of a round, not the board order.

use std::collections::BTreeSet;

use crate::berger_table::{check_players, table_size};
use crate::{PairingNumber, RoundRobinError};

/// The pairs of one round by the seed's procedure: `(white, black)` as a set, plus the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedProcedureRound {
    /// `(white, black)` pairs, without board order.
    pub pairs: BTreeSet<(PairingNumber, PairingNumber)>,
    /// The player paired with the phantom last number when the number of players is odd.
    pub bye: Option<PairingNumber>,
}

/// Colour law 1 of the seed for two numbers neither of which is the last: `(white, black)`.
#[must_use]
pub fn seed_colour_law(a: PairingNumber, b: PairingNumber) -> (PairingNumber, PairingNumber) {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    if low % 2 == high % 2 {
        (high, low)
    } else {
        (low, high)
    }
}

/// Round `round` for `players` players by the seed's x/y procedure.
///
/// # Errors
/// [`RoundRobinError::PlayerCountOutOfRange`] or [`RoundRobinError::RoundOutOfRange`].
pub fn seed_procedure_round(
    players: u32,
    round: u32,
) -> Result<SeedProcedureRound, RoundRobinError> {
    check_players(players)?;
    let last = table_size(players);
    let rounds = last - 1;
    if round == 0 || round > rounds {
        return Err(RoundRobinError::RoundOutOfRange {
            round,
            players,
            rounds,
        });
    }
    let half = last / 2;
    // Step 1: the last number's opponent (1, h+1, 2, h+2, ...).
    let opponent_of_last = if round % 2 == 1 {
        round.div_ceil(2)
    } else {
        half + round / 2
    };
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    if players % 2 == 1 {
        bye = Some(opponent_of_last);
    } else if opponent_of_last > half {
        pairs.insert((last, opponent_of_last));
    } else {
        pairs.insert((opponent_of_last, last));
    }
    // Steps 2 and 3: sums x = round + 1, then y = players + round (players counted as `last`).
    let x = round + 1;
    let y = last + round;
    let mut paired = vec![false; usize::try_from(last).unwrap_or(0) + 1];
    let mark = |p: PairingNumber, paired: &mut Vec<bool>| {
        if let Some(slot) = usize::try_from(p).ok().and_then(|i| paired.get_mut(i)) {
            *slot = true;
        }
    };
    let is_paired = |p: PairingNumber, paired: &Vec<bool>| {
        usize::try_from(p)
            .ok()
            .and_then(|i| paired.get(i))
            .copied()
            .unwrap_or(true)
    };
    mark(opponent_of_last, &mut paired);
    mark(last, &mut paired);
    for sum in [x, y] {
        for i in 1..last {
            if is_paired(i, &paired) || sum <= i {
                continue;
            }
            let j = sum - i;
            if j == i || j >= last || j == 0 || is_paired(j, &paired) {
                continue;
            }
            mark(i, &mut paired);
            mark(j, &mut paired);
            pairs.insert(seed_colour_law(i, j));
        }
    }
    Ok(SeedProcedureRound { pairs, bye })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000, "Procédé d'établissement des rondes", "Exemple : 10 joueurs ronde 6":
    /// 10-8; x = 7: 1-6, 2-5, 3-4; y = 16: 9-7.
    #[test]
    fn seed_000_example_ten_players_round_6() {
        let r = seed_procedure_round(10, 6).unwrap();
        let expected: BTreeSet<_> = [(10, 8), (1, 6), (2, 5), (3, 4), (9, 7)]
            .into_iter()
            .collect();
        assert_eq!(r.pairs, expected);
        assert_eq!(r.bye, None);
    }

    /// Seed 000: "S'il y a donc 20 joueurs : R1 : 1-20 ; R2 : 20-11 ; R3 : 2-20 ; R4 : 20-12".
    #[test]
    fn seed_000_twenty_players_last_number_rounds_1_to_4() {
        let expect = [(1, (1, 20)), (2, (20, 11)), (3, (2, 20)), (4, (20, 12))];
        for (round, pair) in expect {
            assert!(
                seed_procedure_round(20, round)
                    .unwrap()
                    .pairs
                    .contains(&pair),
                "round {round}"
            );
        }
    }

    /// Seed 000 law 1: "Si les joueurs sont tous les deux pairs ou impairs, le joueur ayant le
    /// numéro le plus élevé a les Blancs ; les Noirs dans le cas contraire."
    #[test]
    fn seed_000_colour_law_1() {
        assert_eq!(seed_colour_law(3, 1), (3, 1));
        assert_eq!(seed_colour_law(1, 6), (1, 6));
        assert_eq!(seed_colour_law(9, 7), (9, 7));
        assert_eq!(seed_colour_law(4, 2), (4, 2));
    }
}
