//! The colours of the boards of a team match: TRF26 record 352 ("board colour sequence for team
//! matches", e.g. `WBWB`; its length is the number of boards).
//!
//! The sequence is read for the team named first in the match: `WBWB` gives it White on boards 1
//! and 3 and Black on boards 2 and 4; its opponent has the other colour on every board. Without a
//! record 352 the colours alternate, White on board 1 for the team named first
//! ([`BoardColourSequence::alternating`]). See ADR `teampairing-001`.

use serde::{Deserialize, Serialize};

use crate::TeamPairingError;

/// A colour of the pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    #[must_use]
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// `W` or `B`, as in TRF.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }
}

/// The colours, board by board, of the team named first in a match (record 352).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardColourSequence(Vec<Colour>);

impl BoardColourSequence {
    /// Reads a record 352 sequence such as `WBWB` (case-insensitive, spaces ignored).
    ///
    /// # Errors
    /// [`TeamPairingError::BadColourSequence`], [`TeamPairingError::EmptyColourSequence`].
    pub fn parse(text: &str) -> Result<Self, TeamPairingError> {
        let mut colours = Vec::new();
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            colours.push(match c.to_ascii_uppercase() {
                'W' => Colour::White,
                'B' => Colour::Black,
                found => {
                    return Err(TeamPairingError::BadColourSequence {
                        sequence: text.to_string(),
                        found,
                    });
                }
            });
        }
        if colours.is_empty() {
            return Err(TeamPairingError::EmptyColourSequence);
        }
        Ok(Self(colours))
    }

    /// The default without record 352: alternating colours, White on board 1 for the team named
    /// first (`WBWB…`).
    ///
    /// # Errors
    /// [`TeamPairingError::NoBoards`] for zero boards.
    pub fn alternating(boards: u32) -> Result<Self, TeamPairingError> {
        if boards == 0 {
            return Err(TeamPairingError::NoBoards);
        }
        Ok(Self(
            (0..boards)
                .map(|b| {
                    if b % 2 == 0 {
                        Colour::White
                    } else {
                        Colour::Black
                    }
                })
                .collect(),
        ))
    }

    /// Number of boards (the length of the sequence).
    #[must_use]
    pub fn boards(&self) -> usize {
        self.0.len()
    }

    /// The colour of the team named first on board `board` (1-based), if there is such a board.
    #[must_use]
    pub fn first_named_colour(&self, board: usize) -> Option<Colour> {
        board.checked_sub(1).and_then(|i| self.0.get(i)).copied()
    }

    /// The colours of the team named first, board 1 first.
    #[must_use]
    pub fn colours(&self) -> &[Colour] {
        &self.0
    }

    /// The board colours of a match in which the team named first has `board_one` on board 1
    /// (C.04.6 1.6.1: a team's colour in a match is its first board's colour). When the sequence
    /// starts with the other colour it is reversed board by board.
    #[must_use]
    pub fn for_first_board(&self, board_one: Colour) -> Vec<Colour> {
        if self.0[0] == board_one {
            self.0.clone()
        } else {
            self.0.iter().map(|c| c.opposite()).collect()
        }
    }

    /// The sequence as record 352 writes it.
    #[must_use]
    pub fn to_trf(&self) -> String {
        self.0.iter().map(|c| c.letter()).collect()
    }
}

/// One board of a team match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Board number, 1-based.
    pub board: u32,
    /// Pairing number of the team whose player has White on this board.
    pub white_team: u32,
    /// Pairing number of the team whose player has Black on this board.
    pub black_team: u32,
}

/// The boards of a match between `first` (named first) and `second`, `first` having the colours
/// of `first_colours` (board 1 first).
#[must_use]
pub fn boards_of_match(first: u32, second: u32, first_colours: &[Colour]) -> Vec<Board> {
    first_colours
        .iter()
        .zip(1u32..)
        .map(|(c, board)| match c {
            Colour::White => Board {
                board,
                white_team: first,
                black_team: second,
            },
            Colour::Black => Board {
                board,
                white_team: second,
                black_team: first,
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_352_wbwb_gives_first_team_white_on_boards_1_and_3() {
        let s = BoardColourSequence::parse("WBWB").unwrap();
        assert_eq!(s.boards(), 4);
        let b = boards_of_match(7, 3, s.colours());
        assert_eq!(b[0].white_team, 7);
        assert_eq!(b[1].white_team, 3);
        assert_eq!(b[2].white_team, 7);
        assert_eq!(b[3].white_team, 3);
    }

    #[test]
    fn record_352_rejects_other_letters_and_empty() {
        assert_eq!(
            BoardColourSequence::parse("WBX"),
            Err(TeamPairingError::BadColourSequence {
                sequence: "WBX".into(),
                found: 'X'
            })
        );
        assert_eq!(
            BoardColourSequence::parse(" "),
            Err(TeamPairingError::EmptyColourSequence)
        );
    }

    #[test]
    fn default_alternates_white_on_board_one() {
        let s = BoardColourSequence::alternating(5).unwrap();
        assert_eq!(s.to_trf(), "WBWBW");
        assert_eq!(
            BoardColourSequence::alternating(0),
            Err(TeamPairingError::NoBoards)
        );
    }

    #[test]
    fn reversed_when_first_board_is_black() {
        let s = BoardColourSequence::parse("WWBB").unwrap();
        assert_eq!(
            s.for_first_board(Colour::Black),
            vec![Colour::Black, Colour::Black, Colour::White, Colour::White]
        );
        assert_eq!(s.for_first_board(Colour::White), s.colours().to_vec());
    }
}
