//! Player record `001` (TRF16 = TRF26; reference §1.4, seed 000 §9.5 "Player section") and the
//! TRF26 National Rating Support (NRS) records that reuse its static layout.
//!
//! | cols | field |
//! |---|---|
//! | 1–3 | `001` (or a 3-letter federation code for NRS) |
//! | 5–8 | starting rank (pairing number, TPN) |
//! | 10 | sex `m`/`w` |
//! | 11–13 | title |
//! | 15–47 | name |
//! | 49–52 | FIDE rating (NRS: national rating) |
//! | 54–56 | federation |
//! | 58–68 | FIDE id |
//! | 70–79 | birth date `YYYY/MM/DD` |
//! | 81–84 | points `11.5` (read from 80–84 so that `100.5` survives) |
//! | 86–89 | rank (read from 85–89) |
//! | 92+10(r−1)… | round *r*: opponent (4), colour at 97+10(r−1), result at 99+10(r−1) |

use crate::columns::{Cols, LineBuf, field_text};
use crate::field::Field;
use crate::score::Score;

/// Column layout of the player record (1-based, inclusive).
pub mod layout {
    /// Starting rank.
    pub const START_RANK: (usize, usize) = (5, 8);
    /// Sex.
    pub const SEX: usize = 10;
    /// Title.
    pub const TITLE: (usize, usize) = (11, 13);
    /// Name.
    pub const NAME: (usize, usize) = (15, 47);
    /// Rating.
    pub const RATING: (usize, usize) = (49, 52);
    /// Federation.
    pub const FEDERATION: (usize, usize) = (54, 56);
    /// FIDE id.
    pub const FIDE_ID: (usize, usize) = (58, 68);
    /// Birth date.
    pub const BIRTH_DATE: (usize, usize) = (70, 79);
    /// Points (read one column wider to the left).
    pub const POINTS: (usize, usize) = (81, 84);
    /// Rank (read one column wider to the left).
    pub const RANK: (usize, usize) = (86, 89);
    /// First column of the opponent of round `round` (1-based round).
    pub const fn opponent_col(round: usize) -> usize {
        92 + 10 * (round - 1)
    }
    /// Column of the colour of round `round`.
    pub const fn colour_col(round: usize) -> usize {
        97 + 10 * (round - 1)
    }
    /// Column of the result of round `round`.
    pub const fn result_col(round: usize) -> usize {
        99 + 10 * (round - 1)
    }
    /// Last column a round block may use (TRF columns are numbered up to 9999).
    pub const MAX_COLUMN: usize = 9999;
}

/// The opponent columns of a round block (`92–95` for round 1).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Opponent {
    /// Four blanks: no opponent (equivalent to `0000`).
    Blank,
    /// `0000`: no opponent (bye, absence, not paired).
    Zero,
    /// The starting rank of the scheduled opponent (1–9999).
    Player(u16),
    /// Text that is not a number.
    Invalid(String),
}

impl Opponent {
    /// The opponent's starting rank, if there is one.
    pub fn start_rank(&self) -> Option<u16> {
        match self {
            Opponent::Player(n) => Some(*n),
            _ => None,
        }
    }
}

/// The colour column of a round block (`97` for round 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Colour {
    /// `w`.
    White,
    /// `b`.
    Black,
    /// `-`: no colour (bye or not paired).
    None,
    /// Blank (≡ `-`).
    Blank,
    /// Any other character.
    Invalid(char),
}

impl Colour {
    fn parse(c: char) -> Colour {
        match c {
            'w' | 'W' => Colour::White,
            'b' | 'B' => Colour::Black,
            '-' => Colour::None,
            ' ' => Colour::Blank,
            other => Colour::Invalid(other),
        }
    }

    /// The character written for this colour.
    pub fn to_char(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
            Colour::None => '-',
            Colour::Blank => ' ',
            Colour::Invalid(c) => c,
        }
    }

    /// True for white or black.
    pub fn is_colour(self) -> bool {
        matches!(self, Colour::White | Colour::Black)
    }
}

/// The result column of a round block (`99` for round 1). Letter codes are case-insensitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ResultCode {
    /// `1`: win.
    Win,
    /// `=`: draw.
    Draw,
    /// `0`: loss.
    Loss,
    /// `+`: forfeit win.
    ForfeitWin,
    /// `-`: forfeit loss.
    ForfeitLoss,
    /// `W`: win, game lasted less than one move (not rated).
    UnratedWin,
    /// `D`: draw, game lasted less than one move (not rated).
    UnratedDraw,
    /// `L`: loss, game lasted less than one move (not rated).
    UnratedLoss,
    /// `H`: half-point bye.
    HalfPointBye,
    /// `F`: full-point bye.
    FullPointBye,
    /// `U`: pairing-allocated bye (at most one per round).
    PairingAllocatedBye,
    /// `Z`: zero-point bye (known absence).
    ZeroPointBye,
    /// Blank (≡ `Z`).
    Blank,
    /// Any other character.
    Unknown(char),
}

impl ResultCode {
    /// Reads a result character (letters case-insensitive).
    pub fn parse(c: char) -> ResultCode {
        match c.to_ascii_uppercase() {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'W' => ResultCode::UnratedWin,
            'D' => ResultCode::UnratedDraw,
            'L' => ResultCode::UnratedLoss,
            'H' => ResultCode::HalfPointBye,
            'F' => ResultCode::FullPointBye,
            'U' => ResultCode::PairingAllocatedBye,
            'Z' => ResultCode::ZeroPointBye,
            ' ' => ResultCode::Blank,
            _ => ResultCode::Unknown(c),
        }
    }

    /// The character written for this code (letters upper-case).
    pub fn to_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::HalfPointBye => 'H',
            ResultCode::FullPointBye => 'F',
            ResultCode::PairingAllocatedBye => 'U',
            ResultCode::ZeroPointBye => 'Z',
            ResultCode::Blank => ' ',
            ResultCode::Unknown(c) => c,
        }
    }

    /// True for `H F U Z` and blank: a round without a game.
    pub fn is_bye(self) -> bool {
        matches!(
            self,
            ResultCode::HalfPointBye
                | ResultCode::FullPointBye
                | ResultCode::PairingAllocatedBye
                | ResultCode::ZeroPointBye
                | ResultCode::Blank
        )
    }

    /// True for a game played over the board and rated (`1 = 0`).
    pub fn is_played(self) -> bool {
        matches!(self, ResultCode::Win | ResultCode::Draw | ResultCode::Loss)
    }

    /// The code the opponent must have in the same round (`1`↔`0`, `=`↔`=`, `+`↔`-`,
    /// `W`↔`L`, `D`↔`D`). A forfeit loss `-` may face `+` or `-` (double forfeit), so it
    /// returns `None`; byes and unknown codes also return `None`.
    pub fn mirror(self) -> Option<ResultCode> {
        Some(match self {
            ResultCode::Win => ResultCode::Loss,
            ResultCode::Loss => ResultCode::Win,
            ResultCode::Draw => ResultCode::Draw,
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            ResultCode::UnratedWin => ResultCode::UnratedLoss,
            ResultCode::UnratedLoss => ResultCode::UnratedWin,
            ResultCode::UnratedDraw => ResultCode::UnratedDraw,
            _ => return None,
        })
    }
}

/// One round block of a player record: `␣␣OOOO␣C␣R` at columns `90+10(r−1)…99+10(r−1)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RoundResult {
    /// Scheduled opponent (or `0000` / blank).
    pub opponent: Opponent,
    /// Scheduled colour.
    pub colour: Colour,
    /// Result code.
    pub result: ResultCode,
}

impl RoundResult {
    /// A played or forfeited game against `opponent`.
    pub fn game(opponent: u16, colour: Colour, result: ResultCode) -> RoundResult {
        RoundResult {
            opponent: Opponent::Player(opponent),
            colour,
            result,
        }
    }

    /// A bye block `0000 - R`.
    pub fn bye(result: ResultCode) -> RoundResult {
        RoundResult {
            opponent: Opponent::Zero,
            colour: Colour::None,
            result,
        }
    }

    /// An all-blank block (not paired).
    pub fn blank() -> RoundResult {
        RoundResult {
            opponent: Opponent::Blank,
            colour: Colour::Blank,
            result: ResultCode::Blank,
        }
    }

    /// True if the block is entirely blank.
    pub fn is_blank(&self) -> bool {
        self.opponent == Opponent::Blank
            && self.colour == Colour::Blank
            && self.result == ResultCode::Blank
    }
}

/// Player record `001` (also the body of an NRS record).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct PlayerRecord {
    /// Starting rank / pairing number (TPN), columns 5–8.
    pub start_rank: Field<u16>,
    /// Sex, column 10 (`m`/`w`; kept as written), `None` if blank.
    pub sex: Option<char>,
    /// Title, columns 11–13 (trimmed).
    pub title: String,
    /// Name "Lastname, Firstname", columns 15–47 (trimmed).
    pub name: String,
    /// Rating, columns 49–52.
    pub rating: Field<u16>,
    /// Federation, columns 54–56 (trimmed).
    pub federation: String,
    /// FIDE id, columns 58–68.
    pub fide_id: Field<u64>,
    /// Birth date, columns 70–79, as written with leading blanks kept (TRF says `YYYY/MM/DD`;
    /// real files vary, e.g. `    .  .` for an unknown date).
    pub birth_date: String,
    /// Points, columns 81–84.
    pub points: Field<Score>,
    /// Rank, columns 86–89.
    pub rank: Field<u16>,
    /// Round blocks, round 1 first. Trailing all-blank blocks are not kept.
    pub rounds: Vec<RoundResult>,
}

impl PlayerRecord {
    /// The starting rank, if readable.
    pub fn tpn(&self) -> Option<u16> {
        self.start_rank.get()
    }

    /// The block of round `round` (1-based), if present.
    pub fn round(&self, round: usize) -> Option<&RoundResult> {
        round.checked_sub(1).and_then(|i| self.rounds.get(i))
    }
}

/// A local problem noticed while reading one line (column, severity, message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineNote {
    pub(crate) column: usize,
    pub(crate) severity: crate::Severity,
    pub(crate) message: String,
}

fn parse_opponent(text: &str) -> Opponent {
    let t = text.trim();
    if t.is_empty() {
        Opponent::Blank
    } else if t.bytes().all(|b| b.is_ascii_digit()) {
        match t.parse::<u16>() {
            Ok(0) => Opponent::Zero,
            Ok(n) => Opponent::Player(n),
            Err(_) => Opponent::Invalid(t.to_string()),
        }
    } else {
        Opponent::Invalid(t.to_string())
    }
}

/// Separator columns of the static part (must be blank).
const STATIC_SEPARATORS: [usize; 7] = [4, 9, 14, 48, 53, 57, 69];

/// Reads a player line (`001` or NRS): the code in columns 1–3 is not interpreted here.
pub(crate) fn parse_player(cols: &Cols, notes: &mut Vec<LineNote>) -> PlayerRecord {
    use layout::*;
    for sep in STATIC_SEPARATORS {
        if cols.at(sep) != ' ' {
            notes.push(LineNote {
                column: sep,
                severity: crate::Severity::Warning,
                message: format!("unexpected '{}' in separator column {sep}", cols.at(sep)),
            });
        }
    }
    let sex = match cols.at(SEX) {
        ' ' => None,
        c => Some(c),
    };
    let mut rec = PlayerRecord {
        start_rank: cols.number(START_RANK.0, START_RANK.1),
        sex,
        title: cols.text(TITLE.0, TITLE.1),
        name: cols.text(NAME.0, NAME.1),
        rating: cols.number(RATING.0, RATING.1),
        federation: cols.text(FEDERATION.0, FEDERATION.1),
        fide_id: cols.number(FIDE_ID.0, FIDE_ID.1),
        birth_date: crate::columns::trim_end_blanks(&cols.span(BIRTH_DATE.0, BIRTH_DATE.1))
            .to_string(),
        points: cols.score(POINTS.0 - 1, POINTS.1),
        rank: cols.number(RANK.0 - 1, RANK.1),
        rounds: Vec::new(),
    };
    let len = cols.len();
    let mut round = 1usize;
    while opponent_col(round) - 2 <= len {
        let base = opponent_col(round) - 2; // first column of the 10-column block
        for sep in [base, base + 1, base + 6, base + 8] {
            if cols.at(sep) != ' ' {
                notes.push(LineNote {
                    column: sep,
                    severity: crate::Severity::Warning,
                    message: format!(
                        "unexpected '{}' in separator column {sep} of round {round}",
                        cols.at(sep)
                    ),
                });
            }
        }
        let block = RoundResult {
            opponent: parse_opponent(&cols.span(opponent_col(round), opponent_col(round) + 3)),
            colour: Colour::parse(cols.at(colour_col(round))),
            result: ResultCode::parse(cols.at(result_col(round))),
        };
        if len < colour_col(round) && !matches!(block.opponent, Opponent::Blank) {
            notes.push(LineNote {
                column: len + 1,
                severity: crate::Severity::Warning,
                message: format!(
                    "round {round} block is cut short: the line ends at column {len}, after the opponent \
                     and before the colour column {}",
                    colour_col(round)
                ),
            });
        }
        rec.rounds.push(block);
        round += 1;
    }
    while rec.rounds.last().is_some_and(RoundResult::is_blank) {
        rec.rounds.pop();
    }
    rec
}

/// Writes a player line with the given record code (`001` or an NRS federation code).
pub(crate) fn render_player(code: &str, p: &PlayerRecord) -> String {
    use layout::*;
    let mut b = LineBuf::new(code);
    b.right(START_RANK.0, START_RANK.1, &field_text(&p.start_rank));
    if let Some(s) = p.sex {
        b.left(SEX, SEX, &s.to_string());
    }
    b.right(TITLE.0, TITLE.1, &p.title);
    b.left(NAME.0, NAME.1, &p.name);
    b.right(RATING.0, RATING.1, &field_text(&p.rating));
    b.left(FEDERATION.0, FEDERATION.1, &p.federation);
    b.right(FIDE_ID.0, FIDE_ID.1, &field_text(&p.fide_id));
    b.left(BIRTH_DATE.0, BIRTH_DATE.1, &p.birth_date);
    b.right(POINTS.0, POINTS.1, &field_text(&p.points));
    b.right(RANK.0, RANK.1, &field_text(&p.rank));
    for (i, r) in p.rounds.iter().enumerate() {
        let round = i + 1;
        let opp = match &r.opponent {
            Opponent::Blank => String::new(),
            Opponent::Zero => "0000".to_string(),
            Opponent::Player(n) => n.to_string(),
            Opponent::Invalid(s) => s.clone(),
        };
        let oc = opponent_col(round);
        b.right(oc, oc + 3, &opp);
        b.left(
            colour_col(round),
            colour_col(round),
            &r.colour.to_char().to_string(),
        );
        b.left(
            result_col(round),
            result_col(round),
            &r.result.to_char().to_string(),
        );
    }
    b.finish()
}
