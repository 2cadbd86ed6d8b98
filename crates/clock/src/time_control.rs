//! Time controls (Laws of Chess 2023, Article 6.3 "increment" and 6.3.2 "delay"), with the
//! two textual encodings the project exchanges:
//!
//! * the PGN `TimeControl` tag (PGN standard §9.6.1: `?`, `-`, `moves/seconds`, `seconds`,
//!   `seconds+increment`, descriptors separated by `:`), see [`TimeControlTag`];
//! * TRF26 record 222 (fide-rules-2026 §1.3.2: `d[:d]` or `Wd[:d]-Bd[:d]`, each descriptor
//!   `M/S`, `M/S+I`, `S` or `S+I`), see [`TimeControl::parse_trf222`].
//!
//! All durations are integer milliseconds; the textual encodings carry whole seconds.

use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Milliseconds.
pub type Millis = u64;

/// What a player receives with each completed move in one period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum MoveBonus {
    /// Sudden death / plain period: nothing is added.
    #[default]
    None,
    /// Fischer increment (Law 6.3.1): this amount is added with every move.
    Increment(Millis),
    /// Bronstein delay (Law 6.3.2 family): after the press, the time actually used, up to this
    /// amount, is given back.
    Bronstein(Millis),
    /// Simple ("US") delay (Law 6.3.2): the main time only starts counting down after this
    /// fixed extra time has expired.
    SimpleDelay(Millis),
}

impl MoveBonus {
    /// The amount per move, whatever the mode (0 for [`MoveBonus::None`]).
    pub fn amount(self) -> Millis {
        match self {
            MoveBonus::None => 0,
            MoveBonus::Increment(x) | MoveBonus::Bronstein(x) | MoveBonus::SimpleDelay(x) => x,
        }
    }
}

/// One period of a time control: `moves` moves (or all remaining moves) in `time`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Period {
    /// Number of moves to complete in this period; `None` = all remaining moves
    /// (sudden death / "quickplay finish", Guidelines III.1).
    pub moves: Option<u32>,
    /// Time allotted for this period (added to the clock when the period starts).
    pub time: Millis,
    /// What every move played in this period earns.
    pub bonus: MoveBonus,
}

impl Period {
    /// A final period: all remaining moves in `time`.
    pub fn sudden_death(time: Millis, bonus: MoveBonus) -> Self {
        Period {
            moves: None,
            time,
            bonus,
        }
    }
    /// A period of `moves` moves in `time`.
    pub fn moves_in(moves: u32, time: Millis, bonus: MoveBonus) -> Self {
        Period {
            moves: Some(moves),
            time,
            bonus,
        }
    }
}

/// The control of one player: one or more periods.
///
/// If the last period has a move count, it repeats for ever (the classic "then 20 moves in one
/// hour, repeatedly"); see ADR `clock-001`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerControl {
    periods: Vec<Period>,
}

/// Why a time control is not well formed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("a time control needs at least one period")]
    NoPeriod,
    #[error("period {index}: a move count must be at least 1")]
    ZeroMoves { index: usize },
    #[error("period {index}: only the last period may be sudden death (no move count)")]
    SuddenDeathNotLast { index: usize },
    #[error("period {index}: no time and no bonus: nobody could ever move")]
    EmptyPeriod { index: usize },
    #[error("cannot parse time control {text:?} at byte {at}: {why}")]
    Syntax {
        text: String,
        at: usize,
        why: &'static str,
    },
    #[error("time control value too large in {text:?}")]
    Overflow { text: String },
    #[error("{what} cannot be written in {format}")]
    NotRepresentable {
        what: &'static str,
        format: &'static str,
    },
}

impl PlayerControl {
    /// Checks and builds a player control.
    pub fn new(periods: Vec<Period>) -> Result<Self, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::NoPeriod);
        }
        let last = periods.len() - 1;
        for (index, p) in periods.iter().enumerate() {
            match p.moves {
                Some(0) => return Err(TimeControlError::ZeroMoves { index }),
                None if index != last => {
                    return Err(TimeControlError::SuddenDeathNotLast { index });
                }
                _ => {}
            }
            if p.time == 0 && p.bonus.amount() == 0 {
                return Err(TimeControlError::EmptyPeriod { index });
            }
        }
        Ok(PlayerControl { periods })
    }

    /// The periods as given.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The period index in force for a player's `move_number`-th move (1-based), taking the
    /// repetition of a final counted period into account. Returns the index into
    /// [`PlayerControl::periods`].
    pub fn period_for_move(&self, move_number: u32) -> usize {
        let mut first = 1u64; // first move of the current period
        let m = u64::from(move_number.max(1));
        for (i, p) in self.periods.iter().enumerate() {
            match p.moves {
                None => return i,
                Some(n) => {
                    let n = u64::from(n);
                    if m < first + n {
                        return i;
                    }
                    first += n;
                }
            }
        }
        // past the last counted period: it repeats
        self.periods.len() - 1
    }

    /// Whether completing the player's `move_number`-th move (1-based) completes a period with a
    /// move count, so that the next period's time is added (Law 6.3.1 / 6.3.2, "time control").
    /// Returns the index of the period that starts, if any.
    pub fn period_starting_after(&self, move_number: u32) -> Option<usize> {
        let mut last_of_period = 0u64;
        let m = u64::from(move_number);
        for (i, p) in self.periods.iter().enumerate() {
            let n = u64::from(p.moves?);
            last_of_period += n;
            if m == last_of_period {
                return Some((i + 1).min(self.periods.len() - 1));
            }
            if m < last_of_period {
                return None;
            }
        }
        // repeating last counted period
        let n = u64::from(self.periods.last()?.moves?);
        (m - last_of_period)
            .is_multiple_of(n)
            .then_some(self.periods.len() - 1)
    }

    /// Whether the period in force for `move_number` is a final "all remaining moves" period
    /// (Guidelines III.1). A repeating counted period is never final.
    pub fn is_final_period_for_move(&self, move_number: u32) -> bool {
        let i = self.period_for_move(move_number);
        self.periods[i].moves.is_none()
    }

    /// The same periods with every period's bonus replaced by `bonus` (Guidelines III.4: an
    /// increment introduced during the game).
    pub fn with_bonus(&self, bonus: MoveBonus) -> PlayerControl {
        PlayerControl {
            periods: self
                .periods
                .iter()
                .map(|p| Period { bonus, ..*p })
                .collect(),
        }
    }

    /// Whether any period has a bonus (increment or delay).
    pub fn has_bonus(&self) -> bool {
        self.periods.iter().any(|p| p.bonus != MoveBonus::None)
    }

    /// Time available for the first `moves` moves: the time of every period started within
    /// them plus every bonus earned (Laws A.1 / B.1: "allotted time + 60 × any increment").
    pub fn time_for_moves(&self, moves: u32) -> Millis {
        let mut total = self.periods[0].time;
        for m in 1..=moves {
            let p = self.periods[self.period_for_move(m)];
            total = total.saturating_add(p.bonus.amount());
            if m < moves
                && let Some(next) = self.period_starting_after(m)
            {
                total = total.saturating_add(self.periods[next].time);
            }
        }
        total
    }
}

/// A complete time control: one [`PlayerControl`] per colour (they differ in Armageddon).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    pub white: PlayerControl,
    pub black: PlayerControl,
}

impl TimeControl {
    /// The same control for both players.
    pub fn symmetric(control: PlayerControl) -> Self {
        TimeControl {
            white: control.clone(),
            black: control,
        }
    }

    /// `base` for the whole game with a Fischer increment (e.g. 90 min + 30 s).
    pub fn fischer(base: Millis, increment: Millis) -> Result<Self, TimeControlError> {
        let bonus = if increment == 0 {
            MoveBonus::None
        } else {
            MoveBonus::Increment(increment)
        };
        Ok(Self::symmetric(PlayerControl::new(vec![
            Period::sudden_death(base, bonus),
        ])?))
    }

    /// A control that never runs out in practice (10^12 ms, about 31 years), for replaying
    /// games whose control is unknown.
    pub fn unlimited() -> Self {
        Self::symmetric(PlayerControl {
            periods: vec![Period::sudden_death(1_000_000_000_000, MoveBonus::None)],
        })
    }

    /// Armageddon-style: different single periods per colour.
    pub fn per_colour(white: PlayerControl, black: PlayerControl) -> Self {
        TimeControl { white, black }
    }

    /// The control of one colour.
    pub fn of(&self, color: Side) -> &PlayerControl {
        match color {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    /// Whether both players have the same control.
    pub fn is_symmetric(&self) -> bool {
        self.white == self.black
    }

    /// Parses TRF26 record 222 (fide-rules-2026 §1.3.2): `d[:d]` or `Wd[:d]-Bd[:d]`.
    /// The value may be given with or without the leading `222 `.
    pub fn parse_trf222(text: &str) -> Result<Self, TimeControlError> {
        let t = text.trim();
        let t = match t.strip_prefix("222") {
            Some(rest) if rest.starts_with(char::is_whitespace) => rest.trim_start(),
            _ => t,
        };
        if let Some(rest) = t.strip_prefix('W') {
            let dash = rest.find("-B").ok_or_else(|| TimeControlError::Syntax {
                text: text.to_string(),
                at: 0,
                why: "per-colour form needs W...-B...",
            })?;
            let white = parse_descriptors(&rest[..dash], text)?;
            let black = parse_descriptors(&rest[dash + 2..], text)?;
            return Ok(TimeControl { white, black });
        }
        Ok(Self::symmetric(parse_descriptors(t, text)?))
    }

    /// Writes TRF26 record 222's value (without the `222 ` prefix).
    pub fn to_trf222(&self) -> Result<String, TimeControlError> {
        if self.is_symmetric() {
            write_descriptors(&self.white, "TRF26 record 222")
        } else {
            Ok(format!(
                "W{}-B{}",
                write_descriptors(&self.white, "TRF26 record 222")?,
                write_descriptors(&self.black, "TRF26 record 222")?
            ))
        }
    }

    /// Lenient reading of the free text some tournaments put in the PGN `TimeControl` tag
    /// (e.g. `15 min/game + 10 sec/move`, `15 min. + 10 s. per move`,
    /// `90 minutes + 30 seconds increment`). Understands only "base + increment"; anything
    /// else is `None`.
    pub fn parse_free_text(text: &str) -> Option<Self> {
        let lower = text.to_ascii_lowercase();
        let mut base: Option<u64> = None;
        let mut inc: Option<u64> = None;
        let bytes = lower.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let n: u64 = lower[start..i].parse().ok()?;
                let rest = lower[i..].trim_start();
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic() || *c == '\'' || *c == '"')
                    .collect();
                if word.starts_with("min") || word == "m" || word == "'" {
                    if base.is_some() {
                        return None;
                    }
                    base = Some(n.checked_mul(60_000)?);
                } else if word.starts_with("sec") || word == "s" || word == "\"" {
                    if inc.is_some() {
                        return None;
                    }
                    inc = Some(n.checked_mul(1000)?);
                }
            } else {
                i += 1;
            }
        }
        TimeControl::fischer(base?, inc.unwrap_or(0)).ok()
    }
}

/// The PGN `TimeControl` tag value (PGN standard §9.6.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControlTag {
    /// `?`: unknown.
    Unknown,
    /// `-`: no time control.
    Untimed,
    /// A timed control.
    Timed(TimeControl),
}

impl TimeControlTag {
    /// Parses a PGN `TimeControl` value, e.g. `40/7200:1800+30`, `5400+30`, `-`, `?`.
    /// Sandclock (`*180`) is rejected (not a FIDE control).
    pub fn parse(text: &str) -> Result<Self, TimeControlError> {
        let t = text.trim();
        match t {
            "?" | "" => Ok(TimeControlTag::Unknown),
            "-" => Ok(TimeControlTag::Untimed),
            _ if t.starts_with('*') => Err(TimeControlError::NotRepresentable {
                what: "a sandclock control",
                format: "this crate",
            }),
            _ => Ok(TimeControlTag::Timed(TimeControl::symmetric(
                parse_descriptors(t, text)?,
            ))),
        }
    }

    /// Writes the tag value back.
    pub fn to_pgn(&self) -> Result<String, TimeControlError> {
        match self {
            TimeControlTag::Unknown => Ok("?".into()),
            TimeControlTag::Untimed => Ok("-".into()),
            TimeControlTag::Timed(tc) if tc.is_symmetric() => {
                write_descriptors(&tc.white, "a PGN TimeControl tag")
            }
            TimeControlTag::Timed(_) => Err(TimeControlError::NotRepresentable {
                what: "different times per colour",
                format: "a PGN TimeControl tag",
            }),
        }
    }
}

fn parse_descriptors(part: &str, whole: &str) -> Result<PlayerControl, TimeControlError> {
    let syntax = |at: usize, why: &'static str| TimeControlError::Syntax {
        text: whole.to_string(),
        at,
        why,
    };
    let offset = whole.find(part).unwrap_or(0);
    let mut periods = Vec::new();
    let mut pos = 0usize;
    for d in part.split(':') {
        let at = offset + pos;
        pos += d.len() + 1;
        if d.is_empty() {
            return Err(syntax(at, "empty descriptor"));
        }
        let (moves, rest) = match d.split_once('/') {
            Some((m, r)) => (Some(parse_num(m, whole, at)?), r),
            None => (None, d),
        };
        let (secs, inc) = match rest.split_once('+') {
            Some((s, i)) => (parse_num(s, whole, at)?, parse_num(i, whole, at)?),
            None => (parse_num(rest, whole, at)?, 0),
        };
        let moves = match moves {
            Some(m) => Some(u32::try_from(m).map_err(|_| TimeControlError::Overflow {
                text: whole.to_string(),
            })?),
            None => None,
        };
        let ms = |s: u64| {
            s.checked_mul(1000).ok_or(TimeControlError::Overflow {
                text: whole.to_string(),
            })
        };
        let bonus = if inc == 0 {
            MoveBonus::None
        } else {
            MoveBonus::Increment(ms(inc)?)
        };
        periods.push(Period {
            moves,
            time: ms(secs)?,
            bonus,
        });
    }
    PlayerControl::new(periods)
}

fn parse_num(s: &str, whole: &str, at: usize) -> Result<u64, TimeControlError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TimeControlError::Syntax {
            text: whole.to_string(),
            at,
            why: "expected a whole number of moves or seconds",
        });
    }
    s.parse().map_err(|_| TimeControlError::Overflow {
        text: whole.to_string(),
    })
}

fn write_descriptors(pc: &PlayerControl, format: &'static str) -> Result<String, TimeControlError> {
    let mut out = String::new();
    for (i, p) in pc.periods.iter().enumerate() {
        if i > 0 {
            out.push(':');
        }
        if p.time % 1000 != 0 || p.bonus.amount() % 1000 != 0 {
            return Err(TimeControlError::NotRepresentable {
                what: "a fraction of a second",
                format,
            });
        }
        if let Some(m) = p.moves {
            let _ = write!(out, "{m}/");
        }
        let _ = write!(out, "{}", p.time / 1000);
        match p.bonus {
            MoveBonus::None => {}
            MoveBonus::Increment(x) => {
                let _ = write!(out, "+{}", x / 1000);
            }
            MoveBonus::Bronstein(_) | MoveBonus::SimpleDelay(_) => {
                return Err(TimeControlError::NotRepresentable {
                    what: "a delay (Bronstein or simple)",
                    format,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_candidates_2024_control_round_trips() {
        // 40 moves in 120 min, then 30 min with +30 s from move 41 (Candidates 2024 tag).
        let tag = TimeControlTag::parse("40/7200:1800+30").unwrap();
        let TimeControlTag::Timed(tc) = &tag else {
            panic!("timed")
        };
        let p = tc.white.periods();
        assert_eq!(p[0], Period::moves_in(40, 7_200_000, MoveBonus::None));
        assert_eq!(
            p[1],
            Period::sudden_death(1_800_000, MoveBonus::Increment(30_000))
        );
        assert_eq!(tag.to_pgn().unwrap(), "40/7200:1800+30");
        assert_eq!(tc.white.period_for_move(40), 0);
        assert_eq!(tc.white.period_for_move(41), 1);
        assert_eq!(tc.white.period_starting_after(40), Some(1));
        assert_eq!(tc.white.period_starting_after(41), None);
    }

    #[test]
    fn pgn_unknown_untimed_and_errors() {
        assert_eq!(TimeControlTag::parse("?").unwrap(), TimeControlTag::Unknown);
        assert_eq!(TimeControlTag::parse("-").unwrap(), TimeControlTag::Untimed);
        assert!(TimeControlTag::parse("*180").is_err());
        assert!(TimeControlTag::parse("40/").is_err());
        assert!(TimeControlTag::parse("0/60").is_err());
        assert!(TimeControlTag::parse("40/7200:60/3600:900").is_ok());
        assert!(TimeControlTag::parse("900:40/3600").is_err()); // sudden death not last
        assert!(TimeControlTag::parse("abc").is_err());
        assert!(TimeControlTag::parse("99999999999999999999").is_err());
    }

    #[test]
    fn trf222_examples_from_fide_rules_1_3_2() {
        let a = TimeControl::parse_trf222("5400+30").unwrap();
        assert_eq!(a, TimeControl::fischer(5_400_000, 30_000).unwrap());
        assert_eq!(a.to_trf222().unwrap(), "5400+30");
        // a value starting with 222 is not the record number
        assert_eq!(
            TimeControl::parse_trf222("2220+5").unwrap(),
            TimeControl::fischer(2_220_000, 5_000).unwrap()
        );
        let b = TimeControl::parse_trf222("222 40/6000+30:900+30").unwrap();
        assert_eq!(
            b.white.periods()[0],
            Period::moves_in(40, 6_000_000, MoveBonus::Increment(30_000))
        );
        assert_eq!(b.to_trf222().unwrap(), "40/6000+30:900+30");
        let arm = TimeControl::parse_trf222("W300-B240").unwrap();
        assert!(!arm.is_symmetric());
        assert_eq!(arm.black.periods()[0].time, 240_000);
        assert_eq!(arm.to_trf222().unwrap(), "W300-B240");
        assert!(TimeControlTag::Timed(arm).to_pgn().is_err());
    }

    #[test]
    fn free_text_tags_of_the_fixtures() {
        let want = TimeControl::fischer(900_000, 10_000).unwrap();
        for t in [
            "15 min/game + 10 sec/move",
            "15 min. + 10 s. per move",
            "15 minutes + 10 seconds increment per move, starting from move 1",
        ] {
            assert_eq!(TimeControl::parse_free_text(t).as_ref(), Some(&want), "{t}");
        }
        assert_eq!(TimeControl::parse_free_text("whatever"), None);
    }

    #[test]
    fn repeating_last_counted_period() {
        let pc = PlayerControl::new(vec![
            Period::moves_in(40, 7_200_000, MoveBonus::None),
            Period::moves_in(20, 3_600_000, MoveBonus::None),
        ])
        .unwrap();
        assert_eq!(pc.period_starting_after(40), Some(1));
        assert_eq!(pc.period_starting_after(60), Some(1));
        assert_eq!(pc.period_starting_after(80), Some(1));
        assert_eq!(pc.period_starting_after(70), None);
        assert!(!pc.is_final_period_for_move(100));
    }

    #[test]
    fn delays_are_not_representable_in_pgn() {
        let tc = TimeControl::symmetric(
            PlayerControl::new(vec![Period::sudden_death(
                300_000,
                MoveBonus::SimpleDelay(5_000),
            )])
            .unwrap(),
        );
        assert!(tc.to_trf222().is_err());
    }
}
