//! One rating period for a whole list at once (B.02 §8.3, same rules as
//! [`crate::rating_change_8_3::period_change`]), index-based, for lists of millions of players.
//!
//! Players are indexed `0..players.len()`, games refer to them by index. Two passes over the
//! games, no allocation per game: the first validates and counts each player's rated games n
//! (for K × n ≤ 700), the second accumulates K × ΔR in exact hundredths. K is fixed per
//! player and event, like the per-player working (ADR elo-004), so **each player's games must
//! come in chronological event order** (`event` never decreases for a given player; sorting
//! the games by event end date does it).
//!
//! Unrated players are not rated here; their games against rated opponents are tallied
//! (games, Σ opponents' ratings, half points), the first event they play in this period
//! separately from the others, so that the caller can build the
//! [`crate::initial_rating_8_2::UnratedEvent`]s (the first event matters for §8.2.1 when the
//! player has no earlier history).

use crate::calendar::ListMonth;
use crate::edition::Rules;
use crate::error::EloError;
use crate::initial_rating_8_2::UnratedTally;
use crate::k_factor_8_3_3::{KProfile, k_for_event};
use crate::numbers::{GameScore, Hundredths, Rating};
use crate::rating_difference_8_3_1::{expected_score, game_exclusion};
use serde::{Deserialize, Serialize};

/// A player on the list at the start of the period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchPlayer {
    /// Published rating; `None` if unrated.
    pub rating: Option<Rating>,
    /// What K depends on.
    pub profile: KProfile,
}

/// Result of a game from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BatchResult {
    /// 1–0.
    WhiteWins,
    /// ½–½.
    Draw,
    /// 0–1.
    BlackWins,
}

impl BatchResult {
    fn white_score(self) -> GameScore {
        match self {
            BatchResult::WhiteWins => GameScore::Win,
            BatchResult::Draw => GameScore::Draw,
            BatchResult::BlackWins => GameScore::Loss,
        }
    }
}

/// A played game of the period (forfeits are not given: they are not rated, §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BatchGame {
    /// White's player index.
    pub white: u32,
    /// Black's player index.
    pub black: u32,
    /// The result.
    pub result: BatchResult,
    /// The event, as a chronological sequence number.
    pub event: u32,
}

/// One player's result for the period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BatchOutcome {
    /// Rated games n (rated players).
    pub rated_games: u32,
    /// Σ K × ΔR, exact.
    pub change_unrounded: Hundredths,
    /// The change rounded, .5 away from zero (§8.3.4).
    pub change: i64,
    /// Rated players: rating + change (before the floor, see [`crate::rating_list_7`]).
    pub rating_after: Option<i64>,
    /// Unrated players: results against rated opponents in the first event they play in this
    /// period.
    pub unrated_first_event: UnratedTally,
    /// Unrated players: results against rated opponents in their other events of the period.
    pub unrated_later_events: UnratedTally,
}

#[derive(Clone, Copy, Default)]
struct Scratch {
    event: Option<u32>,
    first_event: Option<u32>,
    completed_in_period: u32,
    in_event: u32,
    k: u32,
}

fn check_order(
    scratch: &mut Scratch,
    game: usize,
    player: u32,
    event: u32,
) -> Result<bool, EloError> {
    match scratch.event {
        Some(prev) if event < prev => Err(EloError::EventsOutOfOrder {
            game,
            player,
            event,
            previous: prev,
        }),
        Some(prev) if event == prev => Ok(false),
        _ => {
            scratch.event = Some(event);
            scratch.first_event.get_or_insert(event);
            Ok(true)
        }
    }
}

/// Rate one period for every player. `outcomes[i]` is player `i`'s result.
pub fn rate_period(
    rules: Rules,
    period: ListMonth,
    players: &[BatchPlayer],
    games: &[BatchGame],
) -> Result<Vec<BatchOutcome>, EloError> {
    if players.len() > u32::MAX as usize {
        return Err(EloError::TooManyGames {
            what: "players",
            count: players.len(),
        });
    }
    let np = players.len();
    let mut out = vec![BatchOutcome::default(); np];
    let mut scratch = vec![Scratch::default(); np];

    // pass 1: validate, count n
    for (gi, g) in games.iter().enumerate() {
        for p in [g.white, g.black] {
            if p as usize >= np {
                return Err(EloError::PlayerIndexOutOfRange {
                    game: gi,
                    player: p,
                    players: np,
                });
            }
        }
        if g.white == g.black {
            return Err(EloError::SelfPairing {
                game: gi,
                player: g.white,
            });
        }
        let (w, b) = (g.white as usize, g.black as usize);
        check_order(&mut scratch[w], gi, g.white, g.event)?;
        check_order(&mut scratch[b], gi, g.black, g.event)?;
        match (players[w].rating, players[b].rating) {
            (Some(rw), Some(rb)) => {
                if game_exclusion(rules, rw, rb).is_none() {
                    out[w].rated_games = out[w].rated_games.saturating_add(1);
                    out[b].rated_games = out[b].rated_games.saturating_add(1);
                }
            }
            (None, Some(rb)) => tally_unrated(
                &mut out[w],
                scratch[w].first_event == Some(g.event),
                rb,
                g.result.white_score(),
            ),
            (Some(rw), None) => tally_unrated(
                &mut out[b],
                scratch[b].first_event == Some(g.event),
                rw,
                g.result.white_score().reversed(),
            ),
            (None, None) => {}
        }
    }

    // pass 2: K per player and event, K × ΔR
    scratch.iter_mut().for_each(|s| *s = Scratch::default());
    for g in games {
        let (w, b) = (g.white as usize, g.black as usize);
        let (Some(rw), Some(rb)) = (players[w].rating, players[b].rating) else {
            continue;
        };
        if game_exclusion(rules, rw, rb).is_some() {
            continue;
        }
        let sw = g.result.white_score();
        for (idx, own, opp, score) in [(w, rw, rb, sw), (b, rb, rw, sw.reversed())] {
            let s = &mut scratch[idx];
            if s.event != Some(g.event) {
                s.completed_in_period = s.completed_in_period.saturating_add(s.in_event);
                s.in_event = 0;
                s.event = Some(g.event);
                let prof = &players[idx].profile;
                s.k = k_for_event(
                    rules.edition,
                    own,
                    prof,
                    prof.games_before_period
                        .saturating_add(s.completed_in_period),
                    out[idx].rated_games,
                    period,
                )
                .k;
            }
            s.in_event = s.in_event.saturating_add(1);
            let delta = score.hundredths().0 - expected_score(rules, own, opp).0;
            out[idx].change_unrounded.0 += s.k as i64 * delta;
        }
    }
    for (o, p) in out.iter_mut().zip(players) {
        o.change = o.change_unrounded.round_half_away_from_zero();
        o.rating_after = p.rating.map(|r| r as i64 + o.change);
    }
    Ok(out)
}

fn tally_unrated(o: &mut BatchOutcome, first: bool, opponent: Rating, score: GameScore) {
    if first {
        o.unrated_first_event.add(opponent, score);
    } else {
        o.unrated_later_events.add(opponent, score);
    }
}
