//! Guidelines II through the game and the PGN replay: real Chess960 games (tests/data,
//! see PROVENANCE.md) replayed with their `[%clk]` without a rejected move, castling on
//! both wings; a game opened from a number, played, written as PGN and read back.

use clock::laws::{
    Effect, Game, GameConfig, GameEvent, MoveText, StartPosition, Variant, draw_by_lot,
};
use clock::pgn_replay::{DeviceAnomaly, ReplayOptions, read_pgn, replay_pgn};
use clock::{TimeControl, TimeControlTag};

const FREESTYLE: &[u8] = include_bytes!("data/chess960-freestyle-2025-lichess-broadcasts-clk.pgn");

fn tc(s: &str) -> TimeControl {
    match TimeControlTag::parse(s).unwrap() {
        TimeControlTag::Timed(t) => t,
        _ => panic!("timed"),
    }
}

/// The broadcasts' tags say 90+30 / 25+30 meaning minutes: the replay is given the real
/// controls, as an arbiter would.
fn replay(control: &str, game: usize) -> clock::pgn_replay::GameReplay {
    let opts = ReplayOptions {
        time_control: Some(tc(control)),
        ..ReplayOptions::default()
    };
    replay_pgn(FREESTYLE, &opts).unwrap().remove(game)
}

#[test]
fn real_chess960_games_replay_with_their_clocks_without_a_rejected_move() {
    let recorded = read_pgn(FREESTYLE).unwrap();
    assert_eq!(recorded.len(), 3);
    for (i, control) in [(0, "5400+30"), (1, "5400+30"), (2, "1500+30")] {
        let g = replay(control, i);
        assert_eq!(g.game.config().variant, Variant::Chess960, "game {i}");
        assert!(
            !g.anomalies.iter().any(|a| matches!(
                a,
                DeviceAnomaly::IllegalMove { .. } | DeviceAnomaly::MovesAfterEnd { .. }
            )),
            "game {i}: {:?}",
            g.anomalies
        );
        assert_eq!(g.moves.len(), recorded[i].moves.len(), "game {i}");
        // resignations: the Laws see no end in the moves
        assert_eq!(g.laws_end, None, "game {i}");
        // the computed clock follows the readings (whole seconds) on nine moves in ten; the
        // rest are the broadcast's own jumps, reported as anomalies, never a verdict
        let read: Vec<u64> = g.moves.iter().filter_map(|m| m.deviation_ms).collect();
        let close = read.iter().filter(|d| **d <= 1_000).count();
        assert!(
            close * 10 >= read.len() * 9,
            "game {i}: {close} of {}",
            read.len()
        );
    }
    // Carlsen–Hillermann 14...O-O-O: king b8 → c8, rook a8 → d8 (they cross)
    let g = replay("5400+30", 0);
    let ply = g.game.plies().iter().find(|p| p.san == "O-O-O").unwrap();
    assert_eq!(ply.uci, "b8a8", "Chess960 UCI: the king takes its rook");
    // Koehler–Erigaisi 21.O-O-O by White (the g-rook had moved: only the a-rook's right left)
    let g = replay("5400+30", 1);
    assert!(
        g.game
            .plies()
            .iter()
            .any(|p| p.san == "O-O-O" && p.uci == "b1a1")
    );
    // Rieling–Donchenko: O-O on both sides (king e1 → g1, rook h1 → f1), under a
    // `[Variant "Standard"]` tag that the FEN contradicts: read as Chess960 and reported
    let g = replay("1500+30", 2);
    let castles: Vec<&str> = g
        .game
        .plies()
        .iter()
        .filter(|p| p.san == "O-O")
        .map(|p| p.uci.as_str())
        .collect();
    assert_eq!(castles, ["e8h8", "e1h1"]);
    assert!(
        g.anomalies
            .iter()
            .any(|a| matches!(a, DeviceAnomaly::VariantTag { tag, .. } if tag == "Standard")),
        "{:?}",
        g.anomalies
    );
}

#[test]
fn the_replayed_pgn_names_the_variant_and_start_and_reads_back_the_same() {
    let g = replay("5400+30", 1);
    let pgn = g.to_pgn();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[FEN \"rkbnnbrq/pppppppp/8/8/8/8/PPPPPPPP/RKBNNBRQ w KQkq - 0 1\"]"));
    let again = replay_pgn(pgn.as_bytes(), &ReplayOptions::default()).unwrap();
    let sans = |g: &clock::pgn_replay::GameReplay| -> Vec<String> {
        g.game.plies().iter().map(|p| p.san.clone()).collect()
    };
    assert_eq!(sans(&again[0]), sans(&g));
    assert_eq!(again[0].game.fen(), g.game.fen());
}

/// II.1: the same Laws: a Chess960 game from a number, castling in UCI (king-to-rook) and
/// in SAN, a repetition counted as in 9.2, exported with `[Variant]`, `[SetUp]`, `[FEN]`.
#[test]
fn ii_1_a_game_from_a_number_is_played_by_the_ordinary_laws() {
    // 959 = RKRNNQBB: king b1 between the rooks a1 and c1; O-O takes the c-rook to f1
    let start = StartPosition::from_number(959).unwrap();
    assert_eq!(start.first_rank_letters(), "RKRNNQBB");
    let mut g = Game::new(GameConfig::chess960(tc("300+2"), start)).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    let mut at = 0;
    let mut play = |g: &mut Game, mv: &str| {
        at += 1_000;
        let b = mv.as_bytes();
        let text = if mv.len() == 4 && b[1].is_ascii_digit() && b[3].is_ascii_digit() {
            MoveText::Uci(mv.into())
        } else {
            MoveText::San(mv.into())
        };
        g.apply(&GameEvent::Move { at, mv: text })
    };
    for (w, b) in [("d3", "d6"), ("Nc3", "Nc6"), ("Nf3", "Nf6"), ("e3", "e6")] {
        play(&mut g, w).unwrap();
        play(&mut g, b).unwrap();
    }
    // the queen and bishops still on f1, g1, h1: O-O is not possible (II.3.2.7)
    assert!(play(&mut g, "O-O").is_err());
    for (w, b) in [
        ("Qe2", "Qe7"),
        ("g3", "g6"),
        ("Bg2", "Bg7"),
        ("h3", "h6"),
        ("Bh2", "Bh7"),
    ] {
        play(&mut g, w).unwrap();
        play(&mut g, b).unwrap();
    }
    // d1–g1 empty: O-O sent as UCI king-takes-rook, b1c1; king g1, rook f1 (II.3.2.6)
    let fx = play(&mut g, "b1c1").unwrap();
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::MovePlayed { san, uci, .. } if san == "O-O" && uci == "b1c1")
        ),
        "{fx:?}"
    );
    assert!(g.fen().contains("/R4RK1 b"), "{}", g.fen());
    let fx = play(&mut g, "O-O").unwrap();
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::MovePlayed { uci, .. } if uci == "b8c8")),
        "{fx:?}"
    );
    assert!(g.fen().starts_with("r4rk1/"), "{}", g.fen());
    // a sensor board's king-to-final-square form is read when it can mean nothing else
    let start = StartPosition::from_number(959).unwrap();
    let mut h = Game::new(GameConfig::chess960(tc("300+2"), start)).unwrap();
    h.apply(&GameEvent::Start { at: 0 }).unwrap();
    for (i, m) in g.plies()[..18].iter().enumerate() {
        h.apply(&GameEvent::Move {
            at: 1_000 * (i as u64 + 1),
            mv: MoveText::Uci(m.uci.clone()),
        })
        .unwrap();
    }
    let fx = h
        .apply(&GameEvent::Move {
            at: 30_000,
            mv: MoveText::Uci("b1g1".into()),
        })
        .unwrap();
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::MovePlayed { san, uci, .. } if san == "O-O" && uci == "b1c1")
        ),
        "{fx:?}"
    );
    // 9.2.3 unchanged: knights out and back twice, the position occurs a third time
    for _ in 0..2 {
        for m in ["Nb1", "Nb8", "Nc3", "Nc6"] {
            play(&mut g, m).unwrap();
        }
    }
    assert_eq!(g.repetitions(), 3);
    let pgn = g.to_pgn(&[("Event".into(), "test".into())]);
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"));
    assert!(pgn.contains("[FEN \"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\"]"));
    let back = replay_pgn(pgn.as_bytes(), &ReplayOptions::default()).unwrap();
    assert_eq!(back[0].game.plies().len(), g.plies().len());
    assert_eq!(back[0].game.fen(), g.fen());
    // a lot's seed reproduces its position
    assert_eq!(draw_by_lot(2026), draw_by_lot(2026));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any position drawn by lot, random legal play: the moves as the service stores
        /// them (UCI, king-to-rook castling) rebuild the same game, and the game's PGN
        /// replays to the same position (the fold and the export agree).
        #[test]
        fn chess960_games_rebuild_from_their_uci_and_their_pgn(
            seed in any::<u64>(),
            picks in proptest::collection::vec(any::<u16>(), 0..120),
        ) {
            let start = draw_by_lot(seed);
            let cfg = GameConfig::chess960(tc("300+2"), start);
            let mut g = Game::new(cfg.clone()).unwrap();
            g.apply(&GameEvent::Start { at: 0 }).unwrap();
            for (i, p) in picks.iter().enumerate() {
                if g.end().is_some() {
                    break;
                }
                let legal = g.legal_moves_uci();
                let uci = legal[usize::from(*p) % legal.len()].clone();
                g.apply(&GameEvent::Move { at: 100 * (i as u64 + 1), mv: MoveText::Uci(uci) })
                    .unwrap();
            }
            let mut again = Game::new(cfg).unwrap();
            again.apply(&GameEvent::Start { at: 0 }).unwrap();
            for (i, p) in g.plies().iter().enumerate() {
                again
                    .apply(&GameEvent::Move { at: 100 * (i as u64 + 1), mv: MoveText::Uci(p.uci.clone()) })
                    .unwrap();
            }
            prop_assert_eq!(again.fen(), g.fen());
            prop_assert_eq!(again.end(), g.end());
            let back = replay_pgn(g.to_pgn(&[]).as_bytes(), &ReplayOptions::default()).unwrap();
            prop_assert_eq!(back[0].game.fen(), g.fen());
            prop_assert_eq!(back[0].game.plies().len(), g.plies().len());
        }
    }
}
