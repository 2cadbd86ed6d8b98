//! The authoritative chess clock (Laws of Chess 2023, Article 6): a pure state machine driven by
//! events that carry their own instant (a monotonic millisecond count chosen by the caller).
//! No wall clock is ever read.
//!
//! * 6.3.1 increment (Fischer), 6.3.2 delay (simple / Bronstein), several periods with move
//!   counts: the next period's time is added when the move completing a period is pressed.
//! * 6.2.1 a move is completed by pressing the clock ([`ChessClock::press`]).
//! * 6.12 / 6.10 arbiter pause, resume and time adjustments ([`ChessClock::pause`],
//!   [`ChessClock::resume`], [`ChessClock::adjust`]).
//! * 6.9 flag fall: [`ChessClock::flag_instant`] says exactly when the side to move runs out, so
//!   a service can schedule a check; the clock records the fall at that exact instant.
//!
//! Remaining times are never negative: they stop at zero when a flag falls.

use crate::side::Side;
use crate::time_control::{Millis, MoveBonus, TimeControl};
use serde::{Deserialize, Serialize};

/// A monotonic instant in milliseconds, supplied by the caller with every event.
pub type Instant = u64;

/// When a Fischer increment is credited. See ADR `clock-001`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum IncrementCredit {
    /// The increment of a move is credited as the player's clock starts for that move: both
    /// clocks show base + increment at the start (what FIDE-approved electronic clocks such as
    /// the DGT 3000 do, and what the DGT fixture's readings show). Default.
    #[default]
    AtStartOfMove,
    /// The increment of a move is credited when that move is completed (pressed).
    AtPress,
}

/// Errors of the clock itself (the game layer turns them into rejections).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ClockError {
    #[error("the clock has not been started")]
    NotStarted,
    #[error("the clock has already been started")]
    AlreadyStarted,
    #[error("the clock is stopped for good")]
    Stopped,
    #[error("the clock is paused")]
    Paused,
    #[error("the clock is not paused")]
    NotPaused,
    #[error("it is {expected:?}'s clock that runs, not {got:?}'s")]
    WrongSide { expected: Side, got: Side },
    #[error("instant {got} ms is before the last event at {last} ms")]
    TimeWentBackwards { last: Instant, got: Instant },
    #[error("{side:?}'s flag fell at {at} ms")]
    FlagFallen { side: Side, at: Instant },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Run {
    NotStarted,
    Running { side: Side, since: Instant },
    Paused { side: Side },
    Stopped,
}

/// What a completed press did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressReport {
    /// Who pressed.
    pub side: Side,
    /// Which of that player's moves it completed (1-based).
    pub move_number: u32,
    /// Time used on this move.
    pub used: Millis,
    /// Bonus credited by this press (increment, Bronstein give-back).
    pub bonus: Millis,
    /// Everything this press credited: bonus plus the time of a period that starts.
    pub credited: Millis,
    /// If this move completed a period: the index of the period that starts and its time added.
    pub period_started: Option<(usize, Millis)>,
    /// The presser's remaining time after the press.
    pub remaining_after: Millis,
}

/// The clock: two remaining times, move counters, which side runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessClock {
    control: TimeControl,
    credit: IncrementCredit,
    run: Run,
    remaining: [Millis; 2],
    moves_done: [u32; 2],
    /// Simple delay still to run before the main time of the running side counts down.
    delay_left: Millis,
    /// Time used so far on the current move by the running side (for Bronstein).
    used_this_move: Millis,
    last_instant: Instant,
    flag: Option<(Side, Instant)>,
}

fn idx(c: Side) -> usize {
    c.index()
}

impl ChessClock {
    /// A clock set for `control`, not started.
    pub fn new(control: TimeControl, credit: IncrementCredit) -> Self {
        let remaining = [
            control.white.periods()[0].time,
            control.black.periods()[0].time,
        ];
        ChessClock {
            control,
            credit,
            run: Run::NotStarted,
            remaining,
            moves_done: [0, 0],
            delay_left: 0,
            used_this_move: 0,
            last_instant: 0,
            flag: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The increment convention.
    pub fn credit(&self) -> IncrementCredit {
        self.credit
    }

    fn bonus_for_move(&self, side: Side, move_number: u32) -> MoveBonus {
        let pc = self.control.of(side);
        pc.periods()[pc.period_for_move(move_number)].bonus
    }

    fn increment_of(&self, side: Side, move_number: u32) -> Millis {
        match self.bonus_for_move(side, move_number) {
            MoveBonus::Increment(x) => x,
            _ => 0,
        }
    }

    fn check_time(&mut self, at: Instant) -> Result<(), ClockError> {
        if at < self.last_instant {
            return Err(ClockError::TimeWentBackwards {
                last: self.last_instant,
                got: at,
            });
        }
        Ok(())
    }

    /// Starts the clock of `first` (White normally, Law 6.5) at `at`.
    pub fn start(&mut self, first: Side, at: Instant) -> Result<(), ClockError> {
        self.check_time(at)?;
        if self.run != Run::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        if self.credit == IncrementCredit::AtStartOfMove {
            for c in [Side::White, Side::Black] {
                self.remaining[idx(c)] += self.increment_of(c, 1);
            }
        }
        self.begin_move(first, at);
        self.last_instant = at;
        Ok(())
    }

    fn begin_move(&mut self, side: Side, at: Instant) {
        self.run = Run::Running { side, since: at };
        self.used_this_move = 0;
        self.delay_left = match self.bonus_for_move(side, self.moves_done[idx(side)] + 1) {
            MoveBonus::SimpleDelay(d) => d,
            _ => 0,
        };
    }

    /// The instant at which the running side's flag falls if nothing happens before, or `None`
    /// when no clock runs. A service schedules a check at this instant.
    pub fn flag_instant(&self) -> Option<Instant> {
        match self.run {
            Run::Running { side, since } => Some(
                since
                    .saturating_add(self.delay_left)
                    .saturating_add(self.remaining[idx(side)]),
            ),
            _ => None,
        }
    }

    /// The flag that has fallen, if any, with the exact instant it fell.
    pub fn fallen_flag(&self) -> Option<(Side, Instant)> {
        self.flag
    }

    /// The side whose clock runs (or would run after a pause).
    pub fn side_to_move(&self) -> Option<Side> {
        match self.run {
            Run::Running { side, .. } | Run::Paused { side } => Some(side),
            _ => None,
        }
    }

    /// Whether the clock is paused by the arbiter.
    pub fn is_paused(&self) -> bool {
        matches!(self.run, Run::Paused { .. })
    }

    /// Whether the clock has been started.
    pub fn is_started(&self) -> bool {
        self.run != Run::NotStarted
    }

    /// Moves completed by a side.
    pub fn moves_completed(&self, side: Side) -> u32 {
        self.moves_done[idx(side)]
    }

    /// The index of the period the side is playing in (for its next move).
    pub fn period_index(&self, side: Side) -> usize {
        self.control
            .of(side)
            .period_for_move(self.moves_done[idx(side)] + 1)
    }

    /// Whether the side's next move is in a final "all remaining moves" period.
    pub fn in_final_period(&self, side: Side) -> bool {
        self.control
            .of(side)
            .is_final_period_for_move(self.moves_done[idx(side)] + 1)
    }

    /// Time used so far on the current move by the side to move, up to the last event.
    pub fn used_on_current_move(&self) -> Millis {
        self.used_this_move
    }

    /// The instant of the last event the clock saw.
    pub fn last_instant(&self) -> Instant {
        self.last_instant
    }

    /// Remaining time of `side` as it would read at `at` (≥ the last event), without changing
    /// anything. Never negative.
    pub fn remaining_at(&self, side: Side, at: Instant) -> Millis {
        let rem = self.remaining[idx(side)];
        match self.run {
            Run::Running { side: s, since } if s == side => {
                let elapsed = at.saturating_sub(since);
                rem.saturating_sub(elapsed.saturating_sub(self.delay_left))
            }
            _ => rem,
        }
    }

    /// Both remaining times at `at`, White first.
    pub fn remaining_both_at(&self, at: Instant) -> [Millis; 2] {
        [
            self.remaining_at(Side::White, at),
            self.remaining_at(Side::Black, at),
        ]
    }

    /// Brings the running side's state to `at`; records a flag fall that happened at or before
    /// `at` (at its exact instant) and returns it.
    pub fn advance_to(&mut self, at: Instant) -> Result<Option<(Side, Instant)>, ClockError> {
        self.check_time(at)?;
        let Run::Running { side, since } = self.run else {
            self.last_instant = at;
            return Ok(None);
        };
        let fi = self.flag_instant().unwrap_or(at);
        let elapsed = at - since;
        let i = idx(side);
        if at >= fi {
            self.used_this_move += fi - since;
            self.remaining[i] = 0;
            self.delay_left = 0;
            self.flag = Some((side, fi));
            self.run = Run::Stopped;
            self.last_instant = at;
            return Ok(Some((side, fi)));
        }
        let from_delay = elapsed.min(self.delay_left);
        self.delay_left -= from_delay;
        self.remaining[i] -= elapsed - from_delay;
        self.used_this_move += elapsed;
        self.run = Run::Running { side, since: at };
        self.last_instant = at;
        Ok(None)
    }

    /// `side` completes a move by pressing the clock at `at` (Law 6.2.1). Applies the bonus and
    /// the next period's time exactly per the control, then starts the opponent's clock.
    pub fn press(&mut self, side: Side, at: Instant) -> Result<PressReport, ClockError> {
        self.check_time(at)?;
        match self.run {
            Run::NotStarted => return Err(ClockError::NotStarted),
            Run::Stopped => {
                return Err(match self.flag {
                    Some((s, t)) => ClockError::FlagFallen { side: s, at: t },
                    None => ClockError::Stopped,
                });
            }
            Run::Paused { .. } => return Err(ClockError::Paused),
            Run::Running { side: s, .. } if s != side => {
                return Err(ClockError::WrongSide {
                    expected: s,
                    got: side,
                });
            }
            Run::Running { .. } => {}
        }
        if let Some((s, t)) = self.advance_to(at)? {
            return Err(ClockError::FlagFallen { side: s, at: t });
        }
        let i = idx(side);
        let used = self.used_this_move;
        let (bonus, period_started, credited) = self.press_credit(side, used);
        self.moves_done[i] += 1;
        let n = self.moves_done[i];
        self.remaining[i] = self.remaining[i].saturating_add(credited);
        let remaining_after = self.remaining[i];
        self.begin_move(side.other(), at);
        Ok(PressReport {
            side,
            move_number: n,
            used,
            bonus,
            credited,
            period_started,
            remaining_after,
        })
    }

    /// What a press by `side` after using `used` ms on its next move would credit:
    /// (bonus, period that starts with its time, total credited). The bonus is the Fischer
    /// increment (at press, or the next move's when credited at the start of a move) or the
    /// Bronstein give-back; a period completed by this move adds the next period's time.
    pub fn press_credit(
        &self,
        side: Side,
        used: Millis,
    ) -> (Millis, Option<(usize, Millis)>, Millis) {
        let n = self.moves_done[idx(side)] + 1;
        let mut bonus = match self.bonus_for_move(side, n) {
            MoveBonus::Increment(x) => match self.credit {
                IncrementCredit::AtPress => x,
                IncrementCredit::AtStartOfMove => 0,
            },
            MoveBonus::Bronstein(d) => used.min(d),
            MoveBonus::SimpleDelay(_) | MoveBonus::None => 0,
        };
        if self.credit == IncrementCredit::AtStartOfMove {
            bonus = bonus.saturating_add(self.increment_of(side, n + 1));
        }
        let pc = self.control.of(side);
        let period_started = pc
            .period_starting_after(n)
            .map(|p| (p, pc.periods()[p].time));
        let credited = bonus.saturating_add(period_started.map_or(0, |(_, t)| t));
        (bonus, period_started, credited)
    }

    /// Guidelines III.4: from now on both players receive `increment` with every move (the
    /// control's periods keep their times). Credited from the next press on.
    pub fn introduce_increment(
        &mut self,
        increment: Millis,
        at: Instant,
    ) -> Result<(), ClockError> {
        self.check_time(at)?;
        if self.run == Run::Stopped {
            return Err(ClockError::Stopped);
        }
        let bonus = MoveBonus::Increment(increment);
        self.control = TimeControl {
            white: self.control.white.with_bonus(bonus),
            black: self.control.black.with_bonus(bonus),
        };
        Ok(())
    }

    /// Arbiter pause (Law 6.12.1).
    pub fn pause(&mut self, at: Instant) -> Result<Option<(Side, Instant)>, ClockError> {
        self.check_time(at)?;
        match self.run {
            Run::Running { side, .. } => {
                if let Some(f) = self.advance_to(at)? {
                    return Ok(Some(f));
                }
                self.run = Run::Paused { side };
                Ok(None)
            }
            Run::Paused { .. } => Err(ClockError::Paused),
            Run::NotStarted => Err(ClockError::NotStarted),
            Run::Stopped => Err(ClockError::Stopped),
        }
    }

    /// Arbiter restarts the clock (Law 6.12.1).
    pub fn resume(&mut self, at: Instant) -> Result<(), ClockError> {
        self.check_time(at)?;
        match self.run {
            Run::Paused { side } => {
                self.run = Run::Running { side, since: at };
                self.last_instant = at;
                Ok(())
            }
            Run::Stopped => Err(ClockError::Stopped),
            Run::NotStarted => Err(ClockError::NotStarted),
            Run::Running { .. } => Err(ClockError::NotPaused),
        }
    }

    /// Arbiter time adjustment at `at`: adds (or, if negative, removes) `delta_ms` to `side`'s
    /// remaining time (penalties of 7.5.5 / 9.5.3, corrections of 6.10.2). Never below zero; a
    /// running clock set to zero has its flag fall at `at`.
    pub fn adjust(
        &mut self,
        side: Side,
        delta_ms: i64,
        at: Instant,
    ) -> Result<Option<(Side, Instant)>, ClockError> {
        self.check_time(at)?;
        if self.run == Run::Stopped {
            return Err(ClockError::Stopped);
        }
        if let Some(f) = self.advance_to(at)? {
            return Ok(Some(f));
        }
        let i = idx(side);
        self.remaining[i] = if delta_ms >= 0 {
            self.remaining[i].saturating_add(delta_ms.unsigned_abs())
        } else {
            self.remaining[i].saturating_sub(delta_ms.unsigned_abs())
        };
        // a clock adjusted to zero while running: flag falls now (if no delay remains)
        self.advance_to(at)
    }

    /// Stops the clock for good (the game is over). Returns a flag fall that happened before.
    pub fn stop(&mut self, at: Instant) -> Result<Option<(Side, Instant)>, ClockError> {
        self.check_time(at)?;
        let f = self.advance_to(at)?;
        self.run = Run::Stopped;
        Ok(f)
    }

    /// Law 7.5.1 reinstatement of an earlier position: `undone[i]` presses of each side (White
    /// first) are taken back: their move counters are decremented and the time those presses
    /// credited (`credited[i]`: bonuses and period times) is withdrawn; time actually used stays
    /// used (ADR `clock-002`). The clock then runs (or stays paused) for `to_move`.
    pub fn undo_presses(
        &mut self,
        undone: [u32; 2],
        credited: [Millis; 2],
        to_move: Side,
        at: Instant,
    ) -> Result<(), ClockError> {
        if let Some((s, t)) = self.advance_to(at)? {
            return Err(ClockError::FlagFallen { side: s, at: t });
        }
        for i in 0..2 {
            self.moves_done[i] = self.moves_done[i].saturating_sub(undone[i]);
            self.remaining[i] = self.remaining[i].saturating_sub(credited[i]);
        }
        let paused = self.is_paused();
        self.begin_move(to_move, at);
        if paused {
            self.run = Run::Paused { side: to_move };
        }
        // withdrawing credit may have exhausted the time of the side to move
        self.advance_to(at).map(|_| ())
    }

    /// For replaying recorded clocks: the time `side` used on its next move so that, after the
    /// press, its clock reads `reading`. Call it when `side`'s clock has just started (right
    /// after the opponent's press). Negative when the reading is higher than the control allows
    /// (a device glitch or a wrong control). With a delay, a reading that shows no loss of
    /// main time means "within the delay": 0 is returned.
    ///
    /// Any `u64` reading is accepted: the arithmetic is done in `i128` and the result
    /// saturates at the bounds of `i64` (no wrap for readings past `i64::MAX`).
    pub fn elapsed_for_reading(&self, side: Side, reading: Millis) -> i64 {
        let i = idx(side);
        let n = self.moves_done[i].saturating_add(1);
        let rem = i128::from(self.remaining[i]);
        let reading = i128::from(reading);
        let elapsed = match self.bonus_for_move(side, n) {
            MoveBonus::Increment(_) | MoveBonus::None => {
                // the credit of these modes does not depend on the time used
                let (_, _, credited) = self.press_credit(side, 0);
                rem + i128::from(credited) - reading
            }
            MoveBonus::SimpleDelay(d) | MoveBonus::Bronstein(d) => {
                // reading = rem + add − max(0, used − d) for both modes
                let (_, _, add) = self.press_credit(side, 0);
                let full = rem + i128::from(add);
                if reading >= full {
                    full - reading
                } else {
                    full + i128::from(d) - reading
                }
            }
        };
        i64::try_from(elapsed).unwrap_or(if elapsed < 0 { i64::MIN } else { i64::MAX })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::{Period, PlayerControl, TimeControlTag};

    fn tc(s: &str) -> TimeControl {
        match TimeControlTag::parse(s).unwrap() {
            TimeControlTag::Timed(t) => t,
            _ => panic!(),
        }
    }

    #[test]
    fn fischer_at_press_adds_increment_after_each_move() {
        let mut c = ChessClock::new(tc("300+2"), IncrementCredit::AtPress);
        c.start(Side::White, 1_000).unwrap();
        assert_eq!(c.flag_instant(), Some(301_000));
        let r = c.press(Side::White, 11_000).unwrap();
        assert_eq!(r.used, 10_000);
        assert_eq!(r.remaining_after, 292_000);
        assert_eq!(c.remaining_at(Side::Black, 15_000), 296_000);
        assert_eq!(c.flag_instant(), Some(311_000));
    }

    #[test]
    fn fischer_at_start_of_move_shows_base_plus_increment() {
        let mut c = ChessClock::new(tc("900+10"), IncrementCredit::AtStartOfMove);
        c.start(Side::White, 0).unwrap();
        assert_eq!(c.remaining_both_at(0), [910_000, 910_000]);
        let r = c.press(Side::White, 1_000).unwrap();
        // DGT fixture, game 1: 1. e4 {[%clk 00:15:19]}
        assert_eq!(r.remaining_after, 919_000);
    }

    #[test]
    fn period_transition_adds_time_on_the_40th_press() {
        let mut c = ChessClock::new(tc("40/7200:1800+30"), IncrementCredit::AtPress);
        c.start(Side::White, 0).unwrap();
        let mut t = 0;
        for n in 1..=40u32 {
            t += 1_000;
            let r = c.press(Side::White, t).unwrap();
            assert_eq!(r.bonus, 0, "no increment in the first period");
            if n == 40 {
                assert_eq!(r.period_started, Some((1, 1_800_000)));
                assert_eq!(r.remaining_after, 7_200_000 - 40_000 + 1_800_000);
            } else {
                assert_eq!(r.period_started, None);
            }
            t += 1_000;
            c.press(Side::Black, t).unwrap();
        }
        t += 1_000;
        let r = c.press(Side::White, t).unwrap();
        assert_eq!(r.bonus, 30_000, "increment from move 41");
    }

    #[test]
    fn simple_delay_counts_down_only_after_the_delay() {
        let pc = PlayerControl::new(vec![Period::sudden_death(
            60_000,
            MoveBonus::SimpleDelay(5_000),
        )])
        .unwrap();
        let mut c = ChessClock::new(TimeControl::symmetric(pc), IncrementCredit::AtPress);
        c.start(Side::White, 0).unwrap();
        assert_eq!(c.flag_instant(), Some(65_000));
        assert_eq!(c.remaining_at(Side::White, 4_000), 60_000);
        let r = c.press(Side::White, 4_000).unwrap();
        assert_eq!(r.remaining_after, 60_000);
        let r = c.press(Side::Black, 12_000).unwrap();
        assert_eq!(r.remaining_after, 57_000);
        // pause in the middle of the delay keeps the rest of the delay
        c.pause(14_000).unwrap();
        c.resume(100_000).unwrap();
        assert_eq!(c.flag_instant(), Some(100_000 + 3_000 + 60_000));
    }

    #[test]
    fn bronstein_gives_back_at_most_the_delay() {
        let pc = PlayerControl::new(vec![Period::sudden_death(
            60_000,
            MoveBonus::Bronstein(5_000),
        )])
        .unwrap();
        let mut c = ChessClock::new(TimeControl::symmetric(pc), IncrementCredit::AtPress);
        c.start(Side::White, 0).unwrap();
        assert_eq!(c.flag_instant(), Some(60_000));
        assert_eq!(c.press(Side::White, 3_000).unwrap().remaining_after, 60_000);
        assert_eq!(
            c.press(Side::Black, 13_000).unwrap().remaining_after,
            55_000
        );
    }

    #[test]
    fn flag_falls_at_the_exact_instant() {
        let mut c = ChessClock::new(tc("60"), IncrementCredit::AtPress);
        c.start(Side::White, 500).unwrap();
        assert_eq!(c.flag_instant(), Some(60_500));
        assert_eq!(
            c.press(Side::White, 70_000),
            Err(ClockError::FlagFallen {
                side: Side::White,
                at: 60_500
            })
        );
        assert_eq!(c.remaining_at(Side::White, 80_000), 0);
        assert_eq!(c.fallen_flag(), Some((Side::White, 60_500)));
    }

    #[test]
    fn pause_resume_adjust_and_backwards_time() {
        let mut c = ChessClock::new(tc("600"), IncrementCredit::AtPress);
        assert_eq!(c.press(Side::White, 0), Err(ClockError::NotStarted));
        c.start(Side::White, 0).unwrap();
        assert_eq!(c.start(Side::White, 0), Err(ClockError::AlreadyStarted));
        c.pause(10_000).unwrap();
        assert_eq!(c.flag_instant(), None);
        assert_eq!(c.press(Side::White, 20_000), Err(ClockError::Paused));
        c.adjust(Side::Black, 120_000, 20_000).unwrap();
        c.resume(30_000).unwrap();
        assert_eq!(c.remaining_at(Side::White, 30_000), 590_000);
        assert_eq!(c.remaining_at(Side::Black, 30_000), 720_000);
        assert!(matches!(
            c.press(Side::White, 29_000),
            Err(ClockError::TimeWentBackwards { .. })
        ));
        assert!(matches!(
            c.press(Side::Black, 31_000),
            Err(ClockError::WrongSide { .. })
        ));
        // arbiter removes all the time of the running side: flag now
        assert_eq!(
            c.adjust(Side::White, -10_000_000, 40_000).unwrap(),
            Some((Side::White, 40_000))
        );
    }

    #[test]
    fn armageddon_per_colour_times() {
        let arm = TimeControl::parse_trf222("W300-B240").unwrap();
        let c = ChessClock::new(arm, IncrementCredit::AtPress);
        assert_eq!(c.remaining_both_at(0), [300_000, 240_000]);
    }

    #[test]
    fn elapsed_for_reading_inverts_press() {
        let mut c = ChessClock::new(tc("40/7200:1800+30"), IncrementCredit::AtStartOfMove);
        c.start(Side::White, 0).unwrap();
        let e = c.elapsed_for_reading(Side::White, 7_196_000);
        assert_eq!(e, 4_000);
        c.press(Side::White, 4_000).unwrap();
        assert_eq!(c.remaining_at(Side::White, 4_000), 7_196_000);
    }

    #[test]
    fn elapsed_for_reading_saturates_on_any_reading() {
        let mut c = ChessClock::new(tc("7200+30"), IncrementCredit::AtStartOfMove);
        c.start(Side::White, 0).unwrap();
        assert_eq!(c.elapsed_for_reading(Side::White, u64::MAX), i64::MIN);
        assert!(c.elapsed_for_reading(Side::White, i64::MAX as u64 + 1) < 0);
        assert_eq!(
            c.elapsed_for_reading(Side::White, 0),
            7_200_000 + 30_000 + 30_000
        );
    }

    #[test]
    fn elapsed_for_reading_with_delays() {
        for bonus in [MoveBonus::SimpleDelay(5_000), MoveBonus::Bronstein(5_000)] {
            let pc = PlayerControl::new(vec![Period::sudden_death(60_000, bonus)]).unwrap();
            let mut c = ChessClock::new(TimeControl::symmetric(pc), IncrementCredit::AtPress);
            c.start(Side::White, 0).unwrap();
            // within the delay: no main time lost, elapsed unknown -> 0
            assert_eq!(c.elapsed_for_reading(Side::White, 60_000), 0);
            // 3 s of main time lost = 8 s used
            assert_eq!(c.elapsed_for_reading(Side::White, 57_000), 8_000);
            assert_eq!(c.press(Side::White, 8_000).unwrap().remaining_after, 57_000);
            // a reading above the allowance is negative (device glitch)
            assert!(c.elapsed_for_reading(Side::Black, 61_000) < 0);
        }
    }
}
