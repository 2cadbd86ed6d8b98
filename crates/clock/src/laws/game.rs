//! The game: position + history + clock + law state, driven by [`GameEvent`]s.
//!
//! [`Game::apply`] returns the [`Effect`]s of an event, or a [`Rejection`] that leaves the game
//! unchanged. It never panics. Articles applied:
//!
//! * 5.1.1 checkmate, 5.2.1 stalemate, 5.2.2 dead position: end the game at once;
//! * 9.6.1 fivefold repetition and 9.6.2 seventy-five moves: end it automatically (a mate on
//!   the 75th move takes precedence);
//! * 6.9 flag fall: loss, unless the opponent cannot checkmate (draw); a flag after the game
//!   ended changes nothing (the clock is stopped when the game ends);
//! * 7.5.1–7.5.5 completed illegal moves: position reinstated, two minutes (one in rapid/blitz,
//!   A.3) to the opponent, loss at the second (draw if the opponent cannot checkmate); in
//!   rapid/blitz without full supervision (A.5.2 / B.3) only until the opponent has moved;
//! * 9.2 / 9.3 claims, validated; 9.5.3 penalty for an incorrect claim; the declared move must
//!   then be played;
//! * Guidelines III.3 (both flags fallen) and III.5 (quickplay-finish claim) when announced.

use crate::chess_clock::{ChessClock, ClockError, IncrementCredit, Instant};
use crate::laws::dead_position::{cannot_checkmate, is_dead_position};
use crate::laws::guidelines_i_adjourned::{
    Envelope, Resumption, SealedMoveFault, judge_sealed_move,
};
use crate::laws::guidelines_ii_chess960::Variant;
use crate::laws::penalties::{LawsEdition, QUICKPLAY_EXTRA_TIME, penalty_time};
use crate::laws::repetition::{occurrences, position_key};
use crate::rate_of_play::{RateOfPlay, classify};
use crate::side::Side;
use crate::time_control::{Millis, TimeControl, TimeControlTag};
use serde::{Deserialize, Serialize};
use shakmaty::{
    CastlingMode, Chess, EnPassantMode, Move, Position,
    fen::Fen,
    san::{San, SanPlus},
    uci::UciMove,
};

/// Which supervision regime applies to a rapid or blitz event (Laws A.4/A.5, B.2/B.3; the
/// event regulations choose one for the whole event, A.6 / B.4). Ignored in standard play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Supervision {
    /// A.5 / B.3: the usual case; illegal moves can be corrected only before the opponent's
    /// next move (A.5.2).
    #[default]
    Partial,
    /// A.4 / B.2: competition rules apply (one arbiter per ≤ 3 games / per game).
    CompetitionRules,
}

/// How a game is set up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    /// The time control.
    pub control: TimeControl,
    /// When increments are credited (ADR `clock-001`).
    pub credit: IncrementCredit,
    /// The Laws edition (default: 2023, in force).
    pub edition: LawsEdition,
    /// The rate of play; [`GameConfig::new`] derives it from the control (A.1/B.1).
    pub rate: RateOfPlay,
    /// Supervision regime for rapid/blitz.
    pub supervision: Supervision,
    /// Whether the event announced Guidelines III (III.2.1).
    pub quickplay_guidelines: bool,
    /// Starting position (FEN, X-FEN or Shredder-FEN); `None` = the initial position of the
    /// ordinary game (for Chess960: number 518, the same position).
    pub start_fen: Option<String>,
    /// The ordinary game or Chess960 (Guidelines II: castling to the ordinary final squares
    /// from wherever king and rook start; the rest of the Laws unchanged).
    #[serde(default)]
    pub variant: Variant,
}

impl GameConfig {
    /// Defaults for a control: Laws 2023, rate by A.1/B.1, partial supervision, no Guidelines
    /// III, increment credited at the start of each move, initial position.
    pub fn new(control: TimeControl) -> Self {
        let rate = classify(&control);
        GameConfig {
            control,
            credit: IncrementCredit::default(),
            edition: LawsEdition::default(),
            rate,
            supervision: Supervision::default(),
            quickplay_guidelines: false,
            start_fen: None,
            variant: Variant::Standard,
        }
    }

    /// A Chess960 game (Guidelines II) from `start` (0–959).
    pub fn chess960(
        control: TimeControl,
        start: crate::laws::guidelines_ii_chess960::StartPosition,
    ) -> Self {
        GameConfig {
            variant: Variant::Chess960,
            start_fen: Some(start.fen()),
            ..GameConfig::new(control)
        }
    }
}

/// A move as sent by a board, an app or a PGN.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveText {
    /// Standard algebraic notation, e.g. `Nf3`, `exd8=Q+`, `O-O`.
    San(String),
    /// UCI long algebraic, e.g. `g1f3`, `e7e8q`.
    Uci(String),
}

/// The draw claims of Article 9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimRule {
    /// 9.2: the same position for (at least) the third time.
    Threefold,
    /// 9.3: fifty moves by each player without a pawn move or a capture.
    FiftyMoves,
}

/// The arbiter's decision on a Guidelines III.5 claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QuickplayDecision {
    /// III.5.1: the opponent cannot win by normal means / makes no effort: draw.
    Draw,
    /// III.5.2: decision postponed; the opponent receives two minutes.
    Postponed,
    /// III.5.3: claim rejected; the opponent receives two minutes.
    Rejected,
}

/// Everything that can happen to a game. Every event carries its instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameEvent {
    /// The arbiter starts the clock (6.5).
    Start { at: Instant },
    /// The side to move plays a move and presses the clock (6.2.1).
    Move { at: Instant, mv: MoveText },
    /// A timer scheduled at [`Game::flag_instant`] fires: the flag is checked.
    FlagCheck { at: Instant },
    /// Arbiter pause (6.11.1 / 6.12.1).
    Pause { at: Instant },
    /// Arbiter restart (6.11.3).
    Resume { at: Instant },
    /// Arbiter time correction for one side (6.10.2), positive or negative.
    AdjustTime {
        at: Instant,
        side: Side,
        delta_ms: i64,
    },
    /// A completed illegal move by `by` (7.5.1–7.5.4: illegal move, promotion without a piece,
    /// press without a move, two hands). `completed_at_ply` = `None`: it was pressed just now
    /// and never entered the game; `Some(p)`: the move recorded as ply `p` (0-based index into
    /// [`Game::plies`]) is found to have been illegal on the board.
    IllegalMoveCompleted {
        at: Instant,
        by: Side,
        completed_at_ply: Option<u32>,
    },
    /// A draw claim under 9.2 / 9.3 by the player having the move, optionally on an intended
    /// move written but not played.
    DrawClaim {
        at: Instant,
        by: Side,
        rule: ClaimRule,
        intended: Option<MoveText>,
    },
    /// A player resigns (5.1.2).
    Resign { at: Instant, by: Side },
    /// Draw agreed (5.2.3).
    DrawAgreed { at: Instant },
    /// A device or the arbiter reports both flags fallen; `first` if the flag indicator shows
    /// which fell first (A.5.3), `None` if it cannot be established (Guidelines III.3).
    BothFlagsFallen { at: Instant, first: Option<Side> },
    /// Guidelines III.4: the player having the move, with less than two minutes, asks for a
    /// five-second increment for both players; the opponent has declined the implied draw offer
    /// (if accepted, send [`GameEvent::DrawAgreed`]) and the arbiter grants the request or not.
    QuickplayIncrementRequest {
        at: Instant,
        by: Side,
        arbiter_grants: bool,
    },
    /// Guidelines III.5 claim by the player having the move, with the arbiter's decision.
    QuickplayFinishClaim {
        at: Instant,
        by: Side,
        decision: QuickplayDecision,
    },
    /// Guidelines I.1.1: the player having the move seals it and stops the clock: the move
    /// is recorded, not played. `session_end`: the session's scheduled end; a player who
    /// seals before it is charged the time up to it (I.1.2).
    Adjourn {
        at: Instant,
        by: Side,
        sealed: MoveText,
        session_end: Option<Instant>,
    },
    /// Guidelines I.5 / I.9 / I.12.1: the adjourned game resumes: the clocks show the times
    /// recorded, the envelope is opened and the sealed move played (I.8 judges it first).
    ResumeAdjourned { at: Instant, how: Resumption },
    /// Guidelines I.9.2: the absent responder arrives: the envelope is opened (the sealed
    /// move, played at the resumption, is shown).
    OpenEnvelope { at: Instant },
    /// Guidelines I.10: the arbiter declares that `absent` arrived after the default time at
    /// the resumption: a loss, unless the sealed move ends the game (that conclusion applies)
    /// or is faulty (I.8).
    AbsentAtResumption { at: Instant, absent: Side },
}

impl GameEvent {
    /// The instant the event carries.
    pub fn at(&self) -> Instant {
        match self {
            GameEvent::Start { at }
            | GameEvent::Move { at, .. }
            | GameEvent::FlagCheck { at }
            | GameEvent::Pause { at }
            | GameEvent::Resume { at }
            | GameEvent::AdjustTime { at, .. }
            | GameEvent::IllegalMoveCompleted { at, .. }
            | GameEvent::DrawClaim { at, .. }
            | GameEvent::Resign { at, .. }
            | GameEvent::DrawAgreed { at }
            | GameEvent::BothFlagsFallen { at, .. }
            | GameEvent::QuickplayIncrementRequest { at, .. }
            | GameEvent::QuickplayFinishClaim { at, .. }
            | GameEvent::Adjourn { at, .. }
            | GameEvent::ResumeAdjourned { at, .. }
            | GameEvent::OpenEnvelope { at }
            | GameEvent::AbsentAtResumption { at, .. } => *at,
        }
    }
}

/// The result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// PGN notation: `1-0`, `0-1`, `1/2-1/2`.
    pub fn to_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
    fn win_for(side: Side) -> Self {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }
}

/// Why a game ended, with the article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// 5.1.1
    Checkmate,
    /// 5.2.1
    Stalemate,
    /// 5.2.2
    DeadPosition,
    /// 9.6.1
    FivefoldRepetition,
    /// 9.6.2
    SeventyFiveMoves,
    /// 6.9: flag fell, opponent can mate: loss.
    FlagFall,
    /// 6.9: flag fell but the opponent cannot checkmate: draw.
    FlagFallOpponentCannotMate,
    /// 7.5.5: second completed illegal move: loss.
    SecondIllegalMove,
    /// 7.5.5: second illegal move but the opponent cannot checkmate: draw.
    SecondIllegalMoveOpponentCannotMate,
    /// 9.2 correct claim.
    ThreefoldClaim,
    /// 9.3 correct claim.
    FiftyMoveClaim,
    /// 5.1.2
    Resignation,
    /// 5.2.3
    DrawAgreement,
    /// Guidelines III.3.1.2: both flags, order unknown, final period.
    BothFlagsFallenFinalPeriod,
    /// Guidelines III.5.1.
    QuickplayFinishClaim,
    /// Guidelines I.8.1: the sealed move is ambiguous: loss.
    SealedMoveAmbiguous,
    /// Guidelines I.8.2: the sealed move cannot be read: loss.
    SealedMoveUnreadable,
    /// Guidelines I.8.3: the sealed move is illegal: loss.
    SealedMoveIllegal,
    /// Guidelines I.8 with 6.9: a faulty sealed move, but the opponent cannot checkmate:
    /// draw (ADR clock-009).
    SealedMoveFaultOpponentCannotMate,
    /// Guidelines I.10: arrived after the default time at the resumption: loss.
    AbsentAtResumption,
}

impl Termination {
    /// The article of the Laws.
    pub fn article(self) -> &'static str {
        match self {
            Termination::Checkmate => "5.1.1",
            Termination::Stalemate => "5.2.1",
            Termination::DeadPosition => "5.2.2",
            Termination::FivefoldRepetition => "9.6.1",
            Termination::SeventyFiveMoves => "9.6.2",
            Termination::FlagFall | Termination::FlagFallOpponentCannotMate => "6.9",
            Termination::SecondIllegalMove | Termination::SecondIllegalMoveOpponentCannotMate => {
                "7.5.5"
            }
            Termination::ThreefoldClaim => "9.2",
            Termination::FiftyMoveClaim => "9.3",
            Termination::Resignation => "5.1.2",
            Termination::DrawAgreement => "5.2.3",
            Termination::BothFlagsFallenFinalPeriod => "Guidelines III.3.1.2",
            Termination::QuickplayFinishClaim => "Guidelines III.5.1",
            Termination::SealedMoveAmbiguous => "Guidelines I.8.1",
            Termination::SealedMoveUnreadable => "Guidelines I.8.2",
            Termination::SealedMoveIllegal => "Guidelines I.8.3",
            Termination::SealedMoveFaultOpponentCannotMate => "Guidelines I.8",
            Termination::AbsentAtResumption => "Guidelines I.10",
        }
    }
}

/// How and when a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameEnd {
    pub result: GameResult,
    pub termination: Termination,
    /// The instant the game ended (for a flag: the exact instant it fell).
    pub at: Instant,
}

/// What an event did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// The clock was started.
    Started {
        at: Instant,
    },
    /// A move was played (and, unless it ended the game, the clock pressed).
    MovePlayed {
        ply: u32,
        side: Side,
        san: String,
        uci: String,
        used_ms: Millis,
        remaining_ms: Millis,
    },
    /// A new period started for `side` and its time was added.
    PeriodStarted {
        side: Side,
        period_index: usize,
        added_ms: Millis,
    },
    /// Time was added to `side` (penalty or arbiter), with the article.
    TimeAdded {
        side: Side,
        ms: Millis,
        article: &'static str,
    },
    /// Time was removed from `side` by the arbiter.
    TimeRemoved {
        side: Side,
        ms: Millis,
    },
    /// The clock was paused / resumed.
    Paused,
    Resumed,
    /// A flag fell at this exact instant.
    FlagFell {
        side: Side,
        at: Instant,
    },
    /// A completed illegal move was counted (7.5.5).
    IllegalMoveCounted {
        by: Side,
        count: u8,
    },
    /// The position before the irregularity was reinstated (7.5.1): the game now has `plies`
    /// plies.
    PositionReinstated {
        plies: u32,
    },
    /// A draw claim was found incorrect (9.5.3); `must_play` is the declared move, if any.
    ClaimRejected {
        by: Side,
        rule: ClaimRule,
        must_play: Option<String>,
    },
    /// Guidelines III.4: an increment was introduced for both players.
    IncrementIntroduced {
        ms: Millis,
    },
    /// Guidelines III.3.1.1: both flags fell in a non-final period: play continues.
    PlayContinues,
    /// The event came after a flag fall it did not know about; it was not applied.
    EventAfterFlagIgnored,
    /// Guidelines I.1: the game is adjourned; `by` sealed move `move_number`; the clock is
    /// stopped with these times left (White first). The sealed move is not in the effect.
    Adjourned {
        by: Side,
        move_number: u32,
        remaining_ms: [Millis; 2],
        charged_ms: Millis,
    },
    /// Guidelines I.5: the adjourned game resumes with these times (White first).
    ResumedFromAdjournment {
        remaining_ms: [Millis; 2],
    },
    /// Guidelines I.9.1 / I.9.2: the envelope was opened (the sealed move is now shown).
    EnvelopeOpened,
    /// Guidelines I.9.2: the game resumed with the envelope closed: the responder's clock
    /// runs; the sealed move is played but hidden until the envelope is opened.
    EnvelopeKeptClosed,
    /// Guidelines I.12.1: the envelope is missing: the sealer is to move.
    EnvelopeMissing,
    /// The game is over.
    GameOver(GameEnd),
}

/// Why an event was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum Rejection {
    #[error("the game is already over ({termination:?}, {result:?})")]
    GameOver {
        result: GameResult,
        termination: Termination,
    },
    #[error("the game has not started")]
    NotStarted,
    #[error("event at {got} ms is before the last event at {last} ms")]
    TimeWentBackwards { last: Instant, got: Instant },
    #[error("cannot read move {text:?}")]
    UnreadableMove { text: String },
    #[error("move {text:?} is not legal in {fen}")]
    IllegalMove { text: String, fen: String },
    #[error("{got:?} does not have the move ({expected:?} has)")]
    NotYourMove { expected: Side, got: Side },
    #[error("after an incorrect claim {side:?} must play the declared move {expected} (9.5.3)")]
    MustPlayDeclaredMove { side: Side, expected: String },
    #[error("no ply {ply} in this game of {plies} plies")]
    NoSuchPly { ply: u32, plies: u32 },
    #[error("ply {ply} was played by {actual:?}, not {claimed:?}")]
    WrongOffender {
        ply: u32,
        actual: Side,
        claimed: Side,
    },
    #[error("the opponent has made the next move: the illegal move stands (A.5.2)")]
    IllegalMoveStands,
    #[error("{0}")]
    Clock(ClockError),
    #[error("Guidelines III do not apply: {why}")]
    GuidelinesIIINotApplicable { why: &'static str },
    #[error(
        "both flags fell but the order is unknown and Guidelines III do not apply: the flag indicator or the arbiter decides (A.5.3)"
    )]
    FlagOrderUnknown,
    #[error("bad start position: {why}")]
    BadStartPosition { why: String },
    #[error(
        "the game is adjourned: only its resumption, a draw agreed or a resignation (Guidelines I.6)"
    )]
    Adjourned,
    #[error("the game is not adjourned")]
    NotAdjourned,
    #[error("no envelope is closed: {why}")]
    NoClosedEnvelope { why: &'static str },
}

/// One ply of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyRecord {
    pub side: Side,
    pub san: String,
    pub uci: String,
    /// Instant of the move.
    pub at: Instant,
    /// Time used on the move.
    pub used_ms: Millis,
    /// The mover's remaining time after the move (what `[%clk]` shows).
    pub remaining_ms: Millis,
    /// Time the press credited (bonus + period time); withdrawn if the ply is taken back.
    pub credited_ms: Millis,
}

/// A game under the Laws of Chess.
#[derive(Debug, Clone)]
pub struct Game {
    config: GameConfig,
    position: Chess,
    /// positions[i] = position before ply i; positions.len() == plies.len() + 1 after the last
    /// push (the last element equals `position`).
    positions: Vec<Chess>,
    keys: Vec<u64>,
    plies: Vec<PlyRecord>,
    clock: ChessClock,
    illegal_moves: [u8; 2],
    must_play: Option<(Side, Move, String)>,
    end: Option<GameEnd>,
    last_instant: Instant,
    /// Guidelines I: the envelope of an adjourned game, until it is opened.
    adjournment: Option<Envelope>,
}

fn rej(e: ClockError) -> Rejection {
    match e {
        ClockError::TimeWentBackwards { last, got } => Rejection::TimeWentBackwards { last, got },
        ClockError::NotStarted => Rejection::NotStarted,
        other => Rejection::Clock(other),
    }
}

impl Game {
    /// A new game, clock not started.
    pub fn new(config: GameConfig) -> Result<Self, Rejection> {
        let position: Chess = match &config.start_fen {
            None => Chess::default(),
            Some(f) => f
                .parse::<Fen>()
                .map_err(|e| Rejection::BadStartPosition { why: e.to_string() })?
                .into_position(config.variant.castling_mode())
                .map_err(|e| Rejection::BadStartPosition { why: e.to_string() })?,
        };
        Ok(Self::build(config, position))
    }

    /// A game from the initial position whatever `config.start_fen` says (cannot fail).
    pub fn new_from_initial_position(mut config: GameConfig) -> Self {
        config.start_fen = None;
        let position = match config.variant {
            Variant::Standard => Chess::default(),
            Variant::Chess960 => {
                crate::laws::guidelines_ii_chess960::StartPosition::STANDARD.position()
            }
        };
        Self::build(config, position)
    }

    fn build(config: GameConfig, position: Chess) -> Self {
        let clock = ChessClock::new(config.control.clone(), config.credit);
        Game {
            keys: vec![position_key(&position)],
            positions: vec![position.clone()],
            position,
            plies: Vec::new(),
            clock,
            illegal_moves: [0, 0],
            must_play: None,
            end: None,
            last_instant: 0,
            adjournment: None,
            config,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }
    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.position
    }
    /// The current position as FEN.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }
    /// The plies played.
    pub fn plies(&self) -> &[PlyRecord] {
        &self.plies
    }
    /// The clock.
    pub fn clock(&self) -> &ChessClock {
        &self.clock
    }
    /// How and when the game ended, if it has.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }
    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.position.turn().into()
    }
    /// Guidelines I: the envelope while the game is adjourned, or resumed with the envelope
    /// closed (I.9.2). Holds the sealed move: show it to the arbiter only.
    pub fn adjournment(&self) -> Option<&Envelope> {
        self.adjournment.as_ref()
    }
    /// Whether the game is adjourned and not yet resumed.
    pub fn is_adjourned(&self) -> bool {
        self.adjournment
            .as_ref()
            .is_some_and(|e| !e.resumed_unopened)
    }
    /// How many plies are shown to everyone: all of them, but the sealed move while the
    /// envelope is closed (I.7, I.9.2).
    pub fn public_plies(&self) -> &[PlyRecord] {
        match &self.adjournment {
            Some(e) if e.resumed_unopened => &self.plies[..self.plies.len().saturating_sub(1)],
            _ => &self.plies,
        }
    }
    /// The position shown to everyone (before the sealed move while the envelope is closed).
    pub fn public_position(&self) -> &Chess {
        &self.positions[self.public_plies().len()]
    }
    /// [`Game::public_position`] as FEN.
    pub fn public_fen(&self) -> String {
        Fen::from_position(self.public_position(), EnPassantMode::Legal).to_string()
    }
    /// Completed illegal moves counted per side (White first).
    pub fn illegal_moves(&self) -> [u8; 2] {
        self.illegal_moves
    }
    /// When the side to move's flag falls if nothing happens: schedule a
    /// [`GameEvent::FlagCheck`] then. `None` if no clock runs.
    pub fn flag_instant(&self) -> Option<Instant> {
        if self.end.is_some() {
            return None;
        }
        self.clock.flag_instant()
    }
    /// How often the current position has occurred (9.2.3 identity).
    pub fn repetitions(&self) -> usize {
        let n = self.keys.len();
        occurrences(
            &self.keys[..n - 1],
            self.keys[n - 1],
            self.position.halfmoves(),
        )
    }
    /// Legal moves in UCI notation.
    pub fn legal_moves_uci(&self) -> Vec<String> {
        self.position
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(self.castling_mode()).to_string())
            .collect()
    }

    /// How castling is read and written: Chess960 (II.3, UCI king-to-rook) or standard.
    pub fn castling_mode(&self) -> CastlingMode {
        self.config.variant.castling_mode()
    }

    /// Applies an event. On `Err`, nothing changed.
    pub fn apply(&mut self, event: &GameEvent) -> Result<Vec<Effect>, Rejection> {
        let at = event.at();
        if at < self.last_instant {
            return Err(Rejection::TimeWentBackwards {
                last: self.last_instant,
                got: at,
            });
        }
        if let Some(end) = self.end {
            return Err(Rejection::GameOver {
                result: end.result,
                termination: end.termination,
            });
        }
        if !matches!(event, GameEvent::Start { .. }) && !self.clock.is_started() {
            return Err(Rejection::NotStarted);
        }
        if self.is_adjourned()
            && !matches!(
                event,
                GameEvent::ResumeAdjourned { .. }
                    | GameEvent::Resign { .. }
                    | GameEvent::DrawAgreed { .. }
                    | GameEvent::AbsentAtResumption { .. }
                    | GameEvent::FlagCheck { .. }
            )
        {
            return Err(Rejection::Adjourned);
        }
        let mut fx = Vec::new();
        // Every check that can refuse the event runs before the first change of state, so a
        // rejection leaves the game as it was (the property test `rejections_change_nothing`
        // holds this). Bringing the clock up to `at` changes its bookkeeping, not its readings.
        if !matches!(event, GameEvent::Start { .. }) && self.flag_check(at, &mut fx)? {
            if !matches!(event, GameEvent::FlagCheck { .. }) {
                fx.push(Effect::EventAfterFlagIgnored);
            }
            self.last_instant = at;
            return Ok(fx);
        }
        self.dispatch(event, &mut fx)?;
        self.last_instant = at;
        Ok(fx)
    }

    /// Law 6.9: the game after `side`'s flag fell at `when`.
    fn flag_end(&self, side: Side, when: Instant) -> GameEnd {
        if cannot_checkmate(&self.position, side.other()) {
            GameEnd {
                result: GameResult::Draw,
                termination: Termination::FlagFallOpponentCannotMate,
                at: when,
            }
        } else {
            GameEnd {
                result: GameResult::win_for(side.other()),
                termination: Termination::FlagFall,
                at: when,
            }
        }
    }

    /// Advances the clock to `at`; if a flag fell, ends the game by 6.9 and returns true.
    fn flag_check(&mut self, at: Instant, fx: &mut Vec<Effect>) -> Result<bool, Rejection> {
        match self.clock.advance_to(at).map_err(rej)? {
            None => Ok(false),
            Some((side, when)) => {
                fx.push(Effect::FlagFell { side, at: when });
                let end = self.flag_end(side, when);
                self.finish(end, at, fx)?;
                Ok(true)
            }
        }
    }

    fn finish(&mut self, end: GameEnd, at: Instant, fx: &mut Vec<Effect>) -> Result<(), Rejection> {
        self.clock.stop(at).map_err(rej)?;
        self.end = Some(end);
        fx.push(Effect::GameOver(end));
        Ok(())
    }

    fn parse_move(&self, position: &Chess, mv: &MoveText) -> Result<Move, Rejection> {
        let illegal = |text: &str| Rejection::IllegalMove {
            text: text.to_string(),
            fen: Fen::from_position(position, EnPassantMode::Legal).to_string(),
        };
        match mv {
            MoveText::San(t) => {
                let san = SanPlus::from_ascii(t.trim().as_bytes())
                    .map(|s| s.san)
                    .or_else(|_| San::from_ascii(t.trim().as_bytes()))
                    .map_err(|_| Rejection::UnreadableMove { text: t.clone() })?;
                san.to_move(position).map_err(|_| illegal(t))
            }
            MoveText::Uci(t) => {
                let uci = UciMove::from_ascii(t.trim().as_bytes())
                    .map_err(|_| Rejection::UnreadableMove { text: t.clone() })?;
                uci.to_move(position)
                    .or_else(|e| match self.config.variant {
                        Variant::Chess960 => king_to_final_square(position, uci).ok_or(e),
                        Variant::Standard => Err(e),
                    })
                    .map_err(|_| illegal(t))
            }
        }
    }

    fn penalty(&self) -> Millis {
        penalty_time(self.config.edition, self.config.rate)
    }

    fn dispatch(&mut self, event: &GameEvent, fx: &mut Vec<Effect>) -> Result<(), Rejection> {
        match event {
            GameEvent::Start { at } => {
                self.clock
                    .start(self.position.turn().into(), *at)
                    .map_err(rej)?;
                fx.push(Effect::Started { at: *at });
                Ok(())
            }
            GameEvent::FlagCheck { .. } => Ok(()),
            GameEvent::Move { at, mv } => self.play(*at, mv, fx),
            GameEvent::Pause { at } => {
                self.clock.pause(*at).map_err(rej)?;
                fx.push(Effect::Paused);
                Ok(())
            }
            GameEvent::Resume { at } => {
                self.clock.resume(*at).map_err(rej)?;
                fx.push(Effect::Resumed);
                Ok(())
            }
            GameEvent::AdjustTime { at, side, delta_ms } => {
                self.adjust(*side, *delta_ms, *at, "6.10.2", fx)
            }
            GameEvent::IllegalMoveCompleted {
                at,
                by,
                completed_at_ply,
            } => self.illegal_move(*at, *by, *completed_at_ply, fx),
            GameEvent::DrawClaim {
                at,
                by,
                rule,
                intended,
            } => self.claim(*at, *by, *rule, intended.as_ref(), fx),
            GameEvent::Resign { at, by } => self.finish(
                GameEnd {
                    result: GameResult::win_for(by.other()),
                    termination: Termination::Resignation,
                    at: *at,
                },
                *at,
                fx,
            ),
            GameEvent::DrawAgreed { at } => self.finish(
                GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::DrawAgreement,
                    at: *at,
                },
                *at,
                fx,
            ),
            GameEvent::BothFlagsFallen { at, first } => self.both_flags(*at, *first, fx),
            GameEvent::QuickplayFinishClaim { at, by, decision } => {
                self.quickplay_claim(*at, *by, *decision, fx)
            }
            GameEvent::QuickplayIncrementRequest {
                at,
                by,
                arbiter_grants,
            } => self.quickplay_increment(*at, *by, *arbiter_grants, fx),
            GameEvent::Adjourn {
                at,
                by,
                sealed,
                session_end,
            } => self.adjourn(*at, *by, sealed, *session_end, fx),
            GameEvent::ResumeAdjourned { at, how } => self.resume_adjourned(*at, *how, fx),
            GameEvent::OpenEnvelope { .. } => match &self.adjournment {
                Some(e) if e.resumed_unopened => {
                    self.adjournment = None;
                    fx.push(Effect::EnvelopeOpened);
                    Ok(())
                }
                _ => Err(Rejection::NoClosedEnvelope {
                    why: "the game is not resumed with its envelope closed (I.9.2)",
                }),
            },
            GameEvent::AbsentAtResumption { at, absent } => {
                self.absent_at_resumption(*at, *absent, fx)
            }
        }
    }

    /// I.1.1 / I.1.2: seal, charge the time to the session's end, stop the clock.
    fn adjourn(
        &mut self,
        at: Instant,
        by: Side,
        sealed: &MoveText,
        session_end: Option<Instant>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        if self.adjournment.is_some() {
            return Err(Rejection::NoClosedEnvelope {
                why: "the last envelope must be opened first (I.9.2)",
            });
        }
        let to_move = self.side_to_move();
        if to_move != by {
            return Err(Rejection::NotYourMove {
                expected: to_move,
                got: by,
            });
        }
        if let MoveText::San(t) | MoveText::Uci(t) = sealed
            && t.trim().is_empty()
        {
            return Err(Rejection::UnreadableMove { text: t.clone() });
        }
        let charged = session_end.map_or(0, |end| end.saturating_sub(at));
        if charged > 0 {
            let flag = self
                .clock
                .adjust(by, -(charged.min(i64::MAX as u64) as i64), at);
            if flag.map_err(rej)?.is_some() {
                // the time to the session's end exhausts the sealer's clock: 6.9
                self.end_by_recorded_flag(fx);
                return Ok(());
            }
        }
        if !self.clock.is_paused() {
            self.clock.pause(at).map_err(rej)?;
        }
        let remaining_ms = self.clock.remaining_both_at(at);
        let move_number = self.position.fullmoves().get();
        self.adjournment = Some(Envelope {
            sealed_by: by,
            sealed_move: sealed.clone(),
            move_number,
            fen: Fen::from_position(&self.position, EnPassantMode::Legal).to_string(),
            remaining_ms,
            at,
            charged_ms: charged,
            resumed_unopened: false,
        });
        fx.push(Effect::Adjourned {
            by,
            move_number,
            remaining_ms,
            charged_ms: charged,
        });
        Ok(())
    }

    /// I.5, I.9.1, I.9.2, I.12.1.
    fn resume_adjourned(
        &mut self,
        at: Instant,
        how: Resumption,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        if !self.is_adjourned() {
            return Err(Rejection::NotAdjourned);
        }
        self.clock.resume(at).map_err(rej)?;
        fx.push(Effect::ResumedFromAdjournment {
            remaining_ms: self.clock.remaining_both_at(at),
        });
        match how {
            Resumption::EnvelopeMissing => {
                self.adjournment = None;
                fx.push(Effect::EnvelopeMissing);
                Ok(())
            }
            Resumption::ResponderPresent => {
                self.open_sealed(at, fx)?;
                if self.adjournment.take().is_some() {
                    fx.push(Effect::EnvelopeOpened);
                }
                Ok(())
            }
            Resumption::ResponderAbsent => {
                self.open_sealed(at, fx)?;
                match (&mut self.adjournment, self.end) {
                    (Some(e), None) => {
                        e.resumed_unopened = true;
                        fx.push(Effect::EnvelopeKeptClosed);
                    }
                    (Some(_), Some(_)) => {
                        // the sealed move ended the game, or was faulty: shown
                        self.adjournment = None;
                        fx.push(Effect::EnvelopeOpened);
                    }
                    (None, _) => {}
                }
                Ok(())
            }
        }
    }

    /// I.8: judge the sealed move; a fault loses (draw if the opponent cannot checkmate);
    /// else it is played at `at` (it may end the game: 5.1.1, 5.2, 9.6).
    fn open_sealed(&mut self, at: Instant, fx: &mut Vec<Effect>) -> Result<(), Rejection> {
        let Some(env) = self.adjournment.clone() else {
            return Err(Rejection::NotAdjourned);
        };
        match judge_sealed_move(&self.position, &env.sealed_move) {
            Ok(m) => self.play_move(at, m, fx),
            Err(fault) => {
                let by = env.sealed_by;
                let end = if cannot_checkmate(&self.position, by.other()) {
                    GameEnd {
                        result: GameResult::Draw,
                        termination: Termination::SealedMoveFaultOpponentCannotMate,
                        at,
                    }
                } else {
                    GameEnd {
                        result: GameResult::win_for(by.other()),
                        termination: match fault {
                            SealedMoveFault::Ambiguous => Termination::SealedMoveAmbiguous,
                            SealedMoveFault::Unreadable => Termination::SealedMoveUnreadable,
                            SealedMoveFault::Illegal => Termination::SealedMoveIllegal,
                        },
                        at,
                    }
                };
                self.finish(end, at, fx)
            }
        }
    }

    /// I.10: `absent` arrived after the default time.
    fn absent_at_resumption(
        &mut self,
        at: Instant,
        absent: Side,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        let Some(env) = self.adjournment.clone() else {
            return Err(Rejection::NotAdjourned);
        };
        if env.resumed_unopened {
            // I.9.2 then I.10: the responder never came
            let responder = self.side_to_move();
            if absent != responder {
                return Err(Rejection::WrongOffender {
                    ply: self.plies.len().saturating_sub(1) as u32,
                    actual: responder,
                    claimed: absent,
                });
            }
        } else {
            // the envelope is opened for the arbiter: a faulty sealed move loses (I.8), a
            // sealed move that ends the game decides it (I.10, second sentence)
            match judge_sealed_move(&self.position, &env.sealed_move) {
                Err(_) => {
                    self.clock.resume(at).map_err(rej)?;
                    let r = self.open_sealed(at, fx);
                    self.adjournment = None;
                    return r;
                }
                Ok(m) => {
                    let mut after = self.position.clone();
                    after.play_unchecked(m);
                    if after.is_checkmate() || after.is_stalemate() || is_dead_position(&after) {
                        self.clock.resume(at).map_err(rej)?;
                        let r = self.play_move(at, m, fx);
                        self.adjournment = None;
                        fx.push(Effect::EnvelopeOpened);
                        return r;
                    }
                }
            }
        }
        self.adjournment = None;
        self.finish(
            GameEnd {
                result: GameResult::win_for(absent.other()),
                termination: Termination::AbsentAtResumption,
                at,
            },
            at,
            fx,
        )
    }

    fn adjust(
        &mut self,
        side: Side,
        delta_ms: i64,
        at: Instant,
        article: &'static str,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        let flag = self.clock.adjust(side, delta_ms, at).map_err(rej)?;
        if delta_ms >= 0 {
            fx.push(Effect::TimeAdded {
                side,
                ms: delta_ms.unsigned_abs(),
                article,
            });
        } else {
            fx.push(Effect::TimeRemoved {
                side,
                ms: delta_ms.unsigned_abs(),
            });
        }
        if flag.is_some() {
            // the adjustment exhausted the running side's time: its flag falls now
            self.end_by_recorded_flag(fx);
        }
        Ok(())
    }

    fn play(&mut self, at: Instant, mv: &MoveText, fx: &mut Vec<Effect>) -> Result<(), Rejection> {
        if self.clock.is_paused() {
            return Err(Rejection::Clock(ClockError::Paused));
        }
        let m = self.parse_move(&self.position, mv)?;
        self.play_move(at, m, fx)
    }

    fn play_move(&mut self, at: Instant, m: Move, fx: &mut Vec<Effect>) -> Result<(), Rejection> {
        let side: Side = self.position.turn().into();
        if let Some((s, expected, text)) = &self.must_play
            && *s == side
        {
            if *expected != m {
                return Err(Rejection::MustPlayDeclaredMove {
                    side,
                    expected: text.clone(),
                });
            }
            self.must_play = None;
        }
        let san = SanPlus::from_move(self.position.clone(), m).to_string();
        let uci = m.to_uci(self.castling_mode()).to_string();
        let mut after = self.position.clone();
        after.play_unchecked(m);
        let halfmoves = after.halfmoves();
        let key = position_key(&after);
        let reps = occurrences(&self.keys, key, halfmoves);
        self.position = after;
        self.positions.push(self.position.clone());
        self.keys.push(key);
        let ply = self.plies.len() as u32;

        // Laws 5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2 (mate first: 9.6.2 last sentence).
        let ending = if self.position.is_checkmate() {
            Some((GameResult::win_for(side), Termination::Checkmate))
        } else if self.position.is_stalemate() {
            Some((GameResult::Draw, Termination::Stalemate))
        } else if is_dead_position(&self.position) {
            Some((GameResult::Draw, Termination::DeadPosition))
        } else if reps >= 5 {
            Some((GameResult::Draw, Termination::FivefoldRepetition))
        } else if halfmoves >= 150 {
            Some((GameResult::Draw, Termination::SeventyFiveMoves))
        } else {
            None
        };

        let (used, remaining, credited) = if ending.is_some() {
            // 6.2.1: a move that ends the game is completed without a press.
            (
                self.clock.used_on_current_move(),
                self.clock.remaining_at(side, at),
                0,
            )
        } else {
            let r = self.clock.press(side, at).map_err(rej)?;
            if let Some((p, t)) = r.period_started {
                fx.push(Effect::PeriodStarted {
                    side,
                    period_index: p,
                    added_ms: t,
                });
            }
            (r.used, r.remaining_after, r.credited)
        };
        self.plies.push(PlyRecord {
            side,
            san: san.clone(),
            uci: uci.clone(),
            at,
            used_ms: used,
            remaining_ms: remaining,
            credited_ms: credited,
        });
        fx.push(Effect::MovePlayed {
            ply,
            side,
            san,
            uci,
            used_ms: used,
            remaining_ms: remaining,
        });
        if let Some((result, termination)) = ending {
            self.finish(
                GameEnd {
                    result,
                    termination,
                    at,
                },
                at,
                fx,
            )?;
        }
        Ok(())
    }

    fn illegal_move(
        &mut self,
        at: Instant,
        by: Side,
        completed_at_ply: Option<u32>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        let plies = self.plies.len() as u32;
        match completed_at_ply {
            None => {
                let to_move = self.side_to_move();
                if to_move != by {
                    return Err(Rejection::NotYourMove {
                        expected: to_move,
                        got: by,
                    });
                }
            }
            Some(p) => {
                if p >= plies {
                    return Err(Rejection::NoSuchPly { ply: p, plies });
                }
                let actual = self.plies[p as usize].side;
                if actual != by {
                    return Err(Rejection::WrongOffender {
                        ply: p,
                        actual,
                        claimed: by,
                    });
                }
                let late = p + 1 < plies; // the opponent has completed a move since
                let partial = self.config.rate != RateOfPlay::Standard
                    && self.config.supervision == Supervision::Partial;
                if late && partial {
                    return Err(Rejection::IllegalMoveStands);
                }
                // 7.5.1: reinstate the position before the irregularity.
                let mut undone = [0u32; 2];
                let mut credited = [0 as Millis; 2];
                for r in &self.plies[p as usize..] {
                    undone[r.side.index()] += 1;
                    credited[r.side.index()] += r.credited_ms;
                }
                self.clock
                    .undo_presses(undone, credited, by, at)
                    .map_err(rej)?;
                self.plies.truncate(p as usize);
                self.positions.truncate(p as usize + 1);
                self.keys.truncate(p as usize + 1);
                self.position = self.positions[p as usize].clone();
                self.must_play = None;
                fx.push(Effect::PositionReinstated { plies: p });
                if self.clock.fallen_flag().is_some() {
                    // withdrawing the credited time exhausted the offender's clock
                    self.end_by_recorded_flag(fx);
                    return Ok(());
                }
            }
        }
        let i = by.index();
        self.illegal_moves[i] = self.illegal_moves[i].saturating_add(1);
        fx.push(Effect::IllegalMoveCounted {
            by,
            count: self.illegal_moves[i],
        });
        if self.illegal_moves[i] >= 2 {
            let end = if cannot_checkmate(&self.position, by.other()) {
                GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::SecondIllegalMoveOpponentCannotMate,
                    at,
                }
            } else {
                GameEnd {
                    result: GameResult::win_for(by.other()),
                    termination: Termination::SecondIllegalMove,
                    at,
                }
            };
            return self.finish(end, at, fx);
        }
        let pen = self.penalty();
        self.clock.adjust(by.other(), pen as i64, at).map_err(rej)?;
        fx.push(Effect::TimeAdded {
            side: by.other(),
            ms: pen,
            article: "7.5.5",
        });
        Ok(())
    }

    /// Ends the game by 6.9 from the flag fall the clock has recorded (clock already stopped).
    fn end_by_recorded_flag(&mut self, fx: &mut Vec<Effect>) {
        if let Some((side, when)) = self.clock.fallen_flag() {
            fx.push(Effect::FlagFell { side, at: when });
            let end = self.flag_end(side, when);
            self.end = Some(end);
            fx.push(Effect::GameOver(end));
        }
    }

    fn claim(
        &mut self,
        at: Instant,
        by: Side,
        rule: ClaimRule,
        intended: Option<&MoveText>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        let to_move = self.side_to_move();
        if to_move != by {
            return Err(Rejection::NotYourMove {
                expected: to_move,
                got: by,
            });
        }
        let intended_move = match intended {
            Some(t) => Some(self.parse_move(&self.position, t)?),
            None => None,
        };
        let now_ok = match rule {
            ClaimRule::Threefold => self.repetitions() >= 3,
            ClaimRule::FiftyMoves => self.position.halfmoves() >= 100,
        };
        let after_ok = intended_move.is_some_and(|m| {
            let mut after = self.position.clone();
            after.play_unchecked(m);
            match rule {
                ClaimRule::Threefold => {
                    occurrences(&self.keys, position_key(&after), after.halfmoves()) >= 3
                }
                ClaimRule::FiftyMoves => after.halfmoves() >= 100,
            }
        });
        if now_ok || after_ok {
            let termination = match rule {
                ClaimRule::Threefold => Termination::ThreefoldClaim,
                ClaimRule::FiftyMoves => Termination::FiftyMoveClaim,
            };
            return self.finish(
                GameEnd {
                    result: GameResult::Draw,
                    termination,
                    at,
                },
                at,
                fx,
            );
        }
        // 9.5.3 (+ A.3): incorrect claim.
        let pen = self.penalty();
        self.clock.adjust(by.other(), pen as i64, at).map_err(rej)?;
        fx.push(Effect::TimeAdded {
            side: by.other(),
            ms: pen,
            article: "9.5.3",
        });
        let must_play = intended_move.map(|m| {
            let s = SanPlus::from_move(self.position.clone(), m).to_string();
            self.must_play = Some((by, m, s.clone()));
            s
        });
        fx.push(Effect::ClaimRejected {
            by,
            rule,
            must_play,
        });
        Ok(())
    }

    fn quickplay_applicable(&self) -> Result<(), Rejection> {
        if !self.config.quickplay_guidelines {
            return Err(Rejection::GuidelinesIIINotApplicable {
                why: "not announced for this event (III.2.1)",
            });
        }
        if self.config.rate == RateOfPlay::Blitz {
            return Err(Rejection::GuidelinesIIINotApplicable {
                why: "not for blitz (III.2.2)",
            });
        }
        if self.config.control.white.has_bonus() || self.config.control.black.has_bonus() {
            return Err(Rejection::GuidelinesIIINotApplicable {
                why: "only for games without increment (III.2.2)",
            });
        }
        Ok(())
    }

    fn both_flags(
        &mut self,
        at: Instant,
        first: Option<Side>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        if let Some(side) = first {
            // A.5.3 second paragraph / 6.9: the flag shown decides.
            fx.push(Effect::FlagFell { side, at });
            let end = self.flag_end(side, at);
            return self.finish(end, at, fx);
        }
        if self.quickplay_applicable().is_err() {
            return Err(Rejection::FlagOrderUnknown);
        }
        let side = self.side_to_move();
        if self.clock.in_final_period(side) {
            self.finish(
                GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::BothFlagsFallenFinalPeriod,
                    at,
                },
                at,
                fx,
            )
        } else {
            fx.push(Effect::PlayContinues);
            Ok(())
        }
    }

    /// Checks III.4 / III.5's common conditions: announced, no increment, not blitz, the
    /// claimant has the move and less than two minutes.
    fn quickplay_claimant(&self, at: Instant, by: Side) -> Result<(), Rejection> {
        self.quickplay_applicable()?;
        let to_move = self.side_to_move();
        if to_move != by {
            return Err(Rejection::NotYourMove {
                expected: to_move,
                got: by,
            });
        }
        if self.clock.remaining_at(by, at) >= 120_000 {
            return Err(Rejection::GuidelinesIIINotApplicable {
                why: "the player must have less than two minutes left (III.4 / III.5)",
            });
        }
        Ok(())
    }

    fn quickplay_increment(
        &mut self,
        at: Instant,
        by: Side,
        arbiter_grants: bool,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        self.quickplay_claimant(at, by)?;
        if !arbiter_grants {
            return Ok(());
        }
        const FIVE_SECONDS: Millis = 5_000;
        self.clock
            .introduce_increment(FIVE_SECONDS, at)
            .map_err(rej)?;
        fx.push(Effect::IncrementIntroduced { ms: FIVE_SECONDS });
        self.clock
            .adjust(by.other(), QUICKPLAY_EXTRA_TIME as i64, at)
            .map_err(rej)?;
        fx.push(Effect::TimeAdded {
            side: by.other(),
            ms: QUICKPLAY_EXTRA_TIME,
            article: "Guidelines III.4",
        });
        Ok(())
    }

    fn quickplay_claim(
        &mut self,
        at: Instant,
        by: Side,
        decision: QuickplayDecision,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Rejection> {
        self.quickplay_claimant(at, by)?;
        if !self.clock.in_final_period(by) {
            return Err(Rejection::GuidelinesIIINotApplicable {
                why: "only in the final period, where all remaining moves must be completed (III.1)",
            });
        }
        match decision {
            QuickplayDecision::Draw => self.finish(
                GameEnd {
                    result: GameResult::Draw,
                    termination: Termination::QuickplayFinishClaim,
                    at,
                },
                at,
                fx,
            ),
            QuickplayDecision::Postponed | QuickplayDecision::Rejected => {
                self.clock
                    .adjust(by.other(), QUICKPLAY_EXTRA_TIME as i64, at)
                    .map_err(rej)?;
                fx.push(Effect::TimeAdded {
                    side: by.other(),
                    ms: QUICKPLAY_EXTRA_TIME,
                    article: if decision == QuickplayDecision::Postponed {
                        "Guidelines III.5.2"
                    } else {
                        "Guidelines III.5.3"
                    },
                });
                Ok(())
            }
        }
    }

    /// Writes the game as PGN with a `[%clk]` comment after every move (the mover's remaining
    /// time), the given tags first (a `Result` tag is added or replaced from the game's end).
    pub fn to_pgn(&self, tags: &[(String, String)]) -> String {
        use std::fmt::Write as _;
        let result = self.end.map_or("*", |e| e.result.to_pgn());
        let mut out = String::new();
        let mut wrote_result = false;
        for (k, v) in tags {
            let v = if k == "Result" {
                wrote_result = true;
                result
            } else {
                v.as_str()
            };
            let _ = writeln!(
                out,
                "[{k} \"{}\"]",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            );
        }
        if !wrote_result {
            let _ = writeln!(out, "[Result \"{result}\"]");
        }
        if !tags.iter().any(|(k, _)| k == "TimeControl")
            && let Ok(tc) = TimeControlTag::Timed(self.config.control.clone()).to_pgn()
        {
            let _ = writeln!(out, "[TimeControl \"{tc}\"]");
        }
        if let Some(v) = self.config.variant.pgn_tag()
            && !tags.iter().any(|(k, _)| k == "Variant")
        {
            let _ = writeln!(out, "[Variant \"{v}\"]");
        }
        let start_fen = match (&self.config.start_fen, self.config.variant) {
            (Some(f), _) => Some(f.clone()),
            // a Chess960 game always names its start, even 518 (PGN: SetUp + FEN)
            (None, Variant::Chess960) => {
                Some(Fen::from_position(&self.positions[0], EnPassantMode::Legal).to_string())
            }
            (None, Variant::Standard) => None,
        };
        if let Some(f) = start_fen
            && !tags.iter().any(|(k, _)| k == "FEN")
        {
            let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{f}\"]");
        }
        out.push('\n');
        let start = &self.positions[0];
        let mut number = start.fullmoves().get();
        let mut line = String::new();
        for (i, p) in self.public_plies().iter().enumerate() {
            let mut tok = String::new();
            if p.side == Side::White {
                let _ = write!(tok, "{number}. ");
            } else if i == 0 {
                let _ = write!(tok, "{number}... ");
            }
            let _ = write!(tok, "{} {{[%clk {}]}}", p.san, format_clk(p.remaining_ms));
            if p.side == Side::Black {
                number += 1;
            }
            if line.len() + tok.len() + 1 > 79 && !line.is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            line.push_str(&tok);
            line.push(' ');
        }
        line.push_str(result);
        out.push_str(&line);
        out.push('\n');
        out
    }
}

/// Chess960 castling sent the way of the ordinary game, the king to its final square (a
/// sensor board's `b1g1`) rather than onto its rook: read as that castling when it is the
/// only legal move it can mean (ADR clock-008); else `None`.
fn king_to_final_square(position: &Chess, uci: UciMove) -> Option<Move> {
    let UciMove::Normal {
        from,
        to,
        promotion: None,
    } = uci
    else {
        return None;
    };
    let legal = position.legal_moves();
    if legal
        .iter()
        .any(|m| !matches!(m, Move::Castle { .. }) && m.from() == Some(from) && m.to() == to)
    {
        return None;
    }
    let mut castles = legal.iter().filter(|m| match m {
        Move::Castle { king, rook } => {
            let file = if rook > king {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            *king == from && shakmaty::Square::from_coords(file, king.rank()) == to
        }
        _ => false,
    });
    match (castles.next(), castles.next()) {
        (Some(m), None) => Some(*m),
        _ => None,
    }
}

/// `h:mm:ss` as in `[%clk]` (whole seconds, rounded down).
pub fn format_clk(ms: Millis) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}
