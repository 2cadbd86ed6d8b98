//! A knockout in progress replayed from its games: the next round to play (seed 000,
//! "Systèmes K.O."; ADR `docs/decisions/knockout-005-history-from-trf.md`).
//!
//! Model: the pairing number is the seed; the bracket is [`crate::bracket`]`(N, format)`
//! (default: the seed's preliminary round to reach a power of two); every match is a
//! [`MatchFormat`] (default: 2 standard games, then 2 rapid, 2 blitz and an Armageddon game);
//! every round of the event is one game of every match still undecided. A round of the
//! bracket starts in the event's round after its last match was decided. The colours of the
//! first game of each stage are read from the games (fixed by the regulations or drawn by
//! lot); inside a stage they must alternate. A forfeit ends the match (ADR knockout-002).
//!
//! The games come in as [`RoundRecords`], one per round, from whatever reads them (the TRF
//! adapter of `arbiter-pairings`); what is wrong in the records themselves is the reader's
//! error `E`, handed back untouched when the replay reaches that game.
//!
//! | what | where |
//! |---|---|
//! | how the knockout is played | [`KnockoutOptions`], [`match_format`], [`default_tie_breaks`] |
//! | the games of one round | [`RoundRecords`], [`GameOutcome`] |
//! | the next round, or the champion | [`next_round`], [`KnockoutNext`], [`KnockoutPairing`], [`KnockoutBoard`] |
//! | what the games cannot be | [`HistoryError`], [`ReplayError`] |

use std::collections::{BTreeMap, BTreeSet};

use thiserror::Error;

use crate::bracket::{BracketFormat, BracketProgress};
use crate::error::KnockoutError;
use crate::match_play::{
    DEFAULT_GAMES, DEFAULT_TIE_BREAKS, GameResult, KnockoutMatch, MatchFormat, MatchStatus,
    RateOfPlay, Side, Stage, StageRule, parse_tie_breaks,
};

/// How the knockout is played: the bracket format and the format of every match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutOptions {
    /// How a field that is not a power of two is reduced.
    pub bracket: BracketFormat,
    /// Every match: regular games, then the tie-break stages.
    pub match_format: MatchFormat,
}

impl Default for KnockoutOptions {
    fn default() -> Self {
        KnockoutOptions {
            bracket: BracketFormat::PreliminaryRound,
            match_format: match_format(DEFAULT_GAMES, default_tie_breaks()),
        }
    }
}

/// [`DEFAULT_TIE_BREAKS`] as stages.
#[must_use]
pub fn default_tie_breaks() -> Vec<Stage> {
    parse_tie_breaks(DEFAULT_TIE_BREAKS).unwrap_or_default()
}

/// A match of `games` standard games (the better seed White in game 1 unless the games say
/// otherwise), then `tie_breaks`.
#[must_use]
pub fn match_format(games: u32, tie_breaks: Vec<Stage>) -> MatchFormat {
    MatchFormat::games_then(games, RateOfPlay::Standard, Side::A, tie_breaks)
}

/// One board of the round paired: one game of one match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutBoard {
    /// White's pairing number.
    pub white: u32,
    /// Black's pairing number.
    pub black: u32,
    /// Round of the bracket (1-based; round 1 is the preliminary round when there is one).
    pub bracket_round: u32,
    /// Match number in that bracket round (1-based, bracket order).
    pub match_number: u32,
    /// Game number within the match (1-based).
    pub game_in_match: u32,
    /// Stage: `standard`, `rapid`, `blitz`, `armageddon` or `sudden-death`.
    pub stage: &'static str,
}

/// The next round of a knockout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutPairing {
    /// The round paired.
    pub round: usize,
    /// The bracket round being played.
    pub bracket_round: u32,
    /// Rounds of the bracket in all.
    pub bracket_rounds: u32,
    /// True when the bracket round is the seed's preliminary round.
    pub preliminary: bool,
    /// Boards, ordered by the better pairing number of each match.
    pub boards: Vec<KnockoutBoard>,
    /// Players still in the knockout who have no game in this round: exempt from the
    /// bracket round (preliminary round, byes) or waiting after winning their match.
    pub exempt: Vec<u32>,
}

/// What the games lead to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KnockoutNext {
    /// The next round.
    Pair(KnockoutPairing),
    /// The final is decided: nothing left to pair.
    Over {
        /// Pairing number of the winner of the final.
        champion: u32,
        /// Round in which the final was decided.
        final_round: usize,
    },
}

/// What the records of both players say about their game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameOutcome {
    /// Played over the board.
    Played {
        /// White's pairing number.
        white: u32,
        /// The result.
        result: GameResult,
    },
    /// Lost by forfeit by this player: the match is over (ADR knockout-002).
    Forfeit {
        /// The pairing number of the player who forfeited.
        loser: u32,
    },
}

/// The games of one round as the records give them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRecords<E> {
    /// Every player whose record has a game against another player, with that opponent.
    pub opponents: BTreeMap<u32, u32>,
    /// Every game both players' records give, by (lower, higher pairing number): what they
    /// say, or why it cannot be read (handed back as [`ReplayError::Record`] when the
    /// replay reaches that game).
    pub games: BTreeMap<(u32, u32), Result<GameOutcome, E>>,
}

impl<E> Default for RoundRecords<E> {
    fn default() -> Self {
        RoundRecords {
            opponents: BTreeMap::new(),
            games: BTreeMap::new(),
        }
    }
}

/// Why the games cannot be a knockout played by these options.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HistoryError {
    /// The field cannot make a bracket.
    #[error("players: {0}")]
    Players(KnockoutError),
    /// The match format cannot be played.
    #[error("{0}")]
    MatchFormat(KnockoutError),
    /// A match of a bracket round has a side not yet known.
    #[error("bracket round {bracket_round}, match {match_number}: a side is not known")]
    SideNotKnown {
        /// The bracket round.
        bracket_round: u32,
        /// The match (1-based).
        match_number: u32,
    },
    /// A player plays somebody else than his match's opponent.
    #[error("pairing number {player} plays {opponent}, but its match is against {expected}")]
    WrongOpponent {
        /// The round.
        round: usize,
        /// The player.
        player: u32,
        /// Whom his record says he played.
        opponent: u32,
        /// His opponent in the match.
        expected: u32,
    },
    /// A player has a game after the final was decided.
    #[error(
        "pairing number {player} has a game, but the knockout was over after round {final_round}"
    )]
    AfterTheFinal {
        /// The round.
        round: usize,
        /// The player.
        player: u32,
        /// The round in which the final was decided.
        final_round: usize,
    },
    /// A player has a game but no match still undecided.
    #[error(
        "pairing number {player} has a game, but is not in a match still undecided in bracket round {bracket_round}"
    )]
    NotInAMatch {
        /// The round.
        round: usize,
        /// The player.
        player: u32,
        /// The bracket round being played.
        bracket_round: u32,
    },
    /// A match still undecided has no game in a round.
    #[error(
        "game {game_in_match} of the match {a}–{b} (bracket round {bracket_round}) was not played; record it (a forfeit `+`/`-` ends the match)"
    )]
    GameNotPlayed {
        /// The round.
        round: usize,
        /// The better seed of the match.
        a: u32,
        /// The other.
        b: u32,
        /// The game due (1-based).
        game_in_match: u32,
        /// The bracket round.
        bracket_round: u32,
    },
    /// Colours that do not alternate inside a stage.
    #[error(
        "pairing number {a} has {} in game {game_in_match} of the match {a}–{b}, but colours alternate within a stage: {due_white} has White",
        if *a_white { "White" } else { "Black" }
    )]
    ColoursDoNotAlternate {
        /// The round.
        round: usize,
        /// The better seed of the match.
        a: u32,
        /// The other.
        b: u32,
        /// Whether `a` had White.
        a_white: bool,
        /// The game (1-based).
        game_in_match: u32,
        /// Who was due White.
        due_white: u32,
    },
    /// The match refused the game (already decided, …).
    #[error("{error}")]
    Match {
        /// The round.
        round: usize,
        /// The better seed of the match.
        a: u32,
        /// Why.
        error: KnockoutError,
    },
    /// The bracket refused a winner.
    #[error("round {round}: {error}")]
    Bracket {
        /// The round.
        round: usize,
        /// Why.
        error: KnockoutError,
    },
    /// The bracket has no final.
    #[error("the bracket has no final")]
    NoFinal,
    /// A match is level after every configured stage: its winner is drawn by lot, which the
    /// games cannot say. Not a wrong history: the round cannot be paired by these rules.
    #[error(
        "round {round}: the match {a}–{b} (bracket round {bracket_round}) is level after every configured stage: its winner is drawn by lot, which a game record cannot say; pair the next round by hand or configure more tie-break games"
    )]
    TieBreaksExhausted {
        /// The round to pair.
        round: usize,
        /// The better seed of the match.
        a: u32,
        /// The other.
        b: u32,
        /// The bracket round.
        bracket_round: u32,
    },
}

impl HistoryError {
    /// The record the error is about: this player's game of this round, when there is one.
    #[must_use]
    pub fn place(&self) -> Option<(u32, usize)> {
        match *self {
            HistoryError::WrongOpponent { round, player, .. }
            | HistoryError::AfterTheFinal { round, player, .. }
            | HistoryError::NotInAMatch { round, player, .. } => Some((player, round)),
            HistoryError::GameNotPlayed { round, a, .. }
            | HistoryError::ColoursDoNotAlternate { round, a, .. }
            | HistoryError::Match { round, a, .. } => Some((a, round)),
            _ => None,
        }
    }
}

/// Why [`next_round`] has no answer: the rules' reason, or the reader's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError<E> {
    /// The games cannot be this knockout (or a match is level after every stage).
    Rules(HistoryError),
    /// A game's records could not be read (the reader's error, as it gave it).
    Record(E),
}

impl<E> From<HistoryError> for ReplayError<E> {
    fn from(e: HistoryError) -> Self {
        ReplayError::Rules(e)
    }
}

/// A match of the current bracket round, sides ordered by pairing number (`A` = better seed).
struct LiveMatch {
    index: u32,
    a: u32,
    b: u32,
    /// The bracket's side `a` is our `b` (an upset earlier in the bracket).
    swapped: bool,
    format: MatchFormat,
    results: Vec<GameResult>,
    state: KnockoutMatch,
}

impl LiveMatch {
    fn seed_of(&self, side: Side) -> u32 {
        match side {
            Side::A => self.a,
            Side::B => self.b,
        }
    }

    /// Replays the games played after a change of the format's colours.
    fn rebuild(&mut self) -> Result<(), KnockoutError> {
        let mut m = KnockoutMatch::new(self.format.clone())?;
        for r in &self.results {
            m.record(*r)?;
        }
        self.state = m;
        Ok(())
    }

    /// Plays this round's game of the match.
    fn play(&mut self, round: usize, outcome: GameOutcome) -> Result<(), HistoryError> {
        let MatchStatus::InProgress(game) = self.state.status() else {
            return Ok(());
        };
        let a = self.a;
        let refused = |error| HistoryError::Match { round, a, error };
        let (white_seed, result) = match outcome {
            GameOutcome::Forfeit { loser } => {
                let loser = if loser == self.a { Side::A } else { Side::B };
                self.state.forfeit(loser).map_err(refused)?;
                return Ok(());
            }
            GameOutcome::Played { white, result } => (white, result),
        };
        let white = if white_seed == self.a {
            Side::A
        } else {
            Side::B
        };
        if game.white != white {
            if game.game_in_stage == 1 {
                // The first game of a stage: colours fixed by the regulations or drawn.
                if let Some(s) = self.format.stages.get_mut(game.stage) {
                    s.first_white = Some(white);
                }
                self.rebuild().map_err(refused)?;
            } else {
                return Err(HistoryError::ColoursDoNotAlternate {
                    round,
                    a: self.a,
                    b: self.b,
                    a_white: white == Side::A,
                    game_in_match: game.game_in_match,
                    due_white: self.seed_of(game.white),
                });
            }
        }
        self.state.record(result).map_err(refused)?;
        self.results.push(result);
        Ok(())
    }
}

fn stage_name(format: &MatchFormat, stage: usize) -> &'static str {
    match format.stages.get(stage) {
        Some(s) => match (s.rule, &s.rate) {
            (StageRule::Armageddon, _) => "armageddon",
            (StageRule::SuddenDeath(_), _) => "sudden-death",
            (StageRule::Games(_), RateOfPlay::Rapid(_)) => "rapid",
            (StageRule::Games(_), RateOfPlay::Blitz(_)) => "blitz",
            (StageRule::Games(_), RateOfPlay::Standard) => "standard",
        },
        None => "standard",
    }
}

/// Starts the matches of bracket round `k` (0-based); every side must be known.
fn start_round(
    progress: &BracketProgress,
    k: usize,
    format: &MatchFormat,
) -> Result<Vec<LiveMatch>, HistoryError> {
    let Some(r) = progress.bracket().rounds.get(k) else {
        return Ok(vec![]);
    };
    let mut out = Vec::new();
    for index in 0..u32::try_from(r.matches.len()).unwrap_or(u32::MAX) {
        let Some((Some(x), Some(y))) = progress.sides(r.number, index) else {
            return Err(HistoryError::SideNotKnown {
                bracket_round: r.number,
                match_number: index + 1,
            });
        };
        let state = KnockoutMatch::new(format.clone()).map_err(HistoryError::MatchFormat)?;
        out.push(LiveMatch {
            index,
            a: x.min(y),
            b: x.max(y),
            swapped: x > y,
            format: format.clone(),
            results: vec![],
            state,
        });
    }
    Ok(out)
}

/// Players still in the knockout after bracket round `k` started (byes of the round and
/// both sides of its matches).
fn in_round(progress: &BracketProgress, k: usize, live: &[LiveMatch]) -> Vec<u32> {
    let mut v: Vec<u32> = progress
        .bracket()
        .rounds
        .get(k)
        .map(|r| r.byes.iter().filter_map(|e| progress.resolve(*e)).collect())
        .unwrap_or_default();
    for m in live {
        match m.state.status() {
            MatchStatus::Decided { winner, .. } => v.push(m.seed_of(winner)),
            _ => v.extend([m.a, m.b]),
        }
    }
    v.sort_unstable();
    v
}

/// Every game of the round belongs to a match in progress, against its opponent.
fn check_opponents(
    round: usize,
    opponents: &BTreeMap<u32, u32>,
    live: &[LiveMatch],
    k: usize,
    final_round: usize,
) -> Result<(), HistoryError> {
    let opponent_in_match: BTreeMap<u32, u32> = live
        .iter()
        .filter(|m| matches!(m.state.status(), MatchStatus::InProgress(_)))
        .flat_map(|m| [(m.a, m.b), (m.b, m.a)])
        .collect();
    for (&player, &opponent) in opponents {
        match opponent_in_match.get(&player) {
            Some(&o) if o == opponent => {}
            Some(&expected) => {
                return Err(HistoryError::WrongOpponent {
                    round,
                    player,
                    opponent,
                    expected,
                });
            }
            None if live.is_empty() => {
                return Err(HistoryError::AfterTheFinal {
                    round,
                    player,
                    final_round,
                });
            }
            None => {
                return Err(HistoryError::NotInAMatch {
                    round,
                    player,
                    bracket_round: u32::try_from(k + 1).unwrap_or(u32::MAX),
                });
            }
        }
    }
    Ok(())
}

/// The next round `round` of the knockout of `players` players (seeds `1..=players`) played
/// by `options`, from the games of the rounds before it (`records(r)` for `r` in
/// `1..round`).
///
/// # Errors
/// [`ReplayError::Rules`] when the games cannot be this knockout, or a match is level after
/// every configured stage ([`HistoryError::TieBreaksExhausted`]); [`ReplayError::Record`]
/// with the reader's error for a game whose records could not be read.
pub fn next_round<E>(
    players: u32,
    round: usize,
    options: &KnockoutOptions,
    records: &dyn Fn(usize) -> RoundRecords<E>,
) -> Result<KnockoutNext, ReplayError<E>> {
    let bracket = crate::bracket(players, options.bracket).map_err(HistoryError::Players)?;
    let bracket_rounds = u32::try_from(bracket.rounds.len()).unwrap_or(u32::MAX);
    let mut progress = BracketProgress::new(bracket);
    let mut k = 0usize;
    let mut live = start_round(&progress, k, &options.match_format)?;
    let mut final_round = 0usize;
    for r in 1..round {
        let mut games = records(r);
        check_opponents(r, &games.opponents, &live, k, final_round)?;
        for m in &mut live {
            let MatchStatus::InProgress(game) = m.state.status() else {
                continue;
            };
            let Some(outcome) = games.games.remove(&(m.a, m.b)) else {
                return Err(HistoryError::GameNotPlayed {
                    round: r,
                    a: m.a,
                    b: m.b,
                    game_in_match: game.game_in_match,
                    bracket_round: u32::try_from(k + 1).unwrap_or(u32::MAX),
                }
                .into());
            };
            let outcome = outcome.map_err(ReplayError::Record)?;
            m.play(r, outcome)?;
        }
        // A bracket round is over when all its matches are decided.
        let all_decided = !live.is_empty()
            && live
                .iter()
                .all(|m| matches!(m.state.status(), MatchStatus::Decided { .. }));
        if all_decided {
            let number = u32::try_from(k + 1).unwrap_or(u32::MAX);
            for m in &live {
                if let MatchStatus::Decided { winner, .. } = m.state.status() {
                    let bracket_side = if m.swapped { winner.other() } else { winner };
                    progress
                        .record_winner(number, m.index, bracket_side)
                        .map_err(|error| HistoryError::Bracket { round: r, error })?;
                }
            }
            k += 1;
            live = start_round(&progress, k, &options.match_format)?;
            if live.is_empty() {
                final_round = r;
            }
        }
    }
    if live.is_empty() {
        let champion = progress.champion().ok_or(HistoryError::NoFinal)?;
        return Ok(KnockoutNext::Over {
            champion,
            final_round,
        });
    }
    let number = u32::try_from(k + 1).unwrap_or(u32::MAX);
    let mut boards = Vec::new();
    for m in &live {
        match m.state.status() {
            MatchStatus::InProgress(g) => {
                let (white, black) = match g.white {
                    Side::A => (m.a, m.b),
                    Side::B => (m.b, m.a),
                };
                boards.push(KnockoutBoard {
                    white,
                    black,
                    bracket_round: number,
                    match_number: m.index + 1,
                    game_in_match: g.game_in_match,
                    stage: stage_name(&m.format, g.stage),
                });
            }
            MatchStatus::TieBreaksExhausted => {
                return Err(HistoryError::TieBreaksExhausted {
                    round,
                    a: m.a,
                    b: m.b,
                    bracket_round: number,
                }
                .into());
            }
            MatchStatus::Decided { .. } => {}
        }
    }
    boards.sort_by_key(|b| b.white.min(b.black));
    let playing: BTreeSet<u32> = boards.iter().flat_map(|b| [b.white, b.black]).collect();
    let exempt = in_round(&progress, k, &live)
        .into_iter()
        .filter(|t| !playing.contains(t))
        .collect();
    let preliminary = progress
        .bracket()
        .rounds
        .get(k)
        .is_some_and(|r| r.preliminary);
    Ok(KnockoutNext::Pair(KnockoutPairing {
        round,
        bracket_round: number,
        bracket_rounds,
        preliminary,
        boards,
        exempt,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of a round: `(white, black, result)` with the result from White's view
    /// (`'1'`, `'='`, `'0'`), or `(winner, loser, '+')` for a forfeit.
    fn round(games: &[(u32, u32, char)]) -> RoundRecords<String> {
        let mut r = RoundRecords::default();
        for &(w, b, c) in games {
            r.opponents.insert(w, b);
            r.opponents.insert(b, w);
            let outcome = match c {
                '+' => GameOutcome::Forfeit { loser: b },
                '1' => GameOutcome::Played {
                    white: w,
                    result: GameResult::WhiteWins,
                },
                '0' => GameOutcome::Played {
                    white: w,
                    result: GameResult::BlackWins,
                },
                _ => GameOutcome::Played {
                    white: w,
                    result: GameResult::Draw,
                },
            };
            r.games.insert((w.min(b), w.max(b)), Ok(outcome));
        }
        r
    }

    fn next(
        players: u32,
        history: &[RoundRecords<String>],
    ) -> Result<KnockoutNext, ReplayError<String>> {
        next_round(
            players,
            history.len() + 1,
            &KnockoutOptions::default(),
            &|r| history.get(r - 1).cloned().unwrap_or_default(),
        )
    }

    fn boards(n: &Result<KnockoutNext, ReplayError<String>>) -> Vec<(u32, u32)> {
        match n {
            Ok(KnockoutNext::Pair(p)) => p.boards.iter().map(|b| (b.white, b.black)).collect(),
            other => panic!("not a round to pair: {other:?}"),
        }
    }

    fn rules_error(n: Result<KnockoutNext, ReplayError<String>>) -> HistoryError {
        match n {
            Err(ReplayError::Rules(e)) => e,
            other => panic!("not a rules error: {other:?}"),
        }
    }

    #[test]
    fn the_first_round_is_1_v_4_and_2_v_3_with_the_better_seed_white() {
        let n = next(4, &[]);
        assert_eq!(boards(&n), [(1, 4), (2, 3)]);
        let Ok(KnockoutNext::Pair(p)) = n else {
            panic!()
        };
        assert_eq!((p.round, p.bracket_round, p.bracket_rounds), (1, 1, 2));
        assert!(p.boards.iter().all(|b| b.stage == "standard"));
        assert!(p.exempt.is_empty() && !p.preliminary);
    }

    #[test]
    fn a_tied_match_goes_to_rapid_while_the_winner_waits_then_the_final() {
        let mut h = vec![round(&[(1, 4, '1'), (2, 3, '1')])];
        assert_eq!(boards(&next(4, &h)), [(4, 1), (3, 2)]);
        h.push(round(&[(4, 1, '='), (3, 2, '1')]));
        let n = next(4, &h);
        assert_eq!(boards(&n), [(2, 3)]);
        let Ok(KnockoutNext::Pair(p)) = &n else {
            panic!()
        };
        assert_eq!((p.boards[0].stage, p.boards[0].game_in_match), ("rapid", 3));
        assert_eq!(p.exempt, [1]);
        h.push(round(&[(2, 3, '=')]));
        h.push(round(&[(3, 2, '1')]));
        assert_eq!(boards(&next(4, &h)), [(1, 3)]);
        h.push(round(&[(1, 3, '0')]));
        h.push(round(&[(3, 1, '1')]));
        assert_eq!(
            next(4, &h),
            Ok(KnockoutNext::Over {
                champion: 3,
                final_round: 6
            })
        );
    }

    #[test]
    fn a_forfeit_ends_the_match_and_the_first_colours_of_a_stage_come_from_the_games() {
        let h = [round(&[(4, 1, '+'), (3, 2, '=')])];
        // 1 forfeited; 3 had White in game 1 (drawn by lot), so 2 has White in game 2.
        let n = next(4, &h);
        assert_eq!(boards(&n), [(2, 3)]);
        let Ok(KnockoutNext::Pair(p)) = n else {
            panic!()
        };
        assert_eq!(p.exempt, [4]);
    }

    #[test]
    fn colours_alternate_inside_a_stage() {
        let h = [round(&[(2, 1, '=')]), round(&[(2, 1, '=')])];
        let e = rules_error(next(2, &h));
        assert!(matches!(
            e,
            HistoryError::ColoursDoNotAlternate {
                round: 2,
                a: 1,
                due_white: 1,
                ..
            }
        ));
        assert_eq!(e.place(), Some((1, 2)));
        assert!(
            e.to_string().contains("colours alternate within a stage"),
            "{e}"
        );
    }

    #[test]
    fn a_game_outside_its_match_or_a_missing_game_is_named_by_player_and_round() {
        let e = rules_error(next(4, &[round(&[(1, 2, '1'), (3, 4, '1')])]));
        assert_eq!(
            e,
            HistoryError::WrongOpponent {
                round: 1,
                player: 1,
                opponent: 2,
                expected: 4
            }
        );
        assert_eq!(e.place(), Some((1, 1)));
        let e = rules_error(next(4, &[round(&[(1, 4, '1')])]));
        assert!(matches!(
            e,
            HistoryError::GameNotPlayed {
                round: 1,
                a: 2,
                b: 3,
                game_in_match: 1,
                bracket_round: 1
            }
        ));
        assert_eq!(e.place(), Some((2, 1)));
        // After the final, nobody plays.
        let h = [
            round(&[(1, 2, '1')]),
            round(&[(2, 1, '0')]),
            round(&[(1, 2, '1')]),
        ];
        let e = rules_error(next(2, &h));
        assert!(matches!(
            e,
            HistoryError::AfterTheFinal {
                round: 3,
                final_round: 2,
                ..
            }
        ));
    }

    #[test]
    fn the_reader_s_error_comes_back_when_the_replay_reaches_its_game() {
        let mut r = round(&[(1, 2, '1')]);
        r.games.insert((1, 2), Err("unreadable".to_owned()));
        assert_eq!(
            next(2, &[r]),
            Err(ReplayError::Record("unreadable".to_owned()))
        );
    }

    #[test]
    fn a_match_level_after_every_stage_cannot_be_paired() {
        let options = KnockoutOptions {
            match_format: match_format(1, Vec::new()),
            ..KnockoutOptions::default()
        };
        let h = [round(&[(1, 2, '=')])];
        let e = next_round(2, 2, &options, &|r| {
            h.get(r - 1).cloned().unwrap_or_default()
        });
        assert!(matches!(
            e,
            Err(ReplayError::Rules(HistoryError::TieBreaksExhausted {
                round: 2,
                a: 1,
                b: 2,
                ..
            }))
        ));
    }

    #[test]
    fn too_few_players_is_an_error_not_a_panic() {
        let e = rules_error(next(1, &[]));
        assert!(matches!(e, HistoryError::Players(_)), "{e}");
        assert!(e.place().is_none());
    }

    /// Every field size and bracket format is played to its champion, each round pairing
    /// every player still in at most once.
    #[test]
    fn every_field_and_format_is_played_to_a_champion() {
        for bracket in [
            BracketFormat::PreliminaryRound,
            BracketFormat::ByesBySeeding,
            BracketFormat::ByeInEachOddRound,
        ] {
            let options = KnockoutOptions {
                bracket,
                ..KnockoutOptions::default()
            };
            for n in 2..=19u32 {
                let mut h: Vec<RoundRecords<String>> = Vec::new();
                let champion = loop {
                    let r = h.len() + 1;
                    let got = next_round(n, r, &options, &|r| {
                        h.get(r - 1).cloned().unwrap_or_default()
                    });
                    match got {
                        Ok(KnockoutNext::Over {
                            champion,
                            final_round,
                        }) => {
                            assert_eq!(final_round, r - 1);
                            break champion;
                        }
                        Ok(KnockoutNext::Pair(p)) => {
                            let mut seen = BTreeSet::new();
                            let games: Vec<(u32, u32, char)> = p
                                .boards
                                .iter()
                                .map(|b| {
                                    assert!(seen.insert(b.white) && seen.insert(b.black));
                                    (
                                        b.white,
                                        b.black,
                                        ['1', '=', '0'][(r + b.white as usize) % 3],
                                    )
                                })
                                .collect();
                            assert!(p.exempt.iter().all(|t| !seen.contains(t)));
                            h.push(round(&games));
                        }
                        Err(e) => panic!("{bracket:?} {n}: {e:?}"),
                    }
                    assert!(r < 200, "{bracket:?} {n}: no end");
                };
                assert!((1..=n).contains(&champion));
            }
        }
    }
}
