//! Team round robin: the FIDE Berger tables (C.05 Annex 1, from `crates/roundrobin`) read with
//! teams for players, and the colours of every board.
//!
//! In each game of the table, the team the table gives White is the team **named first** in the
//! match; it has the colour of record 352 on each board (default: alternating, White on board 1).
//! The Berger tables already alternate which team is named first from round to round, so a team
//! alternates between White and Black on board 1 as a player would in an individual round robin
//! (ADR `teampairing-001`). A double round robin repeats the first cycle with the order of the
//! teams reversed (so every board colour is reversed), FIDE's recommended swap of the last two
//! rounds of the first cycle by default.

use serde::{Deserialize, Serialize};

use crate::TeamPairingError;
use crate::board_colours_352::{Board, BoardColourSequence, boards_of_match};
use roundrobin::{SecondCycle, berger_table, double_round_robin};

/// One match of a team round robin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// Table (match) number in the round, 1-based, in the order of the Berger table.
    pub table: u32,
    /// The team named first (the table's White): it has the record-352 colours.
    pub first: u32,
    /// The team named second.
    pub second: u32,
    /// The boards, each saying which team has White.
    pub boards: Vec<Board>,
}

/// One round of a team round robin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRound {
    /// Round number, 1-based, in playing order.
    pub number: u32,
    /// The matches in table order.
    pub matches: Vec<TeamMatch>,
    /// With an odd number of teams, the team that does not play this round.
    pub bye: Option<u32>,
}

/// Single or double team round robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cycles {
    /// Every team meets every other once.
    Single,
    /// Twice, the second cycle with the order reversed.
    Double(SecondCycle),
}

/// The schedule of a team round robin for `teams` teams (pairing numbers `1..=teams`), with the
/// board colours of `sequence` for the team named first.
///
/// # Errors
/// [`TeamPairingError::RoundRobin`] when the Berger tables refuse the number of teams.
pub fn team_round_robin(
    teams: u32,
    cycles: Cycles,
    sequence: &BoardColourSequence,
) -> Result<Vec<TeamRound>, TeamPairingError> {
    let rounds = match cycles {
        Cycles::Single => berger_table(teams)?,
        Cycles::Double(order) => double_round_robin(teams, order)?,
    };
    Ok(rounds
        .into_iter()
        .map(|r| TeamRound {
            number: r.number,
            matches: r
                .games
                .iter()
                .map(|g| TeamMatch {
                    table: g.board,
                    first: g.white,
                    second: g.black,
                    boards: boards_of_match(g.white, g.black, sequence.colours()),
                })
                .collect(),
            bye: r.bye,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_teams_round_one_berger_with_alternating_boards() {
        let seq = BoardColourSequence::alternating(4).unwrap();
        let rounds = team_round_robin(4, Cycles::Single, &seq).unwrap();
        assert_eq!(rounds.len(), 3);
        // Berger table for 4, round 1: 1-4, 2-3.
        let m = &rounds[0].matches[0];
        assert_eq!((m.first, m.second), (1, 4));
        assert_eq!(m.boards[0].white_team, 1);
        assert_eq!(m.boards[1].white_team, 4);
        assert_eq!(m.boards[2].white_team, 1);
        assert_eq!(m.boards[3].white_team, 4);
    }

    #[test]
    fn every_pair_meets_once_and_colours_balance_on_even_boards() {
        let seq = BoardColourSequence::parse("WBWB").unwrap();
        for n in 2..=12u32 {
            let rounds = team_round_robin(n, Cycles::Single, &seq).unwrap();
            let mut met = std::collections::BTreeSet::new();
            for r in &rounds {
                for m in &r.matches {
                    assert!(met.insert((m.first.min(m.second), m.first.max(m.second))));
                    let whites_first = m.boards.iter().filter(|b| b.white_team == m.first).count();
                    assert_eq!(whites_first, 2);
                }
            }
            let size = u64::from(n) * u64::from(n - 1) / 2;
            assert_eq!(met.len() as u64, size);
        }
    }

    #[test]
    fn odd_teams_have_a_bye_each_round() {
        let seq = BoardColourSequence::alternating(3).unwrap();
        let rounds = team_round_robin(5, Cycles::Single, &seq).unwrap();
        assert_eq!(rounds.len(), 5);
        let mut byes: Vec<u32> = rounds.iter().map(|r| r.bye.unwrap()).collect();
        byes.sort_unstable();
        assert_eq!(byes, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn double_round_robin_second_cycle_reverses_every_board() {
        let seq = BoardColourSequence::alternating(4).unwrap();
        let rounds = team_round_robin(4, Cycles::Double(SecondCycle::AsPrinted), &seq).unwrap();
        assert_eq!(rounds.len(), 6);
        let a = &rounds[0].matches[0];
        let b = &rounds[3].matches[0];
        assert_eq!((a.first, a.second), (b.second, b.first));
        for (x, y) in a.boards.iter().zip(&b.boards) {
            assert_eq!(x.white_team, y.black_team);
        }
    }

    #[test]
    fn refuses_one_team() {
        let seq = BoardColourSequence::alternating(4).unwrap();
        assert!(matches!(
            team_round_robin(1, Cycles::Single, &seq),
            Err(TeamPairingError::RoundRobin(_))
        ));
    }
}
