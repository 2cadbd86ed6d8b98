//! Hand-worked examples from the rule text (C.07 2026 via fide-rules-2026.md §2, seed 000
//! "Systèmes de départage", seed 002 Solkoff). Every expected number is derived in the
//! comments.

mod common;
use common::*;
use tiebreak::*;

const P6: &[u32] = &[1, 2, 3, 4, 5, 6];

/// Event E1: 6-player Swiss, 4 rounds, 1/½/0, every unplayed-round category.
///
/// ```text
/// R1: 1-4 1-0; 2-5 =;   3-6 1-0
/// R2: 1-2 1-0; 3-5 +- (3 wins by forfeit); 4 HPB; 6 PAB
/// R3: 1-6 =;   2-3 0-1; 4-5 1-0
/// R4: 3-1 =;   2-6 1-0; 4 HPB; 5 withdrawn
/// ```
/// Scores: P1 3, P2 1.5, P3 3.5, P4 2, P5 0.5, P6 1.5.
/// Categories (16.2): P6 R2 PAB = .1; P3 R2 forfeit win = .2; P4 R2 HPB followed by a
/// game = .3; P5 R2 forfeit loss = .4; P4 R4 HPB in the last round = .5; P5 R4 withdrawn
/// (ZPB) = .5.
/// Adjusted scores (16.3, cat .5 counts as a draw): P4 0+.5+1+.5 = 2; P5 .5+0+0+.5 = 1;
/// others unchanged.
fn e1() -> Crosstable {
    event(
        EventKind::Swiss,
        &[
            (1, Some(2000)),
            (2, Some(1900)),
            (3, Some(1800)),
            (4, Some(1700)),
            (5, Some(1601)),
            (6, Some(1500)),
        ],
        &[
            "1-4 1-0; 2-5 =; 3-6 1-0",
            "1-2 1-0; 3-5 +-; 4 HPB; 6 PAB",
            "1-6 =; 2-3 0-1; 4-5 1-0",
            "3-1 =; 2-6 1-0; 4 HPB; 5 WD",
        ],
    )
}

#[test]
fn e1_points_and_order_by_bh() {
    let s = run(&e1(), Edition::C07_2026, &["BH", "SB"]);
    let pts: Vec<String> = s.rows.iter().map(|r| r.points.to_string()).collect();
    // P3 3.5, P1 3, P4 2, then P2/P6 1.5 split by BH (P6 9.5 > P2 9), P5 0.5
    assert_eq!(order(&s), [3, 1, 4, 6, 2, 5]);
    assert_eq!(pts, ["3.5", "3", "2", "1.5", "1.5", "0.5"]);
    assert_eq!(ranks(&s), [(3, 1), (1, 2), (4, 3), (6, 4), (2, 5), (5, 6)]);
}

/// BH 2026 (Art. 8.1 + 16.3/16.4):
/// * P1: 4(2) + 2(1.5) + 6(1.5) + 3(3.5) = 8.5
/// * P2: 5(adj 1) + 1(3) + 3(3.5) + 6(1.5) = 9
/// * P3: 6(1.5) + dummy min(own 3.5, P5 adj 1) = 1 [16.4.1] + 2(1.5) + 1(3) = 7
/// * P4: 1(3) + dummy min(2, .5×4 = 2) = 2 + 5(1) + dummy 2 = 8
/// * P5: 2(1.5) + dummy min(.5, P3 adj 3.5) = .5 + 4(2) + dummy min(.5, 2) = .5 → 4.5
/// * P6: 3(3.5) + PAB dummy min(1.5, 2) = 1.5 + 1(3) + 2(1.5) = 9.5
#[test]
fn e1_bh_2026_all_categories() {
    let s = run(&e1(), Edition::C07_2026, &["BH"]);
    assert_eq!(column(&s, 0, P6), ["8.5", "9", "7", "8", "4.5", "9.5"]);
}

/// BH 2024: the dummy is the own score, uncapped. Only P3 changes:
/// 6(1.5) + dummy 3.5 + 2(1.5) + 1(3) = 9.5 (2026: 7, the 16.4.1 cap bites).
#[test]
fn e1_bh_2024_uncapped_differs_from_2026() {
    let s24 = run(&e1(), Edition::C07_2024, &["BH"]);
    let s26 = run(&e1(), Edition::C07_2026, &["BH"]);
    assert_eq!(column(&s24, 0, P6), ["8.5", "9", "9.5", "8", "4.5", "9.5"]);
    assert_ne!(val(&s24, 3, 0), val(&s26, 3, 0));
}

/// The working shows the capped dummy of P3's forfeit win.
#[test]
fn e1_working_explains_the_dummy() {
    let s = run(&e1(), Edition::C07_2026, &["BH"]);
    let row = s.rows.iter().find(|r| r.tpn == 3).unwrap();
    let c = &row.values[0].working.contributions;
    assert_eq!(c.len(), 4);
    assert_eq!(c[0].source, Source::Opponent { tpn: 6 });
    assert_eq!(
        c[1].source,
        Source::Dummy {
            category: Category::ForfeitWin,
            cap: Some(DummyCap::ScheduledOpponentAdjustedScore { opponent_tpn: 5 }),
        }
    );
    assert_eq!(c[1].value, Exact::integer(1));
    // P4's cat .3 and cat .5 byes
    let row = s.rows.iter().find(|r| r.tpn == 4).unwrap();
    let c = &row.values[0].working.contributions;
    assert!(matches!(
        c[1].source,
        Source::Dummy {
            category: Category::RequestedByeThenPlayed,
            cap: None,
            ..
        }
    ));
    assert!(matches!(
        c[3].source,
        Source::Dummy {
            category: Category::RequestedByeToTheEnd,
            ..
        }
    ));
    // P6's PAB is category .1
    let row = s.rows.iter().find(|r| r.tpn == 6).unwrap();
    assert!(matches!(
        row.values[0].working.contributions[1].source,
        Source::Dummy {
            category: Category::PabOrFpb,
            ..
        }
    ));
    // P5: forfeit loss cat .4 and withdrawal cat .5
    let row = s.rows.iter().find(|r| r.tpn == 5).unwrap();
    let c = &row.values[0].working.contributions;
    assert!(matches!(
        c[1].source,
        Source::Dummy {
            category: Category::ForfeitLoss,
            ..
        }
    ));
    assert!(matches!(
        c[3].source,
        Source::Dummy {
            category: Category::RequestedByeToTheEnd,
            ..
        }
    ));
}

/// Cut/median with the 16.5 VUR-first exception (2026):
/// * BH/C1: P1 drops 1.5 → 7; P2 drops 1 → 8; P3 drops the forfeit-win dummy 1 (not a
///   VUR) → 6; P4 has VURs (HPB dummies 2, 2): cuts the VUR 2 instead of the lowest 1 →
///   3+1+2 = 6; P5 drops a VUR .5 → 4; P6 drops 1.5 → 8.
/// * BH/C2: P1 5.5; P2 9−1−1.5 = 6.5; P3 7−1−1.5 = 4.5; P4 cuts both VURs → 3+1 = 4;
///   P5 4.5−.5−.5 = 3.5; P6 9.5−1.5−1.5 = 6.5.
/// * BH/M1: P1 8.5 − 1.5 − 3.5 = 3.5; P4 cuts VUR 2 then the highest 3 → 1+2 = 3.
/// * BH/M2: P1 drops 1.5, 1.5, 3.5, 2 → 0.
#[test]
fn e1_bh_cut_median_with_vur_exception() {
    let s = run(
        &e1(),
        Edition::C07_2026,
        &["BH/C1", "BH/C2", "BH/M1", "BH/M2"],
    );
    assert_eq!(column(&s, 0, P6), ["7", "8", "6", "6", "4", "8"]);
    assert_eq!(column(&s, 1, P6), ["5.5", "6.5", "4.5", "4", "3.5", "6.5"]);
    assert_eq!(val(&s, 1, 2), "3.5");
    assert_eq!(val(&s, 4, 2), "3");
    assert_eq!(val(&s, 1, 3), "0");
    // the cut contributions are flagged in the working
    let row = s.rows.iter().find(|r| r.tpn == 4).unwrap();
    let cut: Vec<bool> = row.values[0]
        .working
        .contributions
        .iter()
        .map(|c| c.cut)
        .collect();
    assert_eq!(cut, [false, true, false, false]);
}

/// SB 2026 (9.1 + 16.4: dummy × points of the round):
/// * P1: 4(2)×1 + 2(1.5)×1 + 6(1.5)×½ + 3(3.5)×½ = 2+1.5+.75+1.75 = 6
/// * P2: 5(1)×½ + 0 + 0 + 6(1.5)×1 = 2
/// * P3: 6(1.5)×1 + dummy 1×1 + 2(1.5)×1 + 1(3)×½ = 5.5
/// * P4: 0 + 2×½ + 1×1 + 2×½ = 3
/// * P5: 2(1.5)×½ = .75 (the rest scored 0)
/// * P6: 0 + 1.5×1 + 3×½ + 0 = 3
///
/// SB/C1: P4 items (score, product): (3,0) (2v,1) (1,1) (2v,1); least significant = the
/// lowest-scoring opponent's product 1, lowest VUR product 1 → cut one → 2.
/// SB 2024: P3's dummy is 3.5 → 1.5+3.5+1.5+1.5 = 8.
#[test]
fn e1_sonneborn_berger() {
    let s = run(&e1(), Edition::C07_2026, &["SB", "SB/C1"]);
    assert_eq!(column(&s, 0, P6), ["6", "2", "5.5", "3", "0.75", "3"]);
    assert_eq!(val(&s, 4, 1), "2");
    let s24 = run(&e1(), Edition::C07_2024, &["SB"]);
    assert_eq!(val(&s24, 3, 0), "8");
}

/// Fore Buchholz (8.3): R4's paired games become draws (3-1 stays =, 2-6 1-0 → =), byes
/// keep their points. Scores: P2 1, P6 2, others unchanged. Adjusted P5 1, P4 2.
/// * FB P1: 4(2) + 2(1) + 6(2) + 3(3.5) = 8.5
/// * FB P2: 5(1) + 1(3) + 3(3.5) + 6(2) = 9.5
/// * FB P3: 6(2) + min(3.5, 1) + 2(1) + 1(3) = 7
/// * FB P6: 3(3.5) + min(2, 2) + 1(3) + 2(1) = 9.5
///
/// FB/C1 P2: drops 5(1) → 8.5.
#[test]
fn e1_fore_buchholz() {
    let s = run(&e1(), Edition::C07_2026, &["FB", "FB/C1"]);
    assert_eq!(column(&s, 0, P6), ["8.5", "9.5", "7", "8", "4", "9.5"]);
    assert_eq!(val(&s, 2, 1), "8.5");
}

/// AOB (8.2): average BH of the opponents played over the board.
/// BH: P1 8.5, P2 9, P3 7, P4 8, P5 4.5, P6 9.5.
/// * P1: (8 + 9 + 9.5 + 7)/4 = 33.5/4 = 8.375
/// * P3: forfeit excluded: (9.5 + 9 + 8.5)/3 = 9
/// * P6: (7 + 8.5 + 9)/3 = 24.5/3 = 49/6
///
/// AOB/F (Fore Buchholz: P1 8.5, P2 9.5, P3 7, P4 8, P5 4, P6 9.5):
/// * P1: (8 + 9.5 + 9.5 + 7)/4 = 8.5
#[test]
fn e1_average_of_opponents_buchholz() {
    let s = run(&e1(), Edition::C07_2026, &["AOB", "AOB/F"]);
    assert_eq!(val(&s, 1, 0), "8.375");
    assert_eq!(val(&s, 3, 0), "9");
    assert_eq!(val(&s, 6, 0), "49/6");
    assert_eq!(val(&s, 1, 1), "8.5");
}

/// Art. 7 own results on E1.
/// * WIN (7.1, with or without playing): P1 2, P2 1, P3 3 (incl. forfeit), P4 1, P5 0,
///   P6 1 (PAB worth a win).
/// * WON (7.2, OTB only): P3 2, P6 0.
/// * BPG (7.3): P1 1 (R4), P2 1, P3 1, P4 1, P5 2 (forfeit not a game), P6 3.
/// * BWG (7.4): P3 1 (R3 2-3 0-1), others 0.
/// * PS (7.5): P1 1+2+2.5+3 = 8.5; /C1 7.5; /C2 5.5. P4 0+.5+1.5+2 = 4.
/// * REP (7.6): P4 4−2 HPB = 2; P5 4 − forfeit loss − ZPB = 2; P6 4.
/// * STD (7.7): with 1/½/0 it equals the score except rounds not played: P4's HPBs are a
///   draw's points → ½ each: 0+½+1+½ = 2; P5 ½+0+0+0 = ½; P6 PAB > draw → 1: 0+1+½+0 = 1.5.
/// * TPN (7.8): the TPN itself, ascending.
#[test]
fn e1_own_results() {
    let s = run(
        &e1(),
        Edition::C07_2026,
        &[
            "WIN", "WON", "BPG", "BWG", "PS", "PS/C1", "PS/C2", "REP", "STD", "TPN", "TPN/R",
        ],
    );
    assert_eq!(column(&s, 0, P6), ["2", "1", "3", "1", "0", "1"]);
    assert_eq!(column(&s, 1, P6), ["2", "1", "2", "1", "0", "0"]);
    assert_eq!(column(&s, 2, P6), ["1", "1", "1", "1", "2", "3"]);
    assert_eq!(column(&s, 3, P6), ["0", "0", "1", "0", "0", "0"]);
    assert_eq!(val(&s, 1, 4), "8.5");
    assert_eq!(val(&s, 1, 5), "7.5");
    assert_eq!(val(&s, 1, 6), "5.5");
    assert_eq!(val(&s, 4, 4), "4");
    assert_eq!(column(&s, 7, P6), ["4", "4", "4", "2", "2", "4"]);
    assert_eq!(column(&s, 8, P6), ["3", "1.5", "3.5", "2", "0.5", "1.5"]);
    assert_eq!(val(&s, 5, 9), "5");
}

/// STD (7.7) maps 3/1/0 back to 1/½/0: a 3/1/0 event where P1 wins and draws.
#[test]
fn std_maps_three_one_zero_back() {
    let ct = event_with(
        EventKind::Swiss,
        Scoring::three_one_zero(),
        &[(1, None), (2, None), (3, None)],
        &["1-2 1-0; 3 PAB", "3-1 =; 2 HPB"],
    );
    let s = run(&ct, Edition::C07_2026, &["STD", "WIN"]);
    // P1: win (1) + draw (½) = 1.5; P2: loss 0 + HPB (a draw's points 1) = ½;
    // P3: PAB (3 > 1) = 1 + draw ½ = 1.5
    assert_eq!(column(&s, 0, &[1, 2, 3]), ["1.5", "0.5", "1.5"]);
    // points: P1 3+1 = 4, P2 0+1 = 1, P3 3+1 = 4
    let pts: Vec<String> = s.rows.iter().map(|r| r.points.to_string()).collect();
    assert_eq!(pts, ["4", "4", "1"]);
    // WIN: P1 1, P3 1 (PAB worth a win)
    assert_eq!(column(&s, 1, &[1, 2, 3]), ["1", "0", "1"]);
}

/// Koya (9.2) on E1 (max 4, 50 % = 2): qualifying P1 (3), P3 (3.5), P4 (2).
/// * KS P1: vs4 1 + vs3 ½ = 1.5; P2: 0
/// * KS/L1 (threshold 2.5): P1 vs3 ½ = 0.5
/// * KS/L-1 (threshold 1.5, adds P2 and P6): P1 1+1+½+½ = 3
#[test]
fn e1_koya_and_limit() {
    let s = run(&e1(), Edition::C07_2026, &["KS", "KS/L1", "KS/L-1"]);
    assert_eq!(val(&s, 1, 0), "1.5");
    assert_eq!(val(&s, 2, 0), "0");
    assert_eq!(val(&s, 1, 1), "0.5");
    assert_eq!(val(&s, 1, 2), "3");
}

/// Art. 10 on E1 (ratings 2000 1900 1800 1700 1601 1500).
/// * ARO P1: (1700+1900+1500+1800)/4 = 1725; P3 (forfeit excluded) (1500+1900+2000)/3 =
///   1800; P4 (2000+1601)/2 = 1800.5 → 1801 (0.5 up); P2 6901/4 = 1725.25 → 1725
/// * ARO/C1 P1: 5400/3 = 1800; /C2: 3700/2 = 1850; /M1: (1700+1800)/2 = 1750; /M2: none
/// * TPR P1: p = 3/4 → dp 193 → 1918; P3: p = 2.5/3 = .8333 → .83 → 273 → 2073;
///   P4: p = .5 → 1801; P2: p = 1.5/4 = .375 → .38 (0.5 up) → −dp(.62) = −87 → 1638;
///   P6: p = .5/3 = .1667 → .17 → −273, ARO 1900 → 1627
/// * PTP P4 (1 from 2000 and 1601): R = 1799 gives PD(−201) + PD(198) = .24 + .76 = 1.00,
///   R = 1798 gives .24 + .75 = .99 → 1799
/// * PTP P5 (½ from 1900 and 1700): R = 1594: PD(−306) + PD(−106) = .14 + .36 = .50;
///   R = 1593: .14 + .35 = .49 → 1594
/// * APRO P4: opponents' TPR P1 1918, P5: ARO 1800, p = .25 → −193 → 1607;
///   (1918 + 1607)/2 = 1762.5 → 1763
/// * RTNG: own rating; RTNG/R reversed (lower first)
#[test]
fn e1_rating_based() {
    let s = run(
        &e1(),
        Edition::C07_2026,
        &[
            "ARO", "ARO/C1", "ARO/C2", "ARO/M1", "ARO/M2", "TPR", "PTP", "APRO", "RTNG",
        ],
    );
    assert_eq!(val(&s, 1, 0), "1725");
    assert_eq!(val(&s, 3, 0), "1800");
    assert_eq!(val(&s, 4, 0), "1801");
    assert_eq!(val(&s, 2, 0), "1725");
    assert_eq!(val(&s, 1, 1), "1800");
    assert_eq!(val(&s, 1, 2), "1850");
    assert_eq!(val(&s, 1, 3), "1750");
    assert_eq!(val(&s, 1, 4), "-");
    assert_eq!(column(&s, 5, P6)[..4], ["1918", "1638", "2073", "1801"]);
    assert_eq!(val(&s, 5, 5), "1607");
    assert_eq!(val(&s, 6, 5), "1627");
    assert_eq!(val(&s, 4, 6), "1799");
    assert_eq!(val(&s, 5, 6), "1594");
    assert_eq!(val(&s, 4, 7), "1763");
    assert_eq!(val(&s, 5, 8), "1601");
}

/// PTP extremes and APPO (10.3, 10.5) on a single game 2000 beats 1500:
/// * PTP winner (100 %): highest opponent + 736 = 2236 (ADR tiebreak-002)
/// * PTP loser (0): lowest opponent − 800 = 1200
/// * APPO winner = PTP of the loser = 1200; APPO loser = 2236
/// * TPR winner = 1500 + 800 = 2300; loser 2000 − 800 = 1200
#[test]
fn ptp_appo_extremes() {
    let ct = event(
        EventKind::Swiss,
        &[(1, Some(2000)), (2, Some(1500))],
        &["1-2 1-0"],
    );
    let s = run(&ct, Edition::C07_2026, &["PTP", "APPO", "TPR", "RTNG/R"]);
    assert_eq!(column(&s, 0, &[1, 2]), ["2236", "1200"]);
    assert_eq!(column(&s, 1, &[1, 2]), ["1200", "2236"]);
    assert_eq!(column(&s, 2, &[1, 2]), ["2300", "1200"]);
}

/// RTNG/R and TPN/R rank in reverse; TPN ascending.
#[test]
fn reverse_orders() {
    let ct = event(
        EventKind::Swiss,
        &[
            (1, Some(2000)),
            (2, Some(1500)),
            (3, Some(1800)),
            (4, Some(1700)),
        ],
        &["1-2 =; 3-4 ="],
    );
    assert_eq!(order(&run(&ct, Edition::C07_2026, &["TPN"])), [1, 2, 3, 4]);
    assert_eq!(
        order(&run(&ct, Edition::C07_2026, &["TPN/R"])),
        [4, 3, 2, 1]
    );
    assert_eq!(order(&run(&ct, Edition::C07_2026, &["RTNG"])), [1, 3, 4, 2]);
    assert_eq!(
        order(&run(&ct, Edition::C07_2026, &["RTNG/R"])),
        [2, 4, 3, 1]
    );
}

/// Rating tie-breaks are dropped when unrated players are present (Art. 10 preamble)
/// unless handling was announced.
#[test]
fn rating_tiebreaks_dropped_with_unrated_players() {
    let mut ct = e1();
    ct.players[5].rating = None;
    let list = parse_list(&["ARO", "BH", "TPR"], Edition::C07_2026).unwrap();
    let s = standings(&ct, Edition::C07_2026, &list, &Options::default()).unwrap();
    assert_eq!(s.tie_breaks.len(), 1);
    assert_eq!(s.dropped.len(), 2);
    assert_eq!(s.dropped[0].position, 1);
    assert_eq!(s.dropped[1].position, 3);
    let opts = Options {
        unrated_rating: Some(1000),
        ..Options::default()
    };
    let s = standings(&ct, Edition::C07_2026, &list, &opts).unwrap();
    assert!(s.dropped.is_empty());
    // P1's opponents now 1700, 1900, 1000, 1800 → 6400/4 = 1600
    assert_eq!(val(&s, 1, 0), "1600");
}

/// Event E2: the reference's worked example for the 16.4.2 cap. A 4-round Swiss; P1
/// scores 2.5 with a HPB in round 1 (category .3).
///
/// ```text
/// R1: 1 HPB; 2-3 1-0; 4-5 1-0
/// R2: 1-2 1-0; 3-4 =; 5 PAB
/// R3: 1-4 1-0; 2-5 =; 3 HPB
/// R4: 5-1 1-0; 2-4 =; 3 ZPB
/// ```
/// Scores: P1 2.5, P2 1+0+½+½ = 2, P3 0+½+½+0 = 1, P4 1+½+0+½ = 2, P5 0+1+½+1 = 2.5.
/// P3's R3 HPB is followed only by a VUR and R4 ZPB is in the last round: both category .5.
/// * 2026 P1: dummy = min(2.5, .5 × 4 = 2) = 2; BH = 2 + P2 2 + P4 2 + P5 2.5 = 8.5;
///   SB = 2×½ + 2×1 + 2×1 + 2.5×0 = 5 (the dummy's SB contribution 1.00)
/// * 2024 P1: dummy 2.5; BH 9; SB 1.25 + 4 = 5.25
/// * P5's PAB (category .1) also capped: 2026 BH 2 + 2 + 2 + 2.5 = 8.5, 2024 9.
#[test]
fn e2_draw_times_rounds_cap_bites() {
    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None), (4, None), (5, None)],
        &[
            "1 HPB; 2-3 1-0; 4-5 1-0",
            "1-2 1-0; 3-4 =; 5 PAB",
            "1-4 1-0; 2-5 =; 3 HPB",
            "5-1 1-0; 2-4 =; 3 ZPB",
        ],
    );
    let s26 = run(&ct, Edition::C07_2026, &["BH", "SB"]);
    let s24 = run(&ct, Edition::C07_2024, &["BH", "SB"]);
    assert_eq!(val(&s26, 1, 0), "8.5");
    assert_eq!(val(&s26, 1, 1), "5");
    assert_eq!(val(&s24, 1, 0), "9");
    assert_eq!(val(&s24, 1, 1), "5.25");
    assert_eq!(val(&s26, 5, 0), "8.5");
    assert_eq!(val(&s24, 5, 0), "9");
    // P3 (own 1, below both caps): BH P2 2 + P4 2 + 1 + 1 = 6 in both editions
    assert_eq!(val(&s26, 3, 0), "6");
    assert_eq!(val(&s24, 3, 0), "6");
    // the cap is named in the working
    let row = s26.rows.iter().find(|r| r.tpn == 1).unwrap();
    assert!(matches!(
        row.values[0].working.contributions[0].source,
        Source::Dummy {
            category: Category::RequestedByeThenPlayed,
            cap: Some(DummyCap::DrawTimesRounds),
            ..
        }
    ));
    // P1 and P5 stay tied on 2.5 and BH 8.5 → shared first place; SB 5 vs 5.5 separates
    // (P5: P4(2)×0 + 2×1 + P2(2)×½ + P1(2.5)×1 = 5.5)
    let shared = run(&ct, Edition::C07_2026, &["BH"]);
    assert_eq!(shared.rows[0].rank, 1);
    assert_eq!(shared.rows[1].rank, 1);
    assert_eq!(val(&s26, 5, 1), "5.5");
    assert_eq!(order(&s26)[..2], [5, 1]);
}

/// Drawing of lots with a recorded seed is reproducible.
#[test]
fn lots_are_reproducible_and_recorded() {
    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None), (4, None)],
        &["1-2 =; 3-4 ="],
    );
    let opts = Options {
        ties: TieResolution::ByLot { seed: 42 },
        ..Options::default()
    };
    let a = standings(&ct, Edition::C07_2026, &[], &opts).unwrap();
    let b = standings(&ct, Edition::C07_2026, &[], &opts).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.lot_seed, Some(42));
    assert!(a.rows.iter().all(|r| r.by_lot));
    let rks: Vec<u32> = a.rows.iter().map(|r| r.rank).collect();
    assert_eq!(rks, [1, 2, 3, 4]);
    let shared = standings(&ct, Edition::C07_2026, &[], &Options::default()).unwrap();
    assert!(shared.rows.iter().all(|r| r.rank == 1 && !r.by_lot));
    assert_eq!(shared.lot_seed, None);
}

/// Event E3 for Direct Encounter 6.3: P1, P2, P3 tied on 2; P1 beat P2 and P3, who never
/// met. P1 scored 2 among the tied; P2 and P3 scored 0 with one game missing each, so at
/// best 0 + 1 = 1 < 2: P1 is first whatever the missing game gives. P2 and P3 cannot be
/// separated by DE (not met, 0 vs 0). Their BH: P2 1(2) + 5(1) + 6(½) = 3.5; P3 6(½) +
/// 1(2) + 5(1) = 3.5: still tied; TPN separates.
///
/// ```text
/// R1: 1-2 1-0; 3-6 1-0; 4-5 0-1
/// R2: 1-3 1-0; 2-5 1-0; 4-6 =
/// R3: 4-1 1-0; 2-6 1-0; 3-5 1-0
/// ```
#[test]
fn e3_direct_encounter_partial_meetings() {
    let ct = event(
        EventKind::Swiss,
        &[
            (1, None),
            (2, None),
            (3, None),
            (4, None),
            (5, None),
            (6, None),
        ],
        &[
            "1-2 1-0; 3-6 1-0; 4-5 0-1",
            "1-3 1-0; 2-5 1-0; 4-6 =",
            "4-1 1-0; 2-6 1-0; 3-5 1-0",
        ],
    );
    let s = run(&ct, Edition::C07_2026, &["DE", "BH"]);
    assert_eq!(ranks(&s)[..3], [(1, 1), (2, 2), (3, 2)]);
    assert_eq!(val(&s, 1, 0), "2");
    assert_eq!(val(&s, 2, 0), "0");
    assert_eq!(val(&s, 2, 1), "3.5");
    assert_eq!(val(&s, 4, 0), "-"); // P4 was not tied
    let s = run(&ct, Edition::C07_2026, &["DE", "BH", "TPN"]);
    assert_eq!(ranks(&s)[..3], [(1, 1), (2, 2), (3, 3)]);
    // The seed's DE needs all tied players to have met: no separation.
    let s = run(&ct, Edition::SeedC06, &["DE"]);
    assert_eq!(ranks(&s)[..3], [(1, 1), (2, 1), (3, 1)]);
}

/// DE 6.1.2 (average of repeated meetings) and 6.2 (all met): P1 and P2 met twice (P1 won
/// and drew: average ¾ vs ¼). 6.1.1: a forfeit between tied players is excluded in a
/// Swiss, counted with DE/P.
#[test]
fn direct_encounter_averages_repeats_and_excludes_forfeits() {
    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None), (4, None)],
        &["1-2 1-0; 3-4 1-0", "2-1 =; 4-3 1-0", "1-3 0-1; 2-4 1-0"],
    );
    // P1: 1 + .5 + 0 = 1.5; P2: 0 + .5 + 1 = 1.5; P3 1 + 0 + 1 = 2; P4 0 + 1 + 0 = 1
    let s = run(&ct, Edition::C07_2026, &["DE"]);
    assert_eq!(order(&s), [3, 1, 2, 4]);
    assert_eq!(val(&s, 1, 0), "0.75");
    assert_eq!(val(&s, 2, 0), "0.25");
    // Seed DE sums instead: 1.5 vs 0.5
    let s = run(&ct, Edition::SeedC06, &["DE"]);
    assert_eq!(val(&s, 1, 0), "1.5");

    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None), (4, None)],
        &["1-2 +-; 3-4 1-0", "3-1 1-0; 4-2 0-1", "1-4 =; 2-3 ="],
    );
    // P1 1 + 0 + .5 = 1.5, P2 0 + 1 + .5 = 1.5: tied, met only by forfeit.
    let s = run(&ct, Edition::C07_2026, &["DE"]);
    let r1 = s.rows.iter().find(|r| r.tpn == 1).unwrap().rank;
    let r2 = s.rows.iter().find(|r| r.tpn == 2).unwrap().rank;
    assert_eq!(r1, r2);
    let s = run(&ct, Edition::C07_2026, &["DE/P"]);
    assert_eq!(order(&s)[1..3], [1, 2]);
    let r2 = s.rows.iter().find(|r| r.tpn == 2).unwrap().rank;
    assert_eq!(r2, 3);
}

/// Event E4: round robin, 4 players, a forfeit (Art. 15.2).
///
/// ```text
/// R1: 1-4 1-0; 2-3 =
/// R2: 1-3 +- (3 forfeits with Black); 2-4 1-0
/// R3: 1-2 =; 4-3 0-1
/// ```
/// Scores P1 2.5, P2 2, P3 1.5, P4 0. Ratings 2000 1900 1600 1700.
/// * SB (forfeit = regular game in both editions): P1 4(0)×1 + 3(1.5)×1 + 2(2)×½ = 2.5
/// * BPG: P3 2026: R1 and R3 (the forfeit loss with Black stays unplayed) = 2; 2024: 3
/// * REP: P3 2026 3 − 1 = 2; 2024 3
/// * WON P1: 2 (a forfeit win is a regular game in a round robin)
/// * ARO P1 2026: OTB only (1700 + 1900)/2 = 1800; 2024: (1700+1600+1900)/3 = 1733.3 → 1733
/// * TPR P1 2026: p = 1.5/2 = .75 → 1800 + 193 = 1993; 2024 p = 2.5/3 → .83 → 1733 + 273 = 2006
/// * KS (50 % of 3 = 1.5: P1, P2, P3 qualify): P1 vs3 1 + vs2 ½ = 1.5; P2 vs3 ½ + vs1 ½ = 1
#[test]
fn e4_round_robin_forfeits_art_15_2() {
    let ct = event(
        EventKind::RoundRobin,
        &[
            (1, Some(2000)),
            (2, Some(1900)),
            (3, Some(1600)),
            (4, Some(1700)),
        ],
        &["1-4 1-0; 2-3 =", "1-3 +-; 2-4 1-0", "1-2 =; 4-3 0-1"],
    );
    let codes = ["SB", "BPG", "REP", "WON", "ARO", "TPR", "KS"];
    let s26 = run(&ct, Edition::C07_2026, &codes);
    let s24 = run(&ct, Edition::C07_2024, &codes);
    assert_eq!(val(&s26, 1, 0), "2.5");
    assert_eq!(val(&s24, 1, 0), "2.5");
    assert_eq!(val(&s26, 3, 1), "2");
    assert_eq!(val(&s24, 3, 1), "3");
    assert_eq!(val(&s26, 3, 2), "2");
    assert_eq!(val(&s24, 3, 2), "3");
    assert_eq!(val(&s26, 1, 3), "2");
    assert_eq!(val(&s26, 1, 4), "1800");
    assert_eq!(val(&s24, 1, 4), "1733");
    assert_eq!(val(&s26, 1, 5), "1993");
    assert_eq!(val(&s24, 1, 5), "2006");
    assert_eq!(val(&s26, 1, 6), "1.5");
    assert_eq!(val(&s26, 2, 6), "1");
    // 2026 Art. 8 note: no Buchholz in a round robin, unless explicitly allowed.
    let list = parse_list(&["SB", "BH"], Edition::C07_2026).unwrap();
    let e = standings(&ct, Edition::C07_2026, &list, &Options::default()).unwrap_err();
    assert_eq!(
        e,
        Error::NotAllowedInRoundRobin {
            code: "BH".into(),
            position: 2
        }
    );
    let opts = Options {
        allow_buchholz_in_round_robin: true,
        ..Options::default()
    };
    // BH with the forfeit as a regular game: P1 0 + 1.5 + 2 = 3.5
    let s = standings(&ct, Edition::C07_2026, &list, &opts).unwrap();
    assert_eq!(val(&s, 1, 1), "3.5");
    assert!(standings(&ct, Edition::C07_2024, &list, &Options::default()).is_ok());
}

/// Seed edition on E1: virtual opponent `Ov = Sp + (1 − Sr) + 0.5 × (N − R)` and the
/// opponents' unplayed games counted as draws.
/// Seed-adjusted scores: P1 3, P2 1.5, P3 1+½+1+½ = 3, P4 0+½+1+½ = 2, P5 ½+½+0+½ = 1.5,
/// P6 0+½+½+0 = 1.
/// Virtual opponents: P3 R2: 1 + (1−1) + ½×2 = 2; P4 R2: 0 + ½ + 1 = 1.5, R4: 1.5 + ½ + 0
/// = 2; P5 R2: ½ + 1 + 1 = 2.5, R4: ½ + 1 + 0 = 1.5; P6 R2: 0 + 0 + 1 = 1.
/// * BH: P1 2+1.5+1+3 = 7.5; P2 1.5+3+3+1 = 8.5; P3 1+2+1.5+3 = 7.5; P4 3+1.5+1.5+2 = 8;
///   P5 1.5+2.5+2+1.5 = 7.5; P6 3+1+3+1.5 = 8.5
/// * SB P3: 1×1 + 2×1 + 1.5×1 + 3×½ = 6
/// * BHSUM P1: BH of 4, 2, 6, 3 = 8 + 8.5 + 8.5 + 7.5 = 32.5
/// * TPR/350 P1 (2000): 1500 counts as 1650: (1700+1900+1650+1800)/4 = 1762.5 → 1763;
///   p .75 → +193 = 1956
/// * WIN (games won incl. forfeits, byes not): P3 3, P6 0
#[test]
fn e1_seed_virtual_opponent() {
    let s = run(
        &e1(),
        Edition::SeedC06,
        &["BH", "SB", "BHSUM", "TPR/350", "WIN", "BH/M1"],
    );
    assert_eq!(column(&s, 0, P6), ["7.5", "8.5", "7.5", "8", "7.5", "8.5"]);
    assert_eq!(val(&s, 3, 1), "6");
    assert_eq!(val(&s, 1, 2), "32.5");
    assert_eq!(val(&s, 1, 3), "1956");
    assert_eq!(val(&s, 3, 4), "3");
    assert_eq!(val(&s, 6, 4), "0");
    // BH/M1 P4: values 3, 1.5v, 1.5, 2v → drop 1.5 and 3 → 3.5 (no VUR exception in the seed)
    assert_eq!(val(&s, 4, 5), "3.5");
    let row = s.rows.iter().find(|r| r.tpn == 3).unwrap();
    assert_eq!(
        row.values[0].working.contributions[1].source,
        Source::VirtualOpponent
    );
}

/// The seed's worked examples (9 rounds): no-show in round 3 after 1.5/2 →
/// Ov = 1.5 + 1 + 0.5 × 6 = 5.5; no-show in round 6 after 3.5/5 with a win awarded →
/// Ov = 3.5 + 0 + 0.5 × 3 = 5.
#[test]
fn seed_virtual_opponent_worked_examples() {
    // Player 1: R1 W, R2 D, R3 forfeit loss, R4-R9 draws (9 rounds).
    // Player 2 is the opponent in every round.
    let mut rounds = vec!["1-2 1-0", "1-2 =", "1-2 -+"];
    rounds.extend(std::iter::repeat_n("1-2 =", 6));
    let ct = event(EventKind::Swiss, &[(1, None), (2, None)], &rounds);
    let s = run(&ct, Edition::SeedC06, &["BH"]);
    let row = s.rows.iter().find(|r| r.tpn == 1).unwrap();
    assert_eq!(
        row.values[0].working.contributions[2].value,
        Exact::ratio(11, 2).unwrap()
    );
    // Example 2: forfeit win in round 6 after 3.5/5.
    let mut rounds = vec![
        "1-2 1-0", "1-2 1-0", "1-2 =", "1-2 1-0", "1-2 0-1", "1-2 +-",
    ];
    rounds.extend(std::iter::repeat_n("1-2 =", 3));
    let ct = event(EventKind::Swiss, &[(1, None), (2, None)], &rounds);
    let s = run(&ct, Edition::SeedC06, &["BH"]);
    let row = s.rows.iter().find(|r| r.tpn == 1).unwrap();
    assert_eq!(
        row.values[0].working.contributions[5].value,
        Exact::integer(5)
    );
}

/// Solkoff (seed 002): sum of the final scores of the opponents met; "tronqué" = /C1,
/// "médian" = /M1.
/// * P1: 4(2) + 2(1.5) + 6(1.5) + 3(3.5) = 8.5; /C1 drops 1.5 → 7; /M1 drops 1.5 and 3.5 → 3.5
/// * P3: forfeit not a meeting: 6(1.5) + 2(1.5) + 1(3) = 6
/// * P5: 2(1.5) + 4(2) = 3.5
#[test]
fn e1_solkoff() {
    let s = run(
        &e1(),
        Edition::C07_2026,
        &["SOLKOFF", "SOLKOFF/C1", "SOLKOFF/M1"],
    );
    assert_eq!(val(&s, 1, 0), "8.5");
    assert_eq!(val(&s, 1, 1), "7");
    assert_eq!(val(&s, 1, 2), "3.5");
    assert_eq!(val(&s, 3, 0), "6");
    assert_eq!(val(&s, 5, 0), "3.5");
}

/// Late entry and absence count as ZPBs (ADR tiebreak-004): a NYE round 1 followed by
/// games is category .3; REP subtracts it.
#[test]
fn late_entry_and_absence() {
    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None)],
        &["1-2 1-0; 3 NYE", "3-1 =; 2 ABS"],
    );
    let s = run(&ct, Edition::C07_2026, &["REP", "BH"]);
    assert_eq!(val(&s, 3, 0), "1");
    assert_eq!(val(&s, 2, 0), "1"); // R2 absent = ZPB
    // P3: 0.5 points; R1 NYE cat .3 dummy min(.5, .5×2 = 1) = .5; R2 vs P1 (1.5) → 2
    assert_eq!(val(&s, 3, 1), "2");
    let row = s.rows.iter().find(|r| r.tpn == 3).unwrap();
    assert!(matches!(
        row.values[1].working.contributions[0].source,
        Source::Dummy {
            category: Category::RequestedByeThenPlayed,
            ..
        }
    ));
}

/// Invalid crosstables produce typed errors, never panics.
#[test]
fn invalid_input_errors() {
    let mut ct = e1();
    ct.players[0].entries.pop();
    assert!(matches!(
        standings(&ct, Edition::C07_2026, &[], &Options::default()),
        Err(Error::WrongRoundCount { tpn: 1, .. })
    ));
    let mut ct = e1();
    ct.players[0].entries[0] = RoundEntry::Played {
        opponent: 99,
        colour: Colour::White,
        result: GameResult::Win,
    };
    assert!(matches!(
        standings(&ct, Edition::C07_2026, &[], &Options::default()),
        Err(Error::UnknownOpponent { opponent: 99, .. })
    ));
    // Two wins in one game (unequal arbiter-assigned scores are valid, ADR tiebreak-008).
    let mut ct = e1();
    for p in ct.players.iter_mut() {
        if let RoundEntry::Played {
            opponent, result, ..
        } = &mut p.entries[0]
            && (p.tpn == 1 || *opponent == 1)
        {
            *result = GameResult::Win;
        }
    }
    assert!(matches!(
        standings(&ct, Edition::C07_2026, &[], &Options::default()),
        Err(Error::InconsistentPairing {
            tpn: 1,
            round: 1,
            ..
        })
    ));
    let mut ct = e1();
    ct.players[1].tpn = 1;
    assert!(matches!(
        standings(&ct, Edition::C07_2026, &[], &Options::default()),
        Err(Error::DuplicateTpn(1))
    ));
    let list = parse_list(&["STD"], Edition::C07_2026).unwrap();
    assert!(matches!(
        standings(&e1(), Edition::C07_2024, &list, &Options::default()),
        Err(Error::NotInEdition { .. })
    ));
}

/// Event E5: forfeits, a double forfeit, an FPB and a last-round HPB (Swiss, 3 rounds).
///
/// ```text
/// R1: 1-2 +- (1 wins by forfeit); 3-4 1-0
/// R2: 1-3 =; 2-4 -- (double forfeit)
/// R3: 1-4 1-0; 2 FPB; 3 HPB
/// ```
/// Scores P1 2.5, P2 1, P3 2, P4 0. Categories: P1 R1 .2; P2 R1 .4, R2 .4, R3 FPB .1;
/// P3 R3 .5 (adjusted 1 + .5 + .5 = 2); P4 R2 .4.
/// * BH 2026: P1 min(2.5, P2 1) = 1 + P3 2 + P4 0 = 3; P2 min(1, P1 2.5) = 1 + min(1, P4 0)
///   = 0 + min(1, .5×3) = 1 → 2; P3 P4 0 + P1 2.5 + min(2, 1.5) = 1.5 → 4; P4 P3 2 +
///   min(0, 1) = 0 + P1 2.5 → 4.5
/// * BH 2024: P1 2.5 + 2 + 0 = 4.5; P2 1+1+1 = 3; P3 0 + 2.5 + 2 = 4.5
/// * BH/P (forfeits as games vs the scheduled opponent): 2024 P1 1 + 2 + 0 = 3;
///   2026 P2 P1 2.5 + P4 0 + FPB dummy 1 = 3.5
/// * BH/C1 P3 (16.5): values 0, 2.5, 1.5 (VUR): the VUR 1.5 is cut → 2.5
/// * SB P3: 0×1 + 2.5×½ + 1.5×½ = 2; SB/C1 (16.5): least significant = the product for the
///   lowest-scoring opponent (P4: 0), lowest VUR product .75: cut the higher → 1.25
/// * STD: P2 0 + ½ (double forfeit, equal scores) + 1 (FPB) = 1.5; P4 0 + ½ + 0 = .5
/// * WIN: P1 2 (incl. forfeit), P2 1 (FPB worth a win); REP: P2 3 − 2 = 1, P3 2, P4 2
#[test]
fn e5_forfeits_double_forfeit_fpb_and_vur_cuts() {
    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None), (4, None)],
        &["1-2 +-; 3-4 1-0", "1-3 =; 2-4 --", "1-4 1-0; 2 FPB; 3 HPB"],
    );
    let t = &[1, 2, 3, 4];
    let s = run(
        &ct,
        Edition::C07_2026,
        &["BH", "BH/P", "BH/C1", "SB", "SB/C1", "STD", "WIN", "REP"],
    );
    assert_eq!(column(&s, 0, t), ["3", "2", "4", "4.5"]);
    assert_eq!(val(&s, 2, 1), "3.5");
    assert_eq!(val(&s, 3, 2), "2.5");
    assert_eq!(val(&s, 3, 3), "2");
    assert_eq!(val(&s, 3, 4), "1.25");
    assert_eq!(column(&s, 5, t), ["2.5", "1.5", "2", "0.5"]);
    assert_eq!(column(&s, 6, t), ["2", "1", "1", "0"]);
    assert_eq!(column(&s, 7, t), ["3", "1", "2", "2"]);
    let row = s.rows.iter().find(|r| r.tpn == 2).unwrap();
    assert!(matches!(
        row.values[0].working.contributions[2].source,
        Source::Dummy {
            category: Category::PabOrFpb,
            ..
        }
    ));
    let s24 = run(&ct, Edition::C07_2024, &["BH", "BH/P"]);
    assert_eq!(column(&s24, 0, t)[..3], ["4.5", "3", "4.5"]);
    assert_eq!(val(&s24, 1, 1), "3");
}

/// The explanation an arbiter reads out names the dummy, its category and its cap.
#[test]
fn explain_a_place() {
    let s = run(&e1(), Edition::C07_2026, &["BH/C1"]);
    let text = s.explain(3).unwrap();
    assert!(text.starts_with("TPN 3: place 1, 3.5 points"), "{text}");
    assert!(text.contains("BH/C1 = 6"), "{text}");
    assert!(
        text.contains(
            "R2 dummy (16.2.2 forfeit win, capped at opponent 5's adjusted score, 16.4.1): 1  (cut)"
        ),
        "{text}"
    );
    assert!(s.explain(99).is_none());
}

/// DE 6.2 in a round robin: all tied participants met; the mini-standings separate some and
/// DE is re-applied to the sub-group still tied. 6 players (Berger table for 6):
///
/// ```text
/// R1: 1-6 0-1; 2-5 1-0; 3-4 =      R4: 6-5 =;   1-4 1-0; 2-3 1-0
/// R2: 6-4 1-0; 5-3 =;   1-2 1-0    R5: 3-6 1-0; 4-2 1-0; 5-1 1-0
/// R3: 2-6 =;   3-1 =;   4-5 1-0
/// ```
/// Scores: P6 3; P1, P2, P3, P4 2.5; P5 2. Among {1,2,3,4}: P1 1 + ½ + 1 = 2.5;
/// P4 0 + 1 + ½ = 1.5; P2 0 + 1 + 0 = 1; P3 ½ + 0 + ½ = 1. Re-applied to {2,3}: P2 beat P3.
/// Order 6, 1, 4, 2, 3, 5. The seed's DE does not re-apply: P2 and P3 share 5th place.
#[test]
fn direct_encounter_reapplied_to_sub_groups_round_robin() {
    let ct = event(
        EventKind::RoundRobin,
        &[
            (1, None),
            (2, None),
            (3, None),
            (4, None),
            (5, None),
            (6, None),
        ],
        &[
            "1-6 0-1; 2-5 1-0; 3-4 =",
            "6-4 1-0; 5-3 =; 1-2 1-0",
            "2-6 =; 3-1 =; 4-5 1-0",
            "6-5 =; 1-4 1-0; 2-3 1-0",
            "3-6 1-0; 4-2 1-0; 5-1 1-0",
        ],
    );
    let s = run(&ct, Edition::C07_2026, &["DE"]);
    assert_eq!(order(&s), [6, 1, 4, 2, 3, 5]);
    assert_eq!(ranks(&s), [(6, 1), (1, 2), (4, 3), (2, 4), (3, 5), (5, 6)]);
    assert_eq!(column(&s, 0, &[1, 2, 3, 4]), ["2.5", "1", "1", "1.5"]);
    let s = run(&ct, Edition::SeedC06, &["DE"]);
    assert_eq!(ranks(&s), [(6, 1), (1, 2), (4, 3), (2, 4), (3, 4), (5, 6)]);
    // Koya in the same round robin (max 5, 50 % = 2.5: P1-P4 and P6 qualify):
    // P1 vs 6: 0, vs 2: 1, vs 3: ½, vs 4: 1 = 2.5; P5 vs 2: 0, vs 3: ½, vs 4: 0, vs 6: ½,
    // vs 1: 1 = 2
    let s = run(&ct, Edition::C07_2026, &["KS"]);
    assert_eq!(val(&s, 1, 0), "2.5");
    assert_eq!(val(&s, 5, 0), "2");
}

/// The remaining modifier combinations, on E1 (2026) unless said otherwise.
/// * SB/C2 P1: items (opponent score, product) (2, 2) (1.5, 1.5) (1.5, .75) (3.5, 1.75);
///   lowest opponent score 1.5 twice → drop the lower product .75, then 1.5 → 2 + 1.75 = 3.75
/// * /P on P5 (forfeit loss in R2 becomes a game against P3, 3.5, and is no longer a VUR):
///   BH/P 1.5 + 3.5 + 2 + .5 = 7.5; BH/C1/P cuts the withdrawal VUR .5 → 7; BH/C2/P then
///   1.5 → 5.5; BH/M1/P cuts .5 and 3.5 → 3.5; BH/M2/P cuts everything → 0
/// * Fore Buchholz items (final round drawn: P2 1, P6 2): P1 (2, 1, 2, 3.5): FB/C2 → 5.5,
///   FB/M1 → 4, FB/M2 → 0; P4 (3, 2v, 1, 2v): FB/C1 cuts a VUR 2 → 6, FB/M1 → VUR 2 and 3
///   → 3; P5 with /P (1, 3.5, 2, .5v): FB/P 7, FB/C1/P 6.5, FB/C2/P 5.5, FB/M1/P 3, FB/M2/P 0
#[test]
fn remaining_modifier_combinations() {
    let s = run(
        &e1(),
        Edition::C07_2026,
        &[
            "SB/C2", "BH/P", "BH/C1/P", "BH/C2/P", "BH/M1/P", "BH/M2/P", "FB/C2", "FB/M1", "FB/M2",
            "FB/C1", "FB/P", "FB/C1/P", "FB/C2/P", "FB/M1/P", "FB/M2/P",
        ],
    );
    assert_eq!(val(&s, 1, 0), "3.75");
    let p5: Vec<String> = (1..=5).map(|c| val(&s, 5, c)).collect();
    assert_eq!(p5, ["7.5", "7", "5.5", "3.5", "0"]);
    assert_eq!(val(&s, 1, 6), "5.5");
    assert_eq!(val(&s, 1, 7), "4");
    assert_eq!(val(&s, 1, 8), "0");
    assert_eq!(val(&s, 4, 9), "6");
    assert_eq!(val(&s, 4, 7), "3");
    let p5: Vec<String> = (10..=14).map(|c| val(&s, 5, c)).collect();
    assert_eq!(p5, ["7", "6.5", "5.5", "3", "0"]);
}

/// SB with /P, on E5 under the 2024 edition (where the forfeit-win dummy is not capped):
/// P1 SB = dummy 2.5×1 + P3 2×½ + P4 0×1 = 3.5; SB/P = P2 1×1 + 1 + 0 = 2;
/// SB/C1/P drops the lowest-scoring opponent (P4, product 0) → 2; SB/C2/P then P2 (1) → 1.
#[test]
fn sonneborn_berger_forfeits_as_played() {
    let ct = event(
        EventKind::Swiss,
        &[(1, None), (2, None), (3, None), (4, None)],
        &["1-2 +-; 3-4 1-0", "1-3 =; 2-4 --", "1-4 1-0; 2 FPB; 3 HPB"],
    );
    let s = run(
        &ct,
        Edition::C07_2024,
        &["SB", "SB/P", "SB/C1/P", "SB/C2/P"],
    );
    let p1: Vec<String> = (0..4).map(|c| val(&s, 1, c)).collect();
    assert_eq!(p1, ["3.5", "2", "2", "1"]);
}

/// The seed list's remaining entries on E1 (virtual opponents for P4: 1.5 in R2, 2 in R4;
/// seed-adjusted P1 3, P5 1.5):
/// * BH/C1 P4: 3, 1.5v, 1.5, 2v → drop a 1.5 (no VUR rule in the seed) → 6.5; BH/C2 → 5;
///   BH/M2 → 0
/// * BPG, ARO, ARO/C1, PS, KS, TPR as in 2026 (OTB games, actual scores)
#[test]
fn seed_list_remaining_entries() {
    let s = run(
        &e1(),
        Edition::SeedC06,
        &[
            "BH/C1", "BH/C2", "BH/M2", "BPG", "ARO", "ARO/C1", "PS", "PS/C1", "KS", "TPR",
        ],
    );
    assert_eq!(val(&s, 4, 0), "6.5");
    assert_eq!(val(&s, 4, 1), "5");
    assert_eq!(val(&s, 4, 2), "0");
    assert_eq!(column(&s, 3, P6), ["1", "1", "1", "1", "2", "3"]);
    assert_eq!(val(&s, 1, 4), "1725");
    assert_eq!(val(&s, 1, 5), "1800");
    assert_eq!(val(&s, 1, 6), "8.5");
    assert_eq!(val(&s, 1, 7), "7.5");
    assert_eq!(val(&s, 1, 8), "1.5");
    assert_eq!(val(&s, 1, 9), "1918");
}
