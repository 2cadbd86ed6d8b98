//! A knockout match as a state machine. Seed 000, "Systèmes K.O.": "Le K.O. peut être joué en
//! une seule partie ou un nombre fixé d'avance de parties, avec système de départage en cas
//! d'égalité."
//!
//! A [`MatchFormat`] is a list of [`Stage`]s: the regular games, then tie-break stages (rapid,
//! blitz, Armageddon, sudden death) as configured by the event's regulations. Each stage is a
//! fresh mini-match: only the points scored in that stage count. Record each game with
//! [`KnockoutMatch::record`]; the status says what comes next: the next game (stage, colours),
//! or the winner.
//!
//! Colours alternate game after game through the whole match, starting with
//! [`MatchFormat::first_white`]; a stage may restart the alternation with its own
//! [`Stage::first_white`] (e.g. colours drawn again before the tie-break, seed 000 "Playoff" (j):
//! "Les couleurs seront déterminées par tirage au sort").
//!
//! A stage of `n` games ends as soon as one side leads by more than the points still to be
//! played in it (the remaining games would change nothing), or after `n` games. An Armageddon
//! game is decisive by definition: a draw counts as a win for Black (seed 000, "Playoff" 1 (b):
//! "en cas de nulle, les noirs gagnent").
//! See ADR `docs/decisions/knockout-002-match-stages-and-colours.md`.

use serde::{Deserialize, Serialize};

use crate::KnockoutError;

/// The two sides of a match. `A` is the better seed (first named in the pairing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Better seed / first named.
    A,
    /// The opponent.
    B,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// Rate of play of a stage (informative, for schedules and rating; the rules of a stage depend
/// only on [`StageRule`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RateOfPlay {
    /// Standard (classical) games.
    Standard,
    /// Rapid games (Laws, Appendix A), with the time control as text, e.g. "25+10".
    Rapid(String),
    /// Blitz games (Laws, Appendix B), e.g. "3+2".
    Blitz(String),
}

/// How a stage is played and decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StageRule {
    /// A mini-match of this many games; level after all of them → next stage.
    Games(u32),
    /// One Armageddon game: a draw is a win for Black. Always decisive.
    Armageddon,
    /// Up to this many games; the first decisive game wins the match.
    SuddenDeath(u32),
}

/// One stage of a match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stage {
    /// How the stage is played and decided.
    pub rule: StageRule,
    /// Rate of play.
    pub rate: RateOfPlay,
    /// If set, the first game of the stage has this side with White (e.g. colours drawn again);
    /// otherwise colours keep alternating from the previous game.
    pub first_white: Option<Side>,
}

/// The whole format of a match: regular stage first, then the tie-break stages in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchFormat {
    /// The stages, regular games first.
    pub stages: Vec<Stage>,
    /// Side with White in the first game of the match (drawn by lot or fixed by regulations).
    pub first_white: Side,
}

/// Standard games per knockout match when the event does not say (`arbiter pair --games`,
/// the tournament setting `knockout_games`).
pub const DEFAULT_GAMES: u32 = 2;

/// Tie-break stages of a knockout match when the event does not say: 2 rapid games, then 2
/// blitz games, then one Armageddon game (always decisive: a draw is a win for Black, seed 000
/// "Playoff" 1 (b)).
pub const DEFAULT_TIE_BREAKS: &str = "rapid:2,blitz:2,armageddon";

/// Largest number of games accepted in one stage.
pub const MAX_GAMES_PER_STAGE: u32 = 100;
/// Largest number of stages accepted in one match.
pub const MAX_STAGES: usize = 20;

impl MatchFormat {
    /// Seed 000, "Playoff" 1: (a) "un mini match de deux parties à la cadence de 3 minutes … avec
    /// un incrément de 3 secondes" then (b) "une partie Armageddon … Les blancs ont 5 minutes et
    /// les noirs 4 et en cas de nulle, les noirs gagnent". The Armageddon colours are drawn by
    /// lot (playoff (j)): pass the drawn side as `armageddon_white`.
    #[must_use]
    pub fn seed_000_playoff_two_players(first_white: Side, armageddon_white: Side) -> Self {
        MatchFormat {
            stages: vec![
                Stage {
                    rule: StageRule::Games(2),
                    rate: RateOfPlay::Blitz("3+3".into()),
                    first_white: None,
                },
                Stage {
                    rule: StageRule::Armageddon,
                    rate: RateOfPlay::Blitz("5 v 4".into()),
                    first_white: Some(armageddon_white),
                },
            ],
            first_white,
        }
    }

    /// A match of `games` regular games followed by the given tie-break stages.
    #[must_use]
    pub fn games_then(
        games: u32,
        rate: RateOfPlay,
        first_white: Side,
        tie_breaks: Vec<Stage>,
    ) -> Self {
        let mut stages = vec![Stage {
            rule: StageRule::Games(games),
            rate,
            first_white: None,
        }];
        stages.extend(tie_breaks);
        MatchFormat {
            stages,
            first_white,
        }
    }

    fn validate(&self) -> Result<(), KnockoutError> {
        if self.stages.is_empty() {
            return Err(KnockoutError::InvalidMatchFormat(
                "no stage configured".into(),
            ));
        }
        if self.stages.len() > MAX_STAGES {
            return Err(KnockoutError::InvalidMatchFormat(format!(
                "{} stages, at most {MAX_STAGES}",
                self.stages.len()
            )));
        }
        for (i, s) in self.stages.iter().enumerate() {
            let n = match s.rule {
                StageRule::Games(n) | StageRule::SuddenDeath(n) => n,
                StageRule::Armageddon => 1,
            };
            if n == 0 || n > MAX_GAMES_PER_STAGE {
                return Err(KnockoutError::InvalidMatchFormat(format!(
                    "stage {} has {n} games; must be 1..={MAX_GAMES_PER_STAGE}",
                    i + 1
                )));
            }
        }
        Ok(())
    }
}

/// Parses a list of tie-break stages: `none`, or comma-separated `rapid:N`, `blitz:N`,
/// `armageddon`, `sudden-death:N` (e.g. `rapid:2,blitz:2,armageddon`).
pub fn parse_tie_breaks(spec: &str) -> Result<Vec<Stage>, String> {
    let spec = spec.trim();
    if spec.eq_ignore_ascii_case("none") {
        return Ok(vec![]);
    }
    let count = |name: &str, n: Option<&str>| -> Result<u32, String> {
        let n = n.ok_or_else(|| format!("{name:?} needs a number of games, e.g. {name}:2"))?;
        match n.trim().parse::<u32>() {
            Ok(v) if (1..=MAX_GAMES_PER_STAGE).contains(&v) => Ok(v),
            _ => Err(format!(
                "{name}:{n}: the number of games must be 1..={}",
                MAX_GAMES_PER_STAGE
            )),
        }
    };
    let mut stages = Vec::new();
    for item in spec.split(',') {
        let item = item.trim().to_ascii_lowercase();
        let (name, n) = match item.split_once(':') {
            Some((a, b)) => (a, Some(b)),
            None => (item.as_str(), None),
        };
        let (rule, rate) = match name {
            "rapid" => (
                StageRule::Games(count(name, n)?),
                RateOfPlay::Rapid(String::new()),
            ),
            "blitz" => (
                StageRule::Games(count(name, n)?),
                RateOfPlay::Blitz(String::new()),
            ),
            "sudden-death" => (
                StageRule::SuddenDeath(count(name, n)?),
                RateOfPlay::Blitz(String::new()),
            ),
            "armageddon" if n.is_none() => {
                (StageRule::Armageddon, RateOfPlay::Blitz(String::new()))
            }
            _ => {
                return Err(format!(
                    "{item:?} is not a tie-break stage (none, or a list of rapid:N, blitz:N, armageddon, sudden-death:N)"
                ));
            }
        };
        stages.push(Stage {
            rule,
            rate,
            first_white: None,
        });
    }
    if stages.len() + 1 > MAX_STAGES {
        return Err(format!(
            "{} tie-break stages; at most {}",
            stages.len(),
            MAX_STAGES - 1
        ));
    }
    Ok(stages)
}

/// The tie-break stages as text in the syntax [`parse_tie_breaks`] reads (`none` when there
/// is none): the canonical form the registry stores and the pairing service prints.
#[must_use]
pub fn tie_breaks_text(stages: &[Stage]) -> String {
    if stages.is_empty() {
        return "none".into();
    }
    let items: Vec<String> = stages
        .iter()
        .map(|s| match (s.rule, &s.rate) {
            (StageRule::Armageddon, _) => "armageddon".into(),
            (StageRule::SuddenDeath(n), _) => format!("sudden-death:{n}"),
            (StageRule::Games(n), RateOfPlay::Rapid(_)) => format!("rapid:{n}"),
            (StageRule::Games(n), RateOfPlay::Blitz(_)) => format!("blitz:{n}"),
            (StageRule::Games(n), RateOfPlay::Standard) => format!("standard:{n}"),
        })
        .collect();
    items.join(",")
}

/// The result of one game, from the board's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// ½-½.
    Draw,
    /// 0-1.
    BlackWins,
}

/// A game to be played next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScheduledGame {
    /// Stage index, 0-based (0 = regular games).
    pub stage: usize,
    /// Game number within the stage, 1-based.
    pub game_in_stage: u32,
    /// Game number within the match, 1-based.
    pub game_in_match: u32,
    /// The side with White.
    pub white: Side,
}

/// A game played, with its context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayedGame {
    /// Where and with which colours it was played.
    pub game: ScheduledGame,
    /// Its result.
    pub result: GameResult,
}

/// How a match was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// Over the board, in this stage (0 = regular games).
    OverTheBoard {
        /// Stage index, 0-based.
        stage: usize,
    },
    /// The loser forfeited or withdrew.
    Forfeit,
    /// Every stage was played level and the winner was drawn by lot.
    Lot,
}

/// Where a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchStatus {
    /// The match goes on with this game.
    InProgress(ScheduledGame),
    /// The match is over.
    Decided {
        /// The side that goes through.
        winner: Side,
        /// How.
        decision: Decision,
    },
    /// All configured stages were played and the match is level.
    TieBreaksExhausted,
}

/// A knockout match in progress: its format and the games played so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutMatch {
    format: MatchFormat,
    games: Vec<PlayedGame>,
    /// Set when decided otherwise than over the board.
    outside_decision: Option<(Side, Decision)>,
}

/// Points in half-points for (A, B) from one game.
fn half_points(game: &PlayedGame, rule: StageRule) -> (u32, u32) {
    let white_half = match (game.result, rule) {
        (GameResult::WhiteWins, _) => 2,
        (GameResult::Draw, StageRule::Armageddon) => 0,
        (GameResult::Draw, _) => 1,
        (GameResult::BlackWins, _) => 0,
    };
    match game.game.white {
        Side::A => (white_half, 2 - white_half),
        Side::B => (2 - white_half, white_half),
    }
}

impl KnockoutMatch {
    /// A new match, no game played.
    ///
    /// # Errors
    /// [`KnockoutError::InvalidMatchFormat`] for a format with no stage, too many stages, or a
    /// stage of 0 or more than [`MAX_GAMES_PER_STAGE`] games.
    pub fn new(format: MatchFormat) -> Result<Self, KnockoutError> {
        format.validate()?;
        Ok(KnockoutMatch {
            format,
            games: Vec::new(),
            outside_decision: None,
        })
    }

    /// The format.
    #[must_use]
    pub fn format(&self) -> &MatchFormat {
        &self.format
    }

    /// The games played so far.
    #[must_use]
    pub fn games(&self) -> &[PlayedGame] {
        &self.games
    }

    /// Score of stage `stage` in half-points `(A, B)`.
    #[must_use]
    pub fn stage_score_half_points(&self, stage: usize) -> (u32, u32) {
        let Some(s) = self.format.stages.get(stage) else {
            return (0, 0);
        };
        self.games
            .iter()
            .filter(|g| g.game.stage == stage)
            .map(|g| half_points(g, s.rule))
            .fold((0, 0), |(a, b), (x, y)| (a + x, b + y))
    }

    /// Where the match stands.
    #[must_use]
    pub fn status(&self) -> MatchStatus {
        if let Some((winner, decision)) = self.outside_decision {
            return MatchStatus::Decided { winner, decision };
        }
        let mut stage = 0usize;
        let mut played_in_stage = 0u32;
        for (index, s) in self.format.stages.iter().enumerate() {
            let games: Vec<&PlayedGame> = self
                .games
                .iter()
                .filter(|g| g.game.stage == index)
                .collect();
            let count = u32::try_from(games.len()).unwrap_or(u32::MAX);
            let (a, b) = self.stage_score_half_points(index);
            let decided = match s.rule {
                StageRule::Games(n) => {
                    let remaining = 2 * n.saturating_sub(count);
                    a.abs_diff(b) > remaining
                }
                StageRule::Armageddon | StageRule::SuddenDeath(_) => a != b,
            };
            if decided {
                let winner = if a > b { Side::A } else { Side::B };
                return MatchStatus::Decided {
                    winner,
                    decision: Decision::OverTheBoard { stage: index },
                };
            }
            let length = match s.rule {
                StageRule::Games(n) | StageRule::SuddenDeath(n) => n,
                StageRule::Armageddon => 1,
            };
            stage = index;
            played_in_stage = count;
            if count < length {
                break;
            }
            if index + 1 == self.format.stages.len() {
                return MatchStatus::TieBreaksExhausted;
            }
        }
        MatchStatus::InProgress(self.schedule(stage, played_in_stage))
    }

    /// The next game: stage `stage`, after `played_in_stage` games of it.
    fn schedule(&self, stage: usize, played_in_stage: u32) -> ScheduledGame {
        let white = match (self.games.last(), self.format.stages.get(stage)) {
            (
                _,
                Some(Stage {
                    first_white: Some(side),
                    ..
                }),
            ) if played_in_stage == 0 => *side,
            (Some(last), _) => last.game.white.other(),
            (None, _) => self.format.first_white,
        };
        ScheduledGame {
            stage,
            game_in_stage: played_in_stage + 1,
            game_in_match: u32::try_from(self.games.len() + 1).unwrap_or(u32::MAX),
            white,
        }
    }

    /// Records the result of the next game and returns the new status.
    ///
    /// # Errors
    /// [`KnockoutError::MatchAlreadyDecided`] or [`KnockoutError::TieBreaksExhausted`]; the
    /// match is unchanged.
    pub fn record(&mut self, result: GameResult) -> Result<MatchStatus, KnockoutError> {
        match self.status() {
            MatchStatus::InProgress(game) => {
                self.games.push(PlayedGame { game, result });
                Ok(self.status())
            }
            MatchStatus::Decided { .. } => Err(KnockoutError::MatchAlreadyDecided {
                games_played: self.games.len(),
            }),
            MatchStatus::TieBreaksExhausted => Err(KnockoutError::TieBreaksExhausted {
                stages: self.format.stages.len(),
            }),
        }
    }

    /// The `loser` forfeits (does not appear, withdraws): the other side goes through.
    ///
    /// # Errors
    /// [`KnockoutError::MatchAlreadyDecided`] if the match was already over.
    pub fn forfeit(&mut self, loser: Side) -> Result<MatchStatus, KnockoutError> {
        if let MatchStatus::Decided { .. } = self.status() {
            return Err(KnockoutError::MatchAlreadyDecided {
                games_played: self.games.len(),
            });
        }
        self.outside_decision = Some((loser.other(), Decision::Forfeit));
        Ok(self.status())
    }

    /// After [`MatchStatus::TieBreaksExhausted`] only: the winner drawn by lot (the drawing
    /// itself is done by the caller and recorded there).
    ///
    /// # Errors
    /// [`KnockoutError::LotNotAllowed`] unless every stage was played level.
    pub fn decide_by_lot(&mut self, winner: Side) -> Result<MatchStatus, KnockoutError> {
        if self.status() != MatchStatus::TieBreaksExhausted {
            return Err(KnockoutError::LotNotAllowed);
        }
        self.outside_decision = Some((winner, Decision::Lot));
        Ok(self.status())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_break_lists_parse_and_print_canonically() {
        let s = parse_tie_breaks(" Rapid:2 , BLITZ:2,armageddon").unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].rule, StageRule::Games(2));
        assert_eq!(s[2].rule, StageRule::Armageddon);
        assert_eq!(tie_breaks_text(&s), "rapid:2,blitz:2,armageddon");
        assert_eq!(tie_breaks_text(&parse_tie_breaks("NONE").unwrap()), "none");
        assert_eq!(
            tie_breaks_text(&parse_tie_breaks("sudden-death:5").unwrap()),
            "sudden-death:5"
        );
        for bad in [
            "",
            "rapid",
            "rapid:0",
            "rapid:x",
            "armageddon:1",
            "bullet:2",
            "blitz:101",
        ] {
            assert!(parse_tie_breaks(bad).is_err(), "{bad:?} accepted");
        }
        let many = vec!["armageddon"; MAX_STAGES].join(",");
        assert!(parse_tie_breaks(&many).is_err());
    }

    #[test]
    fn invalid_formats_are_rejected() {
        let empty = MatchFormat {
            stages: vec![],
            first_white: Side::A,
        };
        assert!(matches!(
            KnockoutMatch::new(empty),
            Err(KnockoutError::InvalidMatchFormat(_))
        ));
        let zero = MatchFormat::games_then(0, RateOfPlay::Standard, Side::A, vec![]);
        assert!(KnockoutMatch::new(zero).is_err());
    }
}
