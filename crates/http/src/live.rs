//! Live boards (issue 44 part 2; ADR http-009): a round's clocks and moves as they
//! happen, from clock-telemetry, over server-sent events
//! (`/api/v1/tournaments/{id}/rounds/{r}/live`) and on the round's live page
//! (`/t/{id}/rounds/{r}/live`, [`crate::pages::live`]).
//!
//! The stream opens with one `board` event per board of the round that has a clock
//! (its state now), then one `board` event per change of any of them, in the order the
//! clock service committed them. It is not resumable by position: a client that
//! reconnects gets every board's state again, which is all it needs. Every client of a
//! tournament reads one channel of the clock service
//! (`ClockTelemetry::watch_tournament`), so a move is read once however many watch it.
//! Access: the tournament's pairing (`GetPairings`) and `WatchBoard`'s rule, checked when
//! the stream opens; each board's state then through `GetClockState` (both without a token
//! once the tournament is public).
//!
//! [`LiveBoardJson::of`], [`frame`], [`clock_text`] and [`last_move_text`] are pure; the
//! handlers below them are the shell.
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use arbiter_proto::v1 as pb;
use arbiter_service_kit::auth::Scope;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use serde::Serialize;
use tokio::sync::broadcast;
use tonic::Status;
use utoipa::ToSchema;

use crate::problem::Problem;
use crate::server::{App, api_answer, grpc, html_page, page_query, query, rendered, st};

/// The live page's script, served at `/static/live.js`.
pub const LIVE_JS: &str = include_str!("../static/live.js");

/// Clock-telemetry in process, as the live boards read it (no access check there: the
/// stream checked `WatchBoard`'s rule when it opened).
pub trait LiveBoards: Send + Sync {
    /// Every board update of one tournament from now on (`watch_tournament`).
    fn updates(&self, tournament_id: &str) -> broadcast::Receiver<pb::BoardUpdate>;
    /// Every open board of one tournament now, read from memory (`tournament_states`).
    fn states<'a>(
        &'a self,
        tournament_id: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Vec<pb::ClockState>> + Send + 'a>>;
}

/// The live boards of the process's clock-telemetry service.
pub type LiveUpdates = Arc<dyn LiveBoards>;

impl LiveBoards for arbiter_clock_telemetry::ClockTelemetry {
    fn updates(&self, tournament_id: &str) -> broadcast::Receiver<pb::BoardUpdate> {
        self.watch_tournament(tournament_id)
    }

    fn states<'a>(
        &'a self,
        tournament_id: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Vec<pb::ClockState>> + Send + 'a>> {
        Box::pin(self.tournament_states(tournament_id))
    }
}

/// One board's clock and game as a live page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LiveBoardJson {
    pub board: u32,
    pub round: u32,
    /// 1 for the first game opened on the board.
    pub game_number: u32,
    /// The clock was started.
    pub started: bool,
    /// The side to move's clock runs (started, not paused, no result).
    pub running: bool,
    /// `white` / `black`.
    pub side_to_move: String,
    /// White's remaining time at `as_of_ms` (ms).
    pub white_ms: u64,
    /// Black's remaining time at `as_of_ms` (ms).
    pub black_ms: u64,
    /// When the times were taken (server time, ms since the Unix epoch); the running
    /// clock goes down from then on.
    pub as_of_ms: u64,
    /// Moves played (half-moves).
    pub moves: u32,
    /// The last move with its number (`12. Nf3`, `12… Nf6`), empty before the first.
    pub last_move: String,
    /// The position now.
    pub fen: String,
    /// `1-0` / `0-1` / `1/2-1/2`, empty while the game goes on.
    pub result: String,
    /// How it ended (e.g. `Checkmate`).
    pub termination: String,
}

impl LiveBoardJson {
    /// The board as clock-telemetry's state says.
    pub fn of(s: &pb::ClockState) -> LiveBoardJson {
        LiveBoardJson {
            board: s.board,
            round: s.round,
            game_number: s.game_number,
            started: s.started,
            running: s.started && !s.paused && s.result.is_empty(),
            side_to_move: s.side_to_move.clone(),
            white_ms: s.white_ms,
            black_ms: s.black_ms,
            as_of_ms: s.as_of_ms,
            moves: u32::try_from(s.moves_san.len()).unwrap_or(u32::MAX),
            last_move: last_move_text(&s.moves_san),
            fen: s.fen.clone(),
            result: s.result.clone(),
            termination: s.termination.clone(),
        }
    }

    /// White's and Black's remaining times at `now_ms` (the running one gone down since
    /// `as_of_ms`, never below 0).
    pub fn remaining_at(&self, now_ms: u64) -> (u64, u64) {
        let spent = if self.running {
            now_ms.saturating_sub(self.as_of_ms)
        } else {
            0
        };
        if self.side_to_move == "black" {
            (self.white_ms, self.black_ms.saturating_sub(spent))
        } else {
            (self.white_ms.saturating_sub(spent), self.black_ms)
        }
    }
}

/// A clock as boards show it: `h:mm:ss`, or `m:ss` under an hour (whole seconds, cut).
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, x) = (s / 3600, s % 3600 / 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{x:02}")
    } else {
        format!("{m}:{x:02}")
    }
}

/// The last of `moves` (SAN, from the game's start) with its number: `12. Nf3` for
/// White's, `12… Nf6` for Black's.
pub fn last_move_text(moves: &[String]) -> String {
    match moves.last() {
        None => String::new(),
        Some(san) => {
            let n = moves.len();
            let number = n.div_ceil(2);
            if n % 2 == 1 {
                format!("{number}. {san}")
            } else {
                format!("{number}… {san}")
            }
        }
    }
}

/// The SSE frame of `board` sent at `now_ms` (the client's measure of the clock's skew).
pub fn frame(board: &LiveBoardJson, now_ms: u64) -> String {
    #[derive(Serialize)]
    struct Frame<'a> {
        server_now_ms: u64,
        #[serde(flatten)]
        board: &'a LiveBoardJson,
    }
    format!(
        "event: board\ndata: {}\n\n",
        serde_json::to_string(&Frame {
            server_now_ms: now_ms,
            board
        })
        .unwrap_or_default()
    )
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

type AppState = State<Arc<App>>;

impl App {
    /// The clocks of `boards` in `round` (those that have one for this round): from the
    /// clock service's memory where it runs here, else each read through `GetClockState`
    /// as the caller.
    async fn clocks(
        &self,
        headers: &HeaderMap,
        tournament_id: &str,
        round: u32,
        boards: &[u32],
    ) -> Result<Vec<LiveBoardJson>, Problem> {
        if let Some(live) = &self.live {
            let wanted: HashSet<u32> = boards.iter().copied().collect();
            return Ok(live
                .states(tournament_id)
                .await
                .iter()
                .filter(|s| s.round == round && wanted.contains(&s.board))
                .map(LiveBoardJson::of)
                .collect());
        }
        let Some(clock) = &self.clock else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for &board in boards {
            let req = grpc(
                headers,
                pb::GetClockStateRequest {
                    tournament_id: tournament_id.to_owned(),
                    board,
                },
            )?;
            match clock(req).await {
                Ok(s) if s.round == round => out.push(LiveBoardJson::of(&s)),
                Ok(_) => {}
                Err(s) if s.code() == tonic::Code::NotFound => {}
                Err(s) => return Err(st(s)),
            }
        }
        Ok(out)
    }

    /// A round's live view: the tournament, its published pairing, the caller allowed
    /// to watch its boards.
    async fn live_round(
        &self,
        headers: &HeaderMap,
        id: &str,
        round: &str,
    ) -> Result<(pb::Tournament, pb::RoundPairingView), Problem> {
        let t = self.heading(headers, id)?;
        self.auth
            .authorize(
                &grpc(headers, ())?,
                "WatchBoard",
                Scope::Tournament(&t.tournament_id),
            )
            .map_err(st)?;
        let (view, _) = self.published_round(headers, &t, round).await?;
        Ok((t, view))
    }
}

/// `GET /t/{id}/rounds/{round}/live`.
pub(crate) async fn page_live(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let path = format!("/t/{id}/rounds/{round}/live");
    let (site, ok) = page_query(&app, &headers, raw.as_deref(), &path);
    let r = async {
        ok?;
        let (t, view) = app.live_round(&headers, &id, &round).await?;
        let boards: Vec<u32> = view.boards.iter().map(|b| b.board).collect();
        let states: HashMap<u32, LiveBoardJson> = app
            .clocks(&headers, &t.tournament_id, view.round, &boards)
            .await?
            .into_iter()
            .map(|b| (b.board, b))
            .collect();
        let players = app.players(&t.tournament_id);
        rendered(crate::pages::live::live_page(
            &site,
            &t,
            &view,
            &states,
            &players,
            now_ms(),
        ))
    }
    .await;
    html_page(&headers, &site, r)
}

/// `GET /static/live.js`.
pub(crate) async fn live_js() -> Response {
    let mut r = Response::new(Body::from(LIVE_JS));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=300"),
    );
    r
}

/// What a live stream holds between two frames.
struct Follow {
    app: Arc<App>,
    headers: HeaderMap,
    tournament_id: String,
    round: u32,
    boards: Vec<u32>,
    watched: HashSet<u32>,
    updates: broadcast::Receiver<pb::BoardUpdate>,
    queued: VecDeque<Bytes>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    /// Board frames still to send before the stream ends (`None`: until the client goes).
    left: Option<u64>,
}

impl Follow {
    fn queue(&mut self, states: &[LiveBoardJson]) {
        let now = now_ms();
        self.queued
            .extend(states.iter().map(|b| Bytes::from(frame(b, now))));
    }

    /// The next frame: a queued one, else the next update of one of the round's boards,
    /// else a keep-alive after 15 s of nothing; `None` ends the stream (shutdown, or the
    /// clock service gone).
    async fn next(&mut self) -> Option<Bytes> {
        if self.left == Some(0) {
            return None;
        }
        let f = self.next_frame().await?;
        if f.starts_with(b"event: ") {
            self.left = self.left.map(|n| n - 1);
        }
        Some(f)
    }

    async fn next_frame(&mut self) -> Option<Bytes> {
        loop {
            if let Some(f) = self.queued.pop_front() {
                return Some(f);
            }
            if *self.shutdown.borrow() {
                return None;
            }
            tokio::select! {
                u = self.updates.recv() => match u {
                    Ok(u) => {
                        if let Some(s) = u.state.filter(|s| {
                            s.tournament_id == self.tournament_id
                                && s.round == self.round
                                && self.watched.contains(&s.board)
                        }) {
                            return Some(Bytes::from(frame(&LiveBoardJson::of(&s), now_ms())));
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Fell behind: every board's state again (as at the start).
                        let states = self
                            .app
                            .clocks(&self.headers, &self.tournament_id, self.round, &self.boards)
                            .await
                            .ok()?;
                        self.queue(&states);
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                _ = tokio::time::sleep(std::time::Duration::from_secs(15)) => {
                    return Some(Bytes::from_static(b": keep-alive\n\n"));
                }
                _ = self.shutdown.changed() => return None,
            }
        }
    }
}

/// A round's live boards as server-sent events: one `board` event per board with a clock
/// (its state now), then one per change. Not resumable by position: a reconnection gets
/// every board's state again. Access: the rules of `GetPairings` and `WatchBoard`.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/rounds/{round}/live", tag = "live",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = u32, Path, description = "a published round"),
           ("limit" = Option<u32>, Query, description = "end after this many board events (default: never)")),
    responses((status = 200, description = "text/event-stream: `event: board`, `data` the board (JSON) with `server_now_ms`, the server's time when sent", body = LiveBoardJson, content_type = "text/event-stream"),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, description = "no such tournament, the round not published, or no clock service in this host", body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub(crate) async fn api_live(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["limit"])?;
        let limit: u64 = q.number("limit")?;
        let Some(live) = app.live.clone() else {
            return Err(st(Status::not_found(
                "live boards: this host runs no clock-telemetry service",
            )));
        };
        let (t, view) = app.live_round(&headers, &id, &round).await?;
        let boards: Vec<u32> = view.boards.iter().map(|b| b.board).collect();
        // Subscribed before the states are read, so that no change falls between them.
        let updates = live.updates(&t.tournament_id);
        let states = app
            .clocks(&headers, &t.tournament_id, view.round, &boards)
            .await?;
        let mut follow = Follow {
            app: app.clone(),
            headers: headers.clone(),
            tournament_id: t.tournament_id.clone(),
            round: view.round,
            watched: boards.iter().copied().collect(),
            boards,
            updates,
            queued: VecDeque::new(),
            shutdown: app.shutdown.clone(),
            left: (limit > 0).then_some(limit),
        };
        follow.queue(&states);
        let stream = futures::stream::unfold(follow, |mut f| async move {
            let next = f.next().await?;
            Some((Ok::<_, std::io::Error>(next), f))
        });
        let mut r = Response::new(Body::from_stream(stream));
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        Ok(r)
    }
    .await;
    api_answer(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_moves_are_written_as_boards_show_them() {
        assert_eq!(clock_text(0), "0:00");
        assert_eq!(clock_text(59_999), "0:59");
        assert_eq!(clock_text(5_400_000), "1:30:00");
        assert_eq!(clock_text(3_599_000), "59:59");
        assert_eq!(last_move_text(&[]), "");
        let m: Vec<String> = ["e4", "e5", "Nf3"].iter().map(|s| s.to_string()).collect();
        assert_eq!(last_move_text(&m[..1]), "1. e4");
        assert_eq!(last_move_text(&m[..2]), "1… e5");
        assert_eq!(last_move_text(&m), "2. Nf3");
    }

    #[test]
    fn the_running_clock_goes_down_from_its_reading_and_never_below_zero() {
        let s = pb::ClockState {
            board: 3,
            round: 2,
            started: true,
            side_to_move: "black".into(),
            white_ms: 60_000,
            black_ms: 5_000,
            as_of_ms: 1_000,
            moves_san: vec!["d4".into()],
            ..Default::default()
        };
        let b = LiveBoardJson::of(&s);
        assert!(b.running);
        assert_eq!(b.remaining_at(3_000), (60_000, 3_000));
        assert_eq!(b.remaining_at(99_000), (60_000, 0));
        assert_eq!(b.remaining_at(500), (60_000, 5_000));
        let ended = LiveBoardJson::of(&pb::ClockState {
            result: "1-0".into(),
            ..s.clone()
        });
        assert!(!ended.running);
        assert_eq!(ended.remaining_at(3_000), (60_000, 5_000));
        let f = frame(&b, 1_234);
        assert!(f.starts_with("event: board\ndata: {\"server_now_ms\":1234,\"board\":3,"));
        assert!(
            f.ends_with("}\n\n") && f.matches('\n').count() == 3,
            "{f:?}"
        );
    }
}
