//! The explanation of the fast path (grouped partner searches, one exact matching per
//! rejected decision; ADR pairing-003) against the one-at-a-time search of the plain path
//! (`swiss::EnginePath::Reference`, which asks every candidate in generation order and names
//! what the first rejected one loses on): the same pairing and the same explanation, bracket
//! by bracket, on every round of generated tournaments up to 300 players, both editions;
//! and the fast path's pairing with an explanation is its pairing without one.

use pairings::{generator, trf_input};
use rand::SeedableRng;
use swiss::{Edition, EnginePath, Options, RoundPairing, TournamentState};

fn pair(
    state: &TournamentState,
    edition: Edition,
    path: EnginePath,
    explain: bool,
) -> RoundPairing {
    swiss::pair_with(state, edition, &Options { explain }, path, &mut |_| {})
        .unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn same_explanations(players: u16, rounds: u16, seed: u64, edition: Edition) -> usize {
    let config = generator::GeneratorConfig {
        players,
        rounds,
        ..generator::GeneratorConfig::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let doc = generator::generate(&config, edition, &mut rng, seed).expect("generate");
    let mut decisions = 0;
    for r in 1..=usize::from(rounds) {
        let what = format!("{players} players, seed {seed}, {edition:?}, round {r}");
        let state = trf_input::state_before(&doc, r, edition).expect("state");
        if state.players.iter().all(|p| p.absent) {
            continue;
        }
        let fast = pair(&state, edition, EnginePath::Fast, true);
        let one_at_a_time = pair(&state, edition, EnginePath::Reference, true);
        assert_eq!(
            (&fast.boards, fast.bye),
            (&one_at_a_time.boards, one_at_a_time.bye),
            "{what}: pairing"
        );
        assert_eq!(
            fast.explanation.len(),
            one_at_a_time.explanation.len(),
            "{what}: brackets explained"
        );
        for (i, (f, o)) in fast
            .explanation
            .iter()
            .zip(&one_at_a_time.explanation)
            .enumerate()
        {
            assert_eq!(f, o, "{what}: bracket {}", i + 1);
        }
        let plain = pair(&state, edition, EnginePath::Fast, false);
        assert_eq!(
            (&fast.boards, fast.bye),
            (&plain.boards, plain.bye),
            "{what}: the explanation changed the pairing"
        );
        decisions += fast
            .explanation
            .iter()
            .map(|b| b.decisions.len())
            .sum::<usize>();
    }
    decisions
}

#[test]
fn small_tournaments_explained_as_one_at_a_time_2026() {
    let mut decisions = 0;
    for (players, rounds, seed) in [(20, 7, 1), (33, 9, 2), (48, 10, 3), (61, 8, 4)] {
        decisions += same_explanations(players, rounds, seed, Edition::Dutch2026);
    }
    assert!(
        decisions > 20,
        "the rounds have decisions to explain: {decisions}"
    );
}

#[test]
fn small_tournaments_explained_as_one_at_a_time_2017() {
    let mut decisions = 0;
    for (players, rounds, seed) in [(25, 7, 5), (40, 9, 6)] {
        decisions += same_explanations(players, rounds, seed, Edition::Dutch2017);
    }
    assert!(
        decisions > 5,
        "the rounds have decisions to explain: {decisions}"
    );
}

/// Reduced matchings in the top brackets (as in fast_vs_reference.rs).
#[test]
fn larger_tournament_explained_as_one_at_a_time() {
    same_explanations(130, 6, 7, Edition::Dutch2026);
}

/// Priced matchings (200 players) and 300 players, every round: the plain path takes
/// minutes in a debug build. Run it in release: `cargo test --release -p arbiter-pairings
/// --test explanation_fast_vs_one_at_a_time -- --ignored`.
#[test]
#[ignore = "large: run in release"]
fn up_to_three_hundred_players_explained_as_one_at_a_time() {
    same_explanations(200, 4, 13, Edition::Dutch2026);
    same_explanations(300, 10, 11, Edition::Dutch2026);
    same_explanations(300, 9, 21, Edition::Dutch2017);
}
