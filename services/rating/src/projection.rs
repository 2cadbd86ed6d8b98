//! The rating read model: a fold of the rating service's events, rebuilt from the log at
//! start and kept live by a subscription (like the registry's). Holds the imported
//! starting lists, every version of every submitted tournament, and each period's
//! status and revisions.
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use arbiter_eventlog::{EventStore, RecordedEvent};
use arbiter_proto::v1::{
    ExternalTournamentSubmitted, RatingChange, RatingInput, RatingListPlayer, RatingListRevised,
    RatingPeriodClosed, RatingPeriodComputed, RatingPeriodOpened, RatingPeriodPublished,
    StartingListImported,
};
use elo::ListMonth;
use prost::Message;
use tokio::sync::watch;

use crate::calendar::{month_text, parse_month, previous};

/// Event types of this service.
pub const STARTING_LIST_IMPORTED: &str = "StartingListImported";
/// Event type.
pub const EXTERNAL_TOURNAMENT_SUBMITTED: &str = "ExternalTournamentSubmitted";
/// Event type.
pub const RATING_PERIOD_OPENED: &str = "RatingPeriodOpened";
/// Event type.
pub const RATING_PERIOD_CLOSED: &str = "RatingPeriodClosed";
/// Event type.
pub const RATING_PERIOD_COMPUTED: &str = "RatingPeriodComputed";
/// Event type.
pub const RATING_PERIOD_PUBLISHED: &str = "RatingPeriodPublished";
/// Event type.
pub const RATING_LIST_REVISED: &str = "RatingListRevised";

/// An imported starting list.
#[derive(Debug, Default, Clone)]
pub struct ImportedList {
    /// By FIDE id.
    pub players: BTreeMap<u32, RatingListPlayer>,
    /// Chunks received.
    pub chunks: u32,
    /// The `last` chunk arrived.
    pub complete: bool,
}

/// Status of a period aggregate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Receiving tournaments.
    Open,
    /// Closing date passed.
    Closed,
    /// A list was computed (not yet published).
    Computed,
    /// Published (later revisions stay published).
    Published,
}

impl Status {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Closed => "closed",
            Status::Computed => "computed",
            Status::Published => "published",
        }
    }
}

/// One revision of a period's list.
#[derive(Debug, Clone)]
pub struct Revision {
    /// 1, 2, …
    pub number: u32,
    /// The list, by FIDE id.
    pub players: Arc<Vec<RatingListPlayer>>,
    /// Tournament versions used.
    pub inputs: Vec<RatingInput>,
    /// Digest of the list.
    pub sha256: String,
    /// Games rated.
    pub games: u32,
    /// Rating changes against the previous revision (revision ≥ 2).
    pub diff: Vec<RatingChange>,
}

/// A period aggregate.
#[derive(Debug, Clone)]
pub struct Period {
    /// Status.
    pub status: Status,
    /// Stream version.
    pub version: i64,
    /// Revisions, oldest first.
    pub revisions: Vec<Revision>,
    building: Option<Revision>,
}

/// Everything the service reads.
#[derive(Debug, Default)]
pub struct State {
    /// Imported starting lists.
    pub imported: BTreeMap<ListMonth, ImportedList>,
    /// Tournament id → versions (stream version, submission), oldest first.
    pub tournaments: BTreeMap<String, Vec<(i64, Arc<ExternalTournamentSubmitted>)>>,
    /// Periods.
    pub periods: BTreeMap<ListMonth, Period>,
}

impl State {
    /// The list a period starts from: the published list of the month before, else an
    /// imported one. Returns a description and the players.
    pub fn base_for(
        &self,
        period: ListMonth,
    ) -> Result<(String, BTreeMap<u32, RatingListPlayer>), String> {
        let prev = previous(period);
        if let Some(p) = self.periods.get(&prev)
            && p.status == Status::Published
            && let Some(r) = p.revisions.last()
        {
            return Ok((
                format!("period {} revision {}", month_text(prev), r.number),
                r.players.iter().map(|p| (p.fide_id, p.clone())).collect(),
            ));
        }
        if let Some(l) = self.imported.get(&prev)
            && l.complete
        {
            return Ok((format!("imported {}", month_text(prev)), l.players.clone()));
        }
        Err(format!(
            "no list for {0}: import one (arbiter rating list-import FILE --month {0}) or publish period {0}",
            month_text(prev)
        ))
    }

    /// The current version of every tournament on `period`'s list.
    pub fn tournaments_of(
        &self,
        period: ListMonth,
    ) -> Vec<(i64, Arc<ExternalTournamentSubmitted>)> {
        let p = month_text(period);
        self.tournaments
            .values()
            .filter_map(|v| v.last())
            .filter(|(_, t)| t.period == p)
            .cloned()
            .collect()
    }

    /// Given tournament versions.
    pub fn versions(&self, inputs: &[RatingInput]) -> Vec<Arc<ExternalTournamentSubmitted>> {
        inputs
            .iter()
            .filter_map(|i| {
                self.tournaments
                    .get(&i.tournament_id)?
                    .iter()
                    .find(|(v, _)| *v == i.version)
                    .map(|(_, t)| t.clone())
            })
            .collect()
    }
}

/// Shared handle to the read model.
#[derive(Clone)]
pub struct Ratings {
    state: Arc<RwLock<State>>,
    position: watch::Receiver<i64>,
}

impl Ratings {
    /// Rebuilds from the start of the log and follows it (spawns a task).
    pub fn start(store: EventStore) -> Ratings {
        let state = Arc::new(RwLock::new(State::default()));
        let (tx, position) = watch::channel(0);
        let s = state.clone();
        tokio::spawn(async move {
            let mut sub = store.subscribe(1);
            loop {
                match sub.next().await {
                    Ok(e) => {
                        let pos = e.global_position;
                        if e.service == crate::SERVICE {
                            apply(&s, e);
                        }
                        let _ = tx.send(pos);
                    }
                    Err(err) => {
                        tracing::warn!(%err, "rating projection: log read failed; retrying");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                }
            }
        });
        Ratings { state, position }
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

    /// Reads the state.
    pub fn read<T>(&self, f: impl FnOnce(&State) -> T) -> T {
        match self.state.read() {
            Ok(s) => f(&s),
            Err(poisoned) => f(&poisoned.into_inner()),
        }
    }
}

fn decode<M: Message + Default>(e: &RecordedEvent) -> Option<M> {
    match M::decode(e.payload.as_slice()) {
        Ok(m) => Some(m),
        Err(err) => {
            tracing::error!(%err, position = e.global_position, event = %e.event_type, "undecodable rating event");
            None
        }
    }
}

fn period_of<'a>(s: &'a mut State, text: &str, version: i64) -> Option<&'a mut Period> {
    let m = parse_month("period", text).ok()?;
    let p = s.periods.entry(m).or_insert(Period {
        status: Status::Open,
        version: 0,
        revisions: Vec::new(),
        building: None,
    });
    p.version = version;
    Some(p)
}

fn apply(state: &RwLock<State>, e: RecordedEvent) {
    let mut guard = match state.write() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    let s = &mut *guard;
    let v = e.stream_version;
    match e.event_type.as_str() {
        STARTING_LIST_IMPORTED => {
            let Some(c) = decode::<StartingListImported>(&e) else {
                return;
            };
            let Ok(m) = parse_month("list_month", &c.list_month) else {
                return;
            };
            let l = s.imported.entry(m).or_default();
            for p in c.players {
                l.players.insert(p.fide_id, p);
            }
            l.chunks += 1;
            l.complete |= c.last;
        }
        EXTERNAL_TOURNAMENT_SUBMITTED => {
            let Some(t) = decode::<ExternalTournamentSubmitted>(&e) else {
                return;
            };
            s.tournaments
                .entry(t.tournament_id.clone())
                .or_default()
                .push((v, Arc::new(t)));
        }
        RATING_PERIOD_OPENED => {
            let Some(o) = decode::<RatingPeriodOpened>(&e) else {
                return;
            };
            period_of(s, &o.period, v);
        }
        RATING_PERIOD_CLOSED => {
            let Some(c) = decode::<RatingPeriodClosed>(&e) else {
                return;
            };
            if let Some(p) = period_of(s, &c.period, v) {
                p.status = Status::Closed;
            }
        }
        RATING_PERIOD_COMPUTED => {
            let Some(c) = decode::<RatingPeriodComputed>(&e) else {
                return;
            };
            let Some(p) = period_of(s, &c.period, v) else {
                return;
            };
            let b = p.building.get_or_insert_with(|| Revision {
                number: c.revision,
                players: Arc::new(Vec::new()),
                inputs: c.inputs.clone(),
                sha256: String::new(),
                games: 0,
                diff: Vec::new(),
            });
            Arc::make_mut(&mut b.players).extend(c.players);
            if c.last {
                let mut r = p.building.take().unwrap_or_else(unreachable_revision);
                r.sha256 = c.list_sha256;
                r.games = c.games;
                p.revisions.truncate(r.number.saturating_sub(1) as usize);
                p.revisions.push(r);
                p.status = Status::Computed;
            }
        }
        RATING_PERIOD_PUBLISHED => {
            let Some(c) = decode::<RatingPeriodPublished>(&e) else {
                return;
            };
            if let Some(p) = period_of(s, &c.period, v) {
                p.status = Status::Published;
            }
        }
        RATING_LIST_REVISED => {
            let Some(c) = decode::<RatingListRevised>(&e) else {
                return;
            };
            let Some(p) = period_of(s, &c.period, v) else {
                return;
            };
            let b = p.building.get_or_insert_with(|| Revision {
                number: c.revision,
                players: Arc::new(Vec::new()),
                inputs: c.inputs.clone(),
                sha256: String::new(),
                games: 0,
                diff: Vec::new(),
            });
            Arc::make_mut(&mut b.players).extend(c.players);
            b.diff.extend(c.diff);
            if c.last {
                let mut r = p.building.take().unwrap_or_else(unreachable_revision);
                r.sha256 = c.list_sha256;
                r.games = c.games;
                p.revisions.push(r);
                p.status = Status::Published;
            }
        }
        _ => {}
    }
}

fn unreachable_revision() -> Revision {
    Revision {
        number: 0,
        players: Arc::new(Vec::new()),
        inputs: Vec::new(),
        sha256: String::new(),
        games: 0,
        diff: Vec::new(),
    }
}
