//! B.02 §8.3.2 and §8.3.4: the rating change of a rated player, game by game, per event and
//! per rating period, with the full working (the data of FIDE's "individual calculation"
//! page: opponent, opponent's rating, D, PD, score, ΔR, K, K × ΔR, totals and rounding).
//!
//! * a) PD from table 8.1.2 for D (after the 400-point rule, [`crate::rating_difference_8_3_1`]);
//! * b) ΔR = score − PD for each game;
//! * c) ΣΔR over the event or rating period;
//! * d) ΣΔR × K = the rating change.
//! * §8.3.4: "The Rating Change for a Rating Period is rounded to the nearest whole number.
//!   0.5 is rounded away from zero." Events are *not* rounded individually (ADR elo-005).
//!
//! All figures are exact hundredths.

use crate::calendar::ListMonth;
use crate::conversion_tables_8_1::{dp_from_p, percentage_hundredths};
use crate::edition::{Edition, Rules};
use crate::k_factor_8_3_3::{KDetermination, KProfile, k_for_event};
use crate::numbers::{GameScore, Hundredths, Rating, div_round_half_up};
use crate::rating_difference_8_3_1::{
    NotRatedReason, RatingDifference, game_exclusion, rating_difference,
};
use serde::{Deserialize, Serialize};

/// One game of the player whose change is computed, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpponentGame {
    /// The opponent's identifier (e.g. FIDE ID), for the working only.
    pub opponent_id: Option<u64>,
    /// The opponent's published rating on the list of the period; `None` if unrated.
    pub opponent_rating: Option<Rating>,
    /// The player's score.
    pub score: GameScore,
}

/// The games of one event, in the order the player played them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventGames {
    /// A label for the working (event name or code).
    pub event: String,
    /// The games.
    pub games: Vec<OpponentGame>,
}

/// Whether one line of the working counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameStatus {
    /// Rated: D, PD, ΔR apply.
    Rated,
    /// Shown but not rated.
    NotRated(NotRatedReason),
}

/// One line of the individual calculation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The opponent's identifier, if given.
    pub opponent_id: Option<u64>,
    /// The opponent's rating (`None`: unrated).
    pub opponent_rating: Option<Rating>,
    /// Rated or not, and why not.
    pub status: GameStatus,
    /// D (actual and used); `None` against an unrated opponent.
    pub difference: Option<RatingDifference>,
    /// PD from table 8.1.2 (rated games only).
    pub expected: Option<Hundredths>,
    /// The score.
    pub score: GameScore,
    /// ΔR = score − PD (zero when not rated).
    pub delta: Hundredths,
    /// K applied to this game.
    pub k: u32,
    /// K × ΔR.
    pub k_delta: Hundredths,
}

/// The working for one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventWorking {
    /// The event label.
    pub event: String,
    /// K used for the event.
    pub k: u32,
    /// How K was determined (absent when K was given by the caller).
    pub k_working: Option<KDetermination>,
    /// One line per reported game.
    pub games: Vec<GameLine>,
    /// Rated games.
    pub rated_games: u32,
    /// Σ score over rated games.
    pub score: Hundredths,
    /// Σ PD over rated games ("points expected").
    pub expected: Hundredths,
    /// ΣΔR.
    pub sum_delta: Hundredths,
    /// K × ΣΔR, not rounded.
    pub change: Hundredths,
    /// Rc: average rating of the rated opponents, rounded half up; `None` without one.
    pub average_opponent_rating: Option<i64>,
}

/// The working for one rated player over one rating period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodWorking {
    /// Rules applied.
    pub rules: Rules,
    /// The list whose rating period this is (the player's rating is from this list).
    pub period: ListMonth,
    /// Published rating at the start of the period.
    pub rating_before: Rating,
    /// The events in the order given.
    pub events: Vec<EventWorking>,
    /// n: rated games in the period (used for K × n ≤ 700).
    pub rated_games: u32,
    /// Σ over events of K × ΣΔR, not rounded.
    pub change_unrounded: Hundredths,
    /// The change rounded to a whole number, .5 away from zero (§8.3.4).
    pub change: i64,
    /// `rating_before + change`, before any list rule (floor: see [`crate::rating_list_7`]).
    pub rating_after: i64,
}

fn game_line(rules: Rules, rating: Rating, k: u32, g: &OpponentGame) -> GameLine {
    let (status, difference, expected) = match g.opponent_rating {
        None => (
            GameStatus::NotRated(NotRatedReason::OpponentUnrated),
            None,
            None,
        ),
        Some(opp) => {
            let diff = rating_difference(rules, rating, opp);
            match game_exclusion(rules, rating, opp) {
                Some(reason) => (GameStatus::NotRated(reason), Some(diff), None),
                None => (
                    GameStatus::Rated,
                    Some(diff),
                    Some(crate::conversion_tables_8_1::pd_from_d(
                        rules.edition,
                        diff.used,
                    )),
                ),
            }
        }
    };
    let delta = match expected {
        Some(pd) => g.score.hundredths() - pd,
        None => Hundredths::ZERO,
    };
    GameLine {
        opponent_id: g.opponent_id,
        opponent_rating: g.opponent_rating,
        status,
        difference,
        expected,
        score: g.score,
        delta,
        k,
        k_delta: Hundredths(delta.0 * k as i64),
    }
}

/// Whether `g` is rated for a player rated `rating` (rated opponent, not excluded).
pub fn is_rated_game(rules: Rules, rating: Rating, g: &OpponentGame) -> bool {
    match g.opponent_rating {
        None => false,
        Some(opp) => game_exclusion(rules, rating, opp).is_none(),
    }
}

/// The working for one event with a K given by the caller (e.g. to reproduce a historic
/// calculation whose K came from older rules).
pub fn event_change_with_k(
    rules: Rules,
    rating: Rating,
    k: u32,
    event: &str,
    games: &[OpponentGame],
) -> EventWorking {
    let lines: Vec<GameLine> = games
        .iter()
        .map(|g| game_line(rules, rating, k, g))
        .collect();
    let rated: Vec<&GameLine> = lines
        .iter()
        .filter(|l| l.status == GameStatus::Rated)
        .collect();
    let rated_games = rated.len() as u32;
    let score: Hundredths = rated.iter().map(|l| l.score.hundredths()).sum();
    let expected: Hundredths = rated.iter().filter_map(|l| l.expected).sum();
    let sum_delta = score - expected;
    let opp_sum: i64 = rated
        .iter()
        .filter_map(|l| l.opponent_rating)
        .map(i64::from)
        .sum();
    EventWorking {
        event: event.to_string(),
        k,
        k_working: None,
        rated_games,
        score,
        expected,
        sum_delta,
        change: Hundredths(sum_delta.0 * k as i64),
        average_opponent_rating: (rated_games > 0)
            .then(|| div_round_half_up(opp_sum, rated_games as i64)),
        games: lines,
    }
}

/// The rating change of a rated player over one rating period (§8.3), K determined by
/// §8.3.3 event by event (ADR elo-004), rounded once for the period (§8.3.4, ADR elo-005).
pub fn period_change(
    rules: Rules,
    period: ListMonth,
    rating: Rating,
    profile: &KProfile,
    events: &[EventGames],
) -> PeriodWorking {
    let rated_games: u32 = events
        .iter()
        .flat_map(|e| e.games.iter())
        .filter(|g| is_rated_game(rules, rating, g))
        .count()
        .try_into()
        .unwrap_or(u32::MAX);
    let mut completed = profile.games_before_period;
    let mut worked = Vec::with_capacity(events.len());
    for e in events {
        let kd = k_for_event(
            rules.edition,
            rating,
            profile,
            completed,
            rated_games,
            period,
        );
        let mut w = event_change_with_k(rules, rating, kd.k, &e.event, &e.games);
        w.k_working = Some(kd);
        completed = completed.saturating_add(w.rated_games);
        worked.push(w);
    }
    let change_unrounded: Hundredths = worked.iter().map(|w| w.change).sum();
    let change = change_unrounded.round_half_away_from_zero();
    PeriodWorking {
        rules,
        period,
        rating_before: rating,
        events: worked,
        rated_games,
        change_unrounded,
        change,
        rating_after: rating as i64 + change,
    }
}

/// Tournament performance rating as the fixtures' third parties compute it (TWIC, club
/// pages): Rc (average of the opponents' ratings) + dp(p) from table 8.1.1, p rounded to two
/// decimals half up, the sum rounded half up. Not a figure of B.02 itself.
pub fn performance_rating(edition: Edition, opponents: &[Rating], half_points: u64) -> Option<i64> {
    let n = opponents.len() as u64;
    let p = percentage_hundredths(half_points, n)?;
    let dp = dp_from_p(edition, p).ok()? as i64;
    let sum: i64 = opponents.iter().map(|&r| r as i64).sum();
    // (sum + dp·n) / n, rounded half up
    Some(div_round_half_up(sum + dp * n as i64, n as i64))
}
