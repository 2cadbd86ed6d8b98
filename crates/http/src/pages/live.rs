//! The live boards of a round (`/t/{id}/rounds/{r}/live`, ADR http-009): every board of
//! the published pairing with both players, each clock and the last move as the clock
//! service had them when the page was made. A small script (`/static/live.js`, served
//! from [`crate::live::LIVE_JS`]) then follows `/api/v1/tournaments/{id}/rounds/{r}/live`
//! and updates the cells; without it the page is a snapshot that a reload refreshes.
use std::collections::HashMap;

use arbiter_proto::v1::{RoundPairingView, Tournament};
use serde::Serialize;

use super::{PageError, Players, SideView, Site, Tab, display_result, frame, render, side_of};
use crate::i18n::word_n;
use crate::live::{LiveBoardJson, clock_text};

#[derive(Serialize)]
struct Row {
    board: u32,
    white: SideView,
    black: SideView,
    /// Whether the board has a clock of this round.
    clocked: bool,
    white_clock: String,
    black_clock: String,
    /// "white" / "black" while that clock runs, else empty.
    running: String,
    moves: u32,
    last_move: String,
    result: String,
}

/// The live page of `view`'s round: `states` holds the clock of each board that has one
/// for this round, `now_ms` is when the page is made (a running clock is shown as it
/// stands then).
pub fn live_page(
    site: &Site,
    t: &Tournament,
    view: &RoundPairingView,
    states: &HashMap<u32, LiveBoardJson>,
    players: &Players,
    now_ms: u64,
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct C {
        published: bool,
        stream: String,
        rows: Vec<Row>,
    }
    let tid = &t.tournament_id;
    let none = HashMap::new();
    let side = |id: &str, tpn: u32| side_of(site, tid, players, id, tpn, &none, view.round);
    let rows = view
        .boards
        .iter()
        .map(|b| {
            let s = states.get(&b.board);
            let (w, k) = s.map_or((0, 0), |s| s.remaining_at(now_ms));
            Row {
                board: b.board,
                white: side(&b.white_id, b.white_tpn),
                black: side(&b.black_id, b.black_tpn),
                clocked: s.is_some(),
                white_clock: s.map(|_| clock_text(w)).unwrap_or_default(),
                black_clock: s.map(|_| clock_text(k)).unwrap_or_default(),
                running: s
                    .filter(|s| s.running)
                    .map(|s| s.side_to_move.clone())
                    .unwrap_or_default(),
                moves: s.map_or(0, |s| s.moves),
                last_move: s.map(|s| s.last_move.clone()).unwrap_or_default(),
                result: s.map(|s| display_result(&s.result)).unwrap_or_default(),
            }
        })
        .collect();
    render(
        "live.html",
        frame(
            site,
            Some(t),
            word_n(site.lang, "live_round", view.round),
            Tab::Live(view.round),
        ),
        C {
            published: view.published,
            stream: format!("/api/v1/tournaments/{tid}/rounds/{}/live", view.round),
            rows,
        },
    )
}
