//! One board: its game under the Laws ([`clock::laws::Game`]) folded from the board's
//! events, and the pure decision that turns one telemetry item into events.
//!
//! The live path and the rebuild share one fold: [`decide`] tries the item on a copy of
//! the game and returns the events to append; only the appended events are then folded
//! into the board ([`Board::fold`]), exactly as a restart rebuilds it from the log.
use arbiter_proto::v1::{
    AdjournmentReported, BoardOpened, ClockPaused, ClockPressed, ClockResumed, ClockStarted,
    DeviceGlitch, DeviceObservation, DrawAgreed, DrawClaimed, FlagFell, GameAdjourned, GameEnded,
    GameResumed, IllegalMoveCompleted, MovePlayed, PlayerResigned, QuickplayClaimed,
    QuickplayIncrementRequested, ResultReported, Telemetry, TimeAdjusted, telemetry::Item,
};
use clock::laws::guidelines_i_adjourned::Resumption;
use clock::laws::guidelines_ii_chess960::{StartPosition, Variant, draw_by_lot, start_fen_of};
use clock::laws::{
    ClaimRule, Effect, Game, GameConfig, GameEnd, GameEvent, LawsEdition, MoveText,
    QuickplayDecision, Rejection, Supervision, format_clk,
};
use clock::{
    BoundedStamp, Instant, RateOfPlay, ServerTime, Side, StampRejection, TimeControl,
    TimeControlTag, bound_stamp,
};
use prost::Message;

/// Event types of this service.
pub mod types {
    pub const BOARD_OPENED: &str = "BoardOpened";
    pub const CLOCK_STARTED: &str = "ClockStarted";
    pub const MOVE_PLAYED: &str = "MovePlayed";
    pub const CLOCK_PRESSED: &str = "ClockPressed";
    pub const CLOCK_PAUSED: &str = "ClockPaused";
    pub const CLOCK_RESUMED: &str = "ClockResumed";
    pub const TIME_ADJUSTED: &str = "TimeAdjusted";
    pub const FLAG_FELL: &str = "FlagFell";
    pub const DRAW_CLAIMED: &str = "DrawClaimed";
    pub const PLAYER_RESIGNED: &str = "PlayerResigned";
    /// Guidelines III.4 request.
    pub const QUICKPLAY_INCREMENT_REQUESTED: &str = "QuickplayIncrementRequested";
    /// Guidelines III.5 claim.
    pub const QUICKPLAY_CLAIMED: &str = "QuickplayClaimed";
    pub const DRAW_AGREED: &str = "DrawAgreed";
    pub const DEVICE_GLITCH: &str = "DeviceGlitch";
    pub const ILLEGAL_MOVE_COMPLETED: &str = "IllegalMoveCompleted";
    pub const GAME_ENDED: &str = "GameEnded";
    pub const RESULT_REPORTED: &str = "ResultReported";
    /// Guidelines I.1: the sealed move and the envelope (clock service only).
    pub const GAME_ADJOURNED: &str = "GameAdjourned";
    /// Guidelines I.5 / I.9 / I.10 / I.12.1.
    pub const GAME_RESUMED: &str = "GameResumed";
    /// For the tournament record: the game is adjourned, its result pending.
    pub const ADJOURNMENT_REPORTED: &str = "AdjournmentReported";
}
use types::*;

/// A device reading further than this from the authoritative clock is flagged (devices
/// display whole seconds and stamp with some latency).
pub const READING_TOLERANCE_MS: u64 = 1_500;

/// The stream of a board.
pub fn stream_of(tournament_id: &str, board: u32) -> String {
    format!("board-{tournament_id}-{board}")
}

/// A refusal: a code for machines, the field at fault and a message naming it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reject {
    pub code: &'static str,
    pub field: &'static str,
    pub message: String,
}

impl Reject {
    pub fn new(code: &'static str, field: &'static str, message: impl std::fmt::Display) -> Self {
        Reject {
            code,
            field,
            message: format!("{field}: {message}"),
        }
    }
}

/// What [`decide`] wants appended, and what to tell the device.
#[derive(Debug, Clone, Default)]
pub struct Decided {
    /// (event type, payload) in order.
    pub events: Vec<(&'static str, Vec<u8>)>,
    /// What the Laws made of the item, for people.
    pub effects: Vec<String>,
    /// Contradicting device readings.
    pub anomalies: Vec<String>,
}

/// A board and its current game.
#[derive(Debug, Clone)]
pub struct Board {
    pub opened: BoardOpened,
    pub game: Game,
    /// The latest instant of any event of this game.
    pub last_at: Instant,
    /// Device readings flagged in this game.
    pub anomalies: u32,
    /// Version of the board's stream.
    pub version: i64,
    pub end: Option<GameEnd>,
}

/// `"white"` / `"black"`.
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn parse_side(field: &'static str, text: &str) -> Result<Side, Reject> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Side::White),
        "black" | "b" => Ok(Side::Black),
        other => Err(Reject::new(
            "invalid",
            field,
            format!("expected \"white\" or \"black\", found {other:?}"),
        )),
    }
}

/// Parses TRF26 222 notation, else a PGN `TimeControl` value.
pub fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    match TimeControl::parse_trf222(text) {
        Ok(tc) => Ok(tc),
        Err(trf) => match TimeControlTag::parse(text) {
            Ok(TimeControlTag::Timed(tc)) => Ok(tc),
            Ok(_) => Err(format!("{text:?} is not a timed control")),
            Err(_) => Err(format!(
                "{text:?} is neither TRF26 222 nor PGN TimeControl notation ({trf})"
            )),
        },
    }
}

/// `"2023"` (default) or `"2018"`.
pub fn parse_edition(text: &str) -> Result<LawsEdition, String> {
    match text.trim() {
        "" | "2023" | "laws-2023" => Ok(LawsEdition::Laws2023),
        "2018" | "laws-2018" => Ok(LawsEdition::Laws2018),
        other => Err(format!("expected \"2023\" or \"2018\", found {other:?}")),
    }
}

/// Rule edition recorded on events.
pub fn rule_edition(opened: &BoardOpened) -> String {
    format!("laws-{}", opened.laws_edition)
}

pub fn rate_name(r: RateOfPlay) -> &'static str {
    match r {
        RateOfPlay::Standard => "standard",
        RateOfPlay::Rapid => "rapid",
        RateOfPlay::Blitz => "blitz",
    }
}

/// Validates the `OpenBoard` fields into the event (`game_number` filled by the caller).
pub fn decide_open(
    previous: Option<&Board>,
    mut opened: BoardOpened,
) -> Result<BoardOpened, Reject> {
    if opened.tournament_id.is_empty() {
        return Err(Reject::new("invalid", "tournament_id", "must not be empty"));
    }
    if opened.tournament_id.len() > 100
        || !opened
            .tournament_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(Reject::new(
            "invalid",
            "tournament_id",
            "only ASCII letters, digits, '-' and '_', at most 100 (it is part of NATS subjects)",
        ));
    }
    if opened.board == 0 {
        return Err(Reject::new(
            "invalid",
            "board",
            "boards are numbered from 1",
        ));
    }
    parse_time_control(&opened.time_control)
        .map_err(|e| Reject::new("invalid", "time_control", e))?;
    let edition = parse_edition(&opened.laws_edition)
        .map_err(|e| Reject::new("invalid", "laws_edition", e))?;
    opened.laws_edition = match edition {
        LawsEdition::Laws2023 => "2023",
        LawsEdition::Laws2018 => "2018",
    }
    .into();
    opened.supervision = match parse_supervision(&opened.supervision)
        .map_err(|e| Reject::new("invalid", "supervision", e))?
    {
        Supervision::Partial => "partial",
        Supervision::CompetitionRules => "competition-rules",
    }
    .into();
    decide_start(&mut opened)?;
    if let Some(prev) = previous {
        if prev.end.is_none() && prev.game.clock().is_started() {
            return Err(Reject::new(
                "game_in_progress",
                "board",
                format!(
                    "board {} of {} has a game in progress (game {}); it must end first",
                    prev.opened.board, prev.opened.tournament_id, prev.opened.game_number
                ),
            ));
        }
        opened.game_number = prev.opened.game_number + 1;
    } else {
        opened.game_number = 1;
    }
    Ok(opened)
}

/// The variant and the starting position of `OpenBoard` (Guidelines II): `start_fen`
/// holds what the request gave (a number 0–959 or a FEN), `lot_seed` the seed of a draw by
/// lot (II.2). Filled in: the variant's name, the FEN of the start, its number.
fn decide_start(opened: &mut BoardOpened) -> Result<(), Reject> {
    let variant =
        Variant::parse(&opened.variant).map_err(|e| Reject::new("invalid", "variant", e))?;
    let given = opened.start_fen.trim().to_owned();
    match variant {
        Variant::Standard => {
            if !given.is_empty() || opened.lot_seed.is_some() {
                return Err(Reject::new(
                    "invalid",
                    "start_position",
                    "a starting position or a draw by lot is for variant \"chess960\" (Guidelines II)",
                ));
            }
            opened.variant = "standard".into();
            opened.start_fen.clear();
            opened.chess960_number = None;
        }
        Variant::Chess960 => {
            let (fen, number) = match (opened.lot_seed, given.is_empty()) {
                (Some(_), false) => {
                    return Err(Reject::new(
                        "invalid",
                        "start_position",
                        "give a starting position or draw it by lot, not both",
                    ));
                }
                (Some(seed), true) => {
                    let s = draw_by_lot(seed);
                    (s.fen(), Some(s.number()))
                }
                (None, true) => (
                    StartPosition::STANDARD.fen(),
                    Some(StartPosition::STANDARD.number()),
                ),
                (None, false) => {
                    if given.len() > 120 {
                        return Err(Reject::new(
                            "invalid",
                            "start_position",
                            "at most 120 characters (a number 0–959 or a FEN)",
                        ));
                    }
                    let (fen, start) = start_fen_of(&given)
                        .map_err(|e| Reject::new("invalid", "start_position", e))?;
                    (fen, start.map(|s| s.number()))
                }
            };
            opened.variant = "chess960".into();
            opened.start_fen = fen;
            opened.chess960_number = number.map(u32::from);
        }
    }
    Ok(())
}

/// The variant a `BoardOpened` names.
pub fn variant_of(opened: &BoardOpened) -> Variant {
    Variant::parse(&opened.variant).unwrap_or_default()
}

impl Board {
    /// The board as a `BoardOpened` event makes it.
    pub fn open(opened: BoardOpened, version: i64) -> Board {
        let tc =
            parse_time_control(&opened.time_control).unwrap_or_else(|_| TimeControl::unlimited());
        let mut config = GameConfig::new(tc);
        config.edition = parse_edition(&opened.laws_edition).unwrap_or_default();
        config.quickplay_guidelines = opened.quickplay_guidelines;
        config.supervision = parse_supervision(&opened.supervision).unwrap_or_default();
        config.variant = variant_of(&opened);
        if !opened.start_fen.is_empty() {
            config.start_fen = Some(opened.start_fen.clone());
        }
        let game = match Game::new(config.clone()) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(error = %e, "BoardOpened: bad start position; the initial position instead");
                Game::new_from_initial_position(config)
            }
        };
        Board {
            game,
            opened,
            last_at: 0,
            anomalies: 0,
            version,
            end: None,
        }
    }

    /// Folds one recorded event of this board's stream. Unknown or undecodable events
    /// are logged and skipped (the game is then what the rest of the log makes it).
    pub fn fold(board: &mut Option<Board>, event_type: &str, payload: &[u8], version: i64) {
        if event_type == BOARD_OPENED {
            match BoardOpened::decode(payload) {
                Ok(o) => *board = Some(Board::open(o, version)),
                Err(e) => tracing::error!(%e, "bad BoardOpened"),
            }
            return;
        }
        let Some(b) = board.as_mut() else {
            tracing::error!(event_type, "clock event before BoardOpened");
            return;
        };
        b.version = version;
        if let Err(e) = b.fold_game_event(event_type, payload) {
            tracing::error!(event_type, error = %e, "clock event not folded");
        }
    }

    fn fold_game_event(&mut self, event_type: &str, p: &[u8]) -> Result<(), String> {
        let de = |e: prost::DecodeError| e.to_string();
        let (at, ev, device): (u64, Option<GameEvent>, Option<DeviceObservation>) = match event_type
        {
            CLOCK_STARTED => {
                let e = ClockStarted::decode(p).map_err(de)?;
                (e.at_ms, Some(GameEvent::Start { at: e.at_ms }), e.device)
            }
            MOVE_PLAYED => {
                let e = MovePlayed::decode(p).map_err(de)?;
                let mv = MoveText::Uci(e.uci);
                (e.at_ms, Some(GameEvent::Move { at: e.at_ms, mv }), e.device)
            }
            CLOCK_PRESSED => {
                let e = ClockPressed::decode(p).map_err(de)?;
                (e.at_ms, None, e.device)
            }
            CLOCK_PAUSED => {
                let e = ClockPaused::decode(p).map_err(de)?;
                (e.at_ms, Some(GameEvent::Pause { at: e.at_ms }), e.device)
            }
            CLOCK_RESUMED => {
                let e = ClockResumed::decode(p).map_err(de)?;
                (e.at_ms, Some(GameEvent::Resume { at: e.at_ms }), e.device)
            }
            TIME_ADJUSTED => {
                let e = TimeAdjusted::decode(p).map_err(de)?;
                let side = parse_side("side", &e.side).map_err(|r| r.message)?;
                let ev = GameEvent::AdjustTime {
                    at: e.at_ms,
                    side,
                    delta_ms: e.delta_ms,
                };
                (e.at_ms, Some(ev), e.device)
            }
            FLAG_FELL => {
                let e = FlagFell::decode(p).map_err(de)?;
                (
                    e.at_ms,
                    Some(GameEvent::FlagCheck { at: e.at_ms }),
                    e.device,
                )
            }
            DRAW_CLAIMED => {
                let e = DrawClaimed::decode(p).map_err(de)?;
                let by = parse_side("side", &e.side).map_err(|r| r.message)?;
                let rule = parse_rule(&e.rule).map_err(|r| r.message)?;
                let intended = move_text(&e.intended_move);
                let ev = GameEvent::DrawClaim {
                    at: e.at_ms,
                    by,
                    rule,
                    intended,
                };
                (e.at_ms, Some(ev), e.device)
            }
            QUICKPLAY_INCREMENT_REQUESTED => {
                let e = QuickplayIncrementRequested::decode(p).map_err(de)?;
                let by = parse_side("side", &e.side).map_err(|r| r.message)?;
                let ev = GameEvent::QuickplayIncrementRequest {
                    at: e.at_ms,
                    by,
                    arbiter_grants: e.granted,
                };
                (e.at_ms, Some(ev), e.device)
            }
            QUICKPLAY_CLAIMED => {
                let e = QuickplayClaimed::decode(p).map_err(de)?;
                let by = parse_side("side", &e.side).map_err(|r| r.message)?;
                let decision = parse_decision("decision", &e.decision).map_err(|r| r.message)?;
                let ev = GameEvent::QuickplayFinishClaim {
                    at: e.at_ms,
                    by,
                    decision,
                };
                (e.at_ms, Some(ev), e.device)
            }
            PLAYER_RESIGNED => {
                let e = PlayerResigned::decode(p).map_err(de)?;
                let by = parse_side("side", &e.side).map_err(|r| r.message)?;
                (
                    e.at_ms,
                    Some(GameEvent::Resign { at: e.at_ms, by }),
                    e.device,
                )
            }
            DRAW_AGREED => {
                let e = DrawAgreed::decode(p).map_err(de)?;
                (
                    e.at_ms,
                    Some(GameEvent::DrawAgreed { at: e.at_ms }),
                    e.device,
                )
            }
            DEVICE_GLITCH => {
                let e = DeviceGlitch::decode(p).map_err(de)?;
                self.anomalies += 1;
                (e.at_ms, None, e.device)
            }
            ILLEGAL_MOVE_COMPLETED => {
                let e = IllegalMoveCompleted::decode(p).map_err(de)?;
                let by = parse_side("side", &e.side).map_err(|r| r.message)?;
                let ev = GameEvent::IllegalMoveCompleted {
                    at: e.at_ms,
                    by,
                    completed_at_ply: e.completed_at_ply,
                };
                (e.at_ms, Some(ev), e.device)
            }
            GAME_ADJOURNED => {
                let e = GameAdjourned::decode(p).map_err(de)?;
                let by = parse_side("sealed_by", &e.sealed_by).map_err(|r| r.message)?;
                let sealed = move_text(&e.sealed_move)
                    .unwrap_or_else(|| MoveText::San(e.sealed_move.clone()));
                let ev = GameEvent::Adjourn {
                    at: e.at_ms,
                    by,
                    sealed,
                    session_end: e.session_end_ms,
                };
                (e.at_ms, Some(ev), None)
            }
            GAME_RESUMED => {
                let e = GameResumed::decode(p).map_err(de)?;
                let ev = resumption_event(e.at_ms, &e.step, &e.absent).map_err(|r| r.message)?;
                (e.at_ms, Some(ev), None)
            }
            GAME_ENDED | RESULT_REPORTED | ADJOURNMENT_REPORTED => return Ok(()),
            other => return Err(format!("unknown event type {other}")),
        };
        if let Some(d) = device {
            self.anomalies += d.anomalies.len() as u32;
        }
        self.last_at = self.last_at.max(at);
        if let Some(ev) = ev {
            self.game.apply(&ev).map_err(|r| r.to_string())?;
            self.end = self.game.end();
        }
        Ok(())
    }
}

/// Rapid/blitz supervision (Laws A.4/A.5, B.2/B.3).
fn parse_supervision(text: &str) -> Result<Supervision, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "partial" => Ok(Supervision::Partial),
        "competition-rules" | "full" => Ok(Supervision::CompetitionRules),
        other => Err(format!(
            "expected \"partial\" (default) or \"competition-rules\", found {other:?}"
        )),
    }
}

fn parse_decision(field: &'static str, text: &str) -> Result<QuickplayDecision, Reject> {
    match text.trim().to_ascii_lowercase().as_str() {
        "draw" => Ok(QuickplayDecision::Draw),
        "postponed" => Ok(QuickplayDecision::Postponed),
        "rejected" => Ok(QuickplayDecision::Rejected),
        other => Err(Reject::new(
            "invalid",
            field,
            format!(
                "expected \"draw\", \"postponed\" or \"rejected\" (Guidelines III.5), found {other:?}"
            ),
        )),
    }
}

fn decision_name(d: QuickplayDecision) -> &'static str {
    match d {
        QuickplayDecision::Draw => "draw",
        QuickplayDecision::Postponed => "postponed",
        QuickplayDecision::Rejected => "rejected",
    }
}

fn parse_rule(text: &str) -> Result<ClaimRule, Reject> {
    match text.trim().to_ascii_lowercase().as_str() {
        "threefold" | "9.2" => Ok(ClaimRule::Threefold),
        "fifty-moves" | "fifty" | "50" | "9.3" => Ok(ClaimRule::FiftyMoves),
        other => Err(Reject::new(
            "invalid",
            "claim.rule",
            format!("expected \"threefold\" (9.2) or \"fifty-moves\" (9.3), found {other:?}"),
        )),
    }
}

fn rule_name(r: ClaimRule) -> &'static str {
    match r {
        ClaimRule::Threefold => "threefold",
        ClaimRule::FiftyMoves => "fifty-moves",
    }
}

/// UCI when it looks like UCI (`e2e4`, `e7e8q`), SAN otherwise; `None` when empty.
fn move_text(text: &str) -> Option<MoveText> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let b = t.as_bytes();
    let uci = (4..=5).contains(&b.len())
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3]);
    Some(if uci {
        MoveText::Uci(t.to_owned())
    } else {
        MoveText::San(t.to_owned())
    })
}

/// Human text of one effect.
pub fn describe(e: &Effect) -> String {
    match e {
        Effect::Started { .. } => "clock started (6.5)".into(),
        Effect::MovePlayed {
            ply,
            side,
            san,
            used_ms,
            remaining_ms,
            ..
        } => format!(
            "ply {}: {side:?} {san} (used {}, left {})",
            ply.saturating_add(1),
            format_clk(*used_ms),
            format_clk(*remaining_ms)
        ),
        Effect::PeriodStarted {
            side,
            period_index,
            added_ms,
        } => format!(
            "{side:?}: period {} starts, {} added",
            period_index + 1,
            format_clk(*added_ms)
        ),
        Effect::TimeAdded { side, ms, article } => {
            format!("{side:?}: {} added ({article})", format_clk(*ms))
        }
        Effect::TimeRemoved { side, ms } => {
            format!("{side:?}: {} removed (6.10.2)", format_clk(*ms))
        }
        Effect::Paused => "clock paused (6.12.1)".into(),
        Effect::Resumed => "clock restarted (6.11.3)".into(),
        Effect::FlagFell { side, .. } => format!("{side:?}'s flag fell (6.9)"),
        Effect::IllegalMoveCounted { by, count } => {
            format!("{by:?}: completed illegal move no. {count} (7.5.5)")
        }
        Effect::PositionReinstated { plies } => {
            format!("position before the irregularity reinstated after ply {plies} (7.5.1)")
        }
        Effect::ClaimRejected {
            by,
            rule,
            must_play,
        } => format!(
            "{by:?}'s {} claim is incorrect (9.5.3){}",
            rule_name(*rule),
            must_play
                .as_ref()
                .map(|m| format!("; the declared move {m} must be played"))
                .unwrap_or_default()
        ),
        Effect::IncrementIntroduced { ms } => {
            format!(
                "increment of {} introduced (Guidelines III.4)",
                format_clk(*ms)
            )
        }
        Effect::PlayContinues => "both flags fell in a non-final period: play continues".into(),
        Effect::EventAfterFlagIgnored => "not applied: a flag had already fallen".into(),
        Effect::Adjourned {
            by,
            move_number,
            remaining_ms,
            charged_ms,
        } => format!(
            "game adjourned: {by:?} sealed move {move_number} (Guidelines I.1); clocks stopped at {} / {}{}",
            format_clk(remaining_ms[0]),
            format_clk(remaining_ms[1]),
            if *charged_ms > 0 {
                format!(
                    "; {} charged to the session's end (I.1.2)",
                    format_clk(*charged_ms)
                )
            } else {
                String::new()
            }
        ),
        Effect::ResumedFromAdjournment { remaining_ms } => format!(
            "adjourned game resumed with the recorded times {} / {} (Guidelines I.5)",
            format_clk(remaining_ms[0]),
            format_clk(remaining_ms[1])
        ),
        Effect::EnvelopeOpened => "envelope opened: the sealed move is played (I.9)".into(),
        Effect::EnvelopeKeptClosed => {
            "the responder is absent: their clock runs, the envelope stays closed (I.9.2)".into()
        }
        Effect::EnvelopeMissing => {
            "envelope missing: play goes on from the position before the adjournment (I.12.1)"
                .into()
        }
        Effect::GameOver(end) => format!(
            "game over: {} ({:?}, {})",
            end.result.to_pgn(),
            end.termination,
            end.termination.article()
        ),
    }
}

fn rejection(field: &'static str, r: Rejection) -> Reject {
    let (code, field) = match &r {
        Rejection::GameOver { .. } => ("game_over", "item"),
        Rejection::NotStarted => ("not_started", "item"),
        Rejection::TimeWentBackwards { .. } => ("time_went_backwards", "at_ms"),
        Rejection::UnreadableMove { .. } => ("unreadable_move", field),
        Rejection::IllegalMove { .. } => ("illegal_move", field),
        Rejection::MustPlayDeclaredMove { .. } => ("illegal_move", field),
        _ => ("refused", field),
    };
    Reject::new(code, field, r)
}

/// The readings the device sent, compared with the authoritative clock at `at`.
fn observe(t: &Telemetry, game: &Game, stamp: BoundedStamp) -> DeviceObservation {
    let at = stamp.at();
    let stamped = stamp.stamped();
    let [w, b] = game
        .clock()
        .remaining_both_at(at.max(game.clock().last_instant()));
    let mut anomalies = Vec::new();
    if !stamped {
        anomalies.push("no device timestamp: stamped on receipt".to_owned());
    }
    for (name, reading, clock) in [("white", t.white_ms, w), ("black", t.black_ms, b)] {
        let Some(reading) = reading else { continue };
        if reading == 0 && clock > READING_TOLERANCE_MS {
            anomalies.push(format!(
                "{name} reading 0:00:00 while the clock shows {} (display glitch)",
                format_clk(clock)
            ));
        } else if reading.abs_diff(clock) > READING_TOLERANCE_MS {
            anomalies.push(format!(
                "{name} reading {} differs from the clock's {} by {:.1} s",
                format_clk(reading),
                format_clk(clock),
                reading.abs_diff(clock) as f64 / 1000.0
            ));
        }
    }
    DeviceObservation {
        device_id: t.device_id.clone(),
        seq: t.seq,
        device_white_ms: t.white_ms,
        device_black_ms: t.black_ms,
        clock_white_ms: w,
        clock_black_ms: b,
        timestamp_missing: !stamped,
        anomalies,
        device_at_ms: match stamp {
            BoundedStamp::Clamped { stamp, .. } => Some(stamp),
            _ => None,
        },
    }
}

/// A device stamp refused by [`bound_stamp`], as the device is told: field `at_ms`, the
/// stamp, the server's time and the tolerance (or the last event).
pub fn stamp_rejection(r: StampRejection) -> Reject {
    let code = match r {
        StampRejection::AheadOfServer { .. } => "ahead_of_server_time",
        StampRejection::BeforeLastEvent { .. } => "time_went_backwards",
    };
    Reject::new(code, "at_ms", r)
}

/// Decides one telemetry item for `board`, the server's time being `server` (the service
/// reads it from its time source). The device's stamp `at_ms` is first bounded by the
/// server's time ([`bound_stamp`], ADR clock-007): refused when ahead of it by more than the
/// tolerance or before the board's last event, applied at the server's time when ahead
/// within the tolerance, stamped on receipt when missing. Pure: the board is not changed.
pub fn decide(board: &Board, t: &Telemetry, server: ServerTime) -> Result<Decided, Reject> {
    if t.item.is_none() {
        return Err(Reject::new("invalid", "item", "no telemetry item"));
    }
    let stamp = bound_stamp(t.at_ms, board.last_at, server).map_err(stamp_rejection)?;
    let mut decided = decide_stamped(board, t, stamp)?;
    if let BoundedStamp::Clamped { stamp, at } = stamp {
        decided.effects.push(format!(
            "at_ms {stamp} is {} ms ahead of the server's time (tolerance {} ms): applied at {at}",
            stamp.saturating_sub(server.now),
            server.tolerance_ms
        ));
    }
    Ok(decided)
}

/// [`decide`] once the stamp is bounded: the item applied at `stamp.at()`.
fn decide_stamped(board: &Board, t: &Telemetry, stamp: BoundedStamp) -> Result<Decided, Reject> {
    let item = t
        .item
        .as_ref()
        .ok_or_else(|| Reject::new("invalid", "item", "no telemetry item"))?;
    let at = stamp.at();
    if let Some(end) = board.end
        && !matches!(item, Item::Glitch(_))
    {
        return Err(Reject::new(
            "game_over",
            "item",
            format!(
                "game {} on board {} is over ({} by {:?}, {}); open the board for a new game",
                board.opened.game_number,
                board.opened.board,
                end.result.to_pgn(),
                end.termination,
                end.termination.article()
            ),
        ));
    }
    let mut game = board.game.clone();
    let mut out = Decided::default();
    // Items that do not touch the game.
    match item {
        Item::Press(p) => {
            let side = parse_side("press.side", &p.side)?;
            let device = observe(t, &game, stamp);
            out.effects.push(format!(
                "press by {side:?} recorded (a move completes it: 6.2.1)"
            ));
            out.anomalies = device.anomalies.clone();
            out.events.push((
                CLOCK_PRESSED,
                ClockPressed {
                    at_ms: at,
                    side: side_name(side).into(),
                    device: Some(device),
                }
                .encode_to_vec(),
            ));
            return Ok(out);
        }
        Item::Glitch(g) => {
            let device = observe(t, &game, stamp);
            let description = if g.description.trim().is_empty() {
                "device glitch (no description)".to_owned()
            } else {
                g.description.clone()
            };
            out.effects
                .push(format!("device glitch recorded: {description}"));
            out.anomalies = device.anomalies.clone();
            out.events.push((
                DEVICE_GLITCH,
                DeviceGlitch {
                    at_ms: at,
                    description,
                    device: Some(device),
                }
                .encode_to_vec(),
            ));
            return Ok(out);
        }
        _ => {}
    }
    let (field, ev): (&'static str, GameEvent) = match item {
        Item::ClockStarted(_) => ("clock_started", GameEvent::Start { at }),
        Item::Move(m) => {
            let mv = if !m.san.is_empty() {
                let san = std::str::from_utf8(&m.san).map_err(|e| {
                    Reject::new(
                        "unreadable_move",
                        "move.san",
                        format!("not UTF-8 ({e}): {:?}", String::from_utf8_lossy(&m.san)),
                    )
                })?;
                MoveText::San(san.trim().to_owned())
            } else if !m.uci.trim().is_empty() {
                MoveText::Uci(m.uci.trim().to_owned())
            } else {
                return Err(Reject::new(
                    "invalid",
                    "move",
                    "give the move in move.san or move.uci",
                ));
            };
            let field = if matches!(mv, MoveText::San(_)) {
                "move.san"
            } else {
                "move.uci"
            };
            (field, GameEvent::Move { at, mv })
        }
        Item::Pause(_) => ("pause", GameEvent::Pause { at }),
        Item::Resume(_) => ("resume", GameEvent::Resume { at }),
        Item::Adjustment(a) => {
            let side = parse_side("adjustment.side", &a.side)?;
            if a.delta_ms == 0 {
                return Err(Reject::new(
                    "invalid",
                    "adjustment.delta_ms",
                    "must not be 0",
                ));
            }
            (
                "adjustment",
                GameEvent::AdjustTime {
                    at,
                    side,
                    delta_ms: a.delta_ms,
                },
            )
        }
        Item::Flag(f) => {
            parse_side("flag.side", &f.side)?;
            ("flag", GameEvent::FlagCheck { at })
        }
        Item::Claim(c) => {
            let by = parse_side("claim.side", &c.side)?;
            let rule = parse_rule(&c.rule)?;
            (
                "claim",
                GameEvent::DrawClaim {
                    at,
                    by,
                    rule,
                    intended: move_text(&c.intended_move),
                },
            )
        }
        Item::Resign(r) => {
            let by = parse_side("resign.side", &r.side)?;
            ("resign", GameEvent::Resign { at, by })
        }
        Item::DrawAgreed(_) => ("draw_agreed", GameEvent::DrawAgreed { at }),
        Item::IllegalMove(i) => {
            let by = parse_side("illegal_move.side", &i.side)?;
            (
                "illegal_move",
                GameEvent::IllegalMoveCompleted {
                    at,
                    by,
                    completed_at_ply: i.completed_at_ply,
                },
            )
        }
        Item::QuickplayIncrement(q) => {
            let by = parse_side("quickplay_increment.side", &q.side)?;
            (
                "quickplay_increment",
                GameEvent::QuickplayIncrementRequest {
                    at,
                    by,
                    arbiter_grants: q.arbiter_grants,
                },
            )
        }
        Item::QuickplayClaim(q) => {
            let by = parse_side("quickplay_claim.side", &q.side)?;
            let decision = parse_decision("quickplay_claim.decision", &q.decision)?;
            (
                "quickplay_claim",
                GameEvent::QuickplayFinishClaim { at, by, decision },
            )
        }
        Item::Press(_) | Item::Glitch(_) => unreachable_item()?,
    };
    let effects = game.apply(&ev).map_err(|r| rejection(field, r))?;
    let device = observe(t, &game, stamp);
    out.anomalies = device.anomalies.clone();
    out.effects = effects.iter().map(describe).collect();
    let flag_fell = effects.iter().find_map(|e| match e {
        Effect::FlagFell { side, at } => Some((*side, *at)),
        _ => None,
    });
    let ignored = effects
        .iter()
        .any(|e| matches!(e, Effect::EventAfterFlagIgnored));
    if let Some((side, fell_at)) = flag_fell {
        out.events.push((
            FLAG_FELL,
            FlagFell {
                at_ms: fell_at,
                side: side_name(side).into(),
                reported_by_device: matches!(item, Item::Flag(_)),
                device: Some(device.clone()),
            }
            .encode_to_vec(),
        ));
    }
    if ignored {
        out.events.push((
            DEVICE_GLITCH,
            DeviceGlitch {
                at_ms: at,
                description: format!("{field} arrived after the flag fell: not applied"),
                device: Some(device.clone()),
            }
            .encode_to_vec(),
        ));
    } else if flag_fell.is_none() {
        let d = Some(device.clone());
        let event: (&'static str, Vec<u8>) = match (item, &ev) {
            (Item::ClockStarted(_), _) => (
                CLOCK_STARTED,
                ClockStarted {
                    at_ms: at,
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::Move(_), _) => {
                let played = effects.iter().find_map(|e| match e {
                    Effect::MovePlayed {
                        ply,
                        side,
                        san,
                        uci,
                        used_ms,
                        remaining_ms,
                    } => Some(MovePlayed {
                        at_ms: at,
                        ply: *ply,
                        side: side_name(*side).into(),
                        san: san.clone(),
                        uci: uci.clone(),
                        used_ms: *used_ms,
                        remaining_ms: *remaining_ms,
                        device: d.clone(),
                    }),
                    _ => None,
                });
                match played {
                    Some(m) => (MOVE_PLAYED, m.encode_to_vec()),
                    None => {
                        return Err(Reject::new(
                            "refused",
                            field,
                            "the Laws did not record the move",
                        ));
                    }
                }
            }
            (Item::Pause(_), _) => (
                CLOCK_PAUSED,
                ClockPaused {
                    at_ms: at,
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::Resume(_), _) => (
                CLOCK_RESUMED,
                ClockResumed {
                    at_ms: at,
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::Adjustment(a), _) => (
                TIME_ADJUSTED,
                TimeAdjusted {
                    at_ms: at,
                    side: parse_side("adjustment.side", &a.side)
                        .map(side_name)?
                        .into(),
                    delta_ms: a.delta_ms,
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::Flag(f), _) => {
                // The device shows a flag the authoritative clock does not: recorded only.
                let side = parse_side("flag.side", &f.side)?;
                let left = if side == Side::White {
                    device.clock_white_ms
                } else {
                    device.clock_black_ms
                };
                let description = format!(
                    "device shows {side:?}'s flag fallen, but the clock shows {} left: not a flag fall",
                    format_clk(left)
                );
                out.effects.push(description.clone());
                out.anomalies.push(description.clone());
                (
                    DEVICE_GLITCH,
                    DeviceGlitch {
                        at_ms: at,
                        description,
                        device: d,
                    }
                    .encode_to_vec(),
                )
            }
            (Item::Claim(c), GameEvent::DrawClaim { by, rule, .. }) => (
                DRAW_CLAIMED,
                DrawClaimed {
                    at_ms: at,
                    side: side_name(*by).into(),
                    rule: rule_name(*rule).into(),
                    intended_move: c.intended_move.trim().to_owned(),
                    correct: game.end().is_some(),
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::Resign(_), GameEvent::Resign { by, .. }) => (
                PLAYER_RESIGNED,
                PlayerResigned {
                    at_ms: at,
                    side: side_name(*by).into(),
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::IllegalMove(i), GameEvent::IllegalMoveCompleted { by, .. }) => (
                ILLEGAL_MOVE_COMPLETED,
                IllegalMoveCompleted {
                    at_ms: at,
                    side: side_name(*by).into(),
                    completed_at_ply: i.completed_at_ply,
                    device: d,
                }
                .encode_to_vec(),
            ),
            (
                Item::QuickplayIncrement(_),
                GameEvent::QuickplayIncrementRequest {
                    by, arbiter_grants, ..
                },
            ) => (
                QUICKPLAY_INCREMENT_REQUESTED,
                QuickplayIncrementRequested {
                    at_ms: at,
                    side: side_name(*by).into(),
                    granted: *arbiter_grants,
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::QuickplayClaim(_), GameEvent::QuickplayFinishClaim { by, decision, .. }) => (
                QUICKPLAY_CLAIMED,
                QuickplayClaimed {
                    at_ms: at,
                    side: side_name(*by).into(),
                    decision: decision_name(*decision).into(),
                    device: d,
                }
                .encode_to_vec(),
            ),
            (Item::DrawAgreed(_), _) => (
                DRAW_AGREED,
                DrawAgreed {
                    at_ms: at,
                    device: d,
                }
                .encode_to_vec(),
            ),
            _ => unreachable_item()?,
        };
        out.events.push(event);
    }
    if let Some(end) = game.end() {
        out.events.extend(ended(board, &game, end));
    }
    Ok(out)
}

fn unreachable_item<T>() -> Result<T, Reject> {
    Err(Reject::new("internal", "item", "item kind not handled"))
}

/// The flag check of the service's timer at the flag instant `at`: the events, or none
/// when no flag has fallen by then (the game moved on meanwhile).
pub fn decide_flag_check(board: &Board, at: Instant) -> Decided {
    if board.end.is_some() || at < board.last_at {
        return Decided::default();
    }
    let mut game = board.game.clone();
    let Ok(effects) = game.apply(&GameEvent::FlagCheck { at }) else {
        return Decided::default();
    };
    let Some((side, fell_at)) = effects.iter().find_map(|e| match e {
        Effect::FlagFell { side, at } => Some((*side, *at)),
        _ => None,
    }) else {
        return Decided::default();
    };
    let [w, b] = game
        .clock()
        .remaining_both_at(fell_at.max(game.clock().last_instant()));
    let mut events = vec![(
        FLAG_FELL,
        FlagFell {
            at_ms: fell_at,
            side: side_name(side).into(),
            reported_by_device: false,
            device: Some(DeviceObservation {
                device_id: "clock-service-timer".into(),
                clock_white_ms: w,
                clock_black_ms: b,
                ..Default::default()
            }),
        }
        .encode_to_vec(),
    )];
    if let Some(end) = game.end() {
        events.extend(ended(board, &game, end));
    }
    Decided {
        events,
        effects: effects.iter().map(describe).collect(),
        anomalies: Vec::new(),
    }
}

fn ended(board: &Board, game: &Game, end: GameEnd) -> [(&'static str, Vec<u8>); 2] {
    let o = &board.opened;
    [
        (
            GAME_ENDED,
            GameEnded {
                at_ms: end.at,
                result: end.result.to_pgn().into(),
                termination: format!("{:?}", end.termination),
                article: end.termination.article().into(),
            }
            .encode_to_vec(),
        ),
        (
            RESULT_REPORTED,
            ResultReported {
                tournament_id: o.tournament_id.clone(),
                board: o.board,
                round: o.round,
                white: o.white.clone(),
                black: o.black.clone(),
                result: end.result.to_pgn().into(),
                termination: format!("{:?}", end.termination),
                article: end.termination.article().into(),
                laws_edition: o.laws_edition.clone(),
                auto_apply: o.auto_apply_results,
                at_ms: end.at,
                game_number: o.game_number,
                plies: game.plies().len() as u32,
            }
            .encode_to_vec(),
        ),
    ]
}

/// The board's state as clients see it, the running clock read at `now`.
pub fn state(board: &Board, now: Instant) -> arbiter_proto::v1::ClockState {
    let o = &board.opened;
    let g = &board.game;
    let as_of = now.max(board.last_at).max(g.clock().last_instant());
    let as_of = match board.end {
        Some(end) => end.at.max(g.clock().last_instant()),
        None if !g.clock().is_started() => board.last_at,
        None => as_of,
    };
    let [w, b] = g.clock().remaining_both_at(as_of);
    let end = board.end;
    arbiter_proto::v1::ClockState {
        tournament_id: o.tournament_id.clone(),
        board: o.board,
        round: o.round,
        white: o.white.clone(),
        black: o.black.clone(),
        time_control: o.time_control.clone(),
        rate: rate_name(g.config().rate).into(),
        laws_edition: o.laws_edition.clone(),
        started: g.clock().is_started(),
        paused: g.clock().is_paused(),
        side_to_move: side_name(g.side_to_move()).into(),
        white_ms: w,
        black_ms: b,
        as_of_ms: as_of,
        flag_instant_ms: g.flag_instant(),
        fen: g.public_fen(),
        moves_san: g.public_plies().iter().map(|p| p.san.clone()).collect(),
        result: end
            .map(|e| e.result.to_pgn().to_owned())
            .unwrap_or_default(),
        termination: end
            .map(|e| format!("{:?}", e.termination))
            .unwrap_or_default(),
        article: end
            .map(|e| e.termination.article().to_owned())
            .unwrap_or_default(),
        anomalies: board.anomalies,
        stream_version: board.version,
        auto_apply_results: o.auto_apply_results,
        game_number: o.game_number,
        pgn: g.to_pgn(&[
            ("Event".into(), o.tournament_id.clone()),
            ("Round".into(), o.round.to_string()),
            ("Board".into(), o.board.to_string()),
            ("White".into(), o.white.clone()),
            ("Black".into(), o.black.clone()),
            ("TimeControl".into(), o.time_control.clone()),
        ]),
        variant: match g.config().variant {
            Variant::Standard => "standard".into(),
            Variant::Chess960 => "chess960".into(),
        },
        chess960_number: o.chess960_number,
        start_fen: o.start_fen.clone(),
        adjournment: match g.adjournment() {
            None => String::new(),
            Some(e) if e.resumed_unopened => "resumed-envelope-closed".into(),
            Some(_) => "adjourned".into(),
        },
        sealed_by: g
            .adjournment()
            .map(|e| side_name(e.sealed_by).to_owned())
            .unwrap_or_default(),
    }
}

/// The arbiter's step at resumption (`ResumeGame.step`) as the Laws' event.
pub fn resumption_event(at: Instant, step: &str, absent: &str) -> Result<GameEvent, Reject> {
    Ok(match step.trim().to_ascii_lowercase().as_str() {
        "responder-present" | "present" => GameEvent::ResumeAdjourned {
            at,
            how: Resumption::ResponderPresent,
        },
        "responder-absent" => GameEvent::ResumeAdjourned {
            at,
            how: Resumption::ResponderAbsent,
        },
        "envelope-missing" => GameEvent::ResumeAdjourned {
            at,
            how: Resumption::EnvelopeMissing,
        },
        "envelope-opened" | "responder-arrived" => GameEvent::OpenEnvelope { at },
        "absent" => GameEvent::AbsentAtResumption {
            at,
            absent: parse_side("absent", absent)?,
        },
        other => {
            return Err(Reject::new(
                "invalid",
                "step",
                format!(
                    "expected \"responder-present\" (I.9.1), \"responder-absent\" (I.9.2), \"envelope-opened\", \"envelope-missing\" (I.12.1) or \"absent\" (I.10), found {:?}",
                    other.chars().take(40).collect::<String>()
                ),
            ));
        }
    })
}

/// Guidelines I.1: the arbiter adjourns the game at `at` (the server's time): `GameAdjourned`
/// (the envelope, sealed move included) and `AdjournmentReported` (for the tournament record,
/// without it). Pure: the board is not changed.
pub fn decide_adjourn(
    board: &Board,
    sealed_by: &str,
    sealed_move: &str,
    session_end: Option<Instant>,
    at: Instant,
) -> Result<Decided, Reject> {
    if let Some(end) = board.end {
        return Err(Reject::new(
            "game_over",
            "board",
            format!(
                "game {} on board {} is over ({}); there is nothing to adjourn",
                board.opened.game_number,
                board.opened.board,
                end.result.to_pgn()
            ),
        ));
    }
    let by = parse_side("sealed_by", sealed_by)?;
    let text = sealed_move.trim();
    if text.is_empty() {
        return Err(Reject::new(
            "invalid",
            "sealed_move",
            "the sealed move as written on the scoresheet (SAN or UCI) is required (I.1.1)",
        ));
    }
    if text.chars().count() > 20 {
        return Err(Reject::new(
            "invalid",
            "sealed_move",
            "at most 20 characters (one move as written)",
        ));
    }
    let at = at.max(board.last_at);
    let mut game = board.game.clone();
    let ev = GameEvent::Adjourn {
        at,
        by,
        sealed: move_text(text).unwrap_or_else(|| MoveText::San(text.to_owned())),
        session_end,
    };
    let effects = game.apply(&ev).map_err(|r| match r {
        Rejection::NotYourMove { expected, .. } => Reject::new(
            "invalid",
            "sealed_by",
            format!(
                "{} has the move: the player having the move seals it (Guidelines I.1.1)",
                side_name(expected)
            ),
        ),
        other => rejection("sealed_move", other),
    })?;
    let mut out = Decided {
        effects: effects.iter().map(describe).collect(),
        ..Decided::default()
    };
    if let Some(env) = game.adjournment() {
        let o = &board.opened;
        out.events.push((
            GAME_ADJOURNED,
            GameAdjourned {
                at_ms: at,
                sealed_by: side_name(by).into(),
                sealed_move: text.to_owned(),
                move_number: env.move_number,
                fen: env.fen.clone(),
                white_ms: env.remaining_ms[0],
                black_ms: env.remaining_ms[1],
                session_end_ms: session_end,
                charged_ms: env.charged_ms,
            }
            .encode_to_vec(),
        ));
        out.events.push((
            ADJOURNMENT_REPORTED,
            AdjournmentReported {
                tournament_id: o.tournament_id.clone(),
                board: o.board,
                round: o.round,
                white: o.white.clone(),
                black: o.black.clone(),
                at_ms: at,
                game_number: o.game_number,
            }
            .encode_to_vec(),
        ));
    } else if let Some(end) = game.end() {
        // the time to the session's end exhausted the sealer's clock (6.9): the flag
        let side = by;
        out.events.push((
            FLAG_FELL,
            FlagFell {
                at_ms: end.at,
                side: side_name(side).into(),
                reported_by_device: false,
                device: None,
            }
            .encode_to_vec(),
        ));
        out.events.extend(ended(board, &game, end));
    }
    Ok(out)
}

/// Guidelines I.5 / I.9 / I.10 / I.12.1: the arbiter's step at resumption at `at`.
pub fn decide_resume(
    board: &Board,
    step: &str,
    absent: &str,
    at: Instant,
) -> Result<Decided, Reject> {
    if board.end.is_some() {
        return Err(Reject::new("game_over", "board", "the game is over"));
    }
    let at = at.max(board.last_at);
    let ev = resumption_event(at, step, absent)?;
    let mut game = board.game.clone();
    let effects = game.apply(&ev).map_err(|r| rejection("step", r))?;
    let hidden = game.adjournment().is_some_and(|e| e.resumed_unopened);
    let mut out = Decided {
        // while the envelope stays closed the sealed move is not described (I.7)
        effects: effects
            .iter()
            .map(|e| match e {
                Effect::MovePlayed { .. } if hidden => {
                    "sealed move played (hidden until the envelope is opened, I.9.2)".to_owned()
                }
                e => describe(e),
            })
            .collect(),
        ..Decided::default()
    };
    let (step_name, absent_name) = match &ev {
        GameEvent::ResumeAdjourned { how, .. } => (
            match how {
                Resumption::ResponderPresent => "responder-present",
                Resumption::ResponderAbsent => "responder-absent",
                Resumption::EnvelopeMissing => "envelope-missing",
            },
            "",
        ),
        GameEvent::OpenEnvelope { .. } => ("envelope-opened", ""),
        GameEvent::AbsentAtResumption { absent, .. } => ("absent", side_name(*absent)),
        _ => ("", ""),
    };
    out.events.push((
        GAME_RESUMED,
        GameResumed {
            at_ms: at,
            step: step_name.into(),
            absent: absent_name.into(),
        }
        .encode_to_vec(),
    ));
    if let Some(end) = game.end() {
        out.events.extend(ended(board, &game, end));
    }
    Ok(out)
}

/// The envelope for the arbiters (`GetSealedMove`).
pub fn sealed_move(board: &Board) -> Option<arbiter_proto::v1::SealedMove> {
    let e = board.game.adjournment()?;
    let o = &board.opened;
    Some(arbiter_proto::v1::SealedMove {
        tournament_id: o.tournament_id.clone(),
        board: o.board,
        white: o.white.clone(),
        black: o.black.clone(),
        sealed_by: side_name(e.sealed_by).into(),
        sealed_move: match &e.sealed_move {
            MoveText::San(t) | MoveText::Uci(t) => t.clone(),
        },
        move_number: e.move_number,
        fen: e.fen.clone(),
        white_ms: e.remaining_ms[0],
        black_ms: e.remaining_ms[1],
        adjourned_at_ms: e.at,
        resumed_unopened: e.resumed_unopened,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::{ClockStartedIn, MoveIn, PressIn};

    fn opened(tc: &str) -> BoardOpened {
        BoardOpened {
            tournament_id: "open-2026".into(),
            board: 1,
            time_control: tc.into(),
            ..Default::default()
        }
    }

    fn tele(at: u64, item: Item) -> Telemetry {
        Telemetry {
            tournament_id: "open-2026".into(),
            board: 1,
            at_ms: Some(at),
            item: Some(item),
            ..Default::default()
        }
    }

    fn started(tc: &str) -> Board {
        let o = decide_open(None, opened(tc)).unwrap();
        let mut b = Some(Board::open(o, 1));
        let d = decide(
            b.as_ref().unwrap(),
            &tele(1_000, Item::ClockStarted(ClockStartedIn {})),
            ServerTime::new(1_000),
        )
        .unwrap();
        for (i, (t, p)) in d.events.iter().enumerate() {
            Board::fold(&mut b, t, p, 2 + i as i64);
        }
        b.unwrap()
    }

    #[test]
    fn open_validates_the_fields_it_builds_subjects_and_clocks_from() {
        let bad = |f: fn(&mut BoardOpened)| {
            let mut o = opened("90+30");
            f(&mut o);
            decide_open(None, o).unwrap_err().field
        };
        assert_eq!(bad(|o| o.tournament_id = "a.b".into()), "tournament_id");
        assert_eq!(bad(|o| o.tournament_id = "a>".into()), "tournament_id");
        assert_eq!(bad(|o| o.board = 0), "board");
        assert_eq!(bad(|o| o.time_control = "blitz".into()), "time_control");
        assert_eq!(bad(|o| o.laws_edition = "2014".into()), "laws_edition");
        let ok = decide_open(None, opened("40/7200:1800+30")).unwrap();
        assert_eq!((ok.laws_edition.as_str(), ok.game_number), ("2023", 1));
        assert!(parse_time_control("W300+2-B240+2").is_ok(), "Armageddon");
    }

    #[test]
    fn completed_illegal_moves_cost_two_minutes_then_the_game() {
        let mut b = Some(started("40/5400+30:1800+30"));
        let mut v = 3;
        let mut send = |b: &mut Option<Board>, at: u64, item: Item| {
            let d = decide(b.as_ref().unwrap(), &tele(at, item), ServerTime::new(at)).unwrap();
            for (t, p) in &d.events {
                Board::fold(b, t, p, v);
                v += 1;
            }
            d
        };
        let illegal = || {
            Item::IllegalMove(arbiter_proto::v1::IllegalMoveIn {
                side: "white".into(),
                completed_at_ply: None,
            })
        };
        let d = send(&mut b, 2_000, illegal());
        assert!(
            d.effects
                .iter()
                .any(|e| e.contains("2:00") && e.contains("7.5.5")),
            "{:?}",
            d.effects
        );
        assert_eq!(d.events[0].0, ILLEGAL_MOVE_COMPLETED);
        let d = send(&mut b, 3_000, illegal());
        let r = ResultReported::decode(d.events.last().unwrap().1.as_slice()).unwrap();
        assert_eq!((r.result.as_str(), r.article.as_str()), ("0-1", "7.5.5"));
        assert_eq!(b.unwrap().end.unwrap().result.to_pgn(), "0-1");
    }

    /// Guidelines III.5 telemetry (announced event): a rejected claim gives the opponent two
    /// minutes, a claim upheld ends the game drawn; both are logged and rebuilt from the log.
    #[test]
    fn quickplay_finish_claims_are_applied_and_replayed() {
        let mut o = opened("5400");
        o.quickplay_guidelines = true;
        o.supervision = "full".into();
        let o = decide_open(None, o).unwrap();
        assert_eq!(o.supervision, "competition-rules");
        let mut b = Some(Board::open(o.clone(), 1));
        let mut log: Vec<(&'static str, Vec<u8>)> = Vec::new();
        let send =
            |b: &mut Option<Board>, log: &mut Vec<(&'static str, Vec<u8>)>, at: u64, item: Item| {
                let d = decide(b.as_ref().unwrap(), &tele(at, item), ServerTime::new(at));
                if let Ok(d) = &d {
                    for (t, p) in &d.events {
                        Board::fold(b, t, p, 2 + log.len() as i64);
                        log.push((t, p.clone()));
                    }
                }
                d
            };
        send(
            &mut b,
            &mut log,
            1_000,
            Item::ClockStarted(ClockStartedIn {}),
        )
        .unwrap();
        let claim = |decision: &str| {
            Item::QuickplayClaim(arbiter_proto::v1::QuickplayClaimIn {
                side: "white".into(),
                decision: decision.into(),
            })
        };
        // Too early: more than two minutes left.
        let early = send(&mut b, &mut log, 2_000, claim("rejected")).unwrap_err();
        assert!(early.message.contains("two minutes"), "{}", early.message);
        let bad = send(&mut b, &mut log, 2_000, claim("maybe")).unwrap_err();
        assert_eq!(bad.field, "quickplay_claim.decision");
        // 88 min 10 s later White has 1:50 left.
        let late = 1_000 + 5_290_000;
        let d = send(&mut b, &mut log, late, claim("rejected")).unwrap();
        assert_eq!(d.events[0].0, QUICKPLAY_CLAIMED);
        assert!(
            d.effects.iter().any(|e| e.contains("III.5.3")),
            "{:?}",
            d.effects
        );
        let d = send(&mut b, &mut log, late + 1_000, claim("draw")).unwrap();
        let r = ResultReported::decode(d.events.last().unwrap().1.as_slice()).unwrap();
        assert_eq!(r.result, "1/2-1/2");
        // The log rebuilds the same board.
        let mut again = Some(Board::open(o, 1));
        for (i, (t, p)) in log.iter().enumerate() {
            Board::fold(&mut again, t, p, 2 + i as i64);
        }
        assert_eq!(
            again.unwrap().end.map(|e| e.result.to_pgn()),
            Some("1/2-1/2")
        );
    }

    #[test]
    fn moves_are_read_as_uci_or_san() {
        assert_eq!(move_text("e2e4"), Some(MoveText::Uci("e2e4".into())));
        assert_eq!(move_text("e7e8q"), Some(MoveText::Uci("e7e8q".into())));
        assert_eq!(move_text("Nf3"), Some(MoveText::San("Nf3".into())));
        assert_eq!(move_text(" "), None);
    }

    #[test]
    fn readings_within_the_tolerance_pass_and_jumps_are_flagged() {
        let b = started("300+0");
        let mut t = tele(
            3_000,
            Item::Move(MoveIn {
                san: b"e4".to_vec(),
                uci: String::new(),
            }),
        );
        t.white_ms = Some(298_000 + READING_TOLERANCE_MS);
        t.black_ms = Some(300_000);
        assert!(
            decide(&b, &t, ServerTime::new(3_000))
                .unwrap()
                .anomalies
                .is_empty()
        );
        t.white_ms = Some(240_000);
        let d = decide(&b, &t, ServerTime::new(3_000)).unwrap();
        assert_eq!(d.anomalies.len(), 1);
        assert!(d.anomalies[0].contains("differs"), "{:?}", d.anomalies);
    }

    #[test]
    fn a_press_without_a_move_is_recorded_and_changes_nothing() {
        let b = started("300+0");
        let d = decide(
            &b,
            &tele(
                2_000,
                Item::Press(PressIn {
                    side: "white".into(),
                }),
            ),
            ServerTime::new(2_000),
        )
        .unwrap();
        assert_eq!(d.events.len(), 1);
        assert_eq!(d.events[0].0, CLOCK_PRESSED);
        let mut after = Some(b.clone());
        Board::fold(&mut after, d.events[0].0, &d.events[0].1, 3);
        let after = after.unwrap();
        assert_eq!(after.game.plies().len(), 0);
        assert_eq!(after.game.side_to_move(), Side::White);
        assert_eq!(after.last_at, 2_000);
        let bad = decide(
            &b,
            &tele(2_000, Item::Press(PressIn { side: "red".into() })),
            ServerTime::new(2_000),
        )
        .unwrap_err();
        assert_eq!(bad.field, "press.side");
    }

    #[test]
    fn a_move_after_the_flag_fell_records_the_fall_not_the_move() {
        let b = started("60+0");
        let t = tele(
            62_000,
            Item::Move(MoveIn {
                san: b"e4".to_vec(),
                uci: String::new(),
            }),
        );
        let d = decide(&b, &t, ServerTime::new(62_000)).unwrap();
        let types: Vec<_> = d.events.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            types,
            [FLAG_FELL, DEVICE_GLITCH, GAME_ENDED, RESULT_REPORTED]
        );
        let f = FlagFell::decode(d.events[0].1.as_slice()).unwrap();
        assert_eq!((f.at_ms, f.side.as_str()), (61_000, "white"));
        let r = ResultReported::decode(d.events[3].1.as_slice()).unwrap();
        assert_eq!(r.result, "0-1");
        // The fold (what a restart does) reaches the same end.
        let mut b2 = Some(b);
        for (i, (t, p)) in d.events.iter().enumerate() {
            Board::fold(&mut b2, t, p, 3 + i as i64);
        }
        let end = b2.unwrap().end.unwrap();
        assert_eq!((end.result.to_pgn(), end.at), ("0-1", 61_000));
    }

    /// ADR clock-007: a stamp far ahead of the server's time (the end of time, an hour) or
    /// before the board's last event is refused naming `at_ms`, the server's time and the
    /// tolerance, for every kind of item: nothing to fold, the clock unchanged, and the next
    /// good item is decided normally (the board is not jammed).
    #[test]
    fn stamps_far_ahead_of_the_server_or_before_the_last_event_are_refused() {
        let b = started("5400+30");
        let now = 5_000;
        let server = ServerTime {
            now,
            tolerance_ms: 2_000,
        };
        let e4 = || {
            Item::Move(MoveIn {
                san: b"e4".to_vec(),
                uci: String::new(),
            })
        };
        let press = || {
            Item::Press(PressIn {
                side: "white".into(),
            })
        };
        let glitch = || {
            Item::Glitch(arbiter_proto::v1::GlitchIn {
                description: "x".into(),
            })
        };
        for at in [u64::MAX, i64::MAX as u64 + 1, now + 3_600_000, now + 2_001] {
            for item in [e4(), press(), glitch()] {
                let r = decide(&b, &tele(at, item), server).unwrap_err();
                assert_eq!((r.code, r.field), ("ahead_of_server_time", "at_ms"));
                assert!(
                    r.message.contains("server's time 5000")
                        && r.message.contains("tolerance 2000 ms"),
                    "{}",
                    r.message
                );
            }
        }
        let r = decide(&b, &tele(999, e4()), server).unwrap_err();
        assert_eq!((r.code, r.field), ("time_went_backwards", "at_ms"));
        assert!(r.message.contains("server time 5000"), "{}", r.message);
        // The next good item: White used 4 s of the 90 min + 30 s.
        let d = decide(&b, &tele(now, e4()), server).unwrap();
        let m = MovePlayed::decode(d.events[0].1.as_slice()).unwrap();
        assert_eq!((m.at_ms, m.used_ms), (now, 4_000));
    }

    /// A stamp ahead within the tolerance is applied at the server's time, the device's stamp
    /// kept on the event; the board's last event is then the server's time, not the stamp.
    #[test]
    fn stamps_ahead_within_the_tolerance_are_applied_at_the_servers_time() {
        let b = started("300+0");
        let server = ServerTime {
            now: 4_000,
            tolerance_ms: 2_000,
        };
        let t = tele(
            5_500,
            Item::Move(MoveIn {
                san: b"e4".to_vec(),
                uci: String::new(),
            }),
        );
        let d = decide(&b, &t, server).unwrap();
        let m = MovePlayed::decode(d.events[0].1.as_slice()).unwrap();
        assert_eq!((m.at_ms, m.used_ms), (4_000, 3_000));
        assert_eq!(m.device.unwrap().device_at_ms, Some(5_500));
        assert!(
            d.effects.iter().any(|e| e.contains("1500 ms ahead")),
            "{:?}",
            d.effects
        );
        let mut after = Some(b);
        Board::fold(&mut after, d.events[0].0, &d.events[0].1, 3);
        assert_eq!(after.unwrap().last_at, 4_000);
        // Without a stamp (or 0): on receipt, at the server's time.
        let b = started("300+0");
        for missing in [None, Some(0)] {
            let mut t = t.clone();
            t.at_ms = missing;
            let d = decide(&b, &t, server).unwrap();
            let m = MovePlayed::decode(d.events[0].1.as_slice()).unwrap();
            assert_eq!(m.at_ms, 4_000);
            assert!(m.device.unwrap().timestamp_missing);
        }
    }

    /// Guidelines II through `OpenBoard`: a number, a FEN, a lot (the seed recorded
    /// reproduces the draw), and what is refused.
    #[test]
    fn open_chess960_by_number_fen_or_lot() {
        let with = |variant: &str, start: &str, seed: Option<u64>| {
            let mut o = opened("5400+30");
            o.variant = variant.into();
            o.start_fen = start.into();
            o.lot_seed = seed;
            decide_open(None, o)
        };
        let o = with("chess960", "0", None).unwrap();
        assert_eq!(
            (o.variant.as_str(), o.chess960_number),
            ("chess960", Some(0))
        );
        assert!(o.start_fen.starts_with("bbqnnrkr/"));
        let o = with("Chess960", " ", None).unwrap();
        assert_eq!(o.chess960_number, Some(518));
        let o = with("chess960", "", Some(7)).unwrap();
        assert_eq!(o.chess960_number, Some(u32::from(draw_by_lot(7).number())));
        assert_eq!(Board::open(o.clone(), 1).game.fen(), o.start_fen);
        let mid = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let o = with("chess960", mid, None).unwrap();
        assert_eq!((o.chess960_number, o.start_fen.as_str()), (None, mid));
        for (v, start, seed, field) in [
            ("chess960", "960", None, "start_position"),
            ("chess960", "0", Some(1), "start_position"),
            ("", "518", None, "start_position"),
            ("", "", Some(1), "start_position"),
            ("atomic", "", None, "variant"),
        ] {
            assert_eq!(
                with(v, start, seed).unwrap_err().field,
                field,
                "{v} {start}"
            );
        }
        assert_eq!(
            with("chess960", &"1".repeat(200), None).unwrap_err().field,
            "start_position"
        );
    }

    /// Guidelines I through the board: the sealed move is in `GameAdjourned` only, the
    /// effects and the state never show it before the envelope is opened; the log rebuilds
    /// the same board.
    #[test]
    fn adjournment_hides_the_sealed_move_until_the_envelope_is_opened() {
        let mut b = Some(started("5400+30"));
        let mut log: Vec<(&'static str, Vec<u8>)> = Vec::new();
        let fold = |b: &mut Option<Board>, d: &Decided, log: &mut Vec<(&'static str, Vec<u8>)>| {
            for (t, p) in &d.events {
                Board::fold(b, t, p, 3 + log.len() as i64);
                log.push((t, p.clone()));
            }
        };
        let d = decide(
            b.as_ref().unwrap(),
            &tele(
                2_000,
                Item::Move(MoveIn {
                    san: b"e4".to_vec(),
                    uci: String::new(),
                }),
            ),
            ServerTime::new(2_000),
        )
        .unwrap();
        fold(&mut b, &d, &mut log);
        let e = decide_adjourn(b.as_ref().unwrap(), "white", "Nf6", None, 3_000).unwrap_err();
        assert_eq!(e.field, "sealed_by");
        assert_eq!(
            decide_adjourn(b.as_ref().unwrap(), "black", " ", None, 3_000)
                .unwrap_err()
                .field,
            "sealed_move"
        );
        let d = decide_adjourn(b.as_ref().unwrap(), "black", "Nf6", None, 3_000).unwrap();
        let types: Vec<_> = d.events.iter().map(|(t, _)| *t).collect();
        assert_eq!(types, [GAME_ADJOURNED, ADJOURNMENT_REPORTED]);
        assert!(
            d.effects.iter().all(|e| !e.contains("Nf6")),
            "{:?}",
            d.effects
        );
        let r = AdjournmentReported::decode(d.events[1].1.as_slice()).unwrap();
        assert_eq!((r.tournament_id.as_str(), r.board), ("open-2026", 1));
        fold(&mut b, &d, &mut log);
        let s = state(b.as_ref().unwrap(), 10_000);
        assert_eq!(
            (s.adjournment.as_str(), s.sealed_by.as_str()),
            ("adjourned", "black")
        );
        assert_eq!(sealed_move(b.as_ref().unwrap()).unwrap().sealed_move, "Nf6");
        // resumed with the responder absent: played, still hidden
        let d = decide_resume(b.as_ref().unwrap(), "responder-absent", "", 50_000).unwrap();
        assert!(
            d.effects.iter().all(|e| !e.contains("Nf6")),
            "{:?}",
            d.effects
        );
        fold(&mut b, &d, &mut log);
        let s = state(b.as_ref().unwrap(), 60_000);
        assert_eq!(s.adjournment, "resumed-envelope-closed");
        assert_eq!(s.moves_san, ["e4"]);
        assert_eq!(s.side_to_move, "white");
        assert!(!s.pgn.contains("Nf6"));
        assert_eq!(
            decide_resume(b.as_ref().unwrap(), "sideways", "", 60_000)
                .unwrap_err()
                .field,
            "step"
        );
        let d = decide_resume(b.as_ref().unwrap(), "envelope-opened", "", 60_000).unwrap();
        fold(&mut b, &d, &mut log);
        let s = state(b.as_ref().unwrap(), 60_000);
        assert_eq!((s.adjournment.as_str(), s.moves_san.len()), ("", 2));
        // the log rebuilds the same board
        let mut again = Some(Board::open(b.as_ref().unwrap().opened.clone(), 1));
        let start = decide(
            again.as_ref().unwrap(),
            &tele(1_000, Item::ClockStarted(ClockStartedIn {})),
            ServerTime::new(1_000),
        )
        .unwrap();
        for (t, p) in &start.events {
            Board::fold(&mut again, t, p, 2);
        }
        for (i, (t, p)) in log.iter().enumerate() {
            Board::fold(&mut again, t, p, 3 + i as i64);
        }
        assert_eq!(again.unwrap().game.fen(), b.unwrap().game.fen());
    }
}
