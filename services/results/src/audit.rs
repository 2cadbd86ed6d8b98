//! The audit trail of a tournament, pure over the log's events: who changed what, when,
//! why (the reason), under which command and rule edition, with the value before and
//! after. Filters for one game, one player or the whole tournament; JSON-lines export.
use arbiter_eventlog::RecordedEvent;
use arbiter_proto::v1::HistoryEntry;
use arbiter_proto::v1::PlayerData;
use arbiter_registry::roster::{Roster, RosterEvent};
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
        RosterEvent::TeamRosterSet(r) => r.player_ids.iter().any(|p| p == id),
        RosterEvent::LineupSubmitted(l) => l.boards.iter().any(|p| p == id),
        _ => false,
    }
}

/// The names of the tournament's players, to word the events with: "Short, Nigel (1)"
/// (the name and the pairing number), or the id of a player the record does not know.
pub struct Names<'a>(pub &'a Roster);

impl Names<'_> {
    /// "Name (TPN)" of `id`.
    pub fn of(&self, id: &str) -> String {
        match self.0.entry(id) {
            Some(e) => {
                let tpn = self.0.pairing_number(id);
                if tpn > 0 {
                    format!("{} ({tpn})", e.data.name)
                } else {
                    e.data.name.clone()
                }
            }
            None if id.is_empty() => "nobody".into(),
            None => id.to_owned(),
        }
    }

    /// A team's name (its id when the record does not know it).
    pub fn team(&self, id: &str) -> String {
        self.0
            .teams
            .get(id)
            .map_or_else(|| id.to_owned(), |t| t.name.clone())
    }

    /// The name alone ("" when the record does not know the id).
    pub fn name(&self, id: &str) -> String {
        self.0
            .entry(id)
            .map(|e| e.data.name.clone())
            .unwrap_or_default()
    }
}

/// The players an event names, by id (for the audit export's names beside the ids).
fn player_ids(e: &RosterEvent) -> Vec<String> {
    match e {
        RosterEvent::PlayerAdded(x) => vec![x.player_id.clone()],
        RosterEvent::PlayerCorrected(x) => vec![x.player_id.clone()],
        RosterEvent::PlayerWithdrawn(x) => vec![x.player_id.clone()],
        RosterEvent::ByeRequested(x) => vec![x.player_id.clone()],
        RosterEvent::PairingProhibited(x) => x.player_ids.clone(),
        RosterEvent::RoundPaired(p) => p
            .boards
            .iter()
            .flat_map(|b| [b.white_id.clone(), b.black_id.clone()])
            .chain((!p.bye_player_id.is_empty()).then(|| p.bye_player_id.clone()))
            .collect(),
        RosterEvent::ResultRecorded(r) => vec![r.white_id.clone(), r.black_id.clone()],
        RosterEvent::ResultCorrected(r) => vec![r.white_id.clone(), r.black_id.clone()],
        RosterEvent::ByeRecorded(b) => vec![b.player_id.clone()],
        RosterEvent::TeamRosterSet(r) => r.player_ids.clone(),
        RosterEvent::LineupSubmitted(l) => {
            l.boards.iter().filter(|p| !p.is_empty()).cloned().collect()
        }
        _ => Vec::new(),
    }
}

fn bye_words(kind: &str) -> &str {
    match kind {
        "half" => "half-point bye",
        "zero" => "zero-point bye",
        "full" => "full-point bye",
        "pab" => "pairing-allocated bye",
        other => other,
    }
}

fn rounds_text(first: u32, last: u32) -> String {
    match (first, last) {
        (0 | 1, 0) => "in every round".into(),
        (f, 0) => format!("from round {f}"),
        (0, l) => format!("up to round {l}"),
        (f, l) if f == l => format!("in round {f}"),
        (f, l) => format!("in rounds {f} to {l}"),
    }
}

fn optional_fields(fields: &[(&str, Option<String>)]) -> String {
    let set: Vec<String> = fields
        .iter()
        .filter_map(|(k, v)| {
            v.as_ref().map(|v| {
                if v.is_empty() {
                    format!("{k} cleared")
                } else {
                    format!("{k} {v}")
                }
            })
        })
        .collect();
    if set.is_empty() {
        "nothing changed".into()
    } else {
        set.join(", ")
    }
}

fn player_words(d: &PlayerData) -> String {
    let mut parts = vec![d.name.clone()];
    if !d.title.is_empty() {
        parts.push(d.title.clone());
    }
    if d.rating_standard > 0 {
        parts.push(d.rating_standard.to_string());
    }
    if !d.federation.is_empty() {
        parts.push(d.federation.clone());
    }
    if d.fide_id > 0 {
        parts.push(format!("FIDE id {}", d.fide_id));
    }
    parts.join(", ")
}

/// The tournament's own events (not roster events): created, updated.
fn tournament_event(e: &RecordedEvent) -> Option<String> {
    use prost::Message as _;
    match e.event_type.as_str() {
        "TournamentCreated" => {
            let t = arbiter_proto::v1::TournamentCreated::decode(e.payload.as_slice()).ok()?;
            Some(format!(
                "tournament created: {}{}{}",
                t.name,
                if t.rounds > 0 {
                    format!(", {} rounds", t.rounds)
                } else {
                    String::new()
                },
                if t.pairing_system.is_empty() {
                    String::new()
                } else {
                    format!(", {}", t.pairing_system)
                }
            ))
        }
        "TournamentUpdated" => {
            let u = arbiter_proto::v1::TournamentUpdated::decode(e.payload.as_slice()).ok()?;
            Some(format!(
                "tournament updated: {}",
                optional_fields(&[
                    ("name", u.name),
                    ("place", u.place),
                    ("federation", u.federation),
                    ("start", u.start_date),
                    ("end", u.end_date),
                    ("rounds", u.rounds.map(|r| r.to_string())),
                    ("time control", u.time_control),
                ])
            ))
        }
        _ => None,
    }
}

/// (before, after, summary) of an event in words, naming the players: what happened and
/// to whom, in one line (who, when and why are the envelope's actor, time and reason).
pub fn describe(e: &RecordedEvent, names: &Names<'_>) -> (String, String, String) {
    let Some(Ok(d)) = RosterEvent::decode(&e.event_type, &e.payload) else {
        let words = tournament_event(e).unwrap_or_else(|| e.event_type.clone());
        return (String::new(), String::new(), words);
    };
    match d {
        RosterEvent::ResultRecorded(r) => (
            String::new(),
            r.result.clone(),
            format!(
                "round {} board {}: {} – {} {}",
                r.round,
                r.board,
                names.of(&r.white_id),
                names.of(&r.black_id),
                r.result
            ),
        ),
        RosterEvent::ResultCorrected(r) => (
            r.previous_result.clone(),
            r.result.clone(),
            format!(
                "round {} board {}: {} – {} {} corrected to {} ({})",
                r.round,
                r.board,
                names.of(&r.white_id),
                names.of(&r.black_id),
                r.previous_result,
                r.result,
                r.applies_to
            ),
        ),
        RosterEvent::ByeRecorded(b) => (
            b.previous_kind.clone(),
            b.kind.clone(),
            format!(
                "round {}: {} for {}",
                b.round,
                bye_words(&b.kind),
                names.of(&b.player_id)
            ),
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
                    String::new()
                } else {
                    format!(", bye {}", names.of(&p.bye_player_id))
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
        RosterEvent::PlayerAdded(a) => (
            String::new(),
            a.data.as_ref().map(|d| d.name.clone()).unwrap_or_default(),
            format!(
                "player entered: {}{}",
                a.data.as_ref().map(player_words).unwrap_or_default(),
                if a.joined_round > 1 {
                    format!(
                        " (late entry from round {}, missed rounds {})",
                        a.joined_round,
                        bye_words(&a.missed_rounds)
                    )
                } else {
                    String::new()
                }
            ),
        ),
        RosterEvent::PairingNumbersAssigned(n) => (
            String::new(),
            String::new(),
            format!(
                "pairing numbers assigned to {} player(s) ({}){}",
                n.player_ids.len(),
                n.basis,
                match n.player_ids.first() {
                    Some(first) => format!(", number 1 {}", names.name(first)),
                    None => String::new(),
                }
            ),
        ),
        RosterEvent::PlayerCorrected(c) => (
            String::new(),
            c.data.as_ref().map(player_words).unwrap_or_default(),
            format!(
                "player corrected: {} ({})",
                names.of(&c.player_id),
                if c.changed_fields.is_empty() {
                    "no field changed".to_owned()
                } else {
                    c.changed_fields.join(", ")
                }
            ),
        ),
        RosterEvent::PlayerWithdrawn(w) => (
            String::new(),
            String::new(),
            format!(
                "player withdrawn: {} from round {}",
                names.of(&w.player_id),
                w.from_round
            ),
        ),
        RosterEvent::TeamRulesSet(r) => (
            String::new(),
            String::new(),
            format!(
                "team rules set: {}{} line-up deadline(s)",
                if r.boards == 0 {
                    String::new()
                } else {
                    format!("{} boards per match, ", r.boards)
                },
                r.deadlines.len()
            ),
        ),
        RosterEvent::TeamAdded(t) => (
            String::new(),
            t.name.clone(),
            format!("team entered: {}", t.name),
        ),
        RosterEvent::TeamRosterSet(r) => (
            String::new(),
            String::new(),
            format!(
                "roster of {}: {}",
                names.team(&r.team_id),
                r.player_ids
                    .iter()
                    .map(|p| names.of(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        RosterEvent::LineupSubmitted(l) => (
            String::new(),
            String::new(),
            format!(
                "round {} line-up of {}{}: {}",
                l.round,
                names.team(&l.team_id),
                if l.by_captain { " (captain)" } else { "" },
                l.boards
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!(
                        "board {} {}",
                        i + 1,
                        if p.is_empty() {
                            "empty".to_owned()
                        } else {
                            names.of(p)
                        }
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        RosterEvent::TeamWithdrawn(w) => (
            String::new(),
            String::new(),
            format!(
                "team withdrawn: {} from round {}",
                names.team(&w.team_id),
                w.from_round
            ),
        ),
        RosterEvent::ByeRequested(b) => (
            String::new(),
            b.kind.clone(),
            format!(
                "bye requested: {} for {} in round {}",
                bye_words(&b.kind),
                names.of(&b.player_id),
                b.round
            ),
        ),
        RosterEvent::PairingProhibited(p) => (
            String::new(),
            String::new(),
            format!(
                "pairing prohibited between {} {}",
                p.player_ids
                    .iter()
                    .map(|id| names.of(id))
                    .collect::<Vec<_>>()
                    .join(", "),
                rounds_text(p.first_round, p.last_round)
            ),
        ),
        RosterEvent::TrfImported(t) => (
            String::new(),
            String::new(),
            format!(
                "TRF imported: {} paired round(s) of {}, SHA-256 {}",
                t.paired_rounds,
                t.total_rounds,
                t.sha256.get(..12).unwrap_or(&t.sha256)
            ),
        ),
        RosterEvent::RoundImported(r) => (
            String::new(),
            String::new(),
            format!(
                "round {} imported from the TRF ({} player line(s))",
                r.round,
                r.blocks.len()
            ),
        ),
        RosterEvent::EntryRulesSet(r) => (
            String::new(),
            String::new(),
            format!(
                "entry rules set: {}",
                optional_fields(&[
                    (
                        "full-point byes allowed",
                        r.full_point_byes_allowed.map(|b| b.to_string())
                    ),
                    ("late-entry byes", r.late_entry_byes),
                    ("tie criterion", r.announced_criterion),
                    ("rating", r.rating),
                ])
            ),
        ),
        RosterEvent::RoundsPaired(r) => (
            String::new(),
            String::new(),
            format!("round {} counted as paired", r.round),
        ),
        RosterEvent::TournamentSettingsSet(t) => (
            String::new(),
            String::new(),
            format!(
                "settings: {}",
                optional_fields(&[
                    ("scoring", t.scoring),
                    ("acceleration", t.acceleration),
                    ("tie-breaks", t.tiebreaks),
                    ("rating-list date", t.rating_list_date),
                    ("knockout games", t.knockout_games.map(|g| g.to_string())),
                    ("knockout tie-breaks", t.knockout_tie_breaks),
                ])
            ),
        ),
        RosterEvent::AdjournmentReported(r) => (
            String::new(),
            String::new(),
            format!(
                "round {} board {}: the game was adjourned (Guidelines I); result pending, a draw for pairing (C.04.2 3.1)",
                r.round, r.board
            ),
        ),
        RosterEvent::ResultReported(r) => (
            String::new(),
            r.result.clone(),
            format!(
                "round {} board {}: the clock reported {} ({}{})",
                r.round,
                r.board,
                r.result,
                r.termination,
                if r.article.is_empty() {
                    String::new()
                } else {
                    format!(", Laws {}", r.article)
                }
            ),
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
pub fn entry(e: &RecordedEvent, names: &Names<'_>) -> HistoryEntry {
    let (before, after, summary) = describe(e, names);
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

/// The event as one JSON line (the audit export), with the names of the players it
/// names beside their ids (`players`: `[{"id", "name", "tpn"}]`).
pub fn json_line(e: &RecordedEvent, names: &Names<'_>) -> String {
    let (before, after, summary) = describe(e, names);
    let mut ids = RosterEvent::decode(&e.event_type, &e.payload)
        .and_then(Result::ok)
        .map(|d| player_ids(&d))
        .unwrap_or_default();
    ids.retain(|id| !id.is_empty());
    let mut seen = std::collections::BTreeSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    let players: Vec<serde_json::Value> = ids
        .iter()
        .map(|id| json!({"id": id, "name": names.name(id), "tpn": names.0.pairing_number(id)}))
        .collect();
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
        "players": players,
        "payload_hex": hex::encode(&e.payload),
        "prev_hash": hex::encode(&e.prev_hash),
        "hash": hex::encode(&e.hash),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::{
        ByeRequested, PairingNumbersAssigned, PairingProhibited, PlayerAdded, PlayerWithdrawn,
        ResultRecorded, TournamentSettingsSet,
    };

    fn recorded(e: &RosterEvent) -> RecordedEvent {
        let (event_type, payload) = e.encode();
        RecordedEvent {
            global_position: 1,
            event_id: String::new(),
            stream: "tournament-t".into(),
            stream_version: 1,
            event_type: event_type.into(),
            schema_version: 1,
            payload,
            recorded_at_micros: 0,
            actor: "admin".into(),
            command_id: String::new(),
            correlation_id: String::new(),
            causation_id: String::new(),
            reason: String::new(),
            rule_edition: String::new(),
            service: "registry".into(),
            prev_hash: Vec::new(),
            hash: Vec::new(),
            trace_parent: String::new(),
        }
    }

    fn added(id: &str, name: &str) -> RosterEvent {
        RosterEvent::PlayerAdded(PlayerAdded {
            player_id: id.into(),
            data: Some(PlayerData {
                name: name.into(),
                title: "GM".into(),
                rating_standard: 2500,
                federation: "IRL".into(),
                ..PlayerData::default()
            }),
            joined_round: 1,
            missed_rounds: String::new(),
        })
    }

    #[test]
    fn every_event_is_one_line_of_words_naming_the_players() {
        let events = vec![
            added("a", "Short, Nigel"),
            added("b", "Baburin, Alex"),
            RosterEvent::PairingNumbersAssigned(PairingNumbersAssigned {
                player_ids: vec!["a".into(), "b".into()],
                basis: "C.04.2 art. 2".into(),
            }),
            RosterEvent::ByeRequested(ByeRequested {
                player_id: "b".into(),
                round: 3,
                kind: "half".into(),
            }),
            RosterEvent::PlayerWithdrawn(PlayerWithdrawn {
                player_id: "a".into(),
                from_round: 4,
            }),
            RosterEvent::PairingProhibited(PairingProhibited {
                player_ids: vec!["a".into(), "b".into()],
                first_round: 0,
                last_round: 0,
            }),
            RosterEvent::TournamentSettingsSet(TournamentSettingsSet {
                tiebreaks: Some("BH/C1,SB".into()),
                ..TournamentSettingsSet::default()
            }),
            RosterEvent::ResultRecorded(ResultRecorded {
                round: 1,
                board: 1,
                white_id: "a".into(),
                black_id: "b".into(),
                result: "1-0".into(),
                ..ResultRecorded::default()
            }),
        ];
        let mut roster = Roster::default();
        for e in &events {
            roster.apply(e.clone());
        }
        let names = Names(&roster);
        let said: Vec<String> = events
            .iter()
            .map(|e| describe(&recorded(e), &names).2)
            .collect();
        for s in &said {
            assert!(!s.contains('{') && !s.contains("Some("), "{s}");
            assert!(!s.contains('\n'), "{s}");
        }
        assert_eq!(said[0], "player entered: Short, Nigel, GM, 2500, IRL");
        assert_eq!(
            said[2],
            "pairing numbers assigned to 2 player(s) (C.04.2 art. 2), number 1 Short, Nigel"
        );
        assert_eq!(
            said[3],
            "bye requested: half-point bye for Baburin, Alex (2) in round 3"
        );
        assert_eq!(said[4], "player withdrawn: Short, Nigel (1) from round 4");
        assert_eq!(
            said[5],
            "pairing prohibited between Short, Nigel (1), Baburin, Alex (2) in every round"
        );
        assert_eq!(said[6], "settings: tie-breaks BH/C1,SB");
        assert_eq!(
            said[7],
            "round 1 board 1: Short, Nigel (1) – Baburin, Alex (2) 1-0"
        );
        let line: serde_json::Value =
            serde_json::from_str(&json_line(&recorded(&events[7]), &names)).unwrap_or_default();
        assert_eq!(line["players"][0]["name"], "Short, Nigel", "{line}");
        assert_eq!(line["players"][1]["tpn"], 2, "{line}");
    }
}
