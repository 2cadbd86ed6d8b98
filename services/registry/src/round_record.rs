//! The rounds played here, pure: pairings (pairing service), results, corrections, byes
//! and closed rounds (results service), folded into the tournament's [`Roster`].
//!
//! Every fold also keeps the round blocks of `Roster::rounds` (the TRF view of a round),
//! so the TRF export, the pairing engine's input and the standings all read one history.
//! A correction that applies to rating only (C.04.2 art. 4; seed 000 C.04.2 D.8: reported
//! after the following round ended) changes the board's rating result, not its blocks.
//!
//! Result notation ([`parse_result`]): `WHITE-BLACK`, each side `1`, `1/2` (`½`, `0.5`),
//! `0` for a game, `+`/`-` for forfeits, `W`/`D`/`L` for a game that lasted less than one
//! move (TRF codes); `1/2` or `=` alone is a draw. Unequal arbiter-assigned scores (Laws
//! 12.9) are written the same way: `1-1/2`, `0-0`.
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use arbiter_proto::v1::{RoundBlock, RoundPaired};

use crate::roster::{Roster, RosterEvent};
use crate::tournament::FieldError;

/// Who wrote an event, when, and where it is in the log.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventMeta {
    /// Global position.
    pub position: i64,
    /// Version in its stream.
    pub stream_version: i64,
    /// Actor.
    pub actor: String,
    /// Recorded time (µs since the epoch).
    pub recorded_at_micros: i64,
    /// Reason given with the command.
    pub reason: String,
}

/// A round's pairing as it stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairedRound {
    /// The last `RoundPaired` of the round.
    pub event: RoundPaired,
    /// Published (`PairingsPublished`).
    pub published: bool,
    /// Metadata of the last `RoundPaired`.
    pub paired: EventMeta,
    /// How many `RoundPaired` the round has had.
    pub times_paired: u32,
    /// The explanation of the last `RoundPaired`: its own text (by hand, systems other
    /// than Dutch), or the `PairingExplained` made for it after it was stored (ADR
    /// pairing-004). `None`: not made yet.
    pub explanation: Option<Result<String, String>>,
}

/// A board's result as it stands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoardState {
    /// Result in canonical notation (what standings and pairings use).
    pub result: String,
    /// The result rating uses (differs after a rating-only correction).
    pub rating_result: String,
    /// Number of corrections.
    pub corrections: u32,
    /// Version of the board's stream (`expected_version` for the next correction).
    pub version: i64,
    /// Who entered it first: `arbiter` or `clock`.
    pub source: String,
}

/// An unpaired player's recorded outcome.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordedBye {
    /// `pab`, `full`, `half`, `zero`, `absent`.
    pub kind: String,
    /// Version of its stream.
    pub version: i64,
}

/// Pairings, results and closed rounds made here.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoundRecord {
    /// Round → pairing.
    pub pairings: Arc<BTreeMap<u32, PairedRound>>,
    /// (round, board) → result.
    pub boards: Arc<BTreeMap<(u32, u32), BoardState>>,
    /// (round, player id) → recorded outcome of an unpaired player.
    pub byes: Arc<BTreeMap<(u32, String), RecordedBye>>,
    /// Rounds closed (ended).
    pub closed: BTreeSet<u32>,
    /// (round, board) → the result a clock or sensor board reported (latest).
    pub reported: Arc<BTreeMap<(u32, u32), ReportedResult>>,
    /// (round, board) → a game adjourned on its clock (Guidelines I), as the clock reported
    /// it; pending while the board has no result (ADR results-002).
    pub adjourned: Arc<BTreeMap<(u32, u32), AdjournedGame>>,
    /// Round → the earlier rounds whose results were corrected (for standings and
    /// pairings) after it was paired: it was paired on the old result, so re-pairing it
    /// from the final record can differ (ADR trf-005).
    pub paired_before_correction: BTreeMap<u32, BTreeSet<u32>>,
}

/// A game adjourned on its clock (clock-telemetry's `AdjournmentReported`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AdjournedGame {
    /// The players as the board names them.
    pub white: String,
    pub black: String,
    /// Where the report is in the log.
    pub position: i64,
}

/// A result reported by clock-telemetry, for the arbiter to confirm (or applied
/// automatically when the board was opened with `auto_apply_results`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReportedResult {
    /// As reported (PGN notation).
    pub result: String,
    /// How the game ended (e.g. checkmate, flag fall).
    pub termination: String,
    /// The Laws article applied.
    pub article: String,
    /// Apply without confirmation.
    pub auto_apply: bool,
    /// Where the report is in the log.
    pub position: i64,
}

/// The three cases of a correction (C.04.2 art. 4; seed 000 C.04.2 D.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CorrectionScope {
    /// Reported before round+1 was published: standings and the next pairing.
    StandingsAndNextPairing,
    /// Reported after round+1 was published, before it ended: standings and later pairings.
    StandingsAndLaterPairings,
    /// Reported after round+1 ended: rating only.
    RatingOnly,
}

impl CorrectionScope {
    /// The name stored in `ResultCorrected.applies_to`.
    pub fn as_str(self) -> &'static str {
        match self {
            CorrectionScope::StandingsAndNextPairing => "standings-and-next-pairing",
            CorrectionScope::StandingsAndLaterPairings => "standings-and-later-pairings",
            CorrectionScope::RatingOnly => "rating-only",
        }
    }
}

/// A parsed result: canonical notation and the two TRF result codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedResult {
    /// Canonical notation (`1-0`, `1/2-1/2`, `+-`, `W-L`, `1-1/2`…).
    pub canonical: String,
    /// White's TRF code.
    pub white: char,
    /// Black's TRF code.
    pub black: char,
}

impl ParsedResult {
    /// True when the game counts as played (for rating and colours).
    pub fn played(&self) -> bool {
        !matches!(self.white, '+' | '-') && !matches!(self.black, '+' | '-')
    }

    /// A side's score in rating terms (`None`: not a rated game).
    pub fn rating_score(&self, white: bool) -> Option<&'static str> {
        if !self.played() || matches!(self.white, 'W' | 'D' | 'L') {
            return None;
        }
        let c = if white { self.white } else { self.black };
        Some(match c {
            '1' => "1",
            '=' => "1/2",
            _ => "0",
        })
    }
}

fn side(token: &str) -> Option<char> {
    match token {
        "1" => Some('1'),
        "0" => Some('0'),
        "1/2" | "½" | "0.5" | ".5" | "=" => Some('='),
        "+" => Some('+'),
        "-" => Some('-'),
        "w" => Some('W'),
        "d" => Some('D'),
        "l" => Some('L'),
        _ => None,
    }
}

fn side_name(c: char) -> &'static str {
    match c {
        '1' => "1",
        '0' => "0",
        '=' => "1/2",
        '+' => "+",
        '-' => "-",
        'W' => "W",
        'D' => "D",
        _ => "L",
    }
}

/// Reads a result in the notation of the module doc, or an error naming `result`.
pub fn parse_result(text: &str) -> Result<ParsedResult, FieldError> {
    let bad = |m: &str| FieldError {
        field: "result",
        message: format!(
            "{text:?}: {m} (write WHITE-BLACK: 1-0, 0-1, 1/2, +-, -+, --, W-L, L-W, D-D, or arbiter-assigned scores such as 1-1/2 or 0-0)"
        ),
    };
    let t: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let (w, b) = match t.as_str() {
        "" => return Err(bad("empty")),
        "1/2" | "½" | "=" | "draw" | "½-½" | "1/2-1/2" | "0.5-0.5" => ('=', '='),
        "+-" | "+:-" => ('+', '-'),
        "-+" | "-:+" => ('-', '+'),
        "--" | "-:-" => ('-', '-'),
        other => {
            let (a, c) = other
                .split_once(':')
                .or_else(|| other.split_once('-'))
                .ok_or_else(|| bad("not a result"))?;
            (
                side(a).ok_or_else(|| bad("unknown white side"))?,
                side(c).ok_or_else(|| bad("unknown black side"))?,
            )
        }
    };
    let game = |c: char| matches!(c, '1' | '=' | '0');
    let short = |c: char| matches!(c, 'W' | 'D' | 'L');
    let forfeit = |c: char| matches!(c, '+' | '-');
    let ok = (game(w) && game(b) && !(w == '1' && b == '1'))
        || (short(w) && short(b) && matches!((w, b), ('W', 'L') | ('L', 'W') | ('D', 'D')))
        || (forfeit(w) && forfeit(b) && !(w == '+' && b == '+'));
    if !ok {
        return Err(bad("the two sides do not make a result"));
    }
    Ok(ParsedResult {
        canonical: if forfeit(w) {
            format!("{w}{b}")
        } else {
            format!("{}-{}", side_name(w), side_name(b))
        },
        white: w,
        black: b,
    })
}

/// The TRF code of an unpaired player's outcome kind.
pub fn bye_outcome_code(kind: &str) -> Result<(&'static str, char), FieldError> {
    match kind.trim().to_ascii_lowercase().as_str() {
        "pab" | "u" => Ok(("pab", 'U')),
        "full" | "f" => Ok(("full", 'F')),
        "half" | "h" => Ok(("half", 'H')),
        "zero" | "z" => Ok(("zero", 'Z')),
        "absent" | "-" => Ok(("absent", '-')),
        other => Err(FieldError {
            field: "kind",
            message: format!("{other:?}: pab, full, half, zero or absent"),
        }),
    }
}

fn block(player: &str, opponent: &str, colour: &str, result: char) -> RoundBlock {
    RoundBlock {
        player_id: player.to_owned(),
        opponent_id: opponent.to_owned(),
        opponent_blank: false,
        colour: colour.to_owned(),
        result: result.to_string(),
    }
}

impl Roster {
    /// Folds a pairing or results event.
    pub(crate) fn apply_round_record(&mut self, e: RosterEvent, meta: &EventMeta) {
        match e {
            RosterEvent::RoundPaired(p) => {
                let r = p.round;
                self.paired_rounds = self.paired_rounds.max(r);
                let mut blocks = Vec::new();
                for b in &p.boards {
                    blocks.push(block(&b.white_id, &b.black_id, "w", ' '));
                    blocks.push(block(&b.black_id, &b.white_id, "b", ' '));
                }
                if !p.bye_player_id.is_empty() {
                    blocks.push(block(&p.bye_player_id, "", "-", 'U'));
                }
                // A team match's board the other team left empty: a forfeit win without
                // an opponent (TRF `0000 - +`; ADR pairing-005).
                for b in p.matches.iter().flat_map(|m| &m.boards) {
                    if !b.unopposed_player_id.is_empty() {
                        blocks.push(block(&b.unopposed_player_id, "", "-", '+'));
                    }
                }
                for e in self.entries.iter() {
                    if let Some(kind) = e.byes.get(&r) {
                        let code = match kind.as_str() {
                            "half" => 'H',
                            "full" => 'F',
                            _ => 'Z',
                        };
                        if !blocks.iter().any(|b| b.player_id == e.player_id) {
                            blocks.push(block(&e.player_id, "", "-", code));
                        }
                    }
                }
                Arc::make_mut(&mut self.rounds).insert(r, Arc::new(blocks));
                let rec = &mut self.record;
                rec.paired_before_correction.remove(&r);
                Arc::make_mut(&mut rec.boards).retain(|(round, _), _| *round != r);
                Arc::make_mut(&mut rec.byes).retain(|(round, _), _| *round != r);
                let times = rec.pairings.get(&r).map_or(0, |x| x.times_paired) + 1;
                // An engine-made Dutch pairing is stored without its explanation, which
                // follows in a `PairingExplained` (ADR pairing-004).
                let explanation = (!p.explanation.is_empty()).then(|| Ok(p.explanation.clone()));
                Arc::make_mut(&mut rec.pairings).insert(
                    r,
                    PairedRound {
                        event: p,
                        published: false,
                        paired: meta.clone(),
                        times_paired: times,
                        explanation,
                    },
                );
            }
            RosterEvent::PairingsPublished(p) => {
                if let Some(x) = Arc::make_mut(&mut self.record.pairings).get_mut(&p.round) {
                    x.published = true;
                }
            }
            // Explains only the pairing it was made for: one repaired or discarded since
            // keeps no explanation of another.
            RosterEvent::PairingExplained(x) => {
                if let Some(p) = Arc::make_mut(&mut self.record.pairings).get_mut(&x.round)
                    && p.paired.position == x.paired_position
                    && p.event.input_sha256 == x.input_sha256
                {
                    p.explanation = Some(if x.error.is_empty() {
                        Ok(x.explanation)
                    } else {
                        Err(x.error)
                    });
                }
            }
            RosterEvent::PairingsUnpublished(p) => {
                if let Some(x) = Arc::make_mut(&mut self.record.pairings).get_mut(&p.round) {
                    x.published = false;
                }
            }
            // Only the last paired round, before any result, is discarded (the pairing
            // service's decide_discard): the round is unpaired again.
            RosterEvent::PairingDiscarded(p) => {
                let r = p.round;
                if Arc::make_mut(&mut self.record.pairings)
                    .remove(&r)
                    .is_some()
                {
                    self.record.paired_before_correction.remove(&r);
                    Arc::make_mut(&mut self.rounds).remove(&r);
                    Arc::make_mut(&mut self.record.boards).retain(|(round, _), _| *round != r);
                    Arc::make_mut(&mut self.record.byes).retain(|(round, _), _| *round != r);
                    if self.paired_rounds == r {
                        self.paired_rounds = r - 1;
                    }
                }
            }
            RosterEvent::ResultRecorded(x) => {
                self.set_codes(
                    x.round,
                    x.board,
                    &x.white_id,
                    &x.black_id,
                    &x.white_code,
                    &x.black_code,
                );
                Arc::make_mut(&mut self.record.boards).insert(
                    (x.round, x.board),
                    BoardState {
                        result: x.result.clone(),
                        rating_result: x.result,
                        corrections: 0,
                        version: meta.stream_version,
                        source: x.source,
                    },
                );
            }
            RosterEvent::ResultCorrected(x) => {
                let rating_only = x.applies_to == CorrectionScope::RatingOnly.as_str();
                if !rating_only {
                    let later: Vec<u32> = self
                        .record
                        .pairings
                        .range(x.round + 1..)
                        .map(|(r, _)| *r)
                        .collect();
                    for r in later {
                        self.record
                            .paired_before_correction
                            .entry(r)
                            .or_default()
                            .insert(x.round);
                    }
                    self.set_codes(
                        x.round,
                        x.board,
                        &x.white_id,
                        &x.black_id,
                        &x.white_code,
                        &x.black_code,
                    );
                }
                let st = Arc::make_mut(&mut self.record.boards)
                    .entry((x.round, x.board))
                    .or_default();
                if !rating_only {
                    st.result = x.result.clone();
                }
                st.rating_result = x.result;
                st.corrections += 1;
                st.version = meta.stream_version;
            }
            RosterEvent::ByeRecorded(x) => {
                let blocks =
                    Arc::make_mut(Arc::make_mut(&mut self.rounds).entry(x.round).or_default());
                blocks.retain(|b| b.player_id != x.player_id);
                blocks.push(block(
                    &x.player_id,
                    "",
                    "-",
                    x.code.chars().next().unwrap_or('-'),
                ));
                Arc::make_mut(&mut self.record.byes).insert(
                    (x.round, x.player_id),
                    RecordedBye {
                        kind: x.kind,
                        version: meta.stream_version,
                    },
                );
            }
            RosterEvent::RoundClosed(c) => {
                self.record.closed.insert(c.round);
            }
            RosterEvent::AdjournmentReported(x) => {
                Arc::make_mut(&mut self.record.adjourned).insert(
                    (x.round, x.board),
                    AdjournedGame {
                        white: x.white,
                        black: x.black,
                        position: meta.position,
                    },
                );
            }
            RosterEvent::ResultReported(x) => {
                Arc::make_mut(&mut self.record.reported).insert(
                    (x.round, x.board),
                    ReportedResult {
                        result: x.result,
                        termination: x.termination,
                        article: x.article,
                        auto_apply: x.auto_apply,
                        position: meta.position,
                    },
                );
            }
            _ => {}
        }
    }

    fn set_codes(&mut self, round: u32, board: u32, white: &str, black: &str, wc: &str, bc: &str) {
        // Copy-on-write: only this round's blocks are copied while a reader holds them.
        let Some(blocks) = Arc::make_mut(&mut self.rounds)
            .get_mut(&round)
            .map(Arc::make_mut)
        else {
            return;
        };
        // `RoundPaired` writes board k's blocks at 2(k−1) (White) and 2(k−1)+1 (Black):
        // found there in constant time (a large open folds in linear time), else searched.
        let i = (board as usize).saturating_sub(1) * 2;
        if blocks.get(i).is_some_and(|b| b.player_id == white)
            && blocks.get(i + 1).is_some_and(|b| b.player_id == black)
        {
            blocks[i].result = wc.to_owned();
            blocks[i + 1].result = bc.to_owned();
            return;
        }
        {
            for b in blocks.iter_mut() {
                if b.player_id == white {
                    b.result = wc.to_owned();
                } else if b.player_id == black {
                    b.result = bc.to_owned();
                }
            }
        }
    }

    /// The record as rating sees it: boards whose result was corrected for rating only
    /// (a claim after the following round ended) carry the corrected result.
    pub fn for_rating(&self) -> Roster {
        let mut r = self.clone();
        for ((round, board), st) in self.record.boards.iter() {
            if st.rating_result == st.result {
                continue;
            }
            let (Some(p), Ok(res)) = (
                self.record.pairings.get(round),
                parse_result(&st.rating_result),
            ) else {
                continue;
            };
            if let Some(b) = p.event.boards.iter().find(|b| b.board == *board) {
                r.set_codes(
                    *round,
                    *board,
                    &b.white_id,
                    &b.black_id,
                    &res.white.to_string(),
                    &res.black.to_string(),
                );
            }
        }
        r
    }

    /// The boards of a paired round that have no result yet.
    pub fn boards_without_result(&self, round: u32) -> Vec<u32> {
        self.record
            .pairings
            .get(&round)
            .map(|p| {
                p.event
                    .boards
                    .iter()
                    .map(|b| b.board)
                    .filter(|b| !self.record.boards.contains_key(&(round, *b)))
                    // C.04.2 3.1: an adjourned game counts as a draw for pairing
                    .filter(|b| !self.record.adjourned.contains_key(&(round, *b)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The adjourned games (Guidelines I) of the paired rounds whose result is pending:
    /// (round, board), in order.
    pub fn adjourned_pending(&self) -> Vec<(u32, u32)> {
        self.record
            .adjourned
            .keys()
            .filter(|k| !self.record.boards.contains_key(k))
            .filter(|(r, b)| {
                self.record
                    .pairings
                    .get(r)
                    .is_some_and(|p| p.event.boards.iter().any(|x| x.board == *b))
            })
            .copied()
            .collect()
    }

    /// The record as pairing sees it (C.04.2 3.1: "adjourned games count as draws for
    /// pairing only"): each adjourned game whose result is pending written as a draw
    /// (`=` for both players). Standings and rating read the record as it is (pending).
    pub fn for_pairing(&self) -> Roster {
        let mut r = self.clone();
        for (round, board) in self.adjourned_pending() {
            let Some(b) = self
                .record
                .pairings
                .get(&round)
                .and_then(|p| p.event.boards.iter().find(|x| x.board == board))
            else {
                continue;
            };
            let (w, bl) = (b.white_id.clone(), b.black_id.clone());
            r.set_codes(round, board, &w, &bl, "=", "=");
        }
        r
    }

    /// True when a result or an outcome has been recorded in `round`.
    pub fn round_has_results(&self, round: u32) -> bool {
        self.record.boards.keys().any(|(r, _)| *r == round)
            || self.record.byes.keys().any(|(r, _)| *r == round)
    }

    /// The scope of a correction of a round-`round` result reported now.
    pub fn correction_scope(&self, round: u32) -> CorrectionScope {
        let next = round + 1;
        let next_published = self.record.pairings.get(&next).is_some_and(|p| p.published);
        if !next_published {
            CorrectionScope::StandingsAndNextPairing
        } else if self.record.closed.contains(&next) {
            CorrectionScope::RatingOnly
        } else {
            CorrectionScope::StandingsAndLaterPairings
        }
    }

    /// Rounds after `round` that were paired (published, unpublished).
    pub fn later_pairings(&self, round: u32) -> (Vec<u32>, Vec<u32>) {
        let mut published = Vec::new();
        let mut unpublished = Vec::new();
        for (r, p) in self.record.pairings.range(round + 1..) {
            if p.published {
                published.push(*r);
            } else {
                unpublished.push(*r);
            }
        }
        (published, unpublished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_every_notation() {
        for (text, canonical, w, b) in [
            ("1-0", "1-0", '1', '0'),
            ("0-1", "0-1", '0', '1'),
            ("½-½", "1/2-1/2", '=', '='),
            ("1/2", "1/2-1/2", '=', '='),
            ("=", "1/2-1/2", '=', '='),
            ("+-", "+-", '+', '-'),
            ("-+", "-+", '-', '+'),
            ("--", "--", '-', '-'),
            ("W-L", "W-L", 'W', 'L'),
            ("d-d", "D-D", 'D', 'D'),
            ("1-1/2", "1-1/2", '1', '='),
            ("0-0", "0-0", '0', '0'),
            (" 1 - 0 ", "1-0", '1', '0'),
        ] {
            let p = parse_result(text).unwrap();
            assert_eq!(
                (p.canonical.as_str(), p.white, p.black),
                (canonical, w, b),
                "{text}"
            );
        }
    }

    #[test]
    fn impossible_results_name_the_field() {
        for text in ["", "2-0", "1-1", "+-+", "W-W", "1-+", "W-0", "++", "win"] {
            let e = parse_result(text).unwrap_err();
            assert_eq!(e.field, "result", "{text}");
        }
    }

    #[test]
    fn rating_scores_only_for_games_of_at_least_one_move() {
        assert_eq!(parse_result("1-0").unwrap().rating_score(true), Some("1"));
        assert_eq!(
            parse_result("1-1/2").unwrap().rating_score(false),
            Some("1/2")
        );
        assert_eq!(parse_result("+-").unwrap().rating_score(true), None);
        assert_eq!(parse_result("W-L").unwrap().rating_score(true), None);
    }
}
