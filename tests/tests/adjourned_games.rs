//! Issue 46 through the real `arbiterd` and CLI: Chess960 boards (Guidelines II) opened by
//! number and by lot, rebuilt from the log after a restart; an adjourned game (Guidelines
//! I): its sealed move hidden from a viewer, the next round paired meanwhile with the game as
//! a draw (C.04.2 3.1), the game resumed and finished, its result in the standings.
use std::path::Path;

use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::telemetry::Item;
use arbiter_proto::v1::{
    ClockStartedIn, ClockState, CommandMeta, GetClockStateRequest, GetSealedMoveRequest, MoveIn,
    OpenBoardRequest, ResignIn, Telemetry, TelemetryReply, telemetry_reply::Outcome,
};
use arbiter_tests::{Arbiter, output_text, start_arbiterd};
use tonic::transport::Channel;

fn admin_token(data: &Path) -> String {
    let t = std::fs::read_to_string(data.join("admin.token")).unwrap();
    t.lines()
        .find_map(|l| l.strip_prefix("admin "))
        .unwrap()
        .trim()
        .to_owned()
}

fn authed<T>(token: &str, body: T) -> tonic::Request<T> {
    let mut r = tonic::Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn open(id: &str, board: u32, variant: &str, start: &str, lot: bool) -> OpenBoardRequest {
    OpenBoardRequest {
        meta: Some(CommandMeta {
            command_id: format!("open-{id}-{board}-{variant}-{start}-{lot}"),
            ..Default::default()
        }),
        tournament_id: id.into(),
        board,
        round: 1,
        time_control: "5400+30".into(),
        white: format!("white {board}"),
        black: format!("black {board}"),
        auto_apply_results: true,
        variant: variant.into(),
        start_position: start.into(),
        draw_by_lot: lot,
        ..Default::default()
    }
}

/// Telemetry without a device stamp: applied at the server's time (ADR clock-007).
fn item(id: &str, board: u32, seq: u64, item: Item) -> Telemetry {
    Telemetry {
        tournament_id: id.into(),
        board,
        device_id: format!("dgt-{board}"),
        seq,
        at_ms: None,
        item: Some(item),
        ..Default::default()
    }
}

fn mv(san: &str) -> Item {
    Item::Move(MoveIn {
        san: san.as_bytes().to_vec(),
        uci: String::new(),
    })
}

/// Sends items on one telemetry stream; every one must be accepted.
async fn send(clock: &mut ClockServiceClient<Channel>, token: &str, items: Vec<Telemetry>) {
    let n = items.len();
    let replies = clock
        .board_telemetry(authed(token, futures::stream::iter(items)))
        .await
        .unwrap()
        .into_inner();
    let replies: Vec<TelemetryReply> = futures::StreamExt::collect::<Vec<_>>(replies)
        .await
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(replies.len(), n);
    for r in replies {
        assert!(
            matches!(r.outcome, Some(Outcome::Accepted(_))),
            "{:?}",
            r.outcome
        );
    }
}

async fn state(
    clock: &mut ClockServiceClient<Channel>,
    token: &str,
    id: &str,
    board: u32,
) -> Result<ClockState, tonic::Status> {
    clock
        .get_clock_state(authed(
            token,
            GetClockStateRequest {
                tournament_id: id.into(),
                board,
            },
        ))
        .await
        .map(|r| r.into_inner())
}

fn tournament(a: &Arbiter, name: &str) -> String {
    let t = a.json(&["tournament", "create", "--name", name, "--rounds", "3"]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, r) in [
        ("Alpha, Ann", "2200"),
        ("Bravo, Ben", "2100"),
        ("Charlie, Cy", "2000"),
        ("Delta, Di", "1900"),
    ] {
        a.ok(&["player", "add", &id, "--name", name, "--rating", r]);
    }
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess960_boards_by_number_and_by_lot_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (a, mut d) = Arbiter::embedded(dir.path(), |_| {});
    let id = tournament(&a, "Freestyle Open");
    let token = admin_token(&a.data);
    let url = format!("http://127.0.0.1:{}", a.port);
    let mut clock = ClockServiceClient::connect(url.clone()).await.unwrap();

    // Bad starts are refused naming the field
    for (variant, start, lot, field) in [
        ("chess960", "960", false, "start_position"),
        ("chess960", "rnbqkbnr/pppppppp/8/8", false, "start_position"),
        ("chess960", "518", true, "start_position"),
        ("standard", "518", false, "start_position"),
        ("crazyhouse", "", false, "variant"),
    ] {
        let e = clock
            .open_board(authed(&token, open(&id, 1, variant, start, lot)))
            .await
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{variant} {start}");
        assert!(e.message().starts_with(field), "{}", e.message());
    }

    // Board 1 by number: 959 = RKRNNQBB
    let s = clock
        .open_board(authed(&token, open(&id, 1, "Chess960", "959", false)))
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!(
        (s.variant.as_str(), s.chess960_number),
        ("chess960", Some(959))
    );
    assert_eq!(
        s.fen,
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"
    );
    // Board 2 drawn by lot: a number of the table, its position
    let lot = clock
        .open_board(authed(&token, open(&id, 2, "chess960", "", true)))
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let n = lot.chess960_number.expect("a number");
    assert!(n < 960);
    assert_eq!(
        lot.start_fen,
        clock::laws::StartPosition::from_number(n).unwrap().fen()
    );

    // Board 1: play up to White's O-O sent as UCI king-takes-rook
    let mut items = vec![item(&id, 1, 1, Item::ClockStarted(ClockStartedIn {}))];
    let moves = [
        "d3", "d6", "Nc3", "Nc6", "Nf3", "Nf6", "e3", "e6", "Qe2", "Qe7", "g3", "g6", "Bg2", "Bg7",
        "h3", "h6", "Bh2", "Bh7",
    ];
    for (i, m) in moves.iter().enumerate() {
        items.push(item(&id, 1, 2 + i as u64, mv(m)));
    }
    items.push(item(
        &id,
        1,
        100,
        Item::Move(MoveIn {
            san: Vec::new(),
            uci: "b1c1".into(),
        }),
    ));
    items.push(item(&id, 1, 101, mv("O-O")));
    send(&mut clock, &token, items).await;
    let before = state(&mut clock, &token, &id, 1).await.unwrap();
    assert_eq!(before.moves_san.last().map(String::as_str), Some("O-O"));
    assert!(before.fen.starts_with("r4rk1/"), "{}", before.fen);
    assert!(before.fen.contains("/R4RK1 w"), "{}", before.fen);
    assert!(
        before.pgn.contains("[Variant \"Chess960\"]"),
        "{}",
        before.pgn
    );
    assert!(before.pgn.contains("[SetUp \"1\"]"));

    // The boards are folds of the log: a restart gives the same answer
    d.kill9();
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let mut clock = ClockServiceClient::connect(url).await.unwrap();
    let after = state(&mut clock, &token, &id, 1).await.unwrap();
    assert_eq!(after.fen, before.fen);
    assert_eq!(after.moves_san, before.moves_san);
    let lot_after = state(&mut clock, &token, &id, 2).await.unwrap();
    assert_eq!(lot_after.chess960_number, Some(n));
    assert_eq!(lot_after.fen, lot.fen);
    let pgn = a.ok(&["clock", "pgn", &id, "1"]);
    assert!(
        pgn.contains("O-O") && pgn.contains("[Variant \"Chess960\"]"),
        "{pgn}"
    );
}

/// The points of pairing number `tpn` in `arbiter standings --json`.
fn points(standings: &serde_json::Value, tpn: u64) -> String {
    let rows = standings["rows"]
        .as_array()
        .or_else(|| standings["standings"].as_array())
        .unwrap_or_else(|| panic!("{standings}"));
    let row = rows
        .iter()
        .find(|r| r["tpn"].as_u64() == Some(tpn) || r["pairing_number"].as_u64() == Some(tpn))
        .unwrap_or_else(|| panic!("no {tpn} in {standings}"));
    match &row["points"] {
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adjourned_game_is_hidden_paired_as_a_draw_resumed_and_scored() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |_| {});
    let id = tournament(&a, "Adjournment Open");
    let token = admin_token(&a.data);
    let mut clock = ClockServiceClient::connect(format!("http://127.0.0.1:{}", a.port))
        .await
        .unwrap();
    a.ok(&["access", "add", "Vera Viewer"]);
    a.ok(&["access", "grant", "Vera Viewer", "--role", "viewer"]);
    let vera = a.json(&["access", "token", "Vera Viewer"])["token"]
        .as_str()
        .unwrap()
        .to_owned();

    let round1 = a.json(&["round", "show", &id, "1"]);
    let tpn = |board: usize, side: &str| round1["boards"][board][side].as_u64().unwrap();
    let (w1, b1) = (tpn(0, "white_tpn"), tpn(0, "black_tpn"));

    // Board 1: 1. e4 e5 2. Nf3, then Black seals and the arbiter adjourns
    clock
        .open_board(authed(&token, open(&id, 1, "", "", false)))
        .await
        .unwrap();
    let mut items = vec![item(&id, 1, 1, Item::ClockStarted(ClockStartedIn {}))];
    for (i, m) in ["e4", "e5", "Nf3"].iter().enumerate() {
        items.push(item(&id, 1, 2 + i as u64, mv(m)));
    }
    send(&mut clock, &token, items).await;
    // only the player having the move seals; the refusal is in the CLI's words
    let wrong = a.refused(&[
        "clock",
        "adjourn",
        &id,
        "1",
        "--sealed-by",
        "white",
        "--move",
        "Bc4",
    ]);
    assert!(
        wrong.contains("--sealed-by") && wrong.contains("I.1.1"),
        "{wrong}"
    );
    let adjourned = a.ok(&[
        "clock",
        "adjourn",
        &id,
        "1",
        "--sealed-by",
        "black",
        "--move",
        "Nc6",
    ]);
    assert!(adjourned.contains("game adjourned"), "{adjourned}");
    assert!(!adjourned.contains("Nc6"), "{adjourned}");

    // A viewer sees the adjournment, not the sealed move
    let seen = state(&mut clock, &vera, &id, 1).await.unwrap();
    assert_eq!(seen.adjournment, "adjourned");
    assert_eq!(seen.sealed_by, "black");
    assert_eq!(seen.moves_san, ["e4", "e5", "Nf3"]);
    assert!(!seen.pgn.contains("Nc6"), "{}", seen.pgn);
    assert_eq!(seen.flag_instant_ms, None, "no clock runs while adjourned");
    let denied = clock
        .get_sealed_move(authed(
            &vera,
            GetSealedMoveRequest {
                tournament_id: id.clone(),
                board: 1,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied);
    // the arbiter does
    let sealed = a.ok(&["clock", "sealed", &id, "1"]);
    assert!(sealed.contains("black sealed move 2: Nc6"), "{sealed}");
    // nothing but the resumption, a draw or a resignation while adjourned
    let e = {
        let replies = clock
            .board_telemetry(authed(
                &token,
                futures::stream::iter(vec![item(&id, 1, 50, mv("Nc6"))]),
            ))
            .await
            .unwrap()
            .into_inner();
        futures::StreamExt::collect::<Vec<_>>(replies).await
    };
    assert!(
        matches!(&e[0].as_ref().unwrap().outcome, Some(Outcome::Rejected(r)) if r.message.contains("adjourned")),
        "{e:?}"
    );

    // Board 2 ends normally; board 1 is pending in results
    a.ok(&["result", "set", &id, "1", "2", "1-0"]);
    let shown = a.json(&["result", "show", &id, "1"]);
    assert_eq!(shown["boards"][0]["adjourned"], true, "{shown}");
    assert_eq!(shown["boards"][0]["result"], "");
    assert_eq!(shown["boards"][1]["adjourned"], false);
    let text = a.ok(&["result", "show", &id, "1"]);
    assert!(
        text.contains("board 1: adjourned: result pending"),
        "{text}"
    );

    // Round 2 is paired meanwhile: the adjourned game is a draw for pairing (C.04.2 3.1)
    let export = dir.path().join("before-2.trf");
    a.ok(&[
        "tournament",
        "export",
        &id,
        "--round",
        "1",
        "--engine-lines",
        "--output",
        export.to_str().unwrap(),
    ]);
    let trf = std::fs::read_to_string(&export).unwrap();
    assert!(
        trf.contains("### adjourned: round 1 board 1, result pending"),
        "{trf}"
    );
    for tpn in [w1, b1] {
        let line = trf
            .lines()
            .find(|l| l.starts_with("001") && l[4..8].trim() == tpn.to_string())
            .unwrap();
        assert!(line.trim_end().ends_with('='), "{line}");
    }
    let paired = a.json(&["round", "pair", &id, "2"]);
    let service: Vec<(u64, u64)> = paired["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["white_tpn"].as_u64().unwrap(),
                b["black_tpn"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut engine = a.engine_pairs(dir.path(), &id, 2, &[]);
    engine.retain(|p| p.1 != 0);
    assert_eq!(
        service, engine,
        "the service pairs round 2 as the engine does"
    );
    a.ok(&["round", "publish", &id, "2"]);
    // Standings: the result is pending, not a draw: round 1 is not finished yet
    let pending = a.refused(&["standings", &id, "--round", "1"]);
    assert!(pending.contains("no result yet"), "{pending}");

    // Resumption: the sealed move is played, White's clock runs with the recorded times
    let resumed = a.json(&["clock", "resume", &id, "1"]);
    assert_eq!(resumed["adjournment"], "", "{resumed}");
    assert_eq!(resumed["side_to_move"], "white");
    let seen = state(&mut clock, &vera, &id, 1).await.unwrap();
    assert_eq!(seen.moves_san, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(seen.flag_instant_ms.is_some());
    // White resigns: the clock reports 0-1, applied (auto_apply), into the standings
    send(
        &mut clock,
        &token,
        vec![item(
            &id,
            1,
            60,
            Item::Resign(ResignIn {
                side: "white".into(),
            }),
        )],
    )
    .await;
    let mut shown = serde_json::Value::Null;
    for _ in 0..100 {
        shown = a.json(&["result", "show", &id, "1"]);
        if shown["boards"][0]["result"] == "0-1" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(shown["boards"][0]["result"], "0-1", "{shown}");
    assert_eq!(shown["boards"][0]["adjourned"], false, "{shown}");
    let st = a.json(&["standings", &id, "--round", "1"]);
    assert_eq!(points(&st, w1), "0", "{st}");
    let one = points(&st, b1);
    assert!(one == "1" || one == "1.0", "{st}");
    let o = a.run(&["clock", "pgn", &id, "1"]);
    let pgn = output_text(&o);
    assert!(
        pgn.contains("2. Nf3 {[%clk") && pgn.contains("Nc6 {[%clk") && pgn.contains("0-1"),
        "{pgn}"
    );
}
