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
    rate_period_8_2_4(rules, period, players, games, |_, _| false)
}

/// [`rate_period`] with §8.2.4: "If an unrated player receives a published rating before a
/// particular tournament in which they have played is rated, then they are rated as a rated
/// player with their current rating, but in the rating of their opponents they are counted
/// as an unrated player."
///
/// `counted_unrated(game, player)` says that in game number `game` (index into `games`),
/// `player` (a player index, rated in `players`) counts as unrated for their opponent: the
/// player's own side of the game is rated as usual (against a rated opponent), the
/// opponent's side is not rated (a rated opponent) or does not count towards an initial
/// rating (an unrated opponent).
pub fn rate_period_8_2_4<F: Fn(usize, u32) -> bool>(
    rules: Rules,
    period: ListMonth,
    players: &[BatchPlayer],
    games: &[BatchGame],
    counted_unrated: F,
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
    // the opponent's rating as `player` sees it in game `gi`
    let seen = |gi: usize, opponent: u32| {
        if counted_unrated(gi, opponent) {
            None
        } else {
            players[opponent as usize].rating
        }
    };

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
        check_order(&mut scratch[g.white as usize], gi, g.white, g.event)?;
        check_order(&mut scratch[g.black as usize], gi, g.black, g.event)?;
        let sw = g.result.white_score();
        for (me, opp, score) in [(g.white, g.black, sw), (g.black, g.white, sw.reversed())] {
            let i = me as usize;
            match (players[i].rating, seen(gi, opp)) {
                (Some(own), Some(theirs)) if game_exclusion(rules, own, theirs).is_none() => {
                    out[i].rated_games = out[i].rated_games.saturating_add(1);
                }
                (None, Some(theirs)) => tally_unrated(
                    &mut out[i],
                    scratch[i].first_event == Some(g.event),
                    theirs,
                    score,
                ),
                _ => {}
            }
        }
    }

    // pass 2: K per player and event, K × ΔR
    scratch.iter_mut().for_each(|s| *s = Scratch::default());
    for (gi, g) in games.iter().enumerate() {
        let sw = g.result.white_score();
        for (me, opp, score) in [(g.white, g.black, sw), (g.black, g.white, sw.reversed())] {
            let idx = me as usize;
            let (Some(own), Some(theirs)) = (players[idx].rating, seen(gi, opp)) else {
                continue;
            };
            if game_exclusion(rules, own, theirs).is_some() {
                continue;
            }
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
            let delta = score.hundredths().0 - expected_score(rules, own, theirs).0;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::{Edition, RatingKind};

    fn profile(games: u32) -> KProfile {
        KProfile {
            games_before_period: games,
            ever_published_2400: false,
            ever_published_2300: false,
            birth: None,
        }
    }

    /// A (2000, K 20) loses to P, who has just received a published 1800 (K 40, new) but was
    /// unrated when the event was played; P then draws with U (unrated).
    fn setup() -> (Vec<BatchPlayer>, Vec<BatchGame>) {
        let players = vec![
            BatchPlayer {
                rating: Some(2000),
                profile: profile(100),
            },
            BatchPlayer {
                rating: Some(1800),
                profile: profile(0),
            },
            BatchPlayer {
                rating: None,
                profile: profile(0),
            },
        ];
        let games = vec![
            BatchGame {
                white: 0,
                black: 1,
                result: BatchResult::BlackWins,
                event: 0,
            },
            BatchGame {
                white: 1,
                black: 2,
                result: BatchResult::Draw,
                event: 0,
            },
        ];
        (players, games)
    }

    #[test]
    fn late_rating_8_2_4_rated_for_the_player_unrated_for_the_opponents() {
        let rules = Rules::new(Edition::Fide2026, RatingKind::Standard);
        let oct = ListMonth::new(2026, 9).unwrap();
        let (players, games) = setup();
        let out = rate_period_8_2_4(rules, oct, &players, &games, |_, p| p == 1).unwrap();
        // P, rated with 1800: beat 2000 (D 200, PD .24): +0.76 × K 40 = +30.40 → 1830;
        // the draw with the unrated U is not rated
        assert_eq!(out[1].rated_games, 1);
        assert_eq!(out[1].change_unrounded, Hundredths(3040));
        assert_eq!(out[1].rating_after, Some(1830));
        // A: P counts as unrated → not rated, no change
        assert_eq!(out[0].rated_games, 0);
        assert_eq!(out[0].rating_after, Some(2000));
        // U: P counts as unrated → nothing towards an initial rating
        assert_eq!(out[2].unrated_first_event.games, 0);

        // without §8.2.4: A loses 0.76 × 20 = 15.2 → −15; U's draw counts against 1800
        let plain = rate_period(rules, oct, &players, &games).unwrap();
        assert_eq!(plain[0].rating_after, Some(1985));
        assert_eq!(plain[1].rating_after, Some(1830));
        assert_eq!(plain[2].unrated_first_event.games, 1);
        assert_eq!(plain[2].unrated_first_event.opponents_rating_sum, 1800);
    }
}
