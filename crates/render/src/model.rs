//! The data a sheet is rendered from: plain values, already read from the record by the
//! caller (the CLI, later the public pages). Nothing here looks anything up.
use serde::Serialize;

/// The event a sheet belongs to (its heading).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Tournament name.
    pub name: String,
    /// Place ("" = not given).
    pub place: String,
    /// First day, `YYYY-MM-DD` ("" = not given).
    pub start_date: String,
    /// Last day, `YYYY-MM-DD` ("" = not given).
    pub end_date: String,
    /// Announced rounds (0 = not decided).
    pub rounds: u32,
}

/// A player as printed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Player {
    /// Pairing number.
    pub tpn: u32,
    /// "Surname, First name" as entered (user data: escaped in HTML).
    pub name: String,
    /// FIDE title (GM, IM, WGM …; "" = none).
    pub title: String,
    /// The rating the tournament ranks by (0 = unrated).
    pub rating: u32,
    /// Three-letter federation ("" = not given).
    pub federation: String,
    /// "m", "w" or "".
    pub sex: String,
    /// `YYYY/MM/DD`, `YYYY` or "".
    pub birth_date: String,
}

impl Player {
    /// The year of birth, when the record has one.
    #[must_use]
    pub fn birth_year(&self) -> Option<i32> {
        let y = self.birth_date.get(..4)?;
        if y.bytes().all(|b| b.is_ascii_digit()) {
            y.parse().ok().filter(|y| *y > 0)
        } else {
            None
        }
    }

    /// The rating as printed: "" for an unrated player.
    #[must_use]
    pub fn rating_text(&self) -> String {
        if self.rating == 0 {
            String::new()
        } else {
            self.rating.to_string()
        }
    }
}

/// One side of a board: the player and their points before the round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Side {
    /// The player.
    pub player: Player,
    /// Points before the round, as the tournament scores them ("1.5").
    pub points: String,
}

/// One board of a round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Board number.
    pub board: u32,
    /// White.
    pub white: Side,
    /// Black.
    pub black: Side,
    /// The result as recorded ("1-0", "1/2", "+-" …; "" = none yet).
    pub result: String,
}

/// A player of the round who has no board: a bye, an absence, a withdrawal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Unpaired {
    /// The player and their points before the round.
    pub side: Side,
    /// What it is, in words: "pairing-allocated bye", "half-point bye", "zero-point bye",
    /// "full-point bye", "absent", "withdrawn", "not yet entered".
    pub kind: String,
}

/// A round's pairing (or, with results, its results sheet).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Pairings {
    /// The event.
    pub event: Event,
    /// The round.
    pub round: u32,
    /// Published to the players.
    pub published: bool,
    /// Boards in board order.
    pub boards: Vec<Board>,
    /// Byes, absentees and withdrawn players (pairing-allocated bye first).
    pub unpaired: Vec<Unpaired>,
}

/// A round's cell of a crosstable line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The opponent's pairing number (0 = no opponent: a bye or an absence).
    pub opponent: u32,
    /// "w", "b" or "" (no game).
    pub colour: String,
    /// "1", "½", "0" (a game), "+" / "-" (forfeit won / lost), "PAB", "F", "H", "Z" (byes),
    /// "-" with no opponent (absent).
    pub result: String,
}

/// One line of the standings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StandingLine {
    /// Rank (in a category: the place within it).
    pub rank: u32,
    /// Shared with the next or previous line.
    pub shared: bool,
    /// The rank in the whole tournament (equal to `rank` outside a category).
    pub overall_rank: u32,
    /// The player.
    pub player: Player,
    /// Points.
    pub points: String,
    /// Tie-break values, in the order of [`Standings::tiebreaks`].
    pub tiebreaks: Vec<String>,
    /// Every round (for the crosstable; may be empty for the standings alone).
    pub rounds: Vec<Cell>,
}

/// The standings after a round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// The event.
    pub event: Event,
    /// After this round.
    pub after_round: u32,
    /// Tie-break names as applied ("BH/C1", "SB" …).
    pub tiebreaks: Vec<String>,
    /// Lines in standing order.
    pub lines: Vec<StandingLine>,
}
