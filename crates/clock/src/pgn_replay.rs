//! PGN replay: read games (with `pgn-reader`), replay each one through a [`Game`] as telemetry,
//! using the recorded `[%clk]` (remaining time after the move) and `[%emt]` (time used) as
//! device readings, and compare the computed clock with the recorded one after every move.
//!
//! A PGN gives no wall-clock stamps, so each move's elapsed time is *derived* from the readings
//! with the clock's own rules ([`ChessClock::elapsed_for_reading`]: increment, delay, the next
//! period's time after the control move). The computed clock then follows the Laws; a reading
//! that the control cannot explain (the clock going up by more than the control gives, a
//! `0:00:00` while the game goes on, a missing stamp, an `[%emt]` that contradicts `[%clk]`) is
//! reported as a [`DeviceAnomaly`] and *never* decides a result: such a reading is replaced by
//! the `[%emt]` if plausible, else by zero elapsed time, and a reading can never make a flag
//! fall (ADR `clock-004`).
//!
//! [`ChessClock::elapsed_for_reading`]: crate::chess_clock::ChessClock::elapsed_for_reading

use crate::chess_clock::{IncrementCredit, Instant};
use crate::laws::guidelines_ii_chess960::{StartPosition, Variant};
use crate::laws::{Game, GameConfig, GameEnd, GameEvent, MoveText};
use crate::side::Side;
use crate::time_control::{Millis, TimeControl, TimeControlTag};
use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// One move as recorded in the PGN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMove {
    /// The SAN as written.
    pub san: String,
    /// `[%clk]`: the mover's remaining time after the move.
    pub clk: Option<Millis>,
    /// `[%emt]`: the time the mover used on the move.
    pub emt: Option<Millis>,
}

/// One game as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RecordedGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Main-line moves (variations are skipped).
    pub moves: Vec<RecordedMove>,
    /// The game termination marker of the movetext (`1-0`, `*`, ...), if any.
    pub termination_marker: Option<String>,
}

impl RecordedGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Errors reading a PGN.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("reading PGN: {0}")]
    Io(#[from] std::io::Error),
}

struct Collector;

impl Visitor for Collector {
    type Tags = Vec<(String, String)>;
    type Movetext = RecordedGame;
    type Output = RecordedGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(RecordedGame {
            tags,
            ..RecordedGame::default()
        })
    }

    fn san(&mut self, g: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        g.moves.push(RecordedMove {
            san: san_plus.to_string(),
            clk: None,
            emt: None,
        });
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        g: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if let Some(last) = g.moves.last_mut() {
            let text = String::from_utf8_lossy(comment.as_bytes());
            if let Some(v) = command_value(&text, "%clk") {
                last.clk = parse_hms(v);
            }
            if let Some(v) = command_value(&text, "%emt") {
                last.emt = parse_hms(v);
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _g: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, g: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        g.termination_marker = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: Self::Movetext) -> Self::Output {
        g
    }
}

/// The argument of a PGN comment command such as `[%clk 1:59:56]`.
fn command_value<'a>(text: &'a str, cmd: &str) -> Option<&'a str> {
    let start = text.find(&format!("[{cmd}"))? + cmd.len() + 1;
    let rest = &text[start..];
    let end = rest.find(']')?;
    Some(rest[..end].trim())
}

/// Parses `h:mm:ss`, `hh:mm:ss`, `mm:ss` with optional fractional seconds into milliseconds.
pub fn parse_hms(s: &str) -> Option<Millis> {
    let mut total: u64 = 0;
    let parts: Vec<&str> = s.trim().split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let last = parts.len() - 1;
    for (i, p) in parts.iter().enumerate() {
        if i < last {
            let n: u64 = p.parse().ok()?;
            total = total.checked_mul(60)?.checked_add(n)?;
        } else {
            let (whole, frac) = p.split_once('.').unwrap_or((p, ""));
            let n: u64 = whole.parse().ok()?;
            total = total.checked_mul(60)?.checked_add(n)?;
            let mut ms = total.checked_mul(1000)?;
            if !frac.is_empty() {
                let digits: String = frac.chars().take(3).collect();
                if !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let scale = 10u64.pow(3 - digits.len() as u32);
                ms += digits.parse::<u64>().ok()? * scale;
            }
            return Some(ms);
        }
    }
    None
}

/// Reads every game of a PGN text.
pub fn read_pgn(pgn: &[u8]) -> Result<Vec<RecordedGame>, ReplayError> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn));
    let mut out = Vec::new();
    let mut v = Collector;
    while let Some(g) = reader.read_game(&mut v)? {
        out.push(g);
    }
    Ok(out)
}

/// How the replay chooses and runs the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Use this control whatever the tag says.
    pub time_control: Option<TimeControl>,
    /// Use this control when the tag is missing, `?`, `-` or unreadable.
    pub fallback_time_control: Option<TimeControl>,
    /// Increment convention of the recording device (ADR `clock-001`).
    pub credit: IncrementCredit,
    /// Readings are whole seconds: differences up to this are rounding, not anomalies.
    pub tolerance_ms: Millis,
    /// `[%emt]` differing from the time derived from `[%clk]` by more than this is reported.
    /// DGT LiveChess measures `[%emt]` from board moves, not clock presses, so a few seconds
    /// of difference are normal.
    pub emt_tolerance_ms: Millis,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            time_control: None,
            fallback_time_control: None,
            credit: IncrementCredit::AtStartOfMove,
            tolerance_ms: 1_000,
            emt_tolerance_ms: 10_000,
        }
    }
}

/// Where the replay's time control came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControlSource {
    /// [`ReplayOptions::time_control`].
    Override,
    /// The `TimeControl` tag in PGN notation.
    Tag,
    /// The `TimeControl` tag as free text (e.g. `15 min/game + 10 sec/move`).
    FreeTextTag,
    /// [`ReplayOptions::fallback_time_control`].
    Fallback,
    /// None known: the clock comparison is skipped.
    Unknown,
}

/// A device reading that the computed clock contradicts. Reported, never decisive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeviceAnomaly {
    /// No `[%clk]` after this ply.
    MissingClock { ply: u32 },
    /// The reading is higher than the control allows (the clock jumped up by `excess_ms`).
    ClockJumpUp {
        ply: u32,
        reading_ms: Millis,
        excess_ms: Millis,
    },
    /// The reading would mean the flag fell before the move was completed (e.g. a `0:00:00`
    /// glitch) although the game went on; ignored.
    ReadingImpliesFlag { ply: u32, reading_ms: Millis },
    /// `[%emt]` and the time derived from `[%clk]` differ by more than the tolerance.
    EmtContradictsClk {
        ply: u32,
        emt_ms: Millis,
        derived_ms: i64,
    },
    /// After an estimated move (missing or rejected reading), the side's next reading showed
    /// more time than computed: the computed clock was set forward by `by_ms` to the reading
    /// (time only goes up, so this can never make a flag fall).
    Resynchronised { ply: u32, by_ms: Millis },
    /// The recorded move could not be played: the replay stops there.
    IllegalMove { ply: u32, san: String, why: String },
    /// Moves were recorded after the game had ended by the Laws (e.g. play went on in a dead
    /// position, 5.2.2): from this ply on they are not replayed.
    MovesAfterEnd { ply: u32, san: String },
    /// The `Variant` tag (`tag`, empty when missing) does not fit the `FEN`: the game was
    /// read as `read_as` (a Chess960 start under `[Variant "Standard"]`; ADR clock-008).
    VariantTag { tag: String, read_as: String },
}

/// What happened on one ply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveCheck {
    pub ply: u32,
    pub side: Side,
    pub san: String,
    /// The recorded `[%clk]`.
    pub recorded_ms: Option<Millis>,
    /// The recorded `[%emt]`.
    pub recorded_emt_ms: Option<Millis>,
    /// The elapsed time fed to the clock for this move.
    pub elapsed_ms: Millis,
    /// The computed remaining time after the move (for a move that ends the game, as a pressed
    /// device shows it: with the press credit).
    pub computed_ms: Millis,
    /// |computed − recorded|, when recorded.
    pub deviation_ms: Option<Millis>,
}

/// The replay of one game.
#[derive(Debug, Clone)]
pub struct GameReplay {
    /// The game's tags.
    pub tags: Vec<(String, String)>,
    /// The control used and where it came from.
    pub time_control: Option<TimeControl>,
    pub time_control_source: TimeControlSource,
    /// One entry per ply replayed.
    pub moves: Vec<MoveCheck>,
    /// Largest deviation between computed and recorded clocks (0 if nothing recorded).
    pub max_deviation_ms: Millis,
    /// How the game ended by the Laws (`None`: still going on after the last recorded move,
    /// e.g. resignation or agreement that the moves alone do not show).
    pub laws_end: Option<GameEnd>,
    /// The `Result` tag (or the movetext marker when the tag is missing).
    pub result_tag: String,
    /// Anomalies of the device readings and of the move list.
    pub anomalies: Vec<DeviceAnomaly>,
    /// The game as replayed (for export).
    pub game: Game,
}

impl GameReplay {
    /// Whether the Laws' ending (if any) agrees with the result tag.
    pub fn result_agrees(&self) -> Option<bool> {
        self.laws_end
            .map(|e| e.result.to_pgn() == self.result_tag.as_str())
    }

    /// Exports the replayed game as PGN with the *computed* clocks in `[%clk]`.
    pub fn to_pgn(&self) -> String {
        self.game.to_pgn(&self.tags)
    }
}

fn choose_control(
    g: &RecordedGame,
    opts: &ReplayOptions,
) -> (Option<TimeControl>, TimeControlSource) {
    if let Some(tc) = &opts.time_control {
        return (Some(tc.clone()), TimeControlSource::Override);
    }
    if let Some(tag) = g.tag("TimeControl") {
        match TimeControlTag::parse(tag) {
            Ok(TimeControlTag::Timed(tc)) => return (Some(tc), TimeControlSource::Tag),
            Ok(_) => {}
            Err(_) => {
                if let Some(tc) = TimeControl::parse_free_text(tag) {
                    return (Some(tc), TimeControlSource::FreeTextTag);
                }
            }
        }
    }
    match &opts.fallback_time_control {
        Some(tc) => (Some(tc.clone()), TimeControlSource::Fallback),
        None => (None, TimeControlSource::Unknown),
    }
}

/// The game's variant (ADR clock-008): the `Variant` tag when it names Chess960 (or
/// Fischerandom, FRC, freestyle, ...); else Chess960 when the `FEN` is a Chess960 starting
/// position other than 518, or castling rights only Chess960 can hold (a tag saying
/// `Standard` on such a FEN is a recording slip, reported as [`DeviceAnomaly::VariantTag`]);
/// else the ordinary game.
fn variant_of(rec: &RecordedGame) -> (Variant, Option<DeviceAnomaly>) {
    let tagged = rec.tag("Variant").map(Variant::parse);
    if let Some(Ok(Variant::Chess960)) = tagged {
        return (Variant::Chess960, None);
    }
    let Some(fen) = rec.tag("FEN") else {
        return (Variant::Standard, None);
    };
    let start_960 = StartPosition::from_fen(fen).is_ok_and(|s| s != StartPosition::STANDARD);
    let only_960 = fen.parse::<shakmaty::fen::Fen>().is_ok_and(|f| {
        f.clone()
            .into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Standard)
            .is_err()
            && f.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Chess960)
                .is_ok()
    });
    if start_960 || only_960 {
        let note = DeviceAnomaly::VariantTag {
            tag: rec.tag("Variant").unwrap_or("").chars().take(40).collect(),
            read_as: "Chess960".into(),
        };
        return (Variant::Chess960, Some(note));
    }
    (Variant::Standard, None)
}

/// Replays one recorded game.
pub fn replay_game(rec: &RecordedGame, opts: &ReplayOptions) -> GameReplay {
    let (tc, source) = choose_control(rec, opts);
    let timed = tc.is_some();
    let mut cfg = GameConfig::new(tc.clone().unwrap_or_else(TimeControl::unlimited));
    cfg.credit = opts.credit;
    let (variant, variant_note) = variant_of(rec);
    cfg.variant = variant;
    if rec.tag("SetUp") == Some("1") || variant == Variant::Chess960 {
        cfg.start_fen = rec.tag("FEN").map(str::to_string);
    }
    let result_tag = rec
        .tag("Result")
        .map(str::to_string)
        .or_else(|| rec.termination_marker.clone())
        .unwrap_or_else(|| "*".to_string());
    let mut anomalies = Vec::new();
    if let Some(note) = variant_note {
        anomalies.push(note);
    }
    let mut moves = Vec::new();
    let mut game = match Game::new(cfg.clone()) {
        Ok(g) => g,
        Err(e) => {
            anomalies.push(DeviceAnomaly::IllegalMove {
                ply: 0,
                san: String::new(),
                why: format!("{e}; replayed from the initial position instead"),
            });
            Game::new_from_initial_position(cfg)
        }
    };
    let mut t: Instant = 0;
    let _ = game.apply(&GameEvent::Start { at: 0 });
    let tol = opts.tolerance_ms as i64;
    let emt_tol = opts.emt_tolerance_ms as i64;
    // per side: whether the computed clock rests on an estimate (reading missing or rejected)
    let mut estimated = [false; 2];
    for (i, m) in rec.moves.iter().enumerate() {
        let ply = i as u32;
        if game.end().is_some() {
            anomalies.push(DeviceAnomaly::MovesAfterEnd {
                ply,
                san: m.san.clone(),
            });
            break;
        }
        let side = game.side_to_move();
        let rem_before = game.clock().remaining_at(side, t) as i64;
        let emt = m.emt.map(|e| e as i64);
        let plausible_emt = emt.filter(|e| *e < rem_before);
        let mut reading_used = false;
        let mut elapsed: i64 = match (timed, m.clk) {
            (false, _) => emt.unwrap_or(0),
            (true, None) => {
                anomalies.push(DeviceAnomaly::MissingClock { ply });
                plausible_emt.unwrap_or(0)
            }
            (true, Some(reading)) => {
                let d = game.clock().elapsed_for_reading(side, reading);
                if d < -tol && estimated[side.index()] {
                    // the previous estimate for this side was too high: set the clock forward
                    let by = d.unsigned_abs();
                    if game
                        .apply(&GameEvent::AdjustTime {
                            at: t,
                            side,
                            delta_ms: by as i64,
                        })
                        .is_ok()
                    {
                        anomalies.push(DeviceAnomaly::Resynchronised { ply, by_ms: by });
                    }
                    reading_used = true;
                    0
                } else if d < -tol {
                    anomalies.push(DeviceAnomaly::ClockJumpUp {
                        ply,
                        reading_ms: reading,
                        excess_ms: d.unsigned_abs(),
                    });
                    plausible_emt.unwrap_or(0)
                } else if d >= rem_before {
                    anomalies.push(DeviceAnomaly::ReadingImpliesFlag {
                        ply,
                        reading_ms: reading,
                    });
                    plausible_emt.unwrap_or(0)
                } else {
                    let d = d.max(0);
                    if let Some(e) = emt
                        && (e - d).abs() > emt_tol
                    {
                        anomalies.push(DeviceAnomaly::EmtContradictsClk {
                            ply,
                            emt_ms: e as u64,
                            derived_ms: d,
                        });
                    }
                    reading_used = true;
                    d
                }
            }
        };
        estimated[side.index()] = timed && !reading_used;
        // A reading never makes a flag fall (ADR clock-004).
        if timed && elapsed >= rem_before {
            elapsed = (rem_before - 1).max(0);
        }
        t += elapsed.max(0) as u64;
        // what the device shows if the move ends the game (6.2.1: no press is needed, but a
        // device that was pressed still adds its credit)
        let (_, _, press_credit) = game.clock().press_credit(side, elapsed.max(0) as u64);
        match game.apply(&GameEvent::Move {
            at: t,
            mv: MoveText::San(m.san.clone()),
        }) {
            Ok(_) => {}
            Err(e) => {
                anomalies.push(DeviceAnomaly::IllegalMove {
                    ply,
                    san: m.san.clone(),
                    why: e.to_string(),
                });
                break;
            }
        }
        let Some(last) = game.plies().last() else {
            break;
        };
        let computed = if game.end().is_some() {
            last.remaining_ms.saturating_add(press_credit)
        } else {
            last.remaining_ms
        };
        moves.push(MoveCheck {
            ply,
            side,
            san: last.san.clone(),
            recorded_ms: m.clk,
            recorded_emt_ms: m.emt,
            elapsed_ms: elapsed.max(0) as u64,
            computed_ms: computed,
            deviation_ms: if timed {
                m.clk.map(|r| r.abs_diff(computed))
            } else {
                None
            },
        });
    }
    let max_deviation_ms = moves
        .iter()
        .filter_map(|m| m.deviation_ms)
        .max()
        .unwrap_or(0);
    GameReplay {
        tags: rec.tags.clone(),
        time_control: tc,
        time_control_source: source,
        moves,
        max_deviation_ms,
        laws_end: game.end(),
        result_tag,
        anomalies,
        game,
    }
}

/// Reads and replays every game of a PGN text.
pub fn replay_pgn(pgn: &[u8], opts: &ReplayOptions) -> Result<Vec<GameReplay>, ReplayError> {
    Ok(read_pgn(pgn)?
        .iter()
        .map(|g| replay_game(g, opts))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hms_readings() {
        assert_eq!(parse_hms("1:59:56"), Some(7_196_000));
        assert_eq!(parse_hms("00:15:19"), Some(919_000));
        assert_eq!(parse_hms("0:00:09.5"), Some(9_500));
        assert_eq!(parse_hms("5:03"), Some(303_000));
        assert_eq!(parse_hms("x"), None);
        assert_eq!(parse_hms("1:2:3:4"), None);
    }

    #[test]
    fn comment_commands() {
        assert_eq!(command_value(" [%clk 0:05:03] ", "%clk"), Some("0:05:03"));
        assert_eq!(command_value("[%emt 00:00:02]", "%clk"), None);
    }
}
