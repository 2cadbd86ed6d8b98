//! The blossom look-ahead agrees with brute force on random small graphs.

use lim::maximum_matching::maximum_matching_size;
use proptest::prelude::*;

fn brute(n: usize, adj: &dyn Fn(usize, usize) -> bool, used: &mut Vec<bool>) -> usize {
    let Some(v) = (0..n).find(|&v| !used[v]) else {
        return 0;
    };
    used[v] = true;
    let mut best = brute(n, adj, used); // v stays unmatched
    for u in 0..n {
        if !used[u] && adj(v, u) {
            used[u] = true;
            best = best.max(1 + brute(n, adj, used));
            used[u] = false;
        }
    }
    used[v] = false;
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn blossom_matches_brute_force(n in 0usize..11, bits in any::<u64>(), density in 1u64..4) {
        let edge = |a: usize, b: usize| {
            let (x, y) = (a.min(b), a.max(b));
            let h = bits.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left((x * 11 + y) as u32 % 64);
            a != b && h % 4 < density
        };
        let mut used = vec![false; n];
        prop_assert_eq!(maximum_matching_size(n, &edge), brute(n, &edge, &mut used));
    }
}

#[test]
fn odd_cycle_blossom() {
    // A 5-cycle with a pendant: 0-1-2-3-4-0 and 4-5: perfect matching of 6 exists.
    let e = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (4, 5)];
    let adj = |a: usize, b: usize| e.contains(&(a, b)) || e.contains(&(b, a));
    assert_eq!(maximum_matching_size(6, &adj), 3);
}
