//! Where each tournament's events are in the log (ADR registry-003): the positions the
//! projection saw while folding, so a tournament's history, audit export, `--as-of` state
//! and per-tournament verify read those events only, never the whole log.
//!
//! Speed machinery, not a rule: the answers are the same as a scan of the whole log
//! filtered by [`crate::projection::concerns`] (a test compares them).
use std::collections::{BTreeMap, HashMap};

use arbiter_eventlog::RecordedEvent;

use crate::roster::RosterEvent;

/// The positions of one tournament's events, ascending.
#[derive(Debug, Clone, Default)]
pub struct TournamentIndex {
    /// Every event of the tournament.
    pub all: Vec<i64>,
    /// Events about a whole round (paired, published, discarded, unpublished).
    pub rounds: BTreeMap<u32, Vec<i64>>,
    /// Events about one game (round, board): results and corrections.
    pub games: HashMap<(u32, u32), Vec<i64>>,
}

impl TournamentIndex {
    /// Positions of the events of one game's history (its round's pairing events and
    /// its own results), ascending.
    pub fn game(&self, round: u32, board: u32) -> Vec<i64> {
        let mut out: Vec<i64> = self
            .rounds
            .get(&round)
            .into_iter()
            .flatten()
            .chain(self.games.get(&(round, board)).into_iter().flatten())
            .copied()
            .collect();
        out.sort_unstable();
        out
    }

    /// Positions up to `position` (inclusive).
    pub fn up_to(&self, position: i64) -> &[i64] {
        let n = self.all.partition_point(|p| *p <= position);
        &self.all[..n]
    }

    pub(crate) fn record(&mut self, position: i64) {
        // Positions arrive in log order; a repeated delivery is ignored.
        if self.all.last().is_none_or(|last| *last < position) {
            self.all.push(position);
        }
    }

    pub(crate) fn record_decoded(&mut self, position: i64, event: &RosterEvent) {
        let push = |v: &mut Vec<i64>| {
            if v.last().is_none_or(|last| *last < position) {
                v.push(position);
            }
        };
        match event {
            RosterEvent::RoundPaired(x) => push(self.rounds.entry(x.round).or_default()),
            RosterEvent::PairingsPublished(x) => push(self.rounds.entry(x.round).or_default()),
            RosterEvent::PairingDiscarded(x) => push(self.rounds.entry(x.round).or_default()),
            RosterEvent::PairingsUnpublished(x) => push(self.rounds.entry(x.round).or_default()),
            RosterEvent::PairingExplained(x) => push(self.rounds.entry(x.round).or_default()),
            RosterEvent::ResultRecorded(x) => {
                push(self.games.entry((x.round, x.board)).or_default())
            }
            RosterEvent::ResultCorrected(x) => {
                push(self.games.entry((x.round, x.board)).or_default())
            }
            _ => {}
        }
    }
}

/// The suffix of the stream of a tournament's pairing explanations,
/// `pairing-ID-explanations` (ADR pairing-004).
pub const EXPLANATIONS_SUFFIX: &str = "-explanations";

/// The tournament whose record `e` belongs to, from its stream's name:
/// `tournament-ID`, `pairing-ID`, `pairing-ID-explanations`, `results-ID[-rR-bB|-rR-pP]`, and the `ResultReported`
/// events of `board-ID-B`. `None`: not a tournament's event.
pub fn tournament_of_stream(e: &RecordedEvent) -> Option<&str> {
    let s = e.stream.as_str();
    if let Some(id) = s.strip_prefix("tournament-") {
        return Some(id);
    }
    if let Some(id) = s.strip_prefix("pairing-") {
        return Some(id.strip_suffix(EXPLANATIONS_SUFFIX).unwrap_or(id));
    }
    if let Some(rest) = s.strip_prefix("results-") {
        return Some(strip_game_suffix(rest));
    }
    if (e.event_type == crate::roster::types::RESULT_REPORTED
        || e.event_type == crate::roster::types::ADJOURNMENT_REPORTED)
        && let Some(rest) = s.strip_prefix("board-")
    {
        return rest
            .rsplit_once('-')
            .filter(|(_, board)| !board.is_empty() && board.bytes().all(|b| b.is_ascii_digit()))
            .map(|(id, _)| id);
    }
    None
}

/// `ID-rR-bB` / `ID-rR-pP` → `ID`; anything else unchanged.
fn strip_game_suffix(rest: &str) -> &str {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = rest.rsplitn(3, '-');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(last), Some(round), Some(id))
            if round.strip_prefix('r').is_some_and(digits)
                && (last.strip_prefix('b').is_some_and(digits)
                    || last.strip_prefix('p').is_some_and(digits)) =>
        {
            id
        }
        _ => rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(stream: &str, event_type: &str) -> RecordedEvent {
        RecordedEvent {
            global_position: 1,
            event_id: String::new(),
            stream: stream.into(),
            stream_version: 1,
            event_type: event_type.into(),
            schema_version: 1,
            payload: Vec::new(),
            recorded_at_micros: 0,
            actor: String::new(),
            command_id: String::new(),
            correlation_id: String::new(),
            causation_id: String::new(),
            reason: String::new(),
            rule_edition: String::new(),
            service: String::new(),
            prev_hash: Vec::new(),
            hash: Vec::new(),
            trace_parent: String::new(),
        }
    }

    #[test]
    fn every_stream_of_a_tournament_names_it() {
        let id = "01a233ee-e702-7170-8eeb-aec14606c3ad";
        for stream in [
            format!("tournament-{id}"),
            format!("pairing-{id}"),
            format!("pairing-{id}-explanations"),
            format!("results-{id}"),
            format!("results-{id}-r3-b12"),
            format!("results-{id}-r3-p7"),
        ] {
            assert_eq!(
                tournament_of_stream(&event(&stream, "X")),
                Some(id),
                "{stream}"
            );
        }
        assert_eq!(
            tournament_of_stream(&event(&format!("board-{id}-4"), "ResultReported")),
            Some(id)
        );
        assert_eq!(
            tournament_of_stream(&event(&format!("board-{id}-4"), "MoveRecorded")),
            None
        );
        assert_eq!(tournament_of_stream(&event("access", "TokenIssued")), None);
        assert_eq!(tournament_of_stream(&event("rating-2026-11", "X")), None);
    }

    #[test]
    fn a_game_has_its_rounds_events_and_its_own_in_log_order() {
        let mut i = TournamentIndex::default();
        for p in [3, 5, 9, 12] {
            i.record(p);
        }
        i.record(9); // a repeated delivery
        i.rounds.insert(1, vec![3, 12]);
        i.games.insert((1, 2), vec![5, 9]);
        assert_eq!(i.game(1, 2), vec![3, 5, 9, 12]);
        assert_eq!(i.game(1, 3), vec![3, 12]);
        assert_eq!(i.all, vec![3, 5, 9, 12]);
        assert_eq!(i.up_to(9), &[3, 5, 9]);
        assert_eq!(i.up_to(2), &[] as &[i64]);
    }
}
