//! Replays of real PGN fixtures (tests/data, see PROVENANCE.md) against the computed clock.

use clock::laws::{GameResult, Termination};
use clock::pgn_replay::{
    DeviceAnomaly, GameReplay, ReplayOptions, TimeControlSource, read_pgn, replay_pgn,
};
use clock::{TimeControl, TimeControlTag};

const CANDIDATES: &[u8] = include_bytes!("data/candidates-2024-toronto-clk.pgn");
const DGT: &[u8] = include_bytes!("data/dgt-livechess-sotra-2023-round1-clk-emt.pgn");
const BLITZ: &[u8] = include_bytes!("data/superunited-croatia-2022-saric-mvl-clk.pgn");

fn tc(s: &str) -> TimeControl {
    match TimeControlTag::parse(s).unwrap() {
        TimeControlTag::Timed(t) => t,
        _ => panic!("timed"),
    }
}

fn anomaly_ply(a: &DeviceAnomaly) -> u32 {
    match a {
        DeviceAnomaly::MissingClock { ply }
        | DeviceAnomaly::ClockJumpUp { ply, .. }
        | DeviceAnomaly::ReadingImpliesFlag { ply, .. }
        | DeviceAnomaly::EmtContradictsClk { ply, .. }
        | DeviceAnomaly::Resynchronised { ply, .. }
        | DeviceAnomaly::IllegalMove { ply, .. }
        | DeviceAnomaly::MovesAfterEnd { ply, .. } => *ply,
        DeviceAnomaly::VariantTag { .. } => u32::MAX,
    }
}

fn flagged(g: &GameReplay, ply: u32) -> bool {
    g.anomalies.iter().any(|a| anomaly_ply(a) == ply)
}

fn candidates(control: &str) -> Vec<GameReplay> {
    let opts = ReplayOptions {
        fallback_time_control: Some(tc(control)),
        ..ReplayOptions::default()
    };
    replay_pgn(CANDIDATES, &opts).unwrap()
}

fn player(g: &GameReplay, tag: &str) -> String {
    g.tags
        .iter()
        .find(|(k, _)| k == tag)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

#[test]
fn candidates_2024_computed_clock_within_one_second_of_every_trustworthy_reading() {
    let recorded = read_pgn(CANDIDATES).unwrap();
    let games = candidates("40/7200:1800+30");
    assert_eq!(games.len(), 56);
    assert_eq!(games[0].time_control_source, TimeControlSource::Fallback);
    assert_eq!(games[1].time_control_source, TimeControlSource::Tag);
    let mut checked = 0;
    for (g, rec) in games.iter().zip(&recorded) {
        let who = format!("{} - {}", player(g, "White"), player(g, "Black"));
        // every recorded move replayed, or the game ended by the Laws before
        let after_end = g
            .anomalies
            .iter()
            .filter(|a| matches!(a, DeviceAnomaly::MovesAfterEnd { .. }))
            .count();
        assert_eq!(
            g.moves.len() + after_end.min(1) * (rec.moves.len() - g.moves.len()),
            rec.moves.len(),
            "{who}"
        );
        assert!(
            !g.anomalies
                .iter()
                .any(|a| matches!(a, DeviceAnomaly::IllegalMove { .. })),
            "{who}"
        );
        for m in &g.moves {
            let Some(dev) = m.deviation_ms else {
                panic!("{who}: every Candidates move has a [%clk]");
            };
            if !flagged(g, m.ply) {
                assert!(dev <= 1_000, "{who} ply {}: deviation {dev} ms", m.ply);
                checked += 1;
            }
        }
    }
    assert!(checked > 5_100, "{checked}");
}

#[test]
fn candidates_2024_device_glitches_are_flagged_not_decisive() {
    let games = candidates("40/7200:1800+30");
    // Abasov - Nepomniachtchi, 6...dxc4 {[%clk 0:00:00]}: a glitch, the game went on
    let g = &games[1];
    assert!(g.anomalies.contains(&DeviceAnomaly::ReadingImpliesFlag {
        ply: 11,
        reading_ms: 0
    }));
    assert_eq!(g.laws_end, None, "a reading never makes a flag fall");
    assert_eq!(g.moves.len(), 67);
    // Gukesh - Nepomniachtchi: the relay added the 30 minutes on move 39, then lost them
    let g = games
        .iter()
        .find(|g| player(g, "White") == "Gukesh D" && player(g, "Black") == "Nepomniachtchi, Ian")
        .unwrap();
    assert!(
        g.anomalies
            .iter()
            .any(|a| matches!(a, DeviceAnomaly::ClockJumpUp { ply: 76, .. }))
    );
}

#[test]
fn candidates_2024_final_state_of_every_game() {
    let games = candidates("40/7200:1800+30");
    let mut dead = 0;
    for g in &games {
        match g.laws_end {
            None => {
                // resigned or agreed: the Laws see an ongoing game; the tag says the result
                assert!(
                    ["1-0", "0-1", "1/2-1/2"].contains(&g.result_tag.as_str()),
                    "{}",
                    g.result_tag
                );
                assert!(g.game.end().is_none());
            }
            Some(end) => {
                // Nakamura - Gukesh, round 13: 70...Bxe3 leaves K v K+B: dead position
                // (5.2.2), the recorded 71.Kxe3 came after the end of the game.
                assert_eq!(end.termination, Termination::DeadPosition);
                assert_eq!(end.result, GameResult::Draw);
                assert_eq!(g.result_agrees(), Some(true));
                assert_eq!(g.moves.len(), 140);
                assert!(g.anomalies.contains(&DeviceAnomaly::MovesAfterEnd {
                    ply: 140,
                    san: "Kxe3".into()
                }));
                dead += 1;
            }
        }
    }
    assert_eq!(dead, 1);
}

#[test]
fn candidates_2024_a_wrong_control_is_detected() {
    // Without the +30 s of the second period the readings after move 41 are too high.
    let wrong = |control: &str| {
        let opts = ReplayOptions {
            time_control: Some(tc(control)),
            ..ReplayOptions::default()
        };
        replay_pgn(CANDIDATES, &opts).unwrap()
    };
    let games = wrong("40/7200:1800");
    let jumps: usize = games
        .iter()
        .map(|g| {
            g.anomalies
                .iter()
                .filter(|a| matches!(a, DeviceAnomaly::ClockJumpUp { .. }))
                .count()
        })
        .sum();
    assert!(jumps > 100, "{jumps}");
    // Without the 30-minute second period, move 40 itself is impossible.
    // Without the 30-minute second period, the reading after each player's 40th move is
    // about 30 minutes too high in every game that reached it.
    let games = wrong("7200");
    let long: Vec<_> = games.iter().filter(|g| g.moves.len() >= 80).collect();
    assert!(long.len() > 30, "{}", long.len());
    for g in long {
        assert!(
            g.anomalies.iter().any(|a| match a {
                DeviceAnomaly::ClockJumpUp {
                    ply, excess_ms: x, ..
                }
                | DeviceAnomaly::Resynchronised { ply, by_ms: x } =>
                    (76..=79).contains(ply) && *x > 1_000_000,
                _ => false,
            }),
            "{}: {:?}",
            player(g, "White"),
            g.anomalies
        );
    }
}

#[test]
fn dgt_livechess_glitches_flagged_without_crash() {
    let games = replay_pgn(DGT, &ReplayOptions::default()).unwrap();
    assert_eq!(games.len(), 12);
    for g in &games {
        assert_eq!(g.time_control_source, TimeControlSource::FreeTextTag);
        assert_eq!(
            g.time_control,
            Some(TimeControl::fischer(900_000, 10_000).unwrap())
        );
    }
    // 1. c4 {[%clk 00:15:20]} {[%emt 00:53:26]}: the emt counts time before the game
    assert!(matches!(
        games[1].anomalies[0],
        DeviceAnomaly::EmtContradictsClk {
            ply: 0,
            emt_ms: 3_206_000,
            ..
        }
    ));
    // 2. b3 without [%clk]
    assert!(
        games[1]
            .anomalies
            .contains(&DeviceAnomaly::MissingClock { ply: 2 })
    );
    // Bothun - Traen, 18. Re2 {[%clk 00:00:00]}: ignored, then the clock resynchronised
    let g = &games[3];
    assert!(g.anomalies.contains(&DeviceAnomaly::ReadingImpliesFlag {
        ply: 34,
        reading_ms: 0
    }));
    assert!(g.anomalies.contains(&DeviceAnomaly::Resynchronised {
        ply: 36,
        by_ms: 36_000
    }));
    assert_eq!(g.laws_end, None);
    // after the resynchronisation every reading of the game is matched again
    for m in g.moves.iter().filter(|m| m.ply > 36) {
        if !flagged(g, m.ply) {
            assert!(m.deviation_ms.unwrap_or(0) <= 1_000, "ply {}", m.ply);
        }
    }
    // Gjersvik - Kjellevold ends 28. Rh8# but the tag says 1/2-1/2: reported, not "fixed"
    let g = &games[8];
    assert_eq!(
        g.laws_end.map(|e| e.termination),
        Some(Termination::Checkmate)
    );
    assert_eq!(g.laws_end.map(|e| e.result), Some(GameResult::WhiteWins));
    assert_eq!(g.result_tag, "1/2-1/2");
    assert_eq!(g.result_agrees(), Some(false));
    // five games end in mate on the board
    assert_eq!(
        games
            .iter()
            .filter(|g| g.laws_end.map(|e| e.termination) == Some(Termination::Checkmate))
            .count(),
        5
    );
}

#[test]
fn superunited_blitz_illegal_king_move_is_detected() {
    // 5 min + 2 s (Grand Chess Tour blitz); 63. Kd4 walked into the rook on b4.
    let opts = ReplayOptions {
        fallback_time_control: Some(tc("300+2")),
        ..ReplayOptions::default()
    };
    let games = replay_pgn(BLITZ, &opts).unwrap();
    let g = &games[0];
    assert_eq!(g.moves.len(), 124);
    assert!(
        g.anomalies
            .contains(&DeviceAnomaly::MissingClock { ply: 70 })
    );
    assert!(
        g.anomalies
            .iter()
            .any(|a| matches!(a, DeviceAnomaly::IllegalMove { ply: 124, san, .. } if san == "Kd4"))
    );
    for m in &g.moves {
        if !flagged(g, m.ply) {
            assert!(m.deviation_ms.unwrap_or(0) <= 1_000, "ply {}", m.ply);
        }
    }
}

#[test]
fn export_with_clk_reads_back() {
    let games = candidates("40/7200:1800+30");
    let g = &games[2];
    let pgn = g.to_pgn();
    let back = read_pgn(pgn.as_bytes()).unwrap();
    assert_eq!(back.len(), 1);
    let back = &back[0];
    assert_eq!(back.moves.len(), g.moves.len());
    for (b, m) in back.moves.iter().zip(&g.moves) {
        assert_eq!(b.san, m.san);
        assert_eq!(b.clk, Some(m.computed_ms / 1000 * 1000));
    }
    assert_eq!(back.tag("White"), Some("Firouzja, Alireza"));
}
