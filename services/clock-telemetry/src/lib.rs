//! # The clock-telemetry service (electronic clocks and boards, the Laws of Chess)
//!
//! Telemetry from clocks and sensor boards (gRPC stream `BoardTelemetry`, one per device,
//! or NATS subjects `arbiter.v1.clock.in.<tournament>.<board>`) → [`board::decide`]
//! (pure: the Laws via `clock::laws::Game`) → events appended to
//! `board-<tournament>-<board>` → folded into the board kept in memory (rebuilt from
//! the log at start) → `GetClockState` / `WatchBoard`.
//!
//! The service keeps the authoritative clock. A timer per board wakes at the running
//! flag's instant (`Game::flag_instant`) and records `FlagFell` there. Device readings
//! that contradict the clock are recorded and flagged (`DeviceObservation.anomalies`),
//! never decide a result. Device stamps are bounded by the service's time source, the
//! authority (`clock::bound_stamp` in [`board::decide`], ADR clock-007): a stamp ahead of it
//! by more than the tolerance, or before the board's last event, is refused; one ahead
//! within the tolerance is applied at the server's time. A game end appends `GameEnded`
//! and `ResultReported` (published on the bus as `arbiter.v1.clock.ResultReported` for the
//! results service).
//!
//! Service name in events and NATS subjects: `clock`.
pub mod board;
pub mod time_source;
pub mod writer;

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;

use arbiter_bus::Bus;
use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};
use arbiter_proto::v1::clock_service_server::{ClockService, ClockServiceServer};
use arbiter_proto::v1::{
    AdjournGameRequest, ClockCommandResponse, GetSealedMoveRequest, ResumeGameRequest, SealedMove,
};
use arbiter_proto::v1::{
    BoardOpened, BoardUpdate, ClockState, CommandAck, GetClockStateRequest, GetServiceInfoRequest,
    OpenBoardRequest, OpenBoardResponse, ServiceInfo, Telemetry, TelemetryAccepted,
    TelemetryRejected, TelemetryReply, WatchBoardRequest, telemetry_reply::Outcome,
};
use arbiter_service_kit::auth::Scope;
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::status::{from_log, invalid, not_found};
use arbiter_service_kit::telemetry::current_traceparent;
use arbiter_service_kit::{Platform, ServiceModule};
use futures::Stream;
use prost::Message;
use tokio::sync::{Mutex, broadcast, watch};
use tonic::{Request, Response, Status, Streaming};

use board::{Board, Decided, Reject, stream_of, types};
pub use time_source::{ManualClock, TimeSource};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "clock";
/// NATS subjects telemetry arrives on: `arbiter.v1.clock.in.<tournament>.<board>`.
pub const NATS_TELEMETRY_SUBJECTS: &str = "arbiter.v1.clock.in.*.*";

/// Environment variable: milliseconds the flag timer waits after a flag instant before
/// recording the fall (for telemetry in transit); default 0.
pub const FLAG_GRACE_ENV: &str = "ARBITER_CLOCK_FLAG_GRACE_MS";

/// Environment variable (and `--device-clock-tolerance-ms` of `arbiterd` and
/// `arbiter-clock-telemetry`): how many milliseconds a device's stamp may be ahead of the
/// server's time (it is then applied at the server's time; further ahead it is refused).
/// Default [`DEFAULT_DEVICE_CLOCK_TOLERANCE_MS`], at most [`MAX_DEVICE_CLOCK_TOLERANCE_MS`].
pub const DEVICE_CLOCK_TOLERANCE_ENV: &str = "ARBITER_DEVICE_CLOCK_TOLERANCE_MS";
pub use clock::device_stamp::{DEFAULT_DEVICE_CLOCK_TOLERANCE_MS, MAX_DEVICE_CLOCK_TOLERANCE_MS};

/// NATS header a device authenticates its telemetry with: `Authorization: Bearer <token>`
/// (a token of the platform's token file, as on gRPC; the name is matched without case).
/// Messages without a valid token are rejected (`unauthenticated`) and never applied.
pub const NATS_AUTH_HEADER: &str = "Authorization";

/// The headers a device (or a gateway) publishes NATS telemetry with: the
/// [`NATS_AUTH_HEADER`] carrying `Bearer <token>`.
pub fn nats_telemetry_headers(token: &str) -> async_nats::HeaderMap {
    let mut h = async_nats::HeaderMap::new();
    h.insert(NATS_AUTH_HEADER, format!("Bearer {token}").as_str());
    h
}

/// Header on the service's replies to NATS telemetry (value `arbiter.v1.TelemetryReply`).
pub const REPLY_HEADER: &str = "Arbiter-Reply";

/// Whether `OpenBoard` checks the tournament and board against the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistryCheck {
    /// The registry writes to the same log (embedded `arbiterd`, or a standalone service
    /// on the registry's database): the tournament must exist, and once its round is
    /// paired (`RoundPaired` in the record) the board must be one of the round's boards.
    SameLog,
    /// No check (a standalone service whose database holds no registry events).
    Off,
}

/// The flag grace from [`FLAG_GRACE_ENV`] (default 0).
pub fn flag_grace_from_env() -> u64 {
    std::env::var(FLAG_GRACE_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// The device clock tolerance given on the command line: milliseconds, at most
/// [`MAX_DEVICE_CLOCK_TOLERANCE_MS`] (for clap's `value_parser`).
pub fn parse_device_clock_tolerance(text: &str) -> Result<u64, String> {
    let ms: u64 = text
        .trim()
        .parse()
        .map_err(|e| format!("{text:?} is not a number of milliseconds ({e})"))?;
    if ms > MAX_DEVICE_CLOCK_TOLERANCE_MS {
        return Err(format!(
            "{ms} ms is more than the {MAX_DEVICE_CLOCK_TOLERANCE_MS} ms a device's clock may be ahead"
        ));
    }
    Ok(ms)
}

/// The device clock tolerance from [`DEVICE_CLOCK_TOLERANCE_ENV`]: the default when unset;
/// a value that [`parse_device_clock_tolerance`] refuses is logged and the default used
/// (the binaries read the variable through their flags, which refuse it at start).
pub fn device_clock_tolerance_from_env() -> u64 {
    match std::env::var(DEVICE_CLOCK_TOLERANCE_ENV) {
        Ok(v) => parse_device_clock_tolerance(&v).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "{DEVICE_CLOCK_TOLERANCE_ENV}: using the default");
            DEFAULT_DEVICE_CLOCK_TOLERANCE_MS
        }),
        Err(_) => DEFAULT_DEVICE_CLOCK_TOLERANCE_MS,
    }
}

/// The clock-telemetry gRPC service.
#[derive(Clone)]
pub struct ClockTelemetry {
    platform: Platform,
    inner: Arc<Inner>,
}

struct Inner {
    store: EventStore,
    /// Group commit of the live path (every append of the service goes through it).
    writer: writer::GroupWriter,
    time: TimeSource,
    flag_grace_ms: u64,
    /// How far ahead of the server's time a device stamp may be (ADR clock-007).
    device_clock_tolerance_ms: u64,
    /// The registry's record folded from the same log (`RegistryCheck::SameLog`).
    registry: Option<arbiter_registry::projection::Tournaments>,
    boards: Mutex<HashMap<(String, u32), Arc<Cell>>>,
    /// Every board's updates of a tournament in one channel, for the live pages (ADR
    /// http-009): made for the first watcher of the tournament ([`ClockTelemetry::watch_tournament`]).
    live: std::sync::Mutex<HashMap<String, broadcast::Sender<BoardUpdate>>>,
    shutdown: watch::Receiver<bool>,
}

/// How many updates of one tournament's boards a live watcher may fall behind before it
/// is told it lagged (it then reads every board's state again).
pub const LIVE_UPDATES_BUFFER: usize = 1024;

/// One board in memory.
struct Cell {
    tournament_id: String,
    board: u32,
    state: Mutex<Option<Board>>,
    updates: broadcast::Sender<BoardUpdate>,
    /// Bumped after every fold: the flag timer recomputes its instant.
    changed: watch::Sender<u64>,
}

fn reject_reply(seq: u64, r: Reject) -> TelemetryReply {
    TelemetryReply {
        seq,
        outcome: Some(Outcome::Rejected(TelemetryRejected {
            code: r.code.into(),
            field: r.field.into(),
            message: r.message,
        })),
    }
}

use arbiter_registry::record_commands::ack as ack_of;

impl ClockTelemetry {
    /// The service on this platform, on the system clock: boards are rebuilt from the log
    /// in the background, NATS telemetry is consumed when the bus is NATS.
    /// The flag grace comes from `ARBITER_CLOCK_FLAG_GRACE_MS` (default 0), the device clock
    /// tolerance from `ARBITER_DEVICE_CLOCK_TOLERANCE_MS`.
    pub fn start(platform: &Platform) -> ClockTelemetry {
        Self::start_configured(
            platform,
            TimeSource::System,
            flag_grace_from_env(),
            RegistryCheck::SameLog,
            device_clock_tolerance_from_env(),
        )
    }

    /// As [`ClockTelemetry::start`] with an injected clock (tests), no flag grace.
    pub fn start_with_time(platform: &Platform, time: TimeSource) -> ClockTelemetry {
        Self::start_with(platform, time, 0)
    }

    /// With an injected clock and a flag grace: the timer records a flag fall
    /// `flag_grace_ms` after its instant (still stamped with the exact instant), so that
    /// a press stamped before the fall but delayed in transit is still applied.
    pub fn start_with(platform: &Platform, time: TimeSource, flag_grace_ms: u64) -> ClockTelemetry {
        Self::start_configured(
            platform,
            time,
            flag_grace_ms,
            RegistryCheck::SameLog,
            DEFAULT_DEVICE_CLOCK_TOLERANCE_MS,
        )
    }

    /// As [`ClockTelemetry::start_with`], choosing how `OpenBoard` checks the registry and how
    /// far ahead of the server's time a device stamp may be (`device_clock_tolerance_ms`,
    /// capped at [`MAX_DEVICE_CLOCK_TOLERANCE_MS`]).
    pub fn start_configured(
        platform: &Platform,
        time: TimeSource,
        flag_grace_ms: u64,
        check: RegistryCheck,
        device_clock_tolerance_ms: u64,
    ) -> ClockTelemetry {
        let registry = match check {
            RegistryCheck::SameLog => {
                // Distributed mode: copies of the registry's and pairing's events in this
                // service's own log (a no-op when the log is shared).
                platform.mirror(SERVICE, &["arbiter.v1.registry.>", "arbiter.v1.pairing.>"]);
                Some(arbiter_registry::projection::Tournaments::start(
                    platform.store.clone(),
                ))
            }
            RegistryCheck::Off => None,
        };
        Self::start_inner(
            platform,
            time,
            flag_grace_ms,
            device_clock_tolerance_ms,
            registry,
        )
    }

    /// As [`ClockTelemetry::start`], checking `OpenBoard` against a tournament projection
    /// the process already keeps (`arbiterd`: one projection for every service), with the
    /// device clock tolerance `arbiterd` was given.
    pub fn start_sharing(
        platform: &Platform,
        tournaments: arbiter_registry::projection::Tournaments,
        device_clock_tolerance_ms: u64,
    ) -> ClockTelemetry {
        Self::start_inner(
            platform,
            TimeSource::System,
            flag_grace_from_env(),
            device_clock_tolerance_ms,
            Some(tournaments),
        )
    }

    fn start_inner(
        platform: &Platform,
        time: TimeSource,
        flag_grace_ms: u64,
        device_clock_tolerance_ms: u64,
        registry: Option<arbiter_registry::projection::Tournaments>,
    ) -> ClockTelemetry {
        let inner = Arc::new(Inner {
            store: platform.store.clone(),
            writer: writer::GroupWriter::start(
                platform.store.clone(),
                writer::GroupWriter::window_from_env(),
            ),
            time,
            flag_grace_ms,
            device_clock_tolerance_ms: device_clock_tolerance_ms.min(MAX_DEVICE_CLOCK_TOLERANCE_MS),
            registry,
            boards: Mutex::new(HashMap::new()),
            live: std::sync::Mutex::new(HashMap::new()),
            shutdown: platform.shutdown.clone(),
        });
        let svc = ClockTelemetry {
            platform: platform.clone(),
            inner,
        };
        let s = svc.clone();
        tokio::spawn(async move {
            if let Err(e) = s.rebuild().await {
                tracing::error!(error = %e, "clock: rebuilding boards from the log failed");
            }
        });
        if let Bus::Nats(n) = &platform.bus {
            let client = n.client().clone();
            let s = svc.clone();
            tokio::spawn(async move {
                if let Err(e) = s.ingest_nats(client).await {
                    tracing::error!(error = %e, "clock: NATS telemetry ingestion stopped");
                }
            });
        }
        svc
    }

    /// Group commit so far: (transactions, appends) written by the live path.
    pub fn commit_stats(&self) -> (u64, u64) {
        self.inner.writer.stats()
    }

    /// Loads every board that has events (so that running clocks get their flag timers).
    async fn rebuild(&self) -> anyhow::Result<()> {
        let mut from = 1;
        let mut streams = Vec::new();
        loop {
            let batch = self.inner.store.read_all(from, 1000).await?;
            let Some(last) = batch.last() else { break };
            from = last.global_position + 1;
            for e in batch {
                if e.service == SERVICE
                    && e.event_type == types::BOARD_OPENED
                    && let Ok(o) = BoardOpened::decode(e.payload.as_slice())
                {
                    streams.push((o.tournament_id, o.board));
                }
            }
        }
        streams.sort();
        streams.dedup();
        for (t, b) in streams {
            self.cell(&t, b, false)
                .await
                .map_err(|e| anyhow::anyhow!("board {t}/{b}: {}", e.message()))?;
        }
        Ok(())
    }

    /// The board's cell, loaded from the log on first use. `create`: make an empty cell
    /// for a board with no events (OpenBoard); otherwise such a board is unknown (`None`).
    async fn cell(
        &self,
        tournament_id: &str,
        board: u32,
        create: bool,
    ) -> Result<Option<Arc<Cell>>, Status> {
        let key = (tournament_id.to_owned(), board);
        let mut boards = self.inner.boards.lock().await;
        if let Some(c) = boards.get(&key) {
            return Ok(Some(c.clone()));
        }
        let events = self
            .inner
            .store
            .read_stream(&stream_of(tournament_id, board), 1)
            .await
            .map_err(from_log)?;
        if events.is_empty() && !create {
            return Ok(None);
        }
        let mut state = None;
        for e in &events {
            Board::fold(&mut state, &e.event_type, &e.payload, e.stream_version);
        }
        let cell = Arc::new(Cell {
            tournament_id: tournament_id.to_owned(),
            board,
            state: Mutex::new(state),
            updates: broadcast::channel(256).0,
            changed: watch::Sender::new(0),
        });
        boards.insert(key, cell.clone());
        drop(boards);
        tokio::spawn(self.clone().flag_timer(cell.clone()));
        Ok(Some(cell))
    }

    /// Sleeps until the running flag's instant and records the fall there; recomputes
    /// after every change of the board.
    async fn flag_timer(self, cell: Arc<Cell>) {
        let mut changed = cell.changed.subscribe();
        let mut shutdown = self.inner.shutdown.clone();
        loop {
            let target = cell
                .state
                .lock()
                .await
                .as_ref()
                .and_then(|b| b.game.flag_instant());
            tokio::select! {
                r = changed.changed() => { if r.is_err() { return; } }
                _ = shutdown.changed() => { return; }
                _ = async {
                    match target {
                        Some(t) => {
                            let wake = t.saturating_add(self.inner.flag_grace_ms);
                            self.inner.time.sleep_until(wake).await
                        }
                        None => std::future::pending().await,
                    }
                } => {
                    let Some(at) = target else { continue };
                    let mut guard = cell.state.lock().await;
                    let Some(board) = guard.as_ref() else { continue };
                    let decided = board::decide_flag_check(board, at);
                    if decided.events.is_empty() {
                        continue;
                    }
                    let game_number = board.opened.game_number;
                    let ctx = CommandContext {
                        command_id: format!("flag:{}:g{game_number}:{at}", stream_of(&cell.tournament_id, cell.board)),
                        actor: "clock-timer".into(),
                        reason: "flag fall detected by the authoritative clock (6.9)".into(),
                        ..Default::default()
                    };
                    match self.commit(&cell, &mut guard, decided, ctx, true).await {
                        Ok(_) => tracing::info!(tournament_id = %cell.tournament_id, board = cell.board, at, "flag fell"),
                        Err(r) => {
                            tracing::warn!(error = %r.message, "clock: recording a flag fall failed; retrying");
                            drop(guard);
                            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                        }
                    }
                }
            }
        }
    }

    /// Appends `decided.events` to the board's stream (as the board's next version),
    /// folds them, tells watchers and the flag timer. Returns the ack once the events
    /// are durable. The append goes through the group commit ([`writer`]); `urgent`
    /// (a flag fall) does not wait for the collection window.
    async fn commit(
        &self,
        cell: &Cell,
        guard: &mut Option<Board>,
        decided: Decided,
        mut ctx: CommandContext,
        urgent: bool,
    ) -> Result<CommandAck, Reject> {
        let stream = stream_of(&cell.tournament_id, cell.board);
        let version = guard.as_ref().map(|b| b.version).unwrap_or(0);
        let edition = decided
            .events
            .iter()
            .find(|(t, _)| *t == types::BOARD_OPENED)
            .and_then(|(_, p)| BoardOpened::decode(p.as_slice()).ok())
            .or_else(|| guard.as_ref().map(|b| b.opened.clone()))
            .map(|o| board::rule_edition(&o))
            .unwrap_or_default();
        ctx.rule_edition = edition;
        ctx.service = SERVICE.into();
        ctx.trace_parent = current_traceparent();
        let req = AppendRequest {
            stream: stream.clone(),
            expected_version: Some(version),
            events: decided
                .events
                .iter()
                .map(|(t, p)| NewEvent {
                    event_type: (*t).into(),
                    schema_version: 1,
                    payload: p.clone(),
                })
                .collect(),
            context: ctx,
        };
        let a = match self.inner.writer.append(req, urgent).await {
            Ok(a) => a,
            Err(arbiter_eventlog::Error::Conflict { .. }) => {
                // Another writer appended: reload the board from the log.
                if let Ok(events) = self.inner.store.read_stream(&stream, 1).await {
                    let mut state = None;
                    for e in &events {
                        Board::fold(&mut state, &e.event_type, &e.payload, e.stream_version);
                    }
                    *guard = state;
                    cell.changed.send_modify(|n| *n += 1);
                }
                return Err(Reject::new(
                    "conflict",
                    "item",
                    "the board changed meanwhile (another writer); reloaded, send again",
                ));
            }
            Err(e) => {
                let s = from_log(e);
                let code = if s.code() == tonic::Code::AlreadyExists {
                    "invalid"
                } else {
                    "internal"
                };
                return Err(Reject::new(code, "seq", s.message()));
            }
        };
        if !a.replayed {
            let mut v = version;
            let types: Vec<&str> = decided.events.iter().map(|(t, _)| *t).collect();
            for (t, p) in &decided.events {
                v += 1;
                Board::fold(guard, t, p, v);
            }
            if let Some(b) = guard.as_ref() {
                let update = BoardUpdate {
                    event_type: types.join(","),
                    effects: decided.effects.clone(),
                    state: Some(board::state(b, self.inner.time.now_ms())),
                };
                let live = self
                    .inner
                    .live
                    .lock()
                    .ok()
                    .and_then(|m| m.get(&cell.tournament_id).cloned());
                if let Some(live) = live {
                    let _ = live.send(update.clone());
                }
                let _ = cell.updates.send(update);
            }
            cell.changed.send_modify(|n| *n += 1);
        }
        Ok(ack_of(stream, a))
    }

    /// Handles one telemetry item from `actor`, with no access check (in-process
    /// callers; gRPC and NATS items go through [`ClockTelemetry::handle_as`]).
    pub async fn handle(&self, actor: &str, t: Telemetry) -> TelemetryReply {
        let seq = t.seq;
        match self.handle_inner(actor, t).await {
            Ok(r) => r,
            Err(r) => reject_reply(seq, r),
        }
    }

    async fn handle_inner(&self, actor: &str, t: Telemetry) -> Result<TelemetryReply, Reject> {
        if t.tournament_id.is_empty() {
            return Err(Reject::new("invalid", "tournament_id", "must not be empty"));
        }
        let cell = self
            .cell(&t.tournament_id, t.board, false)
            .await
            .map_err(|s| Reject::new("internal", "board", s.message()))?;
        let unknown = || {
            Reject::new(
                "unknown_board",
                "board",
                format!(
                    "no board {} is open in tournament {:?} (OpenBoard first)",
                    t.board, t.tournament_id
                ),
            )
        };
        let cell = cell.ok_or_else(unknown)?;
        let mut guard = cell.state.lock().await;
        let board = guard.as_ref().ok_or_else(unknown)?;
        let command_id = if t.seq > 0 && !t.device_id.is_empty() {
            let id = format!(
                "telemetry:{}:g{}:{}:{}",
                stream_of(&t.tournament_id, t.board),
                board.opened.game_number,
                t.device_id,
                t.seq
            );
            // A resent item (its reply was lost): answer as a replay, write nothing.
            let done = self
                .inner
                .store
                .find_command(&id)
                .await
                .map_err(|e| Reject::new("internal", "seq", from_log(e).message()))?;
            if let Some((stream, a)) = done {
                return Ok(TelemetryReply {
                    seq: t.seq,
                    outcome: Some(Outcome::Accepted(TelemetryAccepted {
                        ack: Some(ack_of(stream, a)),
                        effects: vec![format!(
                            "seq {} of {} was already recorded",
                            t.seq, t.device_id
                        )],
                        anomalies: Vec::new(),
                        state: Some(board::state(board, self.inner.time.now_ms())),
                    })),
                });
            }
            id
        } else {
            uuid::Uuid::now_v7().to_string()
        };
        // The server's time is the authority: the device's stamp is bounded by it in the
        // pure decision (ADR clock-007); the shell only reads the time source.
        let server = clock::ServerTime {
            now: self.inner.time.now_ms(),
            tolerance_ms: self.inner.device_clock_tolerance_ms,
        };
        let decided = board::decide(board, &t, server).inspect_err(|r| {
            if r.code == "ahead_of_server_time" {
                tracing::warn!(
                    tournament_id = %t.tournament_id,
                    board = t.board,
                    device_id = %t.device_id,
                    seq = t.seq,
                    message = %r.message,
                    "clock: device stamp refused"
                );
            }
        })?;
        let effects = decided.effects.clone();
        let anomalies = decided.anomalies.clone();
        let ctx = CommandContext {
            command_id,
            actor: actor.to_owned(),
            ..Default::default()
        };
        let ack = self.commit(&cell, &mut guard, decided, ctx, false).await?;
        let state = guard
            .as_ref()
            .map(|b| board::state(b, self.inner.time.now_ms()));
        Ok(TelemetryReply {
            seq: t.seq,
            outcome: Some(Outcome::Accepted(TelemetryAccepted {
                ack: Some(ack),
                effects,
                anomalies,
                state,
            })),
        })
    }

    /// Consumes `arbiter.v1.clock.in.<tournament>.<board>`; answers on the message's
    /// reply subject when it has one.
    async fn ingest_nats(self, client: async_nats::Client) -> Result<(), async_nats::Error> {
        use futures::StreamExt;
        let mut sub = client.subscribe(NATS_TELEMETRY_SUBJECTS).await?;
        let mut shutdown = self.inner.shutdown.clone();
        loop {
            let msg = tokio::select! {
                m = sub.next() => match m { Some(m) => m, None => return Ok(()) },
                _ = shutdown.changed() => return Ok(()),
            };
            let authorization = msg.headers.as_ref().and_then(|h| {
                h.iter()
                    .find(|(k, _)| AsRef::<str>::as_ref(k).eq_ignore_ascii_case(NATS_AUTH_HEADER))
                    .and_then(|(_, v)| v.first())
                    .map(|v| v.as_str().to_owned())
            });
            let reply = self
                .nats_item(&msg.subject, authorization.as_deref(), &msg.payload)
                .await;
            if let Some(to) = msg.reply {
                // The ARBITER JetStream stream (`arbiter.v1.>`) also captures telemetry
                // subjects and answers the same inbox with its PubAck: this header tells
                // our reply apart.
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(REPLY_HEADER, "arbiter.v1.TelemetryReply");
                let body = reply.encode_to_vec().into();
                if let Err(e) = client.publish_with_headers(to, headers, body).await {
                    tracing::warn!(error = %e, "clock: NATS reply failed");
                }
            } else if let Some(Outcome::Rejected(r)) = &reply.outcome {
                tracing::warn!(subject = %msg.subject, message = %r.message, "clock: NATS telemetry rejected");
            }
        }
    }

    /// The actor of a NATS message's `Authorization` header value, checked by the
    /// platform's [`Auth`](arbiter_service_kit::auth::Auth) exactly as a gRPC bearer token.
    fn nats_actor(
        &self,
        authorization: Option<&str>,
    ) -> Result<arbiter_service_kit::auth::Caller, Reject> {
        let unauthenticated = |m: &str| {
            Reject::new(
                "unauthenticated",
                "authorization",
                m.strip_prefix("authorization: ").unwrap_or(m),
            )
        };
        let Some(value) = authorization else {
            return Err(unauthenticated(&format!(
                "NATS telemetry needs a `{NATS_AUTH_HEADER}: Bearer <token>` header"
            )));
        };
        let value = tonic::metadata::MetadataValue::try_from(value)
            .map_err(|_| unauthenticated("not a valid header value (ASCII expected)"))?;
        let mut request = Request::new(());
        request.metadata_mut().insert("authorization", value);
        self.platform
            .auth
            .authorize(&request, "BoardTelemetry", Scope::Global)
            .map_err(|s| match s.code() {
                tonic::Code::Unauthenticated => unauthenticated(s.message()),
                _ => Reject::new("permission_denied", "authorization", s.message()),
            })
    }

    /// One NATS telemetry message: the subject names the board; `authorization` is the
    /// value of its `Authorization` header (`Bearer <token>`), checked before anything
    /// else — an unauthenticated message is rejected and never applied.
    pub async fn nats_item(
        &self,
        subject: &str,
        authorization: Option<&str>,
        payload: &[u8],
    ) -> TelemetryReply {
        let caller = match self.nats_actor(authorization) {
            Ok(a) => a,
            Err(r) => return reject_reply(0, r),
        };
        let parts: Vec<&str> = subject.split('.').collect();
        let (tournament, board) = match parts.as_slice() {
            ["arbiter", "v1", "clock", "in", t, b] => (*t, *b),
            _ => {
                return reject_reply(
                    0,
                    Reject::new(
                        "invalid",
                        "subject",
                        format!("{subject:?} is not arbiter.v1.clock.in.<tournament>.<board>"),
                    ),
                );
            }
        };
        let Ok(board) = board.parse::<u32>() else {
            return reject_reply(
                0,
                Reject::new(
                    "invalid",
                    "subject",
                    format!("board {board:?} in {subject:?} is not a number"),
                ),
            );
        };
        let mut t = match Telemetry::decode(payload) {
            Ok(t) => t,
            Err(e) => {
                return reject_reply(
                    0,
                    Reject::new(
                        "invalid",
                        "payload",
                        format!("not an arbiter.v1.Telemetry: {e}"),
                    ),
                );
            }
        };
        if t.tournament_id.is_empty() {
            t.tournament_id = tournament.to_owned();
        }
        if t.board == 0 {
            t.board = board;
        }
        if t.tournament_id != tournament || t.board != board {
            return reject_reply(
                t.seq,
                Reject::new(
                    "invalid",
                    "tournament_id",
                    format!(
                        "the message names board {} of {:?} but was sent on {subject:?}",
                        t.board, t.tournament_id
                    ),
                ),
            );
        }
        self.handle_as(&caller, t).await
    }

    /// One telemetry item from `caller`, refused unless it may send telemetry for the
    /// item's tournament (the rule of `BoardTelemetry`, checked per message).
    pub async fn handle_as(
        &self,
        caller: &arbiter_service_kit::auth::Caller,
        t: Telemetry,
    ) -> TelemetryReply {
        if let Err(s) = self
            .platform
            .auth
            .check_message(caller, "BoardTelemetry", &t.tournament_id)
        {
            let code = match s.code() {
                tonic::Code::PermissionDenied => "permission_denied",
                _ => "refused",
            };
            return reject_reply(t.seq, Reject::new(code, "tournament_id", s.message()));
        }
        self.handle(&caller.actor, t).await
    }

    /// `OpenBoard` against the registry's record (when it shares the log): the
    /// tournament must exist; once `round` is paired, `board` must be one of its boards.
    async fn check_registry(
        &self,
        tournament_id: &str,
        round: u32,
        board: u32,
    ) -> Result<(), Status> {
        let Some(registry) = &self.inner.registry else {
            return Ok(());
        };
        // Read-your-writes: a tournament created (or a round paired) just before.
        let head = self.inner.store.head_position().await.map_err(from_log)?;
        if !registry.caught_up(head).await {
            return Err(Status::unavailable(
                "tournament_id: the registry's record has not caught up with the log yet; try again",
            ));
        }
        let Some((tournament, roster)) = registry.with_roster(tournament_id) else {
            return Err(not_found(
                "tournament_id",
                format!(
                    "the registry has no tournament {tournament_id:?} (arbiter tournament create)"
                ),
            ));
        };
        if tournament.rounds > 0 && round > tournament.rounds {
            return Err(invalid(
                "round",
                format!(
                    "tournament {tournament_id} has {} rounds, there is no round {round}",
                    tournament.rounds
                ),
            ));
        }
        if let Some(paired) = roster.record.pairings.get(&round) {
            let boards = &paired.event.boards;
            if !boards.iter().any(|b| b.board == board) {
                let last = boards.iter().map(|b| b.board).max().unwrap_or(0);
                return Err(invalid(
                    "board",
                    format!(
                        "round {round} of tournament {tournament_id} is paired on {} boards (1–{last}); it has no board {board}",
                        boards.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every update of every board of `tournament_id` from now on, as `WatchBoard` gives
    /// one board's (in process, no access check: the caller checked `WatchBoard`'s rule;
    /// the live pages, ADR http-009). A receiver more than [`LIVE_UPDATES_BUFFER`]
    /// updates behind is told it lagged.
    pub fn watch_tournament(&self, tournament_id: &str) -> broadcast::Receiver<BoardUpdate> {
        let mut live = match self.inner.live.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        live.entry(tournament_id.to_owned())
            .or_insert_with(|| broadcast::channel(LIVE_UPDATES_BUFFER).0)
            .subscribe()
    }

    /// The state of every open board of `tournament_id` now, in board order (in process,
    /// no access check, nothing read from the log: the live boards' opening, ADR http-009).
    pub async fn tournament_states(&self, tournament_id: &str) -> Vec<ClockState> {
        let mut cells: Vec<Arc<Cell>> = self
            .inner
            .boards
            .lock()
            .await
            .iter()
            .filter(|((t, _), _)| t == tournament_id)
            .map(|(_, c)| c.clone())
            .collect();
        cells.sort_by_key(|c| c.board);
        let now = self.inner.time.now_ms();
        let mut out = Vec::with_capacity(cells.len());
        for c in cells {
            if let Some(b) = c.state.lock().await.as_ref() {
                out.push(board::state(b, now));
            }
        }
        out
    }

    /// The live state of a board.
    pub async fn clock_state(&self, tournament_id: &str, board: u32) -> Result<ClockState, Status> {
        let cell = self.known(tournament_id, board).await?;
        let guard = cell.state.lock().await;
        guard
            .as_ref()
            .map(|b| board::state(b, self.inner.time.now_ms()))
            .ok_or_else(|| {
                not_found(
                    "board",
                    format!("no board {board} is open in tournament {tournament_id:?}"),
                )
            })
    }

    async fn known(&self, tournament_id: &str, board: u32) -> Result<Arc<Cell>, Status> {
        if tournament_id.trim().is_empty() {
            return Err(invalid("tournament_id", "must not be empty"));
        }
        self.cell(tournament_id, board, false)
            .await?
            .ok_or_else(|| {
                not_found(
                    "board",
                    format!("no board {board} is open in tournament {tournament_id:?}"),
                )
            })
    }
}

impl ServiceModule for ClockTelemetry {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.ClockService"
    }
    fn projected(&self) -> Option<arbiter_service_kit::host::Projected> {
        let t = self.inner.registry.clone()?;
        Some(std::sync::Arc::new(move || t.position()))
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(ClockServiceServer::new(*self).max_decoding_message_size(
            arbiter_service_kit::limits::service_max_message_bytes("clock"),
        ));
    }
}

type BoxStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

#[tonic::async_trait]
impl ClockService for ClockTelemetry {
    async fn get_service_info(
        &self,
        request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetServiceInfo", Scope::Global)?;
        service_info(&self.platform, SERVICE, &["laws-2023", "laws-2018"])
            .await
            .map(Response::new)
    }

    async fn open_board(
        &self,
        request: Request<OpenBoardRequest>,
    ) -> Result<Response<OpenBoardResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "OpenBoard",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "OpenBoard", &r, r.meta.clone())
            .await?;
        let draft = BoardOpened {
            tournament_id: r.tournament_id,
            board: r.board,
            round: r.round,
            time_control: r.time_control,
            white: r.white,
            black: r.black,
            laws_edition: r.laws_edition,
            auto_apply_results: r.auto_apply_results,
            quickplay_guidelines: r.quickplay_guidelines,
            game_number: 0,
            supervision: r.supervision,
            variant: r.variant,
            start_fen: r.start_position,
            chess960_number: None,
            // II.2 by lot: the seed is drawn here (the shell) and recorded in the event, so
            // the pure decision and every rebuild give the same position
            lot_seed: r.draw_by_lot.then(lot_seed),
        };
        // Validate before touching the log (the stream name is built from these).
        board::decide_open(None, draft.clone()).map_err(|e| invalid(e.field, strip(&e)))?;
        self.check_registry(&draft.tournament_id, draft.round, draft.board)
            .await?;
        let cell = self
            .cell(&draft.tournament_id, draft.board, true)
            .await?
            .ok_or_else(|| Status::internal("board cell not created"))?;
        let mut guard = cell.state.lock().await;
        if let Some(v) = meta.expected_version {
            let current = guard.as_ref().map(|b| b.version).unwrap_or(0);
            if v != current {
                return Err(Status::aborted(format!(
                    "meta.expected_version: board stream is at version {current}, not {v}"
                )));
            }
        }
        let opened = board::decide_open(guard.as_ref(), draft).map_err(|e| {
            if e.code == "game_in_progress" {
                Status::failed_precondition(e.message)
            } else {
                invalid(e.field, strip(&e))
            }
        })?;
        let decided = Decided {
            events: vec![(types::BOARD_OPENED, opened.encode_to_vec())],
            effects: vec![format!("game {} opened", opened.game_number)],
            anomalies: Vec::new(),
        };
        let ctx = CommandContext {
            command_id: meta.command_id.clone(),
            request_digest: meta.request_digest.clone(),
            actor,
            reason: meta.reason.clone(),
            ..Default::default()
        };
        let ack = self
            .commit(&cell, &mut guard, decided, ctx, false)
            .await
            .map_err(|r| match r.code {
                "conflict" => Status::aborted(r.message),
                "invalid" => Status::already_exists(r.message),
                _ => Status::unavailable(r.message),
            })?;
        let state = guard
            .as_ref()
            .map(|b| board::state(b, self.inner.time.now_ms()));
        Ok(Response::new(OpenBoardResponse {
            ack: Some(ack),
            state,
        }))
    }

    type BoardTelemetryStream = BoxStream<TelemetryReply>;

    async fn board_telemetry(
        &self,
        request: Request<Streaming<Telemetry>>,
    ) -> Result<Response<Self::BoardTelemetryStream>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "BoardTelemetry", Scope::Global)?;
        let mut inbound = request.into_inner();
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let svc = self.clone();
        tokio::spawn(async move {
            loop {
                let item = match inbound.message().await {
                    Ok(Some(t)) => t,
                    Ok(None) => return,
                    Err(s) => {
                        tracing::debug!(status = %s, "clock: telemetry stream ended");
                        return;
                    }
                };
                let reply = svc.handle_as(&caller, item).await;
                if tx.send(Ok(reply)).await.is_err() {
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        )))
    }

    async fn get_clock_state(
        &self,
        request: Request<GetClockStateRequest>,
    ) -> Result<Response<ClockState>, Status> {
        self.platform.auth.authorize(
            &request,
            "GetClockState",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        self.clock_state(&r.tournament_id, r.board)
            .await
            .map(Response::new)
    }

    async fn adjourn_game(
        &self,
        request: Request<AdjournGameRequest>,
    ) -> Result<Response<ClockCommandResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "AdjournGame",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "AdjournGame", &r, r.meta.clone())
            .await?;
        let response = self
            .arbiter_command(
                "AdjournGame",
                actor,
                meta,
                &r.tournament_id,
                r.board,
                |b, now| {
                    board::decide_adjourn(b, &r.sealed_by, &r.sealed_move, r.session_end_ms, now)
                },
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn resume_game(
        &self,
        request: Request<ResumeGameRequest>,
    ) -> Result<Response<ClockCommandResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "ResumeGame",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "ResumeGame", &r, r.meta.clone())
            .await?;
        let response = self
            .arbiter_command(
                "ResumeGame",
                actor,
                meta,
                &r.tournament_id,
                r.board,
                |b, now| board::decide_resume(b, &r.step, &r.absent, now),
            )
            .await?;
        Ok(Response::new(response))
    }

    async fn get_sealed_move(
        &self,
        request: Request<GetSealedMoveRequest>,
    ) -> Result<Response<SealedMove>, Status> {
        self.platform.auth.authorize(
            &request,
            "GetSealedMove",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let cell = self.known(&r.tournament_id, r.board).await?;
        let guard = cell.state.lock().await;
        guard
            .as_ref()
            .and_then(board::sealed_move)
            .map(Response::new)
            .ok_or_else(|| {
                Status::failed_precondition(format!(
                    "board: no game on board {} of {:?} is adjourned with its envelope closed",
                    r.board, r.tournament_id
                ))
            })
    }

    type WatchBoardStream = BoxStream<BoardUpdate>;

    async fn watch_board(
        &self,
        request: Request<WatchBoardRequest>,
    ) -> Result<Response<Self::WatchBoardStream>, Status> {
        self.platform.auth.authorize(
            &request,
            "WatchBoard",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let cell = self.known(&r.tournament_id, r.board).await?;
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let time = self.inner.time.clone();
        let mut shutdown = self.inner.shutdown.clone();
        tokio::spawn(async move {
            // Subscribe before the snapshot so that nothing falls between them.
            let mut updates = cell.updates.subscribe();
            let snapshot = {
                let guard = cell.state.lock().await;
                guard.as_ref().map(|b| board::state(b, time.now_ms()))
            };
            let Some(snapshot) = snapshot else { return };
            let mut seen = snapshot.stream_version;
            let ended = !snapshot.result.is_empty();
            let first = BoardUpdate {
                event_type: String::new(),
                effects: Vec::new(),
                state: Some(snapshot),
            };
            if tx.send(Ok(first)).await.is_err() || ended {
                return;
            }
            loop {
                let u = tokio::select! {
                    u = updates.recv() => u,
                    _ = shutdown.changed() => return,
                };
                let u = match u {
                    Ok(u) => u,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let guard = cell.state.lock().await;
                        let Some(b) = guard.as_ref() else { return };
                        BoardUpdate {
                            event_type: "Snapshot".into(),
                            effects: vec!["updates were skipped (slow reader)".into()],
                            state: Some(board::state(b, time.now_ms())),
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                let v = u.state.as_ref().map(|s| s.stream_version).unwrap_or(0);
                if v <= seen && u.event_type != "Snapshot" {
                    continue;
                }
                seen = v;
                let ended = u.state.as_ref().is_some_and(|s| !s.result.is_empty());
                if tx.send(Ok(u)).await.is_err() || ended {
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        )))
    }
}

/// A fresh seed for a draw by lot (Guidelines II.2): the process's random hasher keys
/// mixed with the time; recorded in `BoardOpened.lot_seed`.
fn lot_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(uuid::Uuid::now_v7().as_u128());
    h.finish()
}

/// A refusal of an arbiter's command as a gRPC status.
fn reject_status(r: Reject) -> Status {
    match r.code {
        "game_over" | "not_started" => Status::failed_precondition(r.message),
        "conflict" => Status::aborted(r.message),
        "internal" => Status::unavailable(r.message),
        _ => invalid(r.field, strip(&r)),
    }
}

impl ClockTelemetry {
    /// An arbiter's command on a board (adjournment, resumption): the pure decision on the
    /// board as it is, appended with the caller as actor and the request's command id.
    async fn arbiter_command(
        &self,
        rpc: &'static str,
        actor: String,
        meta: arbiter_proto::v1::CommandMeta,
        tournament_id: &str,
        board_no: u32,
        decide: impl FnOnce(&Board, Instant) -> Result<Decided, Reject>,
    ) -> Result<ClockCommandResponse, Status> {
        let cell = self.known(tournament_id, board_no).await?;
        let mut guard = cell.state.lock().await;
        let Some(board) = guard.as_ref() else {
            return Err(not_found(
                "board",
                format!("no board {board_no} is open in tournament {tournament_id:?}"),
            ));
        };
        if let Some(v) = meta.expected_version
            && v != board.version
        {
            return Err(Status::aborted(format!(
                "meta.expected_version: board stream is at version {}, not {v}",
                board.version
            )));
        }
        let decided = decide(board, self.inner.time.now_ms()).map_err(reject_status)?;
        let effects = decided.effects.clone();
        let ctx = CommandContext {
            command_id: meta.command_id.clone(),
            request_digest: meta.request_digest.clone(),
            actor,
            reason: if meta.reason.is_empty() {
                format!("{rpc} (Guidelines I)")
            } else {
                meta.reason.clone()
            },
            ..Default::default()
        };
        let ack = self
            .commit(&cell, &mut guard, decided, ctx, false)
            .await
            .map_err(reject_status)?;
        let state = guard
            .as_ref()
            .map(|b| board::state(b, self.inner.time.now_ms()));
        Ok(ClockCommandResponse {
            ack: Some(ack),
            effects,
            state,
        })
    }
}

use clock::Instant;

/// The message without its leading `field: ` (status::invalid adds it back).
fn strip(r: &Reject) -> String {
    r.message
        .strip_prefix(&format!("{}: ", r.field))
        .unwrap_or(&r.message)
        .to_owned()
}
