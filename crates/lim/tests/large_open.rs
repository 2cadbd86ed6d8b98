//! A large open (150 players, 7 rounds: 150 > 2^7, a maxi-tournament) is paired completely, round after
//! round, without rematches, within the search budget.

use lim::{Colour, Player, TournamentState, pair_round};

#[test]
fn large_open_150_players_7_rounds_maxi_tournament() {
    let mut seed: u64 = 0x5eed;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    let mut s = TournamentState {
        total_rounds: 7,
        round: 1,
        initial_colour: Colour::White,
        players: (1..=150).map(|k| Player::new(k, 2600 - 5 * k)).collect(),
    };
    assert!(s.is_maxi_tournament());
    while s.round <= 7 {
        let p = pair_round(&s).expect("a large open is always pairable");
        let idx = |s: &TournamentState, n: u32| {
            s.players
                .iter()
                .position(|x| x.pairing_number == n)
                .unwrap()
        };
        for b in &p.boards {
            let (w, k) = (idx(&s, b.white), idx(&s, b.black));
            assert!(!s.players[w].opponents.contains(&b.black));
            // Higher-rated player wins more often.
            let r = next() % 10;
            let (sw, sb) = if r < 4 {
                if b.white < b.black { (2, 0) } else { (0, 2) }
            } else if r < 7 {
                (1, 1)
            } else if b.white < b.black {
                (0, 2)
            } else {
                (2, 0)
            };
            s.players[w].score_half_points += sw;
            s.players[k].score_half_points += sb;
            s.players[w].colours.push(Colour::White);
            s.players[k].colours.push(Colour::Black);
            s.players[w].opponents.push(b.black);
            s.players[k].opponents.push(b.white);
        }
        assert_eq!(p.boards.len(), 75);
        s.round += 1;
    }
}
