//! The worked examples of seed 000, "Le système italo-suisse", as tests.

use italoswiss::{
    Board, Colour, Explanation, ItaloPairing, ItaloSwissState, Player, pair_round,
    rounds_are_enough,
};

fn state(round: u32, total: u32, players: Vec<Player>) -> ItaloSwissState {
    ItaloSwissState {
        total_rounds: total,
        round,
        players,
    }
}

fn fifty() -> ItaloSwissState {
    state(1, 17, (1..=50).map(Player::new).collect())
}

/// Plays round 1 (1-2, 3-4, …, odd numbers White) with `result(white)` = half-points of White.
fn after_round_one(result: impl Fn(u32) -> u32) -> ItaloSwissState {
    let mut s = fifty();
    for w in (1..=49).step_by(2) {
        let b = w + 1;
        let rw = result(w);
        let pw = &mut s.players[(w - 1) as usize];
        pw.colours.push(Colour::White);
        pw.opponents.push(b);
        pw.score_half_points = rw;
        let pb = &mut s.players[(b - 1) as usize];
        pb.colours.push(Colour::Black);
        pb.opponents.push(w);
        pb.score_half_points = 2 - rw;
    }
    s.round = 2;
    s
}

fn has_pair(p: &ItaloPairing, a: u32, b: u32) -> bool {
    p.boards
        .iter()
        .any(|x| (x.white == a && x.black == b) || (x.white == b && x.black == a))
}

#[test]
fn first_round_drawn_numbers_1_2_3_4_up_to_49_50() {
    let p = pair_round(&fifty()).unwrap();
    assert_eq!(p.boards.len(), 25);
    for (k, b) in p.boards.iter().enumerate() {
        let w = 2 * k as u32 + 1;
        // Colour order rule 4: the smaller number has White when nothing else differs.
        assert_eq!(
            *b,
            Board {
                white: w,
                black: w + 1
            }
        );
    }
}

#[test]
fn round_two_a_49_has_a_point_and_meets_1_or_2_if_1_2_was_not_drawn() {
    // White wins everywhere: 49 (the last player of the list to have had White) has 1 point; the
    // next player with a point in the rotation (50 lost) is 1.
    let s = after_round_one(|_| 2);
    let p = pair_round(&s).unwrap();
    assert!(has_pair(&p, 49, 1), "{:?}", p.boards);
    // Never going back: then 3-5, 7-9, …, 43-45; the 25th winner, 47, is left and takes the
    // first possible player of the next group (the 0 group, rotation from its first player, 2).
    assert!(has_pair(&p, 3, 5));
    assert!(has_pair(&p, 43, 45));
    assert!(has_pair(&p, 47, 2), "{:?}", p.boards);
    assert!(p.explanation.contains(&Explanation::AcrossGroups {
        player: 47,
        opponent: 2
    }));
    // And Black's winners of 1-2 variants: 2 wins → 49 meets 2.
    let s = after_round_one(|w| if w == 1 { 0 } else { 2 });
    let p = pair_round(&s).unwrap();
    assert!(has_pair(&p, 49, 2), "{:?}", p.boards);
}

#[test]
fn round_two_a_49_meets_3_or_4_if_1_2_was_drawn() {
    let s = after_round_one(|w| if w == 1 { 1 } else { 2 });
    let p = pair_round(&s).unwrap();
    assert!(has_pair(&p, 49, 3), "{:?}", p.boards);
    let s = after_round_one(|w| match w {
        1 => 1,
        3 => 0,
        _ => 2,
    });
    let p = pair_round(&s).unwrap();
    assert!(has_pair(&p, 49, 4), "{:?}", p.boards);
}

#[test]
fn round_two_b_49_has_no_point_so_3_meets_the_next_player_with_a_point() {
    // 1-2 drawn, 3-4 = 1-0, 49-50 = 0-1, White wins elsewhere: the first player with a point is
    // 3, who meets the next one with a point, 5; and so on, never going back.
    let s = after_round_one(|w| match w {
        1 => 1,
        49 => 0,
        _ => 2,
    });
    let p = pair_round(&s).unwrap();
    let top = p
        .explanation
        .iter()
        .find_map(|e| match e {
            Explanation::Rotation {
                score_half_points: 2,
                order,
            } => Some(order.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        top[0], 3,
        "rotation of the 1-point group starts at 3: {top:?}"
    );
    assert!(has_pair(&p, 3, 5), "{:?}", p.boards);
    assert!(has_pair(&p, 7, 9));
    // The 1-point group is 3, 5, …, 47 (23 players) and 50: 50 closes the rotation; the group
    // is even (24), so nobody leaves it: 47-50.
    assert!(has_pair(&p, 47, 50), "{:?}", p.boards);
}

#[test]
fn later_rounds_pass_over_an_opponent_already_met_then_take_the_next_group() {
    // Round 3 of a 6-player event. Scores: 1, 3 on 2 points (met each other? no), 5 on 2 points:
    // group {1, 3, 5}; 1 met 3 → 1 meets 5 ("on cherche le suivant"); 3 is left and takes the
    // first possible player of the next group.
    let mut ps: Vec<Player> = (1..=6).map(Player::new).collect();
    let history: [(u32, u32, &[u32], &[Colour]); 6] = [
        (1, 4, &[2, 3], &[Colour::White, Colour::Black]),
        (2, 0, &[1, 4], &[Colour::Black, Colour::White]),
        (3, 4, &[4, 1], &[Colour::White, Colour::White]),
        (4, 2, &[3, 2], &[Colour::Black, Colour::Black]),
        (5, 4, &[6], &[Colour::White]),
        (6, 0, &[5], &[Colour::Black]),
    ];
    for (n, score, opps, cols) in history {
        let p = &mut ps[(n - 1) as usize];
        p.score_half_points = score;
        p.opponents = opps.to_vec();
        p.colours = cols.to_vec();
    }
    let p = pair_round(&state(3, 5, ps)).unwrap();
    // Last player of the list with White last: 2 (not in the top group) → the top group's
    // rotation starts at its first player, 1: 1, 3, 5. 1 has met 3 → 1-5. 3 → next group
    // {4} (2 points): 3 met 4 → first possible after: 0 group {2, 6}: rotation starts at 2 (last
    // White): 3-2? 3 has not met 2 → 3-2; then 4-6.
    assert!(has_pair(&p, 1, 5), "{:?}", p.boards);
    assert!(has_pair(&p, 3, 2), "{:?}", p.boards);
    assert!(has_pair(&p, 4, 6), "{:?}", p.boards);
    assert!(p.explanation.contains(&Explanation::AcrossGroups {
        player: 3,
        opponent: 2
    }));
}

#[test]
fn colour_order_fewer_whites_then_latest_black_then_fewer_points_then_smaller_number() {
    let mk = |n: u32, score: u32, cols: &[Colour]| {
        let mut p = Player::new(n);
        p.score_half_points = score;
        p.colours = cols.to_vec();
        p
    };
    use Colour::{Black as B, White as W};
    // 1. Fewer Whites.
    assert_eq!(
        italoswiss::colours::allocate(&mk(1, 2, &[W, W]), &mk(2, 2, &[W, B])),
        (2, 1)
    );
    // 2. Equal Whites: the one who had Black most recently.
    assert_eq!(
        italoswiss::colours::allocate(&mk(1, 2, &[B, W]), &mk(2, 2, &[W, B])),
        (2, 1)
    );
    // 3. Same history: fewer points.
    assert_eq!(
        italoswiss::colours::allocate(&mk(1, 3, &[W, B]), &mk(2, 2, &[W, B])),
        (2, 1)
    );
    // 4. Then the smaller number.
    assert_eq!(
        italoswiss::colours::allocate(&mk(1, 2, &[W, B]), &mk(2, 2, &[W, B])),
        (1, 2)
    );
}

#[test]
fn withdrawal_the_last_of_the_standings_gets_the_point() {
    // 5 present after a withdrawal: the last of the standings (fewest points, then highest
    // number) has the bye.
    let mut ps: Vec<Player> = (1..=6).map(Player::new).collect();
    for (k, p) in ps.iter_mut().enumerate() {
        p.score_half_points = [2, 2, 1, 1, 0, 0][k];
    }
    ps[5].absent = true; // 6 withdrew
    let p = pair_round(&state(2, 5, ps)).unwrap();
    assert_eq!(p.bye, Some(5));
}

#[test]
fn adjourned_game_is_paired_with_one_point() {
    let mut p = Player::new(1);
    p.score_half_points = 1;
    p.adjourned = true;
    assert_eq!(p.pairing_score(), 3);
}

#[test]
fn rounds_not_fewer_than_a_third_of_the_participants() {
    assert!(rounds_are_enough(50, 17));
    assert!(!rounds_are_enough(50, 16));
}

#[test]
fn regrouping_when_the_plain_rotation_leaves_players_without_opponent() {
    // "Si à la fin du tournoi, il y a impossibilité d'appariement…, on peut procéder à des
    // regroupements." Round 3, one group 1, 2, 3, 4; 4 has met 1 and 3. The rotation would give
    // 1-2 and leave 3-4 (already played): regrouped to 1-3, 2-4.
    let mut ps: Vec<Player> = (1..=4).map(Player::new).collect();
    for p in &mut ps {
        p.score_half_points = 2;
    }
    ps[0].opponents = vec![4];
    ps[2].opponents = vec![4];
    ps[3].opponents = vec![1, 3];
    let p = pair_round(&state(3, 5, ps)).unwrap();
    assert!(has_pair(&p, 1, 3) && has_pair(&p, 2, 4), "{:?}", p.boards);
    assert!(p.explanation.contains(&Explanation::Regrouped));
}

#[test]
fn invalid_input_is_a_typed_error_naming_the_player() {
    use italoswiss::ItaloSwissError;
    let mut ps: Vec<Player> = (1..=2).map(Player::new).collect();
    ps[0].opponents = vec![1];
    assert_eq!(
        pair_round(&state(2, 5, ps)),
        Err(ItaloSwissError::UnknownOpponent {
            player: 1,
            opponent: 1
        })
    );
    let mut ps: Vec<Player> = (1..=2).map(Player::new).collect();
    ps[1].number = 0;
    assert_eq!(
        pair_round(&state(1, 5, ps)),
        Err(ItaloSwissError::ZeroNumber { position: 1 })
    );
    // Two players who have met, last round: no pairing at all.
    let mut ps: Vec<Player> = (1..=2).map(Player::new).collect();
    ps[0].opponents = vec![2];
    ps[1].opponents = vec![1];
    assert_eq!(
        pair_round(&state(2, 2, ps)),
        Err(ItaloSwissError::NoLegalPairing { present: 2 })
    );
}
