//! Seed 000, "Procédé d'établissement des rondes" (x = ronde + 1, y = joueurs + ronde) and the
//! seed's colour laws, checked against the Berger table generator for 2–60 players: same pairs,
//! same colours, same bye, in every round.

use std::collections::BTreeSet;

use roundrobin::berger_table;
use roundrobin::seed_procedure::seed_procedure_round;

#[test]
fn seed_000_x_y_procedure_agrees_with_berger_generator_2_to_60_players() {
    for n in 2..=60u32 {
        for round in berger_table(n).unwrap() {
            let by_seed = seed_procedure_round(n, round.number).unwrap();
            let by_table: BTreeSet<(u32, u32)> =
                round.games.iter().map(|g| (g.white, g.black)).collect();
            assert_eq!(
                by_seed.pairs, by_table,
                "{n} players, round {}",
                round.number
            );
            assert_eq!(
                by_seed.bye, round.bye,
                "{n} players, round {}",
                round.number
            );
        }
    }
}

#[test]
fn seed_procedure_rejects_bad_input() {
    assert!(seed_procedure_round(1, 1).is_err());
    assert!(seed_procedure_round(10, 0).is_err());
    assert!(seed_procedure_round(10, 10).is_err());
}
