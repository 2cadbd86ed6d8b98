//! The per-tournament event index (ADR registry-003) gives the same answers as a scan of
//! the whole log: every event of a tournament, its record as of every position, and one
//! game's history — on a log where two tournaments and another stream interleave.
use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent, RecordedEvent};
use arbiter_proto::v1::{
    PairedBoard, PairingsPublished, PlayerAdded, PlayerData, ResultCorrected, ResultRecorded,
    RoundPaired, TournamentCreated,
};
use arbiter_registry::projection::{self, Tournaments};
use arbiter_registry::roster::RosterEvent;
use prost::Message;

async fn append(store: &EventStore, stream: &str, service: &str, events: Vec<(&str, Vec<u8>)>) {
    let n = store.stream_version(stream).await.unwrap();
    store
        .append(AppendRequest {
            stream: stream.into(),
            expected_version: Some(n),
            events: events
                .into_iter()
                .map(|(t, payload)| NewEvent {
                    event_type: t.into(),
                    schema_version: 1,
                    payload,
                })
                .collect(),
            context: CommandContext {
                command_id: uuid::Uuid::new_v4().to_string(),
                actor: "test".into(),
                service: service.into(),
                ..Default::default()
            },
        })
        .await
        .unwrap();
}

fn roster(e: RosterEvent) -> (&'static str, Vec<u8>) {
    e.encode()
}

fn positions(events: &[RecordedEvent]) -> Vec<i64> {
    events.iter().map(|e| e.global_position).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_answers_as_a_scan_of_the_log_does() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let store = EventStore::open(&url).await.unwrap();
    let ids = [
        "01a233ee-e702-7170-8eeb-aec14606c3ad",
        "01a233ee-e702-7170-8eeb-aec14606c3ae",
    ];
    for id in ids {
        append(
            &store,
            &format!("tournament-{id}"),
            "registry",
            vec![(
                "TournamentCreated",
                TournamentCreated {
                    tournament_id: id.into(),
                    name: format!("Open {id}"),
                    rounds: 5,
                    ..Default::default()
                }
                .encode_to_vec(),
            )],
        )
        .await;
    }
    for i in 1..=4 {
        for id in ids {
            append(
                &store,
                &format!("tournament-{id}"),
                "registry",
                vec![roster(RosterEvent::PlayerAdded(PlayerAdded {
                    player_id: format!("{id}-p{i}"),
                    data: Some(PlayerData {
                        name: format!("Player, No{i}"),
                        rating_standard: 2400 - 10 * i,
                        ..Default::default()
                    }),
                    joined_round: 1,
                    missed_rounds: "zero".into(),
                }))],
            )
            .await;
        }
        append(&store, "access", "access", vec![("Noise", vec![1, 2, 3])]).await;
    }
    for id in ids {
        let p = |i: u32| format!("{id}-p{i}");
        append(
            &store,
            &format!("pairing-{id}"),
            "pairing",
            vec![roster(RosterEvent::RoundPaired(RoundPaired {
                tournament_id: id.into(),
                round: 1,
                boards: vec![
                    PairedBoard {
                        board: 1,
                        white_id: p(1),
                        black_id: p(3),
                        white_tpn: 1,
                        black_tpn: 3,
                    },
                    PairedBoard {
                        board: 2,
                        white_id: p(4),
                        black_id: p(2),
                        white_tpn: 4,
                        black_tpn: 2,
                    },
                ],
                engine_made: true,
                ..Default::default()
            }))],
        )
        .await;
    }
    for id in ids {
        let p = |i: u32| format!("{id}-p{i}");
        append(
            &store,
            &format!("pairing-{id}"),
            "pairing",
            vec![roster(RosterEvent::PairingsPublished(PairingsPublished {
                tournament_id: id.into(),
                round: 1,
            }))],
        )
        .await;
        for (board, w, b) in [(1u32, 1, 3), (2, 4, 2)] {
            append(
                &store,
                &format!("results-{id}-r1-b{board}"),
                "results",
                vec![roster(RosterEvent::ResultRecorded(ResultRecorded {
                    tournament_id: id.into(),
                    round: 1,
                    board,
                    white_id: p(w),
                    black_id: p(b),
                    result: "1-0".into(),
                    white_code: "1".into(),
                    black_code: "0".into(),
                    source: "arbiter".into(),
                }))],
            )
            .await;
        }
    }
    append(
        &store,
        &format!("results-{}-r1-b1", ids[0]),
        "results",
        vec![roster(RosterEvent::ResultCorrected(ResultCorrected {
            tournament_id: ids[0].into(),
            round: 1,
            board: 1,
            white_id: format!("{}-p1", ids[0]),
            black_id: format!("{}-p3", ids[0]),
            result: "0-1".into(),
            white_code: "0".into(),
            black_code: "1".into(),
            ..Default::default()
        }))],
    )
    .await;

    let head = store.head_position().await.unwrap();
    let tournaments = Tournaments::start(store.clone());
    assert!(tournaments.caught_up(head).await);
    for id in ids {
        let scanned = projection::events_of(&store, id).await.unwrap();
        let indexed = tournaments.events_of(&store, id).await.unwrap();
        assert_eq!(indexed, scanned, "{id}");
        assert_eq!(scanned.len(), 1 + 4 + 2 + 2 + usize::from(id == ids[0]));
        for position in 0..=head {
            let a = projection::as_of(&store, id, position).await.unwrap();
            let b = tournaments.as_of(&store, id, position).await.unwrap();
            assert!(a == b, "{id} as of {position}: {a:?} != {b:?}");
        }
        // Board 1 of round 1: the round's pairing and publication, then its results.
        let game = tournaments.game_events(&store, id, 1, 1).await.unwrap();
        let want: Vec<i64> = scanned
            .iter()
            .filter(|e| {
                e.stream == format!("pairing-{id}") || e.stream == format!("results-{id}-r1-b1")
            })
            .map(|e| e.global_position)
            .collect();
        assert_eq!(positions(&game), want, "{id}");
        assert_eq!(game.len(), 3 + usize::from(id == ids[0]));
    }
    // A position list read back: in log order, duplicates and absent positions skipped.
    let some = store.read_positions(&[5, 3, 3, head + 10]).await.unwrap();
    assert_eq!(positions(&some), vec![3, 5]);
}

/// In the distributed mode each owner's events reach a service through their own mirror,
/// so the pairing service's `RoundPaired` can be in the results service's log before the
/// registry's `TournamentCreated` it follows (found by the JetStream-node-loss fault
/// test). The record folds it once the tournament is there (ADR registry-007), the same
/// record as when the events came in their causal order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pairing_copied_before_its_tournament_is_folded_once_the_tournament_arrives() {
    let id = "01a233ee-e702-7170-8eeb-aec14606c3af";
    let p = |i: u32| format!("{id}-p{i}");
    let pairing = || {
        roster(RosterEvent::RoundPaired(RoundPaired {
            tournament_id: id.into(),
            round: 1,
            boards: vec![PairedBoard {
                board: 1,
                white_id: p(1),
                black_id: p(2),
                white_tpn: 1,
                black_tpn: 2,
            }],
            system: "dutch".into(),
            ..Default::default()
        }))
    };
    let published = || {
        roster(RosterEvent::PairingsPublished(PairingsPublished {
            tournament_id: id.into(),
            round: 1,
        }))
    };
    let registry = |store: EventStore| async move {
        append(
            &store,
            &format!("tournament-{id}"),
            "registry",
            vec![(
                "TournamentCreated",
                TournamentCreated {
                    tournament_id: id.into(),
                    name: "Early Open".into(),
                    rounds: 5,
                    ..Default::default()
                }
                .encode_to_vec(),
            )],
        )
        .await;
        for i in 1..=2 {
            append(
                &store,
                &format!("tournament-{id}"),
                "registry",
                vec![roster(RosterEvent::PlayerAdded(PlayerAdded {
                    player_id: p(i),
                    data: Some(PlayerData {
                        name: format!("Player, No{i}"),
                        rating_standard: 2400 - 10 * i,
                        ..Default::default()
                    }),
                    joined_round: 1,
                    missed_rounds: "zero".into(),
                }))],
            )
            .await;
        }
    };
    let mut records = Vec::new();
    for pairing_first in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("log.db").display());
        let store = EventStore::open(&url).await.unwrap();
        let stream = format!("pairing-{id}");
        if pairing_first {
            append(&store, &stream, "pairing", vec![pairing(), published()]).await;
            registry(store.clone()).await;
        } else {
            registry(store.clone()).await;
            append(&store, &stream, "pairing", vec![pairing(), published()]).await;
        }
        let head = store.head_position().await.unwrap();
        let tournaments = Tournaments::start(store.clone());
        assert!(tournaments.caught_up(head).await);
        let (t, r) = tournaments
            .with_roster(id)
            .expect("the tournament is in the record");
        assert_eq!(
            (t.players, t.paired_rounds),
            (2, 1),
            "pairing first: {pairing_first}"
        );
        assert_eq!(r.entries.len(), 2);
        records.push((t.players, t.paired_rounds, t.version, r.paired_rounds));
    }
    assert_eq!(records[0], records[1]);
}
