//! Every worked example of seed 000, "Règlements pour les tournois au système suisse (Système
//! Lim)", as a test with the seed's expected result.

use lim::{
    Board, Colour, Explanation, FloatDirection, FloatReason, Player, TournamentState, pair_round,
};

/// `n` present players numbered 1..=n, ratings falling by 10 from 2400, no history.
fn players(n: u32) -> Vec<Player> {
    (1..=n).map(|k| Player::new(k, 2400 - 10 * k)).collect()
}

fn state(round: u32, total_rounds: u32, players: Vec<Player>) -> TournamentState {
    TournamentState {
        total_rounds,
        round,
        initial_colour: Colour::White,
        players,
    }
}

/// Records that `a` and `b` have met (symmetric).
fn met(ps: &mut [Player], a: u32, b: u32) {
    ps[(a - 1) as usize].opponents.push(b);
    ps[(b - 1) as usize].opponents.push(a);
}

/// The pairs of a pairing as (smaller number, larger number), sorted: colours ignored, as in the
/// seed's exchange tables.
fn unordered(boards: &[Board]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    v.sort_unstable();
    v
}

/// Six players alone in the median scoregroup of round 6 (all on 2½ of 5), no colour history,
/// with the given games already played among them.
fn six_in_one_group(meetings: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut ps = players(6);
    for p in &mut ps {
        p.score_half_points = 5;
    }
    for &(a, b) in meetings {
        met(&mut ps, a, b);
    }
    let p = pair_round(&state(6, 9, ps)).expect("pairable");
    unordered(&p.boards)
}

// --- Art. 11.2: the exchanges to find a compatible opponent for no. 1 (columns 1–5). ---

#[test]
fn art_11_2_column_1_proposed_pairing_1_4_2_5_3_6() {
    assert_eq!(six_in_one_group(&[]), vec![(1, 4), (2, 5), (3, 6)]);
}

#[test]
fn art_11_2_column_2_if_1_4_incompatible_exchange_4_and_5() {
    assert_eq!(six_in_one_group(&[(1, 4)]), vec![(1, 5), (2, 4), (3, 6)]);
}

#[test]
fn art_11_2_column_3_then_1_6_2_4_3_5() {
    assert_eq!(
        six_in_one_group(&[(1, 4), (1, 5)]),
        vec![(1, 6), (2, 4), (3, 5)]
    );
}

#[test]
fn art_11_2_column_4_then_1_3_2_5_4_6() {
    assert_eq!(
        six_in_one_group(&[(1, 4), (1, 5), (1, 6)]),
        vec![(1, 3), (2, 5), (4, 6)]
    );
}

#[test]
fn art_11_2_column_5_then_1_2_3_5_4_6() {
    assert_eq!(
        six_in_one_group(&[(1, 4), (1, 5), (1, 6), (1, 3)]),
        vec![(1, 2), (3, 5), (4, 6)]
    );
}

// --- Art. 11.3: no. 1 has found 6; the exchanges for no. 2 (columns 1–5). ---

const ONE_HAS_SIX: [(u32, u32); 2] = [(1, 4), (1, 5)];

fn one_has_six_and(more: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut m = ONE_HAS_SIX.to_vec();
    m.extend_from_slice(more);
    six_in_one_group(&m)
}

#[test]
fn art_11_3_column_1_1_6_2_4_3_5() {
    assert_eq!(one_has_six_and(&[]), vec![(1, 6), (2, 4), (3, 5)]);
}

#[test]
fn art_11_3_column_2_1_6_2_5_3_4() {
    assert_eq!(one_has_six_and(&[(2, 4)]), vec![(1, 6), (2, 5), (3, 4)]);
}

#[test]
fn art_11_3_column_3_1_6_2_3_4_5() {
    assert_eq!(
        one_has_six_and(&[(2, 4), (2, 5)]),
        vec![(1, 6), (2, 3), (4, 5)]
    );
}

#[test]
fn art_11_3_column_4_1_3_2_6_4_5_keeping_1_compatible() {
    assert_eq!(
        one_has_six_and(&[(2, 4), (2, 5), (2, 3)]),
        vec![(1, 3), (2, 6), (4, 5)]
    );
}

#[test]
fn art_11_3_column_5_1_2_3_5_4_6() {
    // 1 has met 4 and 5; 2 has met 3, 4, 5 and 6: only 1-2 leaves everybody paired.
    assert_eq!(
        one_has_six_and(&[(2, 4), (2, 5), (2, 3), (2, 6)]),
        vec![(1, 2), (3, 5), (4, 6)]
    );
}

// --- Art. 11.4: no compatible opponent for no. 2 can be found while keeping no. 1 paired. ---

/// Round 6 of 9: players 1..=k are above the median (4 points = 8 half-points), 11..=14 form
/// the median group (2½ = 5 half-points). 1 and 2 have met each other and everybody in their
/// group except 6.
fn eleven_four(group_size: u32) -> lim::RoundPairing {
    let mut ps: Vec<Player> = players(14);
    for p in &mut ps {
        p.score_half_points = if p.pairing_number <= group_size { 8 } else { 5 };
        if p.pairing_number > group_size && p.pairing_number < 11 {
            p.absent = true;
        }
    }
    for other in 3..=group_size {
        if other != 6 {
            met(&mut ps, 1, other);
            met(&mut ps, 2, other);
        }
    }
    met(&mut ps, 1, 2);
    pair_round(&state(6, 9, ps)).expect("pairable")
}

fn floated(p: &lim::RoundPairing) -> Vec<(u32, FloatReason)> {
    p.explanation
        .iter()
        .filter_map(|e| match e {
            Explanation::Floated { player, reason, .. } => Some((*player, *reason)),
            _ => None,
        })
        .collect()
}

#[test]
fn art_11_4_b_even_group_keeps_1_6_and_2_floats_with_the_lowest_remaining_player() {
    let p = eleven_four(6);
    let pairs = unordered(&p.boards);
    assert!(pairs.contains(&(1, 6)), "{pairs:?}");
    assert!(pairs.contains(&(3, 4)), "{pairs:?}");
    let mut f: Vec<u32> = floated(&p).into_iter().map(|(x, _)| x).collect();
    f.sort_unstable();
    assert_eq!(f, vec![2, 5]);
    assert!(
        floated(&p)
            .iter()
            .all(|&(_, r)| r == FloatReason::ExchangesExhausted)
    );
}

#[test]
fn art_11_4_a_odd_group_2_takes_the_place_of_the_floater_7() {
    let p = eleven_four(7);
    let pairs = unordered(&p.boards);
    // 1-6 is kept, 7 (the original floater) comes back into the group, 2 floats instead;
    // the rest of the group is paired by art. 9.4: 3-5, 4-7.
    for pair in [(1, 6), (3, 5), (4, 7)] {
        assert!(pairs.contains(&pair), "{pair:?} missing in {pairs:?}");
    }
    assert_eq!(floated(&p), vec![(2, FloatReason::ExchangesExhausted)]);
}

// --- Art. 14: first round. ---

#[test]
fn art_14_2_forty_players_drawn_white_gives_1_21_22_2_up_to_40_20() {
    let p = pair_round(&state(1, 9, players(40))).unwrap();
    assert_eq!(p.bye, None);
    assert_eq!(p.boards.len(), 20);
    assert_eq!(
        p.boards[0],
        Board {
            white: 1,
            black: 21
        }
    );
    assert_eq!(
        p.boards[1],
        Board {
            white: 22,
            black: 2
        }
    );
    assert_eq!(
        p.boards[19],
        Board {
            white: 40,
            black: 20
        }
    );
    for (k, b) in p.boards.iter().enumerate() {
        let top = k as u32 + 1;
        let expected = if top % 2 == 1 {
            Board {
                white: top,
                black: top + 20,
            }
        } else {
            Board {
                white: top + 20,
                black: top,
            }
        };
        assert_eq!(*b, expected);
    }
}

#[test]
fn art_14_2_forty_players_drawn_black_gives_21_1_2_22_23_3_up_to_20_40() {
    let mut s = state(1, 9, players(40));
    s.initial_colour = Colour::Black;
    let p = pair_round(&s).unwrap();
    assert_eq!(
        p.boards[0],
        Board {
            white: 21,
            black: 1
        }
    );
    assert_eq!(
        p.boards[1],
        Board {
            white: 2,
            black: 22
        }
    );
    assert_eq!(
        p.boards[2],
        Board {
            white: 23,
            black: 3
        }
    );
    assert_eq!(
        p.boards[19],
        Board {
            white: 20,
            black: 40
        }
    );
}

#[test]
fn art_14_1_odd_number_lowest_in_the_list_gets_the_bye() {
    let p = pair_round(&state(1, 5, players(7))).unwrap();
    assert_eq!(p.bye, Some(7));
    assert_eq!(unordered(&p.boards), vec![(1, 4), (2, 5), (3, 6)]);
}

// --- Art. 15.3: second round, 1 point group, then 0, then the median ½ last. ---

#[test]
fn art_15_3_second_round_order_is_one_point_then_zero_then_half_point_median() {
    // Round 1 of 8 players: 1-5 1-0, 6-2 ½-½, 3-7 0-1, 8-4 0-1.
    let mut ps = players(8);
    let games = [(1, 5, 2, 0), (6, 2, 1, 1), (3, 7, 0, 2), (8, 4, 0, 2)];
    for (w, b, sw, sb) in games {
        ps[w as usize - 1].colours.push(Colour::White);
        ps[b as usize - 1].colours.push(Colour::Black);
        ps[w as usize - 1].score_half_points = sw;
        ps[b as usize - 1].score_half_points = sb;
        met(&mut ps, w, b);
    }
    let p = pair_round(&state(2, 5, ps)).unwrap();
    let order: Vec<(u32, FloatDirection, bool)> = p
        .explanation
        .iter()
        .filter_map(|e| match e {
            Explanation::ScoregroupPaired {
                score_half_points,
                direction,
                median,
                ..
            } => Some((*score_half_points, *direction, *median)),
            _ => None,
        })
        .collect();
    assert_eq!(
        order,
        vec![
            (2, FloatDirection::Down, false),
            (0, FloatDirection::Up, false),
            (1, FloatDirection::Down, true)
        ]
    );
    // 1 point: 1 (due Black), 4 and 7 (due White): art. 10.2 floats the lowest player of the
    // majority colour, 7; 1-4. 0 points, paired upwards: 8, 5, 3 → 3 (highest, majority colour
    // Black) floats up; 8-5. Median ½: downfloater 7 first, with the highest resident due the
    // other colour (art. 10.8): 6; then 2-3.
    assert_eq!(unordered(&p.boards), vec![(1, 4), (2, 3), (5, 8), (6, 7)]);
    assert_eq!(p.boards[0], Board { white: 4, black: 1 });
}

// --- Art. 12: colours in a later round. ---

#[test]
fn art_12_3_same_colour_twice_must_get_the_other_colour() {
    // Round 3: 1 had White twice, 2 had Black then White; both 1 point.
    let mut ps = players(2);
    ps[0].colours = vec![Colour::White, Colour::White];
    ps[1].colours = vec![Colour::Black, Colour::White];
    for p in &mut ps {
        p.score_half_points = 2;
    }
    let p = pair_round(&state(3, 5, ps)).unwrap();
    assert_eq!(p.boards, vec![Board { white: 2, black: 1 }]);
}

#[test]
fn art_12_4_identical_histories_higher_ranked_gets_alternation_at_or_above_median() {
    let mut ps = players(2);
    for p in &mut ps {
        p.colours = vec![Colour::White, Colour::Black];
        p.score_half_points = 2;
    }
    let p = pair_round(&state(3, 5, ps.clone())).unwrap();
    assert_eq!(p.boards, vec![Board { white: 1, black: 2 }]);
    // Below the median (both on 0 with four players, the other two on 2 points).
    let mut four = players(4);
    for p in &mut four {
        p.colours = vec![Colour::White, Colour::Black];
    }
    four[0].score_half_points = 4;
    four[1].score_half_points = 4;
    let p = pair_round(&state(3, 5, four)).unwrap();
    assert!(p.boards.contains(&Board { white: 1, black: 2 }));
    assert!(
        p.boards.contains(&Board { white: 4, black: 3 }),
        "{:?}",
        p.boards
    );
}

#[test]
fn art_12_4_different_histories_go_back_to_the_last_round_they_differed() {
    // Both had Black last round (both due White, same strength). Round 1: 1 had White, 2 had
    // Black: each gets the colour opposite to that round: 1 Black, 2 White.
    let mut ps = players(2);
    ps[0].colours = vec![Colour::White, Colour::Black, Colour::White, Colour::Black];
    ps[1].colours = vec![Colour::Black, Colour::White, Colour::White, Colour::Black];
    for p in &mut ps {
        p.score_half_points = 4;
    }
    let p = pair_round(&state(5, 7, ps)).unwrap();
    // Latest round with different colours is round 2 (1 Black, 2 White) → 1 White, 2 Black.
    assert_eq!(p.boards, vec![Board { white: 1, black: 2 }]);
}

// --- Art. 10.2: floater for colour balance; maxi-tournament 100-point rule. ---

/// Round 3 of `rounds`: players 1, 2, 3 on 2 points (above the median), 4, 5, 6 on 1 point
/// (median). Due colours in the top group: 1 and 2 White, 3 Black. Extra absent players make
/// the field `field` strong.
fn colour_float(rounds: u32, field: u32, rating_3: u32) -> lim::RoundPairing {
    let mut ps = players(field);
    for p in &mut ps {
        p.absent = p.pairing_number > 6;
    }
    for p in &mut ps[..3] {
        p.score_half_points = 4;
    }
    for p in &mut ps[3..6] {
        p.score_half_points = 2;
    }
    ps[0].colours = vec![Colour::White, Colour::Black];
    ps[1].colours = vec![Colour::White, Colour::Black];
    ps[2].colours = vec![Colour::Black, Colour::White];
    ps[2].rating = rating_3;
    ps[1].rating = 2300;
    pair_round(&state(3, rounds, ps)).unwrap()
}

fn first_float(p: &lim::RoundPairing) -> u32 {
    floated(p)[0].0
}

#[test]
fn art_10_2_odd_group_floats_a_player_of_the_majority_colour() {
    // Two players due White, one due Black: the floater is due White, the lowest such: 2.
    let p = colour_float(5, 6, 2290);
    assert_eq!(first_float(&p), 2);
}

#[test]
fn art_10_2_maxi_tournament_more_than_100_points_makes_the_lowest_the_floater() {
    // 40 players for 5 rounds: 40 > 2^5, a maxi-tournament. Player 2 (2300) is 200 points above
    // the lowest player of the group, 3 (2100): 3 floats.
    let p = colour_float(5, 40, 2100);
    assert_eq!(first_float(&p), 3);
    // Within 100 points the colour rule applies again.
    let p = colour_float(5, 40, 2250);
    assert_eq!(first_float(&p), 2);
}

#[test]
fn art_9_6_and_8_everyone_is_paired_or_has_the_bye() {
    let p = pair_round(&state(1, 3, players(5))).unwrap();
    assert_eq!(p.bye, Some(5));
    assert_eq!(p.boards.len(), 2);
}

// --- Art. 9.6: a blocked median group is extended step by step. ---

#[test]
fn art_9_6_blocked_median_group_undoes_the_next_pairing_of_the_group_above() {
    // Round 3 of 5 (median 1 point = 2 half-points): 1, 2 on 2 points; 3, 4 on 1 point and have
    // met; 5, 6 on 0. No floaters from either side (0 is not greater than 0), so the pairing of
    // the group above is undone and 1, 2 join the median group: 1-3, 2-4.
    let mut ps = players(6);
    for (k, p) in ps.iter_mut().enumerate() {
        p.score_half_points = [4, 4, 2, 2, 0, 0][k];
    }
    met(&mut ps, 3, 4);
    let p = pair_round(&state(3, 5, ps)).unwrap();
    assert!(p.explanation.contains(&Explanation::MedianExtended {
        undone: (1, 2),
        from_score_half_points: 4
    }));
    assert_eq!(unordered(&p.boards), vec![(1, 3), (2, 4), (5, 6)]);
}

// --- Art. 13: last round exception; art. 9.1 otherwise. ---

/// Two players on the same score who both had White in the last two rounds.
fn both_white_twice(round: u32, total: u32) -> TournamentState {
    let mut ps = players(2);
    for p in &mut ps {
        p.colours = vec![Colour::White, Colour::White];
        p.score_half_points = 2;
    }
    state(round, total, ps)
}

#[test]
fn art_9_1_players_who_would_break_the_colour_limits_are_not_compatible() {
    assert_eq!(
        pair_round(&both_white_twice(3, 5)),
        Err(lim::LimError::NoLegalPairing { present: 2 })
    );
}

#[test]
fn art_13_last_round_same_score_pairing_beats_the_colour_limits() {
    let p = pair_round(&both_white_twice(3, 3)).unwrap();
    assert_eq!(unordered(&p.boards), vec![(1, 2)]);
}

// --- Art. 8.2: no second bye, none after a forfeit win. ---

#[test]
fn art_8_2_a_player_who_had_a_bye_or_a_forfeit_win_does_not_get_the_bye() {
    let mut ps = players(5);
    ps[4].bye_ineligible = true; // no. 5 had a forfeit win
    let p = pair_round(&state(1, 5, ps)).unwrap();
    assert_eq!(p.bye, Some(4));
}

#[test]
fn invalid_input_is_a_typed_error_naming_the_player() {
    let mut ps = players(3);
    ps[1].opponents.push(9);
    assert_eq!(
        pair_round(&state(2, 5, ps)),
        Err(lim::LimError::UnknownOpponent {
            player: 2,
            opponent: 9
        })
    );
    let mut ps = players(3);
    ps[2].pairing_number = 1;
    assert_eq!(
        pair_round(&state(1, 5, ps)),
        Err(lim::LimError::DuplicatePairingNumber { pairing_number: 1 })
    );
    assert_eq!(
        pair_round(&state(6, 5, players(2))),
        Err(lim::LimError::RoundOutOfRange {
            round: 6,
            total_rounds: 5
        })
    );
}
