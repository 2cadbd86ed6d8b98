//! The worked examples and rules of seed 002 (Annex V, official Swiss system of the draughts
//! federations, FMJD 1986) as tests with the seed's expected results.

use draughtsswiss::{
    Acceleration, Board, Colour, Direction, DraughtsPairing, DraughtsSwissState, Explanation, Game,
    InitialOrder, Participant, pair_round, pairings_in_priority_order, ranking, solkoff,
    sonneborn_berger,
};
use std::collections::BTreeMap;

fn state(round: u32, total: u32, participants: Vec<Participant>) -> DraughtsSwissState {
    DraughtsSwissState {
        total_rounds: total,
        round,
        first_colour: Colour::White,
        initial_order: InitialOrder::RankingList,
        acceleration: Acceleration::None,
        participants,
        haley_group_a: Vec::new(),
    }
}

fn unordered(boards: &[Board]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    v.sort_unstable();
    v
}

fn alternate(k: usize) -> Colour {
    if k.is_multiple_of(2) {
        Colour::White
    } else {
        Colour::Black
    }
}

/// Six participants 1..=6 alone in one score group before round 6: every one has drawn five
/// games (5 points), alternating colours, against the given group members and otherwise
/// against absent participants 7..=11 who also have 5 points. Solkoff and Sonneborn-Berger are
/// then equal for all six, so the group is in identification order.
fn six_group(meetings: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut ps: Vec<Participant> = (1..=11).map(Participant::new).collect();
    for d in &mut ps[6..] {
        d.absent = true;
        d.extra_points = 5;
    }
    let mut opps: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for &(a, b) in meetings {
        opps.entry(a).or_default().push(b);
        opps.entry(b).or_default().push(a);
    }
    for p in 1..=6u32 {
        let mut list = opps.get(&p).cloned().unwrap_or_default();
        let mut filler = 7;
        while list.len() < 5 {
            list.push(filler);
            filler += 1;
        }
        ps[(p - 1) as usize].games = list
            .iter()
            .enumerate()
            .map(|(k, &o)| Game {
                opponent: o,
                colour: Some(alternate(k)),
                points: 1,
            })
            .collect();
    }
    let p = pair_round(&state(6, 9, ps)).expect("pairable");
    unordered(&p.boards)
}

#[test]
fn art_6_1_25_the_fifteen_pairings_of_a_group_of_six_in_priority_order() {
    let expected: Vec<Vec<(u32, u32)>> = vec![
        vec![(1, 4), (2, 5), (3, 6)],
        vec![(1, 4), (2, 6), (3, 5)],
        vec![(1, 4), (2, 3), (5, 6)],
        vec![(1, 5), (2, 4), (3, 6)],
        vec![(1, 5), (2, 6), (3, 4)],
        vec![(1, 5), (2, 3), (4, 6)],
        vec![(1, 6), (2, 4), (3, 5)],
        vec![(1, 6), (2, 5), (3, 4)],
        vec![(1, 6), (2, 3), (4, 5)],
        vec![(1, 3), (2, 5), (4, 6)],
        vec![(1, 3), (2, 6), (4, 5)],
        vec![(1, 3), (2, 4), (5, 6)],
        vec![(1, 2), (3, 5), (4, 6)],
        vec![(1, 2), (3, 6), (4, 5)],
        vec![(1, 2), (3, 4), (5, 6)],
    ];
    assert_eq!(pairings_in_priority_order(6).unwrap(), expected);
}

#[test]
fn art_6_1_19_strongest_against_first_below_the_middle_1_4_2_5_3_6() {
    assert_eq!(six_group(&[]), vec![(1, 4), (2, 5), (3, 6)]);
}

#[test]
fn art_6_1_20_if_1_met_4_then_1_5_2_4_3_6() {
    assert_eq!(six_group(&[(1, 4)]), vec![(1, 5), (2, 4), (3, 6)]);
}

#[test]
fn art_6_1_21_if_1_met_4_and_5_then_1_6_2_4_3_5() {
    assert_eq!(six_group(&[(1, 4), (1, 5)]), vec![(1, 6), (2, 4), (3, 5)]);
}

#[test]
fn art_6_1_22_if_1_met_the_whole_lower_half_then_1_3_2_5_4_6() {
    assert_eq!(
        six_group(&[(1, 4), (1, 5), (1, 6)]),
        vec![(1, 3), (2, 5), (4, 6)]
    );
}

#[test]
fn art_6_1_23_if_1_also_met_3_then_1_2_3_5_4_6() {
    assert_eq!(
        six_group(&[(1, 4), (1, 5), (1, 6), (1, 3)]),
        vec![(1, 2), (3, 5), (4, 6)]
    );
}

#[test]
fn art_6_1_25_a_pairing_that_makes_the_group_insoluble_is_passed_over() {
    // 1-4 is allowed, but then 2 (who met 3, 5, 6) has nobody: option (4) 1-5 2-4 3-6.
    assert_eq!(
        six_group(&[(2, 3), (2, 5), (2, 6)]),
        vec![(1, 5), (2, 4), (3, 6)]
    );
}

#[test]
fn art_6_1_24_the_same_principle_for_the_second_player() {
    // 2 met 5: (2) 1-4 2-6 3-5.
    assert_eq!(six_group(&[(2, 5)]), vec![(1, 4), (2, 6), (3, 5)]);
}

// --- Art. 8: scoring; art. 4.1/6.1.5: Solkoff and Sonneborn-Berger. ---

#[test]
fn art_8_1_and_8_2_win_2_draw_1_loss_0_rest_2() {
    let mut p = Participant::new(1);
    p.games = vec![
        Game {
            opponent: 2,
            colour: Some(Colour::White),
            points: 2,
        },
        Game {
            opponent: 3,
            colour: Some(Colour::Black),
            points: 1,
        },
        Game {
            opponent: 4,
            colour: Some(Colour::White),
            points: 0,
        },
    ];
    p.rests = 1;
    assert_eq!(p.score(), 5);
}

#[test]
fn art_4_1_solkoff_and_sonneborn_berger_by_hand() {
    // 1 beat 2 (now 4 points), drew with 3 (now 3 points), lost to 4 (now 6 points).
    let mut p = Participant::new(1);
    p.games = vec![
        Game {
            opponent: 2,
            colour: Some(Colour::White),
            points: 2,
        },
        Game {
            opponent: 3,
            colour: Some(Colour::Black),
            points: 1,
        },
        Game {
            opponent: 4,
            colour: Some(Colour::White),
            points: 0,
        },
        Game {
            opponent: 5,
            colour: None,
            points: 2,
        }, // forfeit win: not counted
    ];
    let scores: BTreeMap<u32, u32> = [(2, 4), (3, 3), (4, 6), (5, 0)].into_iter().collect();
    assert_eq!(solkoff(&p, &scores), 4 + 3 + 6);
    // 2×4 + 1×3 + 0×6 = 11 (twice the classical 4 + 1.5).
    assert_eq!(sonneborn_berger(&p, &scores), 11);
}

#[test]
fn art_6_1_5_order_inside_a_score_group_by_solkoff_then_sonneborn_berger() {
    // Before round 3: 1 and 2 both 2 points; 1 met stronger opponents (higher Solkoff).
    // 1: beat 3, lost to 4.  2: lost to 5, beat 6.  Scores: 3 → 0+2=2, 4 → 4, 5 → 4, 6 → 2.
    let mut ps: Vec<Participant> = (1..=6).map(Participant::new).collect();
    let g = |o, c, pts| Game {
        opponent: o,
        colour: Some(c),
        points: pts,
    };
    ps[0].games = vec![g(3, Colour::White, 2), g(4, Colour::Black, 0)];
    ps[1].games = vec![g(5, Colour::White, 0), g(6, Colour::Black, 2)];
    ps[2].games = vec![g(1, Colour::Black, 0), g(6, Colour::White, 2)];
    ps[3].games = vec![g(2, Colour::Black, 2), g(1, Colour::White, 2)];
    ps[4].games = vec![g(2, Colour::Black, 2), g(6, Colour::White, 2)];
    ps[5].games = vec![g(5, Colour::Black, 0), g(3, Colour::Black, 0)];
    // Scores first: 4 and 5 have 4 points. Then the 2-point group by Solkoff:
    // 1: 2 (no. 3) + 4 (no. 4) = 6; 2: 4 (no. 5) + 0 (no. 6) = 4; 3: 2 (no. 1) + 0 (no. 6) = 2.
    let order = ranking(&state(3, 5, ps));
    assert_eq!(&order[..2], &[4, 5]);
    let two_pointers: Vec<u32> = order
        .iter()
        .copied()
        .filter(|id| [1, 2, 3].contains(id))
        .collect();
    assert_eq!(two_pointers, vec![1, 2, 3]);
}

// --- Art. 5 and 7: first round. ---

#[test]
fn art_5_6_and_7_1_3_first_round_upper_half_against_lower_half_odd_places_take_the_drawn_colour() {
    let p = pair_round(&state(1, 5, (1..=8).map(Participant::new).collect())).unwrap();
    assert_eq!(
        p.boards,
        vec![
            Board { white: 1, black: 5 },
            Board { white: 6, black: 2 },
            Board { white: 3, black: 7 },
            Board { white: 8, black: 4 },
        ]
    );
}

#[test]
fn art_5_3_first_round_odd_number_the_last_rests() {
    let p = pair_round(&state(1, 5, (1..=9).map(Participant::new).collect())).unwrap();
    assert_eq!(p.rest, Some(9));
    assert_eq!(unordered(&p.boards), vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
}

#[test]
fn art_5_7_and_7_2_1_drawn_lots_1_2_3_4_odd_numbers_white() {
    let mut s = state(1, 5, (1..=6).map(Participant::new).collect());
    s.initial_order = InitialOrder::DrawnLots;
    let p = pair_round(&s).unwrap();
    assert_eq!(
        p.boards,
        vec![
            Board { white: 1, black: 2 },
            Board { white: 3, black: 4 },
            Board { white: 5, black: 6 }
        ]
    );
}

// --- Art. 6.1.6: median group and order of groups; 6.1.7–6.1.11 odd groups. ---

/// Round 3 of 5 with the given (id, score, opponents) and alternating colours, 2/1/0 scale.
/// The games carry 0 points and the score is set through `extra_points`, so Sonneborn-Berger is
/// 0 for everybody and the order inside a group is by Solkoff, then identification number.
fn round_three(spec: &[(u32, u32, &[u32])]) -> DraughtsPairing {
    let ps: Vec<Participant> = spec
        .iter()
        .map(|&(id, score, opps)| {
            let mut p = Participant::new(id);
            p.games = opps
                .iter()
                .enumerate()
                .map(|(k, &o)| Game {
                    opponent: o,
                    colour: Some(alternate(k + id as usize)),
                    points: 0,
                })
                .collect();
            p.extra_points = score;
            p
        })
        .collect();
    pair_round(&state(3, 5, ps)).unwrap()
}

fn group_order(p: &DraughtsPairing) -> Vec<(u32, Direction, bool)> {
    p.explanation
        .iter()
        .filter_map(|e| match e {
            Explanation::GroupPaired {
                pairing_score,
                direction,
                median,
                ..
            } => Some((*pairing_score, *direction, *median)),
            _ => None,
        })
        .collect()
}

fn floats(p: &DraughtsPairing) -> Vec<u32> {
    p.explanation
        .iter()
        .filter_map(|e| match e {
            Explanation::Floated { participant, .. } => Some(*participant),
            _ => None,
        })
        .collect()
}

#[test]
fn art_6_1_6_groups_above_top_down_then_below_bottom_up_then_the_median() {
    // Scores 4,4 | 3,3 | 2,2,2,2 | 1,1 | 0,0: twelve participants; the median participant is the
    // lower of the two middle ones (6.1.6): the 7th, on 2 points.
    let none: &[u32] = &[];
    let spec: Vec<(u32, u32, &[u32])> = vec![
        (1, 4, none),
        (2, 4, none),
        (3, 3, none),
        (4, 3, none),
        (5, 2, none),
        (6, 2, none),
        (7, 2, none),
        (8, 2, none),
        (9, 1, none),
        (10, 1, none),
        (11, 0, none),
        (12, 0, none),
    ];
    let p = round_three(&spec);
    assert_eq!(
        group_order(&p),
        vec![
            (4, Direction::Down, false),
            (3, Direction::Down, false),
            (0, Direction::Up, false),
            (1, Direction::Up, false),
            (2, Direction::Down, true),
        ]
    );
    assert_eq!(
        unordered(&p.boards),
        vec![(1, 2), (3, 4), (5, 7), (6, 8), (9, 10), (11, 12)]
    );
}

#[test]
fn art_6_1_7_odd_upper_group_lowest_descends_against_the_best_of_the_next_group_not_met() {
    // 4 points: 1, 2, 3 (each met one 2-point participant, so their Solkoff is equal: order
    // 1, 2, 3). 2 points (median): 4..=8. 0: 9, 10. 3 has met 4.
    // Lower group order (Solkoff): 4, 6, 7 (each met a 4-point participant), then 5, 8.
    let none: &[u32] = &[];
    let spec: Vec<(u32, u32, &[u32])> = vec![
        (1, 4, &[6]),
        (2, 4, &[7]),
        (3, 4, &[4]),
        (4, 2, &[3]),
        (5, 2, none),
        (6, 2, &[1]),
        (7, 2, &[2]),
        (8, 2, none),
        (9, 0, none),
        (10, 0, none),
    ];
    let p = round_three(&spec);
    assert_eq!(floats(&p), vec![3]);
    let pairs = unordered(&p.boards);
    assert!(pairs.contains(&(1, 2)), "{pairs:?}");
    assert!(
        pairs.contains(&(3, 6)),
        "3 meets the best of the lower group he has not met (6): {pairs:?}"
    );
}

#[test]
fn art_6_1_9_if_the_lowest_met_the_whole_lower_group_the_next_one_up_descends() {
    let none: &[u32] = &[];
    let spec: Vec<(u32, u32, &[u32])> = vec![
        (1, 4, none),
        (2, 4, none),
        (3, 4, &[4, 5]),
        (4, 2, &[3]),
        (5, 2, &[3]),
        (6, 0, none),
        (7, 0, none),
        (8, 0, none),
    ];
    // Groups: 4 points {1,2,3}, 2 points {4,5} (median: 8 present, 5th = 4... ), 0 {6,7,8}.
    let p = round_three(&spec);
    let f = floats(&p);
    assert_eq!(
        f[0], 2,
        "3 met all of the lower group, so 2 descends: {:?}",
        p.explanation
    );
    let pairs = unordered(&p.boards);
    assert!(pairs.contains(&(1, 3)), "{pairs:?}");
}

#[test]
fn art_6_1_11_odd_lower_group_best_rises_against_the_lowest_of_the_group_above_not_met() {
    // 4 points: 1, 2. 2 points (median, the 6th of 10): 3, 4, 5, 6. 1 point: 10.
    // 0 points: 7, 8, 9 — odd and below the median: its best-ranked, 7 (Solkoff 2), rises and
    // meets the lowest-ranked of the group above that he has not met: 10.
    let none: &[u32] = &[];
    let spec: Vec<(u32, u32, &[u32])> = vec![
        (1, 4, none),
        (2, 4, none),
        (3, 2, none),
        (4, 2, none),
        (5, 2, none),
        (6, 2, &[7]),
        (7, 0, &[6]),
        (8, 0, none),
        (9, 0, none),
        (10, 1, none),
    ];
    let p = round_three(&spec);
    assert_eq!(floats(&p), vec![7], "{:?}", p.explanation);
    let pairs = unordered(&p.boards);
    assert!(pairs.contains(&(7, 10)), "{pairs:?}");
    assert!(pairs.contains(&(8, 9)), "{pairs:?}");
}

// --- Art. 7.1: colours after round 1. ---

fn two_with_colours(a: &[Colour], b: &[Colour], order: InitialOrder) -> Board {
    let mk = |id: u32, cs: &[Colour], opp0: u32| {
        let mut p = Participant::new(id);
        p.games = cs
            .iter()
            .enumerate()
            .map(|(k, &c)| Game {
                opponent: opp0 + k as u32,
                colour: Some(c),
                points: 1,
            })
            .collect();
        p
    };
    let mut ps = vec![mk(1, a, 10), mk(2, b, 20)];
    for id in (10..10 + a.len() as u32).chain(20..20 + b.len() as u32) {
        let mut d = Participant::new(id);
        d.absent = true;
        ps.push(d);
    }
    let mut s = state(a.len() as u32 + 1, 9, ps);
    s.initial_order = order;
    pair_round(&s).unwrap().boards[0]
}

use Colour::{Black as B, White as W};

#[test]
fn art_7_1_5_equalising_colour_first_and_the_better_ranked_has_priority() {
    // Both have had White once more than Black: both need Black; 1 is better ranked and gets it.
    assert_eq!(
        two_with_colours(&[W], &[W], InitialOrder::RankingList),
        Board { white: 2, black: 1 }
    );
    // Different needs: both satisfied.
    assert_eq!(
        two_with_colours(&[B], &[W], InitialOrder::RankingList),
        Board { white: 1, black: 2 }
    );
}

#[test]
fn art_7_1_6_after_equal_colours_the_colour_of_the_first_round() {
    // 1: W B (equal, first White) → White; 2: B W (equal, first Black) → Black.
    assert_eq!(
        two_with_colours(&[W, B], &[B, W], InitialOrder::RankingList),
        Board { white: 1, black: 2 }
    );
}

#[test]
fn art_7_1_6_never_three_times_the_same_colour_in_a_row() {
    // 1 (better ranked): W B W B, equal, first game White → claims White (7.1.6).
    // 2: W W B B, equal, first game White → also White, and Black would be a third in a row:
    // the absolute rule beats the better-ranked participant's priority.
    assert_eq!(
        two_with_colours(&[W, B, W, B], &[W, W, B, B], InitialOrder::RankingList),
        Board { white: 2, black: 1 }
    );
    // Without the third-in-a-row problem the better-ranked participant has priority.
    assert_eq!(
        two_with_colours(&[W, B, W, B], &[W, B, W, B], InitialOrder::RankingList),
        Board { white: 1, black: 2 }
    );
}

#[test]
fn art_7_2_4_lot_undecided_colour_by_the_sum_of_the_numbers() {
    // Lot: 1 and 2 both alternate to White after B (same claim): 1 + 2 = 3 is odd, so the larger
    // number (2) has Black.
    assert_eq!(
        two_with_colours(&[B], &[B], InitialOrder::DrawnLots),
        Board { white: 1, black: 2 }
    );
}

// --- Art. 9.1: quarters; art. 9.2: Haley. ---

#[test]
fn art_9_1_1_quarters_first_round_first_against_second_third_against_fourth() {
    let mut s = state(1, 5, (1..=16).map(Participant::new).collect());
    s.acceleration = Acceleration::Quarter;
    let p = pair_round(&s).unwrap();
    assert_eq!(
        unordered(&p.boards),
        vec![
            (1, 5),
            (2, 6),
            (3, 7),
            (4, 8),
            (9, 13),
            (10, 14),
            (11, 15),
            (12, 16)
        ]
    );
    assert!(p.haley_group_a.is_empty());
}

#[test]
fn art_9_1_2_quarters_again_while_the_top_group_is_larger_than_the_rounds_left() {
    // Round 2 of 3 with 16 participants: 8 winners (1–4 and 9–12) on 2 points > 2 rounds left.
    let mut s = state(1, 3, (1..=16).map(Participant::new).collect());
    s.acceleration = Acceleration::Quarter;
    let r1 = pair_round(&s).unwrap();
    apply_results(
        &mut s,
        &r1,
        |w, b| if w.min(b) == w { (2, 0) } else { (0, 2) },
    );
    let r2 = pair_round(&s).unwrap();
    let pairs = unordered(&r2.boards);
    // Winners in identification order: 1 2 3 4 9 10 11 12 → quarters {1,2} {3,4} {9,10} {11,12}.
    for pair in [(1, 3), (2, 4), (9, 11), (10, 12)] {
        assert!(pairs.contains(&pair), "{pair:?} in {pairs:?}");
    }
    assert!(r2.explanation.iter().any(|e| matches!(
        e,
        Explanation::GroupPaired {
            by_quarters: true,
            ..
        }
    )));
}

/// Records results (`points(white, black)` gives the points of each) and moves to the next round.
fn apply_results(
    s: &mut DraughtsSwissState,
    p: &DraughtsPairing,
    mut points: impl FnMut(u32, u32) -> (u32, u32),
) {
    for b in &p.boards {
        let (pw, pb) = points(b.white, b.black);
        let iw = s.participants.iter().position(|x| x.id == b.white).unwrap();
        let ib = s.participants.iter().position(|x| x.id == b.black).unwrap();
        s.participants[iw].games.push(Game {
            opponent: b.black,
            colour: Some(Colour::White),
            points: pw,
        });
        s.participants[ib].games.push(Game {
            opponent: b.white,
            colour: Some(Colour::Black),
            points: pb,
        });
    }
    if let Some(r) = p.rest {
        let i = s.participants.iter().position(|x| x.id == r).unwrap();
        s.participants[i].rests += 1;
    }
    s.round += 1;
}

#[test]
fn art_9_2_haley_ranking_points_for_two_rounds_then_removed() {
    let mut s = state(1, 5, (1..=16).map(Participant::new).collect());
    s.acceleration = Acceleration::Haley;
    let r1 = pair_round(&s).unwrap();
    // 9.2.3: section A = packets 1 and 2, section B = packets 3 and 4.
    assert_eq!(
        unordered(&r1.boards),
        vec![
            (1, 5),
            (2, 6),
            (3, 7),
            (4, 8),
            (9, 13),
            (10, 14),
            (11, 15),
            (12, 16)
        ]
    );
    assert_eq!(r1.haley_group_a, (1..=8).collect::<Vec<u32>>());
    s.haley_group_a = r1.haley_group_a.clone();
    // The lower number wins every game except 4-8 (draw) and 12-16 (draw).
    apply_results(&mut s, &r1, |w, b| {
        let (lo, hi) = (w.min(b), w.max(b));
        if (lo, hi) == (4, 8) || (lo, hi) == (12, 16) {
            (1, 1)
        } else if w == lo {
            (2, 0)
        } else {
            (0, 2)
        }
    });
    let r2 = pair_round(&s).unwrap();
    // 9.2.4/9.2.5: pairing scores 4 (1,2,3), 3 (4,8), 2 (5,6,7 lost in A; 9,10,11 won in B),
    // 1 (12,16), 0 (13,14,15); paired top-down, the lowest group last.
    let groups: Vec<(u32, Vec<u32>)> = r2
        .explanation
        .iter()
        .filter_map(|e| match e {
            Explanation::GroupPaired {
                pairing_score,
                participants,
                direction,
                ..
            } => {
                assert_eq!(*direction, Direction::Down);
                Some((*pairing_score, participants.clone()))
            }
            _ => None,
        })
        .collect();
    let scores: Vec<u32> = groups.iter().map(|g| g.0).collect();
    assert_eq!(scores, vec![4, 3, 2, 1, 0]);
    let two: &Vec<u32> = &groups[2].1;
    for id in [5, 6, 7, 9, 10, 11] {
        assert!(
            two.contains(&id),
            "the 2-point group holds A's losers and B's winners: {two:?}"
        );
    }
    // 9.2.7: from round 3 the ranking points are gone: basic system with the median.
    apply_results(&mut s, &r2, |_, _| (1, 1));
    let r3 = pair_round(&s).unwrap();
    assert!(r3.explanation.iter().any(|e| matches!(
        e,
        Explanation::GroupPaired {
            direction: Direction::Up,
            ..
        }
    )));
}

#[test]
fn art_6_1_27_strongest_who_met_his_whole_group_meets_the_strongest_of_the_next_group_not_met() {
    // Round 4 of 5. 4 points: 1, 2, 3, 4 — 1 has met 2, 3 and 4. 2 points (median): 5, 6, 7, 8.
    let mut ps: Vec<Participant> = (1..=8).map(Participant::new).collect();
    let g = |o: u32, k: usize| Game {
        opponent: o,
        colour: Some(alternate(k)),
        points: 0,
    };
    ps[0].games = vec![g(2, 0), g(3, 1), g(4, 2)];
    for (k, id) in [2u32, 3, 4].into_iter().enumerate() {
        ps[(id - 1) as usize].games = vec![g(1, k + 1)];
    }
    for (k, p) in ps.iter_mut().enumerate() {
        p.extra_points = if k < 4 { 4 } else { 2 };
    }
    let p = pair_round(&state(4, 5, ps)).unwrap();
    let reasons: Vec<(u32, draughtsswiss::FloatReason)> = p
        .explanation
        .iter()
        .filter_map(|e| match e {
            Explanation::Floated {
                participant,
                reason,
                ..
            } => Some((*participant, *reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        reasons,
        vec![
            (1, draughtsswiss::FloatReason::MetWholeGroup),
            (4, draughtsswiss::FloatReason::OddGroup)
        ]
    );
    assert_eq!(unordered(&p.boards), vec![(1, 5), (2, 3), (4, 6), (7, 8)]);
}

#[test]
fn invalid_input_is_a_typed_error_naming_the_participant() {
    use draughtsswiss::DraughtsSwissError;
    let mut ps: Vec<Participant> = (1..=3).map(Participant::new).collect();
    ps[1].games.push(Game {
        opponent: 7,
        colour: Some(Colour::White),
        points: 2,
    });
    assert_eq!(
        pair_round(&state(2, 5, ps)),
        Err(DraughtsSwissError::UnknownOpponent {
            participant: 2,
            opponent: 7
        })
    );
    let mut ps: Vec<Participant> = (1..=2).map(Participant::new).collect();
    ps[0].games.push(Game {
        opponent: 2,
        colour: Some(Colour::White),
        points: 3,
    });
    assert!(matches!(
        pair_round(&state(2, 5, ps)),
        Err(DraughtsSwissError::InconsistentHistory { participant: 1, .. })
    ));
    assert_eq!(
        pair_round(&state(0, 5, Vec::new())),
        Err(DraughtsSwissError::RoundOutOfRange {
            round: 0,
            total_rounds: 5
        })
    );
}

#[test]
fn a_large_event_of_120_participants_is_paired_every_round() {
    let mut s = state(1, 9, (1..=120).map(Participant::new).collect());
    let mut seed: u64 = 7;
    while s.round <= 9 {
        let p = pair_round(&s).expect("pairable");
        assert_eq!(p.boards.len(), 60);
        apply_results(&mut s, &p, |w, b| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            match (seed >> 33) % 3 {
                0 => (1, 1),
                _ if w < b => (2, 0),
                _ => (0, 2),
            }
        });
    }
}

#[test]
fn art_7_2_2_lot_after_an_odd_round_the_b_sub_group_plays_the_n_sub_group() {
    // Lot-drawn event, round 1: 1-2, 3-4, 5-6, 7-8 (odd numbers White). 1 and 7 win with White,
    // 4 and 6 with Black. Winners {1, 4, 6, 7}: B = {1, 7}, N = {4, 6}. Best against worst
    // (6.2.2) would give 1-7, both B; 7.2.2 makes it 1-6 and 4-7. Losers {2, 3, 5, 8}:
    // N = {2, 8}, B = {3, 5}: 2-5 and 3-8 instead of 2-8.
    let mut s = state(1, 5, (1..=8).map(Participant::new).collect());
    s.initial_order = InitialOrder::DrawnLots;
    let r1 = pair_round(&s).unwrap();
    apply_results(
        &mut s,
        &r1,
        |w, _| if w == 1 || w == 7 { (2, 0) } else { (0, 2) },
    );
    let r2 = pair_round(&s).unwrap();
    assert_eq!(unordered(&r2.boards), vec![(1, 6), (2, 5), (3, 8), (4, 7)]);
    // Everybody gets the equalising colour.
    for b in &r2.boards {
        assert_eq!(
            b.white % 2,
            0,
            "the even numbers had Black in round 1: {:?}",
            r2.boards
        );
    }
}

#[test]
fn art_8_4_withdrawal_the_last_who_has_not_met_the_withdrawn_participant_gets_the_two_points() {
    // Before round 2: 1-2 and 3-4 won by White, 6-5 won by 6 (White). 6 then withdraws, leaving
    // five. The 0-point group is {2, 4, 5} (equal Solkoff 2, so by number): the last is 5, but 5
    // has met the withdrawn 6, so the two points go to the next one up, 4.
    let g = |o: u32, c: Colour, p: u32| Game {
        opponent: o,
        colour: Some(c),
        points: p,
    };
    let build = |withdrawn: bool| {
        let mut ps: Vec<Participant> = (1..=6).map(Participant::new).collect();
        for (w, b) in [(1, 2), (3, 4), (6, 5)] {
            ps[(w - 1) as usize].games.push(g(b, Colour::White, 2));
            ps[(b - 1) as usize].games.push(g(w, Colour::Black, 0));
        }
        ps[5].withdrawn = withdrawn;
        ps[5].absent = !withdrawn;
        state(2, 5, ps)
    };
    let p = pair_round(&build(true)).unwrap();
    assert_eq!(p.rest, Some(4), "{:?}", p.explanation);
    // Merely absent (not withdrawn): the last of the ranking, 5, rests (art. 5.4).
    let p = pair_round(&build(false)).unwrap();
    assert_eq!(p.rest, Some(5), "{:?}", p.explanation);
}

#[test]
fn art_6_2_2_lot_drawn_event_the_best_meets_the_worst_of_his_group() {
    // Four participants on 2 points before round 3, each drew with absent 5 and 6 (5 and 6 on 2
    // points): equal Solkoff and Sonneborn-Berger, so the group is 1, 2, 3, 4 → 1-4, 2-3.
    let mut ps: Vec<Participant> = (1..=6).map(Participant::new).collect();
    for p in ps.iter_mut().take(4) {
        p.games = vec![
            Game {
                opponent: 5,
                colour: Some(Colour::White),
                points: 1,
            },
            Game {
                opponent: 6,
                colour: Some(Colour::Black),
                points: 1,
            },
        ];
    }
    for d in &mut ps[4..] {
        d.absent = true;
        d.extra_points = 2;
    }
    let mut s = state(3, 5, ps);
    s.initial_order = InitialOrder::DrawnLots;
    let p = pair_round(&s).unwrap();
    assert_eq!(unordered(&p.boards), vec![(1, 4), (2, 3)]);
}
