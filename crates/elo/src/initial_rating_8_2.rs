//! B.02 §8.2 (with §7.1.4): the first rating of an unrated player, and the 2014 method.
//!
//! 2024 text:
//! > 8.2.1 If an unrated player scores zero in their first event this score is disregarded.
//! > Otherwise, their rating is calculated using all their results as in 7.1.4.
//! > 8.2.2 Ra is the average rating of the player's rated opponents plus two hypothetical
//! > opponents rated 1800. The result against these two hypothetical opponents is considered
//! > as a draw.
//! > 8.2.3 Ru = Ra + dp. Ru is rounded to the nearest whole number. The maximum initial
//! > rating is 2200.
//! > 8.2.4 If an unrated player receives a published rating before a particular tournament in
//! > which they have played is rated, then they are rated as a rated player with their current
//! > rating, but in the rating of their opponents they are counted as an unrated player.
//!
//! §7.1.4: published only when based on at least 5 games against rated opponents, pooled over
//! consecutive rating periods of at most 26 months, and only if at least 1400.
//!
//! 2014 (seed §8.21–8.3, §7.14, Swiss/team events): Rc = average rating of the rated
//! opponents; at 50 % Ru = Ra; above 50 % Ru = Ra + 20 per half point above 50 %; below 50 %
//! Ru = Rc + dp; rounded, .5 up; published from 5 games, floor 1000, no maximum. Round
//! robins (§8.21 b, §8.25) use Ra = Rar − dpa × n/(n + 1): [`round_robin_ru_2014`].
//!
//! Rounding of p and of Ru: ADR elo-003.

use crate::calendar::ListMonth;
use crate::conversion_tables_8_1::{dp_from_p, percentage_hundredths};
use crate::edition::{Edition, Rules};
use crate::numbers::{GameScore, Hundredths, Rating, div_round_half_up};
use serde::{Deserialize, Serialize};

/// The two hypothetical drawn opponents' rating (2024).
pub const HYPOTHETICAL_OPPONENT: Rating = 1800;
/// Maximum initial rating (2024).
pub const MAX_INITIAL_RATING: i64 = 2200;
/// Games against rated opponents needed for publication (§7.1.4; 2014 §7.14).
pub const MIN_GAMES_FOR_PUBLICATION: u32 = 5;
/// Pooling window, in months (§7.1.4; 2014 §7.14.c).
pub const POOLING_MONTHS: i64 = 26;

/// An unrated player's results against rated opponents in one event (or, from the batch,
/// in the later events of one period): all the initial rating needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct UnratedTally {
    /// Games against rated opponents.
    pub games: u32,
    /// Σ of those opponents' ratings.
    pub opponents_rating_sum: i64,
    /// Half points scored in those games.
    pub half_points: u64,
}

impl UnratedTally {
    /// Tally a list of (opponent's rating, score) games.
    pub fn from_games(games: &[(Rating, GameScore)]) -> Self {
        games
            .iter()
            .fold(UnratedTally::default(), |mut t, &(r, s)| {
                t.add(r, s);
                t
            })
    }

    /// Add one game.
    pub fn add(&mut self, opponent: Rating, score: GameScore) {
        self.games = self.games.saturating_add(1);
        self.opponents_rating_sum = self.opponents_rating_sum.saturating_add(opponent as i64);
        self.half_points = self.half_points.saturating_add(score.half_points() as u64);
    }
}

/// One event of an unrated player: only the games against rated opponents count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnratedEvent {
    /// The rating period (list) in which the event was rated.
    pub period: ListMonth,
    /// The results against rated opponents.
    pub tally: UnratedTally,
}

impl UnratedEvent {
    /// An event from its games against rated opponents.
    pub fn from_games(period: ListMonth, games: &[(Rating, GameScore)]) -> Self {
        UnratedEvent {
            period,
            tally: UnratedTally::from_games(games),
        }
    }
}

/// Why no rating is published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NotPublishedReason {
    /// Fewer than 5 games against rated opponents in the pooling window.
    TooFewGames {
        /// Games counted.
        games: u32,
    },
    /// Ru below the publication floor (1400; 2014: 1000).
    BelowFloor,
}

/// The working of an initial-rating calculation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitialRatingWorking {
    /// Rules applied.
    pub rules: Rules,
    /// Events used (indexes into the input).
    pub events_used: Vec<usize>,
    /// Whether the first event was disregarded for a zero score (§8.2.1).
    pub first_event_zero_disregarded: bool,
    /// Events dropped because they are outside the 26-month window.
    pub events_outside_window: Vec<usize>,
    /// n: games against rated opponents counted.
    pub games: u32,
    /// Σ of the rated opponents' ratings.
    pub opponents_rating_sum: i64,
    /// Points scored against them, in half points.
    pub half_points: u64,
    /// Ra (2024: with the two 1800 opponents; 2014: Rc, the plain average) as an exact
    /// fraction `(numerator, denominator)`.
    pub ra: (i64, i64),
    /// p used with table 8.1.1, in hundredths (2014 above 50 %: the raw percentage).
    pub p: Hundredths,
    /// dp from table 8.1.1 (2014 at or above 50 %: the "+20 per half point" bonus instead).
    pub dp: i64,
    /// Ru rounded, before the 2200 maximum.
    pub ru_rounded: i64,
    /// Ru after the maximum (2024: 2200).
    pub ru: i64,
}

/// The result of an initial-rating calculation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitialRating {
    /// `Some(rating)` when the rating is published on the list.
    pub published: Option<Rating>,
    /// `Some(reason)` when it is not.
    pub not_published: Option<NotPublishedReason>,
    /// The calculation (present even when not published; with no game, Ru is 0).
    pub working: InitialRatingWorking,
}

/// The publication floor: 1400 (§7.1.4) or 1000 (2014 §7.14.d).
pub fn publication_floor(edition: Edition) -> i64 {
    match edition {
        Edition::Fide2014 => 1000,
        Edition::Fide2024 | Edition::Fide2026 => 1400,
    }
}

/// The initial rating of a player who is unrated on the list of `current`, from all their
/// events so far in chronological order (`events[0]` is their first event ever).
///
/// Events more than 26 months before `current` (`current − period ≥ 26` months) are not
/// pooled (ADR elo-006).
pub fn initial_rating(rules: Rules, current: ListMonth, events: &[UnratedEvent]) -> InitialRating {
    let first_zero = events
        .first()
        .is_some_and(|e| e.tally.games > 0 && e.tally.half_points == 0);
    let mut used = Vec::new();
    let mut outside = Vec::new();
    let (mut n, mut sum, mut hp) = (0u32, 0i64, 0u64);
    for (i, e) in events.iter().enumerate() {
        if i == 0 && first_zero {
            continue;
        }
        let age = current.months_since(e.period);
        if !(0..POOLING_MONTHS).contains(&age) {
            outside.push(i);
            continue;
        }
        used.push(i);
        n = n.saturating_add(e.tally.games);
        sum = sum.saturating_add(e.tally.opponents_rating_sum);
        hp = hp.saturating_add(e.tally.half_points);
    }
    let mut working = InitialRatingWorking {
        rules,
        events_used: used,
        first_event_zero_disregarded: first_zero,
        events_outside_window: outside,
        games: n,
        opponents_rating_sum: sum,
        half_points: hp,
        ra: (0, 1),
        p: Hundredths::ZERO,
        dp: 0,
        ru_rounded: 0,
        ru: 0,
    };
    if n > 0 {
        match rules.edition {
            Edition::Fide2024 | Edition::Fide2026 => ru_2024(&mut working),
            Edition::Fide2014 => ru_2014(&mut working),
        }
    }
    let not_published = if n < MIN_GAMES_FOR_PUBLICATION {
        Some(NotPublishedReason::TooFewGames { games: n })
    } else if working.ru < publication_floor(rules.edition) {
        Some(NotPublishedReason::BelowFloor)
    } else {
        None
    };
    InitialRating {
        published: if not_published.is_none() {
            Rating::try_from(working.ru).ok()
        } else {
            None
        },
        not_published,
        working,
    }
}

/// 2024: Ra = (ΣR + 2·1800)/(n + 2), p = (W + 1)/(n + 2), Ru = Ra + dp, max 2200.
fn ru_2024(w: &mut InitialRatingWorking) {
    let n2 = w.games as i64 + 2;
    let ra_num = w
        .opponents_rating_sum
        .saturating_add(2 * HYPOTHETICAL_OPPONENT as i64);
    // two draws add two half points
    let p =
        percentage_hundredths(w.half_points.saturating_add(2), n2 as u64).unwrap_or(Hundredths(50));
    let dp = dp_from_p(w.rules.edition, p).unwrap_or(0) as i64;
    let num = ra_num.saturating_add(dp * n2);
    let rounded = round_fraction_half_up(num, n2);
    w.ra = (ra_num, n2);
    w.p = p;
    w.dp = dp;
    w.ru_rounded = rounded;
    w.ru = rounded.min(MAX_INITIAL_RATING);
}

/// 2014 (Swiss/team): Rc = ΣR/n; 50 %: Ru = Rc; above: Rc + 20 per half point above 50 %;
/// below: Rc + dp.
fn ru_2014(w: &mut InitialRatingWorking) {
    let n = w.games as i64;
    let hp = i64::try_from(w.half_points).unwrap_or(i64::MAX);
    // half points above 50 %: hp − n
    let above = hp.saturating_sub(n);
    let (p, dp) = if above >= 0 {
        (
            percentage_hundredths(w.half_points, n as u64).unwrap_or(Hundredths(50)),
            above.saturating_mul(20),
        )
    } else {
        let p = percentage_hundredths(w.half_points, n as u64).unwrap_or(Hundredths(50));
        (p, dp_from_p(Edition::Fide2014, p).unwrap_or(0) as i64)
    };
    let num = w.opponents_rating_sum.saturating_add(dp.saturating_mul(n));
    let rounded = round_fraction_half_up(num, n);
    w.ra = (w.opponents_rating_sum, n);
    w.p = p;
    w.dp = dp;
    w.ru_rounded = rounded;
    w.ru = rounded;
}

fn round_fraction_half_up(num: i64, den: i64) -> i64 {
    // floor((2·num + den) / (2·den)): halves go up, also for (unrealistic) negative values
    div_round_half_up(num, den)
}

/// How a player who was unrated when an event started, and got a published rating before
/// that event was rated, takes part in that event's rating (§8.2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LateRatedRoles {
    /// The rating this player is rated with in the event (their current published rating).
    pub own_rating: Rating,
    /// The rating their opponents see: `None` — they count as unrated for them.
    pub as_opponent: Option<Rating>,
}

/// §8.2.4: the player is rated as a rated player with their current rating, but counted as
/// unrated in the rating of their opponents (whose games against them are therefore not rated).
pub fn late_rated_roles(current_published: Rating) -> LateRatedRoles {
    LateRatedRoles {
        own_rating: current_published,
        as_opponent: None,
    }
}

/// Rapid/blitz §7.2.1: an unrated rapid (blitz) player with a standard rating at the start of
/// the event is counted as rated with the standard rating.
pub fn rapid_blitz_starting_rating(
    own_rapid_or_blitz: Option<Rating>,
    standard: Option<Rating>,
) -> Option<Rating> {
    own_rapid_or_blitz.or(standard)
}

/// A rated player of a round robin, for the 2014 round-robin method: their rating and their
/// score against all their opponents in the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundRobinRatedPlayer {
    /// Published rating.
    pub rating: Rating,
    /// Half points scored against all opponents (rated and unrated).
    pub half_points: u64,
    /// Games played.
    pub games: u64,
}

/// 2014 §8.21 (b) with §8.22, 8.23 and 8.25: the performance Ru of an unrated player in a
/// round robin, from the event alone (pooling and publication as in [`initial_rating`]).
///
/// (i) Rar = average rating of the rated players; (ii) dpa = average of the rated players'
/// dp (table 8.1.1 on each one's p against all opponents); (iii) Ra = Rar − dpa × n/(n + 1),
/// n = the unrated player's number of opponents. Then Ru = Ra at 50 %, Ra + 20 per half point
/// above 50 %, Ra + dp × n/(n + 1) below 50 %. Exact until the final rounding (half up).
/// `None` without a rated player, with no game, or with an inconsistent score.
///
/// Not done: §8.58's iteration when several unrated players meet in the same round robin.
pub fn round_robin_ru_2014(
    rated: &[RoundRobinRatedPlayer],
    unrated_half_points: u64,
    opponents: u32,
) -> Option<i64> {
    let m = rated.len() as i64;
    let n = opponents as i64;
    if m == 0 || n == 0 || unrated_half_points > 2 * n as u64 {
        return None;
    }
    let mut sum_r = 0i64;
    let mut sum_dp = 0i64;
    for p in rated {
        let pct = percentage_hundredths(p.half_points, p.games)?;
        sum_dp = sum_dp.saturating_add(dp_from_p(Edition::Fide2014, pct).ok()? as i64);
        sum_r = sum_r.saturating_add(p.rating as i64);
    }
    // Ra = (ΣR·(n+1) − Σdp·n) / (m·(n+1)); saturating only for absurd sizes
    let den = m.saturating_mul(n + 1);
    let ra_num = sum_r
        .saturating_mul(n + 1)
        .saturating_sub(sum_dp.saturating_mul(n));
    let above = unrated_half_points as i64 - n; // half points above 50 %
    let extra = if above >= 0 {
        // + 20 per half point above: × den to stay exact
        (20 * above).saturating_mul(den)
    } else {
        let p = percentage_hundredths(unrated_half_points, n as u64)?;
        let dp = dp_from_p(Edition::Fide2014, p).ok()? as i64;
        // dp × n/(n+1), over den = m(n+1): dp·n·m
        (dp * n).saturating_mul(m)
    };
    Some(round_fraction_half_up(ra_num.saturating_add(extra), den))
}
