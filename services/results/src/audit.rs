//! The audit trail of a tournament, pure over the log's events: who changed what, when,
//! why (the reason), under which command and rule edition, with the value before and
//! after. Filters for one game, one player or the whole tournament; JSON-lines export.
use arbiter_eventlog::RecordedEvent;
use arbiter_proto::v1::HistoryEntry;
use arbiter_registry::roster::RosterEvent;
use serde_json::json;

/// What the history is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Every event of the tournament.
    Tournament,
    /// One game (round, board): its pairing and its results.
    Game(u32, u32),
    /// One player (id): every event that names them.
    Player(String),
}

fn board_of(e: &RosterEvent, round: u32, board: u32) -> bool {
    match e {
        RosterEvent::RoundPaired(p) => p.round == round,
        RosterEvent::PairingsPublished(p) => p.round == round,
        RosterEvent::PairingDiscarded(p) => p.round == round,
        RosterEvent::PairingsUnpublished(p) => p.round == round,
        RosterEvent::ResultRecorded(r) => r.round == round && r.board == board,
        RosterEvent::ResultCorrected(r) => r.round == round && r.board == board,
        _ => false,
    }
}

fn names_player(e: &RosterEvent, id: &str) -> bool {
    match e {
        RosterEvent::PlayerAdded(x) => x.player_id == id,
        RosterEvent::PlayerCorrected(x) => x.player_id == id,
        RosterEvent::PlayerWithdrawn(x) => x.player_id == id,
        RosterEvent::ByeRequested(x) => x.player_id == id,
        RosterEvent::PairingProhibited(x) => x.player_ids.iter().any(|p| p == id),
        RosterEvent::RoundPaired(p) => {
            p.bye_player_id == id
                || p.boards
                    .iter()
                    .any(|b| b.white_id == id || b.black_id == id)
        }
        RosterEvent::ResultRecorded(r) => r.white_id == id || r.black_id == id,
        RosterEvent::ResultCorrected(r) => r.white_id == id || r.black_id == id,
        RosterEvent::ByeRecorded(b) => b.player_id == id,
        _ => false,
    }
}

/// (before, after, summary) of an event in words.
pub fn describe(e: &RecordedEvent) -> (String, String, String) {
    let Some(Ok(d)) = RosterEvent::decode(&e.event_type, &e.payload) else {
        return (String::new(), String::new(), e.event_type.clone());
    };
    match d {
        RosterEvent::ResultRecorded(r) => (
            String::new(),
            r.result.clone(),
            format!("round {} board {}: {}", r.round, r.board, r.result),
        ),
        RosterEvent::ResultCorrected(r) => (
            r.previous_result.clone(),
            r.result.clone(),
            format!(
                "round {} board {}: {} corrected to {} ({})",
                r.round, r.board, r.previous_result, r.result, r.applies_to
            ),
        ),
        RosterEvent::ByeRecorded(b) => (
            b.previous_kind.clone(),
            b.kind.clone(),
            format!("round {}: {} for player {}", b.round, b.kind, b.player_id),
        ),
        RosterEvent::RoundPaired(p) => (
            String::new(),
            format!("{} boards", p.boards.len()),
            format!(
                "round {} {} ({} {}, {} boards{}{})",
                p.round,
                if p.repaired { "re-paired" } else { "paired" },
                if p.engine_made { "engine" } else { "by hand" },
                p.edition,
                p.boards.len(),
                if p.bye_player_id.is_empty() {
                    ""
                } else {
                    ", a bye"
                },
                if p.after_publication {
                    ", after publication"
                } else {
                    ""
                }
            ),
        ),
        RosterEvent::PairingsPublished(p) => (
            String::new(),
            String::new(),
            format!("round {} published", p.round),
        ),
        RosterEvent::PairingDiscarded(p) => (
            String::new(),
            String::new(),
            format!("round {} pairing discarded", p.round),
        ),
        RosterEvent::PairingsUnpublished(p) => (
            String::new(),
            String::new(),
            format!("round {} unpublished", p.round),
        ),
        RosterEvent::PairingExplained(p) => (
            String::new(),
            String::new(),
            if p.error.is_empty() {
                format!("round {} explained by the engine", p.round)
            } else {
                format!("round {}: no explanation ({})", p.round, p.error)
            },
        ),
        RosterEvent::RoundClosed(c) => (
            String::new(),
            String::new(),
            format!("round {} closed", c.round),
        ),
        other => (
            String::new(),
            String::new(),
            format!("{other:?}").chars().take(300).collect(),
        ),
    }
}

/// True when `e` belongs to the history of `subject`.
pub fn touches(e: &RecordedEvent, subject: &Subject) -> bool {
    match subject {
        Subject::Tournament => true,
        Subject::Game(r, b) => RosterEvent::decode(&e.event_type, &e.payload)
            .and_then(Result::ok)
            .is_some_and(|d| board_of(&d, *r, *b)),
        Subject::Player(id) => RosterEvent::decode(&e.event_type, &e.payload)
            .and_then(Result::ok)
            .is_some_and(|d| names_player(&d, id)),
    }
}

/// One history entry.
pub fn entry(e: &RecordedEvent) -> HistoryEntry {
    let (before, after, summary) = describe(e);
    HistoryEntry {
        position: e.global_position,
        stream: e.stream.clone(),
        stream_version: e.stream_version,
        event_type: e.event_type.clone(),
        recorded_at_micros: e.recorded_at_micros,
        actor: e.actor.clone(),
        command_id: e.command_id.clone(),
        reason: e.reason.clone(),
        rule_edition: e.rule_edition.clone(),
        before,
        after,
        summary,
        hash: hex::encode(&e.hash),
    }
}

/// The event as one JSON line (the audit export).
pub fn json_line(e: &RecordedEvent) -> String {
    let (before, after, summary) = describe(e);
    let at = chrono::DateTime::from_timestamp_micros(e.recorded_at_micros)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true))
        .unwrap_or_default();
    json!({
        "position": e.global_position,
        "event_id": e.event_id,
        "stream": e.stream,
        "stream_version": e.stream_version,
        "type": e.event_type,
        "schema_version": e.schema_version,
        "recorded_at": at,
        "actor": e.actor,
        "command_id": e.command_id,
        "reason": e.reason,
        "rule_edition": e.rule_edition,
        "service": e.service,
        "before": before,
        "after": after,
        "summary": summary,
        "payload_hex": hex::encode(&e.payload),
        "prev_hash": hex::encode(&e.prev_hash),
        "hash": hex::encode(&e.hash),
    })
    .to_string()
}
