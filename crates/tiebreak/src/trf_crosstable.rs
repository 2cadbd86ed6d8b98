//! TRF → [`crate::Crosstable`]: the adapter between the file format and the tie-break rules.
//!
//! Every round block of a `001` record becomes one [`RoundEntry`]:
//!
//! | block | entry |
//! |---|---|
//! | opponent, `1` / `W` | `Played` win (`W`: game of less than one move, still a game) |
//! | opponent, `=` / `D` | `Played` draw |
//! | opponent, `0` / `L` | `Played` loss |
//! | opponent, `+` | `ForfeitWin` (C.07 Art. 16.2.2) |
//! | opponent, `-` | `ForfeitLoss` (Art. 16.2.4; two `-` facing each other: double forfeit) |
//! | no opponent, `U` (or `+`, the older way of writing the PAB) | `PairingAllocatedBye` (`+`: `FullPointBye` when only that gives the file's forfeit-win points) |
//! | no opponent, `F` | `FullPointBye` |
//! | no opponent, `H` | `HalfPointBye` |
//! | no opponent, `Z` | `ZeroPointBye` |
//! | no opponent, `1` / `=` / `0` (older files' way of writing byes) | `FullPointBye` / `HalfPointBye` / `ZeroPointBye` |
//! | no opponent, blank or `-`; rounds missing at the end of a line | `Absent` (scored and treated as a ZPB, ADR tiebreak-004) |
//!
//! A played game without a colour takes the opposite of the opponent's colour (White for the
//! lower pairing number when neither block has one). Points follow the file's declared scoring
//! system (`162`, `BB?`, `XXS` over 1 / ½ / 0, [`trf::ScoringSystem::from_document`]), in tenths
//! of a point. Anything that cannot be turned into an entry (an unknown result code, a game
//! without an opponent, a bye code next to an opponent, a paired round without a result) is an
//! [`AdapterError`] naming the line and column.
use std::collections::BTreeMap;
use std::fmt;

use crate::{Colour, Crosstable, EventKind, GameResult, Participant, RoundEntry, Scoring};
use trf::{Opponent, PlayerRecord, Record, ResultCode, Score, ScoringSystem, TrfDocument};

/// A TRF that cannot be turned into a crosstable, with the place in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterError {
    /// 1-based line (0: the whole file).
    pub line: usize,
    /// 1-based column (0: the whole line).
    pub column: usize,
    pub message: String,
}

impl fmt::Display for AdapterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.message),
            (l, 0) => write!(f, "{l}: {}", self.message),
            (l, c) => write!(f, "{l}:{c}: {}", self.message),
        }
    }
}

/// What the file itself says about a participant (to compare with the computed standings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePlayer {
    pub tpn: u32,
    /// Line of the `001` record.
    pub line: usize,
    /// Points column (81–84), if readable.
    pub stated_points: Option<Score>,
    /// Rank column (86–89), if readable and not 0.
    pub stated_rank: Option<u16>,
}

/// How to read an unpaired round with no result code (opponent `0000` or blank, result blank).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnpairedRounds {
    /// As TRF says: blank ≡ `Z`, a zero-point round (scored and treated as a ZPB).
    #[default]
    Zero,
    /// Some exporters (the Irish Chess Union's, for one) write half- and full-point byes as a
    /// blank result and count them only in the points column. Take the missing points from the
    /// points column: the fewest full-point byes, then half-point byes, earliest unpaired
    /// rounds first; every inference is reported in [`TrfCrosstable::notes`].
    FromPoints,
}

/// How to build the crosstable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AdapterOptions {
    pub kind: EventKind,
    /// Standings after this many rounds (default: every round in the player records).
    pub rounds: Option<usize>,
    pub unpaired: UnpairedRounds,
}

/// The crosstable and where each participant came from.
#[derive(Debug, Clone)]
pub struct TrfCrosstable {
    pub crosstable: Crosstable,
    /// In the order of `crosstable.players`.
    pub players: Vec<FilePlayer>,
    /// What was inferred, `LINE:COL: text` (with [`UnpairedRounds::FromPoints`]).
    pub notes: Vec<String>,
}

impl TrfCrosstable {
    /// The line of participant `tpn`'s record.
    pub fn line_of(&self, tpn: u32) -> Option<usize> {
        self.players.iter().find(|p| p.tpn == tpn).map(|p| p.line)
    }
}

/// Columns of round `round` (1-based) in a `001` line: opponent, colour, result.
fn opponent_col(round: usize) -> usize {
    92 + 10 * (round - 1)
}
fn colour_col(round: usize) -> usize {
    97 + 10 * (round - 1)
}
fn result_col(round: usize) -> usize {
    99 + 10 * (round - 1)
}

/// The scoring system of the file in tenths of a point. Colour-dependent values (`XXS WW/BW`
/// …) have no place in the tie-break rules and are refused.
pub fn scoring(doc: &TrfDocument) -> Result<Scoring, AdapterError> {
    scoring_of(&ScoringSystem::from_document(doc))
}

/// [`scoring`] of a scoring system already read from a file's header.
pub fn scoring_of(s: &ScoringSystem) -> Result<Scoring, AdapterError> {
    let whole = |msg: String| AdapterError {
        line: 0,
        column: 0,
        message: msg,
    };
    if s.white_win != s.black_win || s.white_draw != s.black_draw || s.white_loss != s.black_loss {
        return Err(whole(
            "the scoring system gives different points to White and Black (XXS WW/BW/WD/BD/WL/BL); \
             the tie-break rules need one value per result"
                .into(),
        ));
    }
    let t = |v: Score| i64::from(v.tenths());
    let out = Scoring {
        units_per_point: 10,
        win: t(s.white_win),
        draw: t(s.white_draw),
        loss: t(s.white_loss),
        forfeit_win: t(s.forfeit_win),
        forfeit_loss: t(s.forfeit_loss),
        pairing_allocated_bye: t(s.pairing_allocated_bye),
        full_point_bye: t(s.full_point_bye),
        half_point_bye: t(s.half_point_bye),
        zero_point_bye: t(s.zero_point_bye),
    };
    if out.win <= 0 || out.draw < 0 || out.draw > out.win {
        return Err(whole(format!(
            "the scoring system (win {}, draw {}) needs win > 0 and 0 <= draw <= win",
            s.white_win.tenths() as f64 / 10.0,
            s.white_draw.tenths() as f64 / 10.0
        )));
    }
    Ok(out)
}

/// Builds the crosstable of `doc` over its first `rounds` rounds (default: every round in the
/// player records).
pub fn from_trf(doc: &TrfDocument, opts: &AdapterOptions) -> Result<TrfCrosstable, AdapterError> {
    let scoring = scoring(doc)?;
    let mut notes = Vec::new();
    // The 001 records by pairing number, with their line numbers.
    let mut by_tpn: BTreeMap<u16, (usize, &PlayerRecord)> = BTreeMap::new();
    let mut order: Vec<u16> = Vec::new();
    for (i, line) in doc.lines.iter().enumerate() {
        let ln = i + 1;
        let Record::Player(p) = &line.record else {
            continue;
        };
        let Some(tpn) = p.tpn() else {
            return Err(AdapterError {
                line: ln,
                column: 5,
                message: "the starting rank (columns 5-8) is not a number".into(),
            });
        };
        if let Some((first, _)) = by_tpn.get(&tpn) {
            return Err(AdapterError {
                line: ln,
                column: 5,
                message: format!("starting rank {tpn} is already used on line {first}"),
            });
        }
        by_tpn.insert(tpn, (ln, p));
        order.push(tpn);
    }
    if order.is_empty() {
        return Err(AdapterError {
            line: 0,
            column: 0,
            message: "the file has no player record (001)".into(),
        });
    }
    let in_file = doc.rounds_in_player_records();
    let rounds = match opts.rounds {
        None => in_file,
        Some(r) if r <= in_file => r,
        Some(r) => {
            return Err(AdapterError {
                line: 0,
                column: 0,
                message: format!("--rounds {r}: the player records hold only {in_file} rounds"),
            });
        }
    };
    let colour_of = |tpn: u16, round: usize| -> Option<Colour> {
        let (_, p) = by_tpn.get(&tpn)?;
        match p.round(round)?.colour {
            trf::Colour::White => Some(Colour::White),
            trf::Colour::Black => Some(Colour::Black),
            _ => None,
        }
    };
    let mut players = Vec::with_capacity(order.len());
    let mut file_players = Vec::with_capacity(order.len());
    for tpn in order {
        let Some(&(ln, p)) = by_tpn.get(&tpn) else {
            continue;
        };
        let mut entries = Vec::with_capacity(rounds);
        for r in 1..=rounds {
            let err = |column: usize, message: String| AdapterError {
                line: ln,
                column,
                message: format!("round {r}: {message}"),
            };
            let Some(block) = p.round(r) else {
                entries.push(RoundEntry::Absent);
                continue;
            };
            let entry = round_entry(
                tpn,
                r,
                block,
                &scoring,
                |o| by_tpn.contains_key(&o),
                |o| colour_of(o, r),
            )
            .map_err(|(field, message)| {
                let column = match field {
                    BlockField::Opponent => opponent_col(r),
                    BlockField::Colour => colour_col(r),
                    BlockField::Result => result_col(r),
                };
                err(column, message)
            })?;
            entries.push(entry);
        }
        if opts.unpaired == UnpairedRounds::FromPoints
            && rounds == in_file
            && let Some(stated) = p.points.get()
        {
            notes.extend(
                bye_points_from_column(&scoring, &mut entries, i64::from(stated.tenths()))
                    .into_iter()
                    .map(|(r, text)| match r {
                        Some(r) => format!("{ln}:{}: round {}: {text}", result_col(r + 1), r + 1),
                        None => format!("{ln}:81: {text}"),
                    }),
            );
        }
        players.push(Participant {
            tpn: u32::from(tpn),
            rating: p.rating.get().filter(|&r| r > 0).map(u32::from),
            federation: Some(p.federation.clone()).filter(|f| !f.is_empty()),
            name: Some(p.name.clone()).filter(|n| !n.is_empty()),
            entries,
        });
        file_players.push(FilePlayer {
            tpn: u32::from(tpn),
            line: ln,
            stated_points: p.points.get(),
            stated_rank: p.rank.get().filter(|&r| r > 0),
        });
    }
    Ok(TrfCrosstable {
        crosstable: Crosstable {
            kind: opts.kind,
            rounds_played: u32::try_from(rounds).unwrap_or(u32::MAX),
            scoring,
            players,
        },
        players: file_players,
        notes,
    })
}

/// The part of a round block a [`round_entry`] error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockField {
    Opponent,
    Colour,
    Result,
}

/// One round block of participant `tpn` as its crosstable entry (the table at the top of this
/// module), `round` 1-based. `has_player(o)`: whether `o` is a participant; `colour_of(o)`: the colour `o`'s own
/// record gives them in this round. Used by [`from_trf`] and by readers of a tournament record
/// that hold the blocks without a file (the results service, ADR results-003).
pub fn round_entry(
    tpn: u16,
    round: usize,
    block: &trf::RoundResult,
    scoring: &Scoring,
    has_player: impl Fn(u16) -> bool,
    colour_of: impl Fn(u16) -> Option<Colour>,
) -> Result<RoundEntry, (BlockField, String)> {
    let own_colour = match block.colour {
        trf::Colour::White => Some(Colour::White),
        trf::Colour::Black => Some(Colour::Black),
        _ => None,
    };
    let code = block.result.to_char();
    let entry = match &block.opponent {
        Opponent::Invalid(text) => {
            return Err((
                BlockField::Opponent,
                format!("opponent {text:?} is not a starting rank"),
            ));
        }
        Opponent::Player(o) => {
            let o = *o;
            if !has_player(o) {
                return Err((
                    BlockField::Opponent,
                    format!("opponent {o} has no player record"),
                ));
            }
            if o == tpn {
                return Err((BlockField::Opponent, "paired against themself".into()));
            }
            let game_colour = || {
                own_colour
                    .or_else(|| colour_of(o).map(Colour::opposite))
                    .unwrap_or(if tpn < o {
                        Colour::White
                    } else {
                        Colour::Black
                    })
            };
            let played = |result| RoundEntry::Played {
                opponent: u32::from(o),
                colour: game_colour(),
                result,
            };
            match block.result {
                ResultCode::Win | ResultCode::UnratedWin => played(GameResult::Win),
                ResultCode::Draw | ResultCode::UnratedDraw => played(GameResult::Draw),
                ResultCode::Loss | ResultCode::UnratedLoss => played(GameResult::Loss),
                ResultCode::ForfeitWin => RoundEntry::ForfeitWin {
                    opponent: u32::from(o),
                    colour: own_colour,
                },
                ResultCode::ForfeitLoss => RoundEntry::ForfeitLoss {
                    opponent: u32::from(o),
                    colour: own_colour,
                },
                ResultCode::Blank => {
                    return Err((
                        BlockField::Result,
                        format!(
                            "paired against {o} but no result yet; standings need finished \
                             rounds (use --rounds {})",
                            round - 1
                        ),
                    ));
                }
                ResultCode::HalfPointBye
                | ResultCode::FullPointBye
                | ResultCode::PairingAllocatedBye
                | ResultCode::ZeroPointBye => {
                    return Err((
                        BlockField::Result,
                        format!("bye code '{code}' next to opponent {o}"),
                    ));
                }
                ResultCode::Unknown(_) => {
                    return Err((BlockField::Result, format!("unknown result code '{code}'")));
                }
            }
        }
        Opponent::Zero | Opponent::Blank => match block.result {
            ResultCode::PairingAllocatedBye => RoundEntry::PairingAllocatedBye,
            // `0000 - +`: the pre-2016 PAB, scored as a forfeit win; if the file gives
            // a forfeit win the points of a full-point bye but not of a PAB, it is one.
            ResultCode::ForfeitWin
                if scoring.forfeit_win != scoring.pairing_allocated_bye
                    && scoring.forfeit_win == scoring.full_point_bye =>
            {
                RoundEntry::FullPointBye
            }
            ResultCode::ForfeitWin => RoundEntry::PairingAllocatedBye,
            ResultCode::FullPointBye => RoundEntry::FullPointBye,
            ResultCode::HalfPointBye => RoundEntry::HalfPointBye,
            ResultCode::ZeroPointBye => RoundEntry::ZeroPointBye,
            ResultCode::Blank | ResultCode::ForfeitLoss => RoundEntry::Absent,
            // Older files write byes as a "result" against nobody.
            ResultCode::Win | ResultCode::UnratedWin => RoundEntry::FullPointBye,
            ResultCode::Draw | ResultCode::UnratedDraw => RoundEntry::HalfPointBye,
            ResultCode::Loss | ResultCode::UnratedLoss => RoundEntry::ZeroPointBye,
            ResultCode::Unknown(_) => {
                return Err((BlockField::Result, format!("unknown result code '{code}'")));
            }
        },
    };
    if let RoundEntry::Played { .. } = entry
        && let trf::Colour::Invalid(c) = block.colour
    {
        return Err((BlockField::Colour, format!("colour '{c}' is not w, b or -")));
    }
    Ok(entry)
}

/// [`UnpairedRounds::FromPoints`] for one participant: turns `Absent` rounds into full- and
/// half-point byes so that the total is `stated` (tenths). Returns notes by 0-based round.
fn bye_points_from_column(
    scoring: &Scoring,
    entries: &mut [RoundEntry],
    stated: i64,
) -> Vec<(Option<usize>, String)> {
    let total: i64 = entries.iter().map(|e| scoring.points(e)).sum();
    let missing = stated - total;
    if missing == 0 {
        return Vec::new();
    }
    let unpaired: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| **e == RoundEntry::Absent)
        .map(|(i, _)| i)
        .collect();
    let show = |t: i64| {
        format!(
            "{}",
            crate::Exact::ratio(t, 10).unwrap_or(crate::Exact::ZERO)
        )
    };
    let (fpb, hpb, zero) = (
        scoring.full_point_bye,
        scoring.half_point_bye,
        scoring.zero_point_bye,
    );
    let n = unpaired.len() as i64;
    // Fewest full-point byes first, then half-point byes.
    let found = (0..=n).find_map(|k| {
        (0..=n - k)
            .find(|&j| k * fpb + j * hpb + (n - k - j) * zero == missing + n * zero)
            .map(|j| (k, j))
    });
    let Some((k, j)) = found.filter(|_| n > 0) else {
        return vec![(
            None,
            format!(
                "the points column says {} but the results add up to {}, which its {n} unpaired \
                 round(s) cannot explain; kept as zero-point rounds",
                show(stated),
                show(total)
            ),
        )];
    };
    let mut notes = Vec::new();
    for (x, &r) in unpaired.iter().enumerate() {
        let x = x as i64;
        let (entry, what) = if x < k {
            (RoundEntry::FullPointBye, "full-point bye")
        } else if x < k + j {
            (RoundEntry::HalfPointBye, "half-point bye")
        } else {
            continue;
        };
        entries[r] = entry;
        notes.push((
            Some(r),
            format!(
                "unpaired round without a result read as a {what} (points column {})",
                show(stated)
            ),
        ));
    }
    notes
}

/// Round robin if record `092` says so ("round robin", "Berger", "RR"), else Swiss.
pub fn event_kind(doc: &TrfDocument) -> EventKind {
    let t = doc
        .header_value(trf::HeaderKind::TournamentType)
        .unwrap_or("")
        .to_ascii_lowercase();
    let rr = t.contains("robin")
        || t.contains("berger")
        || t.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == "rr");
    if rr {
        EventKind::RoundRobin
    } else {
        EventKind::Swiss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> TrfDocument {
        trf::parse(text.as_bytes()).unwrap().doc
    }

    const TWO: &str = "\
001    1      Doe, John                         2100                             1.5    1     2 w 1  0000 - H
001    2      Roe, Jane                         2000                             1.0    2     1 b 0  0000 - U
";

    #[test]
    fn games_and_byes_become_entries() {
        let ct = from_trf(&doc(TWO), &AdapterOptions::default()).unwrap();
        let c = &ct.crosstable;
        assert_eq!(c.rounds_played, 2);
        assert_eq!(
            c.players[0].entries,
            vec![
                RoundEntry::Played {
                    opponent: 2,
                    colour: Colour::White,
                    result: GameResult::Win
                },
                RoundEntry::HalfPointBye
            ]
        );
        assert_eq!(c.players[1].entries[1], RoundEntry::PairingAllocatedBye);
        assert_eq!(ct.players[0].stated_points, Some(Score::from_tenths(15)));
        assert_eq!(ct.players[1].line, 2);
    }

    #[test]
    fn missing_colour_is_taken_from_the_opponent() {
        let text = "\
001    1      A                                 2100                             1.0    1     2 - 1
001    2      B                                 2000                             0.0    2     1 w 0
";
        let ct = from_trf(&doc(text), &AdapterOptions::default()).unwrap();
        assert_eq!(
            ct.crosstable.players[0].entries[0],
            RoundEntry::Played {
                opponent: 2,
                colour: Colour::Black,
                result: GameResult::Win
            }
        );
    }

    #[test]
    fn forfeits_and_short_lines() {
        let text = "\
001    1      A                                 2100                             2.0    1     2 w +     3 b 1
001    2      B                                 2000                             0.0    2     1 b -
001    3      C                                 2000                             0.0    3  0000 - Z     1 w 0
";
        let ct = from_trf(&doc(text), &AdapterOptions::default()).unwrap();
        let p = &ct.crosstable.players;
        assert_eq!(
            p[0].entries[0],
            RoundEntry::ForfeitWin {
                opponent: 2,
                colour: Some(Colour::White)
            }
        );
        assert_eq!(p[1].entries[1], RoundEntry::Absent);
        assert_eq!(p[2].entries[0], RoundEntry::ZeroPointBye);
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = "\
001    1      A                                 2100                             1.0    1     9 w 1
";
        let e = from_trf(&doc(text), &AdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 92));
        assert!(e.message.contains("opponent 9"), "{e}");
        let text = "\
001    1      A                                 2100                             1.0    1     2 w 1
001    2      B                                 2000                             0.0    2     1 b
";
        let e = from_trf(&doc(text), &AdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 99));
        let e = from_trf(
            &doc(TWO),
            &AdapterOptions {
                rounds: Some(3),
                ..AdapterOptions::default()
            },
        )
        .unwrap_err();
        assert!(e.message.contains("only 2 rounds"), "{e}");
    }

    #[test]
    fn unpaired_rounds_take_their_points_from_the_points_column() {
        // 1 won, then two unpaired rounds without a code; the file says 2.0
        let text = "\
001    1      A                                 2100                             2.0    1     2 w 1  0000 -    0000 -  
001    2      B                                 2000                             0.0    2     1 b 0
";
        let from_points = AdapterOptions {
            unpaired: UnpairedRounds::FromPoints,
            ..AdapterOptions::default()
        };
        let ct = from_trf(&doc(text), &from_points).unwrap();
        // 1.0 missing over two rounds: two half-point byes rather than one full-point bye
        assert_eq!(
            ct.crosstable.players[0].entries[1..],
            [RoundEntry::HalfPointBye, RoundEntry::HalfPointBye]
        );
        assert_eq!(ct.notes.len(), 2);
        assert!(
            ct.notes[0].starts_with("1:109: round 2: "),
            "{:?}",
            ct.notes
        );
        // by default the rounds stay zero-point rounds
        let ct = from_trf(&doc(text), &AdapterOptions::default()).unwrap();
        assert_eq!(ct.crosstable.players[0].entries[1], RoundEntry::Absent);
        assert!(ct.notes.is_empty());
        // 1.5 missing over two rounds: a full-point and a half-point bye, earliest first
        let ct = from_trf(&doc(&text.replacen("2.0", "2.5", 1)), &from_points).unwrap();
        assert_eq!(
            ct.crosstable.players[0].entries[1..],
            [RoundEntry::FullPointBye, RoundEntry::HalfPointBye]
        );
        // 3.0 missing cannot come from two rounds: kept, and said so
        let ct = from_trf(&doc(&text.replacen("2.0", "4.0", 1)), &from_points).unwrap();
        assert_eq!(ct.crosstable.players[0].entries[1], RoundEntry::Absent);
        assert!(ct.notes[0].contains("cannot explain"), "{:?}", ct.notes);
    }

    #[test]
    fn three_one_zero_scoring_from_record_162() {
        let text = "\
162  W 3.0    D 1.0
001    1      A                                 2100                             3.0    1     2 w 1
001    2      B                                 2000                             0.0    2     1 b 0
";
        let s = scoring(&doc(text)).unwrap();
        assert_eq!((s.win, s.draw, s.units_per_point), (30, 10, 10));
    }
}
