//! The tournaments read model: a fold of the registry's events, rebuilt from the log
//! at start and kept live by a subscription. Queries wait until it has reached the
//! position of the command they follow (read-your-writes).
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use arbiter_eventlog::upcast::Upcasters;
use arbiter_eventlog::{EventStore, RecordedEvent};
use arbiter_proto::v1::{Tournament, TournamentCreated, TournamentUpdated};
use arbiter_service_kit::status::from_log;
use prost::Message;
use tokio::sync::watch;
use tonic::Status;

use crate::event_index::{TournamentIndex, tournament_of_stream};
use crate::roster::{Roster, RosterEvent};
use crate::round_record::EventMeta;
use crate::tournament;

/// Event types of this service.
pub const TOURNAMENT_CREATED: &str = "TournamentCreated";
/// Event types of this service.
pub const TOURNAMENT_UPDATED: &str = "TournamentUpdated";

/// The registry's upcasters.
pub fn upcasters() -> Upcasters {
    Upcasters::new().register(
        TOURNAMENT_CREATED,
        1,
        tournament::upcast_tournament_created_v1,
    )
}

#[derive(Default)]
struct State {
    /// By creation order (global position of TournamentCreated).
    by_position: BTreeMap<i64, String>,
    tournaments: std::collections::HashMap<String, Tournament>,
    rosters: std::collections::HashMap<String, Roster>,
    /// Where each tournament's events are (ADR registry-003).
    index: std::collections::HashMap<String, TournamentIndex>,
    /// Another service's events of a tournament whose `TournamentCreated` is not in the
    /// log yet, in log order: folded right after it (ADR registry-007). In the
    /// distributed mode each owner's events are copied by its own mirror, so a pairing
    /// can reach the results service before the entries it was made from.
    early: std::collections::HashMap<String, Vec<(RosterEvent, EventMeta, bool)>>,
    /// Each tournament's revision: how many events changed it (ADR results-003).
    revisions: std::collections::HashMap<String, Revisions>,
}

/// How many of the recent folds of a tournament [`Revisions`] remembers by position.
const RECENT_REVISIONS: usize = 256;

/// A tournament's revision (bumped by every event folded into it), and which revision the
/// recent events' folds made: a reader that computed something from revision `r` and wrote
/// the event at position `p` knows its own result is revision `r + 1` if folding `p` made it.
#[derive(Default)]
struct Revisions {
    current: u64,
    recent: std::collections::VecDeque<(i64, u64)>,
}

impl State {
    fn bump(&mut self, id: &str, position: i64) {
        let r = match self.revisions.get_mut(id) {
            Some(r) => r,
            None => self.revisions.entry(id.to_owned()).or_default(),
        };
        r.current += 1;
        if r.recent.len() == RECENT_REVISIONS {
            r.recent.pop_front();
        }
        r.recent.push_back((position, r.current));
    }
}

/// Shared handle to the read model.
#[derive(Clone)]
pub struct Tournaments {
    state: Arc<RwLock<State>>,
    position: watch::Receiver<i64>,
}

impl Tournaments {
    /// Rebuilds from the start of the log and follows it (spawns a task).
    pub fn start(store: EventStore) -> Tournaments {
        let state = Arc::new(RwLock::new(State::default()));
        let (tx, position) = watch::channel(0);
        let s = state.clone();
        tokio::spawn(async move {
            let up = upcasters();
            let mut sub = store.subscribe(1);
            loop {
                match sub.next().await {
                    Ok(e) => {
                        let pos = e.global_position;
                        if let Some(id) = tournament_of_stream(&e)
                            && let Ok(mut st) = s.write()
                        {
                            st.index.entry(id.to_owned()).or_default().record(pos);
                        }
                        // RoundsPaired comes from the service that pairs the round;
                        // pairings and results fold into the tournament's record.
                        if e.service == "registry"
                            || (e.event_type == crate::roster::types::ROUNDS_PAIRED
                                && e.stream.starts_with("tournament-"))
                            || e.stream.starts_with("pairing-")
                            || e.stream.starts_with("results-")
                            || (e.stream.starts_with("board-")
                                && (e.event_type == crate::roster::types::RESULT_REPORTED
                                    || e.event_type == crate::roster::types::ADJOURNMENT_REPORTED))
                        {
                            match up.upcast(e) {
                                Ok(e) => apply(&s, e),
                                Err(err) => tracing::error!(%err, "registry projection"),
                            }
                        }
                        let _ = tx.send(pos);
                    }
                    Err(err) => {
                        tracing::warn!(%err, "registry projection: log read failed; retrying");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                }
            }
        });
        Tournaments { state, position }
    }

    /// Waits until the projection has applied `position` (at most 10 s).
    pub async fn caught_up(&self, position: i64) -> bool {
        let mut rx = self.position.clone();
        tokio::time::timeout(Duration::from_secs(10), rx.wait_for(|p| *p >= position))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Global position applied so far.
    pub fn position(&self) -> i64 {
        *self.position.borrow()
    }

    /// Whether tournament `id` is folded.
    pub fn contains(&self, id: &str) -> bool {
        self.state
            .read()
            .is_ok_and(|s| s.tournaments.contains_key(id))
    }

    /// The tournament `id`, as folded so far.
    pub fn get(&self, id: &str) -> Option<Tournament> {
        self.state.read().ok()?.tournaments.get(id).cloned()
    }

    /// The entries of one tournament.
    pub fn roster(&self, id: &str) -> Option<Roster> {
        let s = self.state.read().ok()?;
        s.tournaments.get(id)?;
        Some(s.rosters.get(id).cloned().unwrap_or_default())
    }

    /// A tournament, its entries and its revision (the number of events folded into
    /// them), read together: two reads with one revision are one state.
    pub fn with_roster_revision(&self, id: &str) -> Option<(Tournament, Roster, u64)> {
        let s = self.state.read().ok()?;
        let t = s.tournaments.get(id)?.clone();
        let rev = s.revisions.get(id).map_or(0, |r| r.current);
        Some((t, s.rosters.get(id).cloned().unwrap_or_default(), rev))
    }

    /// The revision of tournament `id` that folding the event at `position` made (if it
    /// changed the tournament and is among its recent folds).
    pub fn revision_made_by(&self, id: &str, position: i64) -> Option<u64> {
        let s = self.state.read().ok()?;
        s.revisions
            .get(id)?
            .recent
            .iter()
            .rev()
            .find(|(p, _)| *p == position)
            .map(|(_, r)| *r)
    }

    /// `(t, roster)`, tournament `id` at revision `from`, brought to revision `to` by
    /// folding the events whose folds made the revisions in between, read from the log by
    /// position and folded as the projection folded them. `None` when they are no longer
    /// among the recent folds ([`RECENT_REVISIONS`]).
    pub async fn advance(
        &self,
        store: &EventStore,
        id: &str,
        (t, roster): (Tournament, Roster),
        from: u64,
        to: u64,
    ) -> Result<Option<(Tournament, Roster)>, Status> {
        let positions: Vec<i64> = {
            let Ok(s) = self.state.read() else {
                return Ok(None);
            };
            let Some(r) = s.revisions.get(id) else {
                return Ok(None);
            };
            r.recent
                .iter()
                .filter(|(_, rev)| *rev > from && *rev <= to)
                .map(|(p, _)| *p)
                .collect()
        };
        if u64::try_from(positions.len()).ok() != to.checked_sub(from) {
            return Ok(None);
        }
        let mut events = store.read_positions(&positions).await.map_err(from_log)?;
        events.sort_by_key(|e| e.global_position);
        let state = RwLock::new(State::default());
        if let Ok(mut s) = state.write() {
            s.tournaments.insert(id.to_owned(), t);
            s.rosters.insert(id.to_owned(), roster);
        }
        let up = upcasters();
        for e in events {
            apply(
                &state,
                up.upcast(e)
                    .map_err(|e| Status::internal(format!("upcast: {e}")))?,
            );
        }
        Ok(read_one(&state, id))
    }

    /// A tournament and its entries, read together.
    pub fn with_roster(&self, id: &str) -> Option<(Tournament, Roster)> {
        let s = self.state.read().ok()?;
        let t = s.tournaments.get(id)?.clone();
        Some((t, s.rosters.get(id).cloned().unwrap_or_default()))
    }

    /// What identifies each tournament for a repeated import (name, dates, file hash).
    pub fn import_keys(&self) -> Vec<crate::trf_import::ExistingTournament> {
        let Ok(s) = self.state.read() else {
            return Vec::new();
        };
        s.by_position
            .values()
            .filter_map(|id| s.tournaments.get(id))
            .map(|t| crate::trf_import::ExistingTournament {
                tournament_id: t.tournament_id.clone(),
                name: t.name.clone(),
                start_date: t.start_date.clone(),
                end_date: t.end_date.clone(),
                sha256: s
                    .rosters
                    .get(&t.tournament_id)
                    .and_then(|r| r.trf.as_ref())
                    .map(|i| i.sha256.clone())
                    .unwrap_or_default(),
            })
            .collect()
    }

    /// Positions of every event of tournament `id` folded so far (ADR registry-003).
    pub fn positions(&self, id: &str) -> Vec<i64> {
        self.state
            .read()
            .ok()
            .and_then(|s| s.index.get(id).map(|i| i.all.clone()))
            .unwrap_or_default()
    }

    /// Positions of the events of one game's history: its round's pairing events and
    /// its results.
    pub fn game_positions(&self, id: &str, round: u32, board: u32) -> Vec<i64> {
        self.state
            .read()
            .ok()
            .and_then(|s| s.index.get(id).map(|i| i.game(round, board)))
            .unwrap_or_default()
    }

    /// Waits until the index holds every event up to `position` (at most the log's
    /// head): an index behind the log would leave events out without a word.
    async fn settle(&self, store: &EventStore, position: i64) -> Result<(), Status> {
        let head = store.head_position().await.map_err(from_log)?;
        if self.caught_up(position.min(head)).await {
            Ok(())
        } else {
            Err(Status::unavailable(
                "the tournament projection is behind the log; retry",
            ))
        }
    }

    /// Every event of tournament `id`, oldest first, read by position (no scan of the
    /// log; the same events as [`events_of`]).
    pub async fn events_of(
        &self,
        store: &EventStore,
        id: &str,
    ) -> Result<Vec<RecordedEvent>, Status> {
        self.settle(store, i64::MAX).await?;
        store
            .read_positions(&self.positions(id))
            .await
            .map_err(from_log)
    }

    /// The events of one game's history (its round's pairing events and its results),
    /// oldest first, read by position.
    pub async fn game_events(
        &self,
        store: &EventStore,
        id: &str,
        round: u32,
        board: u32,
    ) -> Result<Vec<RecordedEvent>, Status> {
        self.settle(store, i64::MAX).await?;
        store
            .read_positions(&self.game_positions(id, round, board))
            .await
            .map_err(from_log)
    }

    /// Tournament `id` and its record as the log stood at `position`, folded from its
    /// own events only (the same answer as [`as_of`]).
    pub async fn as_of(
        &self,
        store: &EventStore,
        id: &str,
        position: i64,
    ) -> Result<Option<(Tournament, Roster)>, Status> {
        self.settle(store, position).await?;
        let positions = self
            .state
            .read()
            .ok()
            .and_then(|s| s.index.get(id).map(|i| i.up_to(position).to_vec()))
            .unwrap_or_default();
        let state = RwLock::new(State::default());
        let up = upcasters();
        for e in store.read_positions(&positions).await.map_err(from_log)? {
            apply(&state, up.upcast(e).map_err(from_log)?);
        }
        Ok(read_one(&state, id))
    }

    /// A page of the tournaments `keep` lets through, oldest first, after creation
    /// position `after` (`tournament_pages`): the page and the next page's token.
    pub fn list_page(
        &self,
        after: i64,
        size: usize,
        keep: impl Fn(&Tournament) -> bool,
    ) -> (Vec<Tournament>, String) {
        let Ok(s) = self.state.read() else {
            return (Vec::new(), String::new());
        };
        let rest = s
            .by_position
            .range(after.saturating_add(1)..)
            .filter_map(|(pos, id)| s.tournaments.get(id).map(|t| (*pos, t)))
            .filter(|(_, t)| keep(t))
            .map(|(pos, t)| (pos, t.clone()));
        crate::tournament_pages::page(rest, size)
    }

    /// All tournaments, oldest first.
    pub fn list(&self) -> Vec<Tournament> {
        let Ok(s) = self.state.read() else {
            return Vec::new();
        };
        s.by_position
            .values()
            .filter_map(|id| s.tournaments.get(id).cloned())
            .collect()
    }
}

/// The tournament an event belongs to: pairing and results payloads name it; registry
/// events are in `tournament-<id>`.
pub fn tournament_of(stream: &str, event: &RosterEvent) -> String {
    match event {
        RosterEvent::RoundPaired(x) => x.tournament_id.clone(),
        RosterEvent::PairingsPublished(x) => x.tournament_id.clone(),
        RosterEvent::PairingDiscarded(x) => x.tournament_id.clone(),
        RosterEvent::PairingsUnpublished(x) => x.tournament_id.clone(),
        RosterEvent::PairingExplained(x) => x.tournament_id.clone(),
        RosterEvent::ResultRecorded(x) => x.tournament_id.clone(),
        RosterEvent::ResultCorrected(x) => x.tournament_id.clone(),
        RosterEvent::ByeRecorded(x) => x.tournament_id.clone(),
        RosterEvent::RoundClosed(x) => x.tournament_id.clone(),
        RosterEvent::ResultReported(x) => x.tournament_id.clone(),
        RosterEvent::AdjournmentReported(x) => x.tournament_id.clone(),
        _ => stream.trim_start_matches("tournament-").to_owned(),
    }
}

/// True when `e` belongs to tournament `id` (registry, pairing or results event).
pub fn concerns(e: &RecordedEvent, id: &str) -> bool {
    tournament_of_stream(e) == Some(id)
}

/// Tournament `id` and its record as the log stood at global position `position`
/// (folded from the start of the log; `None` if it did not exist yet).
pub async fn as_of(
    store: &EventStore,
    id: &str,
    position: i64,
) -> Result<Option<(Tournament, Roster)>, arbiter_eventlog::Error> {
    let state = RwLock::new(State::default());
    let up = upcasters();
    let mut from = 1;
    const PAGE: i64 = 10_000;
    loop {
        let page = store.read_all(from, PAGE).await?;
        let n = page.len();
        for e in page {
            if e.global_position > position {
                return Ok(read_one(&state, id));
            }
            from = e.global_position + 1;
            if concerns(&e, id) {
                apply(&state, up.upcast(e)?);
            }
        }
        if i64::try_from(n).unwrap_or(0) < PAGE {
            return Ok(read_one(&state, id));
        }
    }
}

/// Every event of tournament `id` (registry, pairing, results), oldest first.
pub async fn events_of(
    store: &EventStore,
    id: &str,
) -> Result<Vec<RecordedEvent>, arbiter_eventlog::Error> {
    let mut out = Vec::new();
    let mut from = 1;
    const PAGE: i64 = 10_000;
    loop {
        let page = store.read_all(from, PAGE).await?;
        let n = page.len();
        for e in page {
            from = e.global_position + 1;
            if concerns(&e, id) {
                out.push(e);
            }
        }
        if i64::try_from(n).unwrap_or(0) < PAGE {
            return Ok(out);
        }
    }
}

/// Folds one roster event into tournament `id`'s record (`own`: an event of the
/// tournament's own stream, whose version the tournament takes).
fn apply_roster(s: &mut State, id: &str, event: RosterEvent, meta: &EventMeta, own: bool) {
    s.bump(id, meta.position);
    s.index
        .entry(id.to_owned())
        .or_default()
        .record_decoded(meta.position, &event);
    let roster = s.rosters.entry(id.to_owned()).or_default();
    roster.apply_with(event, meta);
    let (players, paired, frozen) = (
        u32::try_from(roster.entries.len()).unwrap_or(u32::MAX),
        roster.paired_rounds,
        roster.numbers_frozen(),
    );
    let settings = roster.settings.clone();
    if let Some(t) = s.tournaments.get_mut(id) {
        if own {
            t.version = meta.stream_version;
        }
        t.scoring = settings.scoring;
        t.acceleration = settings.acceleration;
        t.tiebreaks = settings.tiebreaks;
        t.rating_list_date = settings.rating_list_date;
        t.knockout_games = settings.knockout_games;
        t.knockout_tie_breaks = settings.knockout_tie_breaks;
        t.players = players;
        t.paired_rounds = paired;
        t.pairing_numbers_frozen = frozen;
    }
}

fn read_one(state: &RwLock<State>, id: &str) -> Option<(Tournament, Roster)> {
    let s = state.read().ok()?;
    let t = s.tournaments.get(id)?.clone();
    Some((t, s.rosters.get(id).cloned().unwrap_or_default()))
}

fn apply(state: &RwLock<State>, e: RecordedEvent) {
    let Ok(mut s) = state.write() else { return };
    match e.event_type.as_str() {
        TOURNAMENT_CREATED => match TournamentCreated::decode(e.payload.as_slice()) {
            Ok(c) => {
                let t = tournament::created(c, e.stream_version, e.recorded_at_micros, &e.actor);
                s.by_position
                    .insert(e.global_position, t.tournament_id.clone());
                let id = t.tournament_id.clone();
                s.tournaments.insert(id.clone(), t);
                s.bump(&id, e.global_position);
                for (event, meta, own) in s.early.remove(&id).unwrap_or_default() {
                    apply_roster(&mut s, &id, event, &meta, own);
                }
            }
            Err(err) => {
                tracing::error!(%err, position = e.global_position, "bad TournamentCreated")
            }
        },
        TOURNAMENT_UPDATED => match TournamentUpdated::decode(e.payload.as_slice()) {
            Ok(u) => {
                let id = e.stream.trim_start_matches("tournament-").to_owned();
                if let Some(t) = s.tournaments.get_mut(&id) {
                    tournament::updated(t, u, e.stream_version);
                    s.bump(&id, e.global_position);
                }
            }
            Err(err) => {
                tracing::error!(%err, position = e.global_position, "bad TournamentUpdated")
            }
        },
        other => match RosterEvent::decode(other, &e.payload) {
            Some(Ok(event)) => {
                let id = tournament_of(&e.stream, &event);
                let meta = EventMeta {
                    position: e.global_position,
                    stream_version: e.stream_version,
                    actor: e.actor.clone(),
                    recorded_at_micros: e.recorded_at_micros,
                    reason: e.reason.clone(),
                };
                let own = e.stream.starts_with("tournament-");
                if !s.tournaments.contains_key(&id) {
                    s.early.entry(id).or_default().push((event, meta, own));
                    return;
                }
                apply_roster(&mut s, &id, event, &meta, own);
            }
            Some(Err(err)) => {
                tracing::error!(%err, position = e.global_position, event_type = other, "bad registry event")
            }
            None => {}
        },
    }
}
