//! Clock-telemetry → results through the real `arbiterd`: a board's clock reports a
//! checkmate; on a board opened with `auto_apply_results` the results service records it
//! by itself (source "clock"), on the other the arbiter sees it and confirms it.
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::telemetry::Item;
use arbiter_proto::v1::{ClockStartedIn, CommandMeta, MoveIn, OpenBoardRequest, Telemetry};
use arbiter_tests::{output_text, run_cli, start_arbiterd};
use tonic::codegen::tokio_stream::wrappers::ReceiverStream;

fn ok(data: &Path, port: u16, args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let o = run_cli(data, port, &a);
    assert!(o.status.success(), "arbiter {args:?}: {}", output_text(&o));
    serde_json::from_slice(&o.stdout).expect("JSON")
}

fn authed<T>(data: &Path, body: T) -> tonic::Request<T> {
    let t = std::fs::read_to_string(data.join("admin.token")).unwrap();
    let token = t
        .lines()
        .find_map(|l| l.strip_prefix("admin "))
        .unwrap()
        .trim()
        .to_owned();
    let mut r = tonic::Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn item(tournament: &str, board: u32, seq: u64, at: u64, item: Item) -> Telemetry {
    Telemetry {
        tournament_id: tournament.into(),
        board,
        device_id: format!("dgt-{board}"),
        seq,
        at_ms: Some(at),
        white_ms: None,
        black_ms: None,
        item: Some(item),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_reported_result_is_applied_or_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let http = arbiter_testkit::free_port();
    let _d = start_arbiterd(&data, port, |c| {
        c.args(["--http-listen", &format!("127.0.0.1:{http}")]);
    });
    let t = ok(
        &data,
        port,
        &["tournament", "create", "--name", "Clocks", "--rounds", "3"],
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, r) in [
        ("A, a", "2200"),
        ("B, b", "2100"),
        ("C, c", "2000"),
        ("D, d", "1900"),
    ] {
        ok(
            &data,
            port,
            &["player", "add", &id, "--name", name, "--rating", r],
        );
    }
    ok(&data, port, &["round", "pair", &id, "1"]);
    ok(&data, port, &["round", "publish", &id, "1"]);

    let mut clock = ClockServiceClient::connect(format!("http://127.0.0.1:{port}"))
        .await
        .unwrap();
    for (board, auto_apply) in [(1u32, false), (2, true)] {
        clock
            .open_board(authed(
                &data,
                OpenBoardRequest {
                    meta: Some(CommandMeta {
                        command_id: format!("open-{board}"),
                        ..Default::default()
                    }),
                    tournament_id: id.clone(),
                    board,
                    round: 1,
                    time_control: "5400+30".into(),
                    white: String::new(),
                    black: String::new(),
                    laws_edition: "2023".into(),
                    auto_apply_results: auto_apply,
                    quickplay_guidelines: false,
                    supervision: String::new(),
                    variant: String::new(),
                    start_position: String::new(),
                    draw_by_lot: false,
                },
            ))
            .await
            .unwrap();
    }
    let (tx, items) = tokio::sync::mpsc::channel(16);
    let mut replies = clock
        .board_telemetry(authed(&data, ReceiverStream::new(items)))
        .await
        .unwrap()
        .into_inner();
    // The games were played in the last seconds: stamps ahead of the server's clock by
    // more than the tolerance would be refused (ADR clock-007).
    let t0 = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        - 10_000;
    for board in [1u32, 2] {
        let mut seq = 1;
        tx.send(item(
            &id,
            board,
            seq,
            t0,
            Item::ClockStarted(ClockStartedIn {}),
        ))
        .await
        .unwrap();
        replies.message().await.unwrap().unwrap();
        for (i, san) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
            seq += 1;
            let m = Item::Move(MoveIn {
                san: san.as_bytes().to_vec(),
                uci: String::new(),
            });
            tx.send(item(&id, board, seq, t0 + 1000 * (i as u64 + 1), m))
                .await
                .unwrap();
            replies.message().await.unwrap().unwrap();
        }
    }

    // Board 2 is applied by itself; board 1 waits for the arbiter.
    let mut shown = serde_json::Value::Null;
    for _ in 0..100 {
        shown = ok(&data, port, &["result", "show", &id, "1"]);
        if shown["boards"][1]["result"] == "0-1" && shown["boards"][0]["reported_result"] == "0-1" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(shown["boards"][1]["result"], "0-1", "{shown}");
    assert_eq!(shown["boards"][1]["source"], "clock");
    assert_eq!(shown["boards"][0]["reported_result"], "0-1", "{shown}");
    assert_eq!(
        shown["boards"][0]["result"], "",
        "board 1 waits for confirmation"
    );
    ok(&data, port, &["result", "confirm", &id, "1", "1"]);
    let shown = ok(&data, port, &["result", "show", &id, "1"]);
    assert_eq!(shown["boards"][0]["result"], "0-1");
    assert_eq!(shown["boards"][0]["source"], "clock");
    let h = ok(
        &data,
        port,
        &["result", "history", &id, "--round", "1", "--board", "2"],
    );
    let rec = h
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "ResultRecorded")
        .unwrap()
        .clone();
    assert_eq!(rec["actor"], "clock-telemetry", "{rec}");
    // The game as PGN, with the clock after every move.
    let o = run_cli(&data, port, &["clock", "pgn", &id, "1"]);
    assert!(o.status.success(), "{}", output_text(&o));
    let pgn = String::from_utf8_lossy(&o.stdout);
    assert!(
        pgn.contains("Qh4#") && pgn.contains("[%clk") && pgn.contains("0-1"),
        "{pgn}"
    );

    // The round as PGN over HTTP (issue 44), one game per board with the record's names
    // and the clock's moves: what a live broadcast reads.
    let token = std::fs::read_to_string(data.join("admin.token")).unwrap();
    let token = token
        .lines()
        .find_map(|l| l.strip_prefix("admin "))
        .unwrap()
        .trim()
        .to_owned();
    let bearer = format!("Bearer {token}");
    let round = arbiter_tests::http::get(
        http,
        &format!("/api/v1/tournaments/{id}/rounds/1/pgn"),
        &[("Authorization", bearer.as_str())],
    );
    assert_eq!(round.status, 200, "{}", round.text());
    assert_eq!(
        round.header("content-type"),
        Some("application/x-chess-pgn; charset=utf-8")
    );
    let text = round.text();
    assert_eq!(text.matches("[Event \"Clocks\"]").count(), 2, "{text}");
    for b in [
        "[Board \"1\"]",
        "[Board \"2\"]",
        "[Round \"1\"]",
        "[White \"A, a\"]",
    ] {
        assert!(text.contains(b), "{b} not in {text}");
    }
    assert_eq!(text.matches("Qh4#").count(), 2, "{text}");
    assert_eq!(text.matches("[Result \"0-1\"]").count(), 2, "{text}");
    assert!(text.contains("[%clk"), "{text}");
    // Not public: nothing without a token.
    let anonymous =
        arbiter_tests::http::get(http, &format!("/api/v1/tournaments/{id}/rounds/1/pgn"), &[]);
    assert_eq!(anonymous.status, 401, "{}", anonymous.text());

    // The round's live boards over SSE (ADR http-009): every board with a clock, as it
    // stands (the stream is told to end after two board events).
    let live_path = format!("/api/v1/tournaments/{id}/rounds/1/live?limit=2");
    let live = arbiter_tests::http::get(http, &live_path, &[("Authorization", bearer.as_str())]);
    assert_eq!(live.status, 200, "{}", live.text());
    assert_eq!(live.header("content-type"), Some("text/event-stream"));
    let boards: Vec<serde_json::Value> = live
        .text()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(live.text().matches("event: board\n").count(), 2);
    let mut numbers: Vec<u64> = boards
        .iter()
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2], "{}", live.text());
    for b in &boards {
        assert_eq!(b["round"], 1, "{b}");
        assert_eq!(b["moves"], 4, "{b}");
        assert_eq!(b["last_move"], "2… Qh4#", "{b}");
        assert_eq!(b["result"], "0-1", "{b}");
        assert_eq!(b["running"], false, "{b}");
        assert!(b["server_now_ms"].as_u64().unwrap() > 0, "{b}");
    }
    let anonymous = arbiter_tests::http::get(http, &live_path, &[]);
    assert_eq!(anonymous.status, 401, "{}", anonymous.text());
    // Public: the boards are public too (the PGN's moves, the live stream) without a token.
    ok(&data, port, &["access", "public", &id]);
    let public = arbiter_tests::http::get(http, &live_path, &[]);
    assert_eq!(public.status, 200, "{}", public.text());
    assert_eq!(public.text().matches("event: board\n").count(), 2);
    let pgn =
        arbiter_tests::http::get(http, &format!("/api/v1/tournaments/{id}/rounds/1/pgn"), &[]);
    assert_eq!(pgn.status, 200, "{}", pgn.text());
    assert_eq!(pgn.text().matches("Qh4#").count(), 2, "{}", pgn.text());
}
