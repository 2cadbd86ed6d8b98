//! The search the Lim, Italo-Swiss and draughts Swiss systems share: the first pairing of a
//! list of players in the order their rules try opponents, and the first set of players to
//! leave out of a score group (the floaters) in the order their rules propose them.
//!
//! The rules of a system come in through [`PairingOrder`]: who may meet, the opponents to try
//! for the first player still unpaired, and a step budget. The look-ahead
//! ([`perfectly_matchable`], Edmonds' blossom) passes over a choice after which the others
//! cannot all be paired; it changes no result — the search still returns the first complete
//! pairing in the rules' order — it only keeps the search from backtracking exponentially.
//!
//! | what | where |
//! |---|---|
//! | the rules of one system's search | [`PairingOrder`] |
//! | the first complete pairing in the rules' order | [`first_pairing`], [`OrderedPairing`] |
//! | the `k`-subsets of a list in lexicographic order of positions, until one is taken | [`first_subset`] |
//! | a score group paired with the fewest players left out, the first set in the rules' order | [`fewest_left_out`], [`GroupPairing`] |
//!
//! Pure and deterministic; no input makes these functions panic (a panic inside the caller's
//! rules is the caller's).

use crate::{maximum_matching_size, perfectly_matchable};

/// The rules of one system's pairing search.
pub trait PairingOrder {
    /// What stops the search (the system's "step budget exceeded").
    type Error;

    /// Whether `a` and `b` may meet (called with `a != b`; the predicate should be symmetric).
    fn may_meet(&self, a: usize, b: usize) -> bool;

    /// The opponents to try for `rest[0]` (never empty when called), in the order the rules
    /// try them; each should be a member of `rest[1..]`.
    fn opponents(&self, rest: &[usize]) -> Vec<usize>;

    /// One step of the search: called once each time the search takes a list to pair (and
    /// once per set of players left out that [`fewest_left_out`] tries); an error ends the
    /// search with it.
    ///
    /// # Errors
    /// The system's own, typically when its step budget is spent.
    fn step(&mut self) -> Result<(), Self::Error>;
}

/// The first complete pairing of a list, and whether the search got there directly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderedPairing {
    /// The pairs in the order they were formed, the player paired first on the left.
    pub pairs: Vec<(usize, usize)>,
    /// Whether some opponent the rules tried and who may meet his player was given up because
    /// the others could not all be paired after it (a "regrouping").
    pub revised: bool,
}

/// The first complete pairing of `players` in the order of `rules`: the first player takes
/// the first opponent of [`PairingOrder::opponents`] he may meet after whom the others can
/// still all be paired, and so on down the list; a dead end (only possible when `opponents`
/// leaves some players out) goes back to the next choice. `None` when no complete pairing
/// exists in that order.
///
/// # Errors
/// The first error of [`PairingOrder::step`].
pub fn first_pairing<R: PairingOrder + ?Sized>(
    rules: &mut R,
    players: &[usize],
) -> Result<Option<OrderedPairing>, R::Error> {
    let mut pairs = Vec::with_capacity(players.len() / 2);
    let mut revised = false;
    let found = depth_first(rules, players, &mut pairs, &mut revised)?;
    Ok(found.then_some(OrderedPairing { pairs, revised }))
}

/// Pairs `rest` after `pairs`; on success `pairs` holds the whole pairing.
fn depth_first<R: PairingOrder + ?Sized>(
    rules: &mut R,
    rest: &[usize],
    pairs: &mut Vec<(usize, usize)>,
    revised: &mut bool,
) -> Result<bool, R::Error> {
    rules.step()?;
    let Some(&top) = rest.first() else {
        return Ok(true);
    };
    for c in rules.opponents(rest) {
        if c == top || !rules.may_meet(top, c) {
            continue;
        }
        let next: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&x| x != top && x != c)
            .collect();
        if !perfectly_matchable(&next, &|a, b| a != b && rules.may_meet(a, b)) {
            *revised = true;
            continue;
        }
        pairs.push((top, c));
        if depth_first(rules, &next, pairs, revised)? {
            return Ok(true);
        }
        pairs.pop();
        *revised = true;
    }
    Ok(false)
}

/// What [`first_subset`] hands each subset to: `Some` takes it and ends the search.
pub type SubsetTry<'f, T, E> = &'f mut dyn FnMut(&[usize]) -> Result<Option<T>, E>;

/// Hands the `k`-subsets of `items` to `take`, in lexicographic order of their positions
/// (for `[a, b, c]` and `k = 2`: `[a, b]`, `[a, c]`, `[b, c]`), until `take` returns `Some`;
/// that value is the answer. `None` when `take` takes none (or `k > items.len()`); `k = 0`
/// hands over the empty subset once.
///
/// # Errors
/// The first error of `take`, which ends the search.
pub fn first_subset<T, E>(
    items: &[usize],
    k: usize,
    take: SubsetTry<'_, T, E>,
) -> Result<Option<T>, E> {
    fn from<T, E>(
        items: &[usize],
        k: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        take: SubsetTry<'_, T, E>,
    ) -> Result<Option<T>, E> {
        if chosen.len() == k {
            return take(chosen);
        }
        let need = k - chosen.len();
        for i in start..items.len() {
            if items.len() - i < need {
                break;
            }
            chosen.push(items[i]);
            if let Some(t) = from(items, k, i + 1, chosen, take)? {
                return Ok(Some(t));
            }
            chosen.pop();
        }
        Ok(None)
    }
    if k > items.len() {
        return Ok(None);
    }
    from(items, k, 0, &mut Vec::with_capacity(k), take)
}

/// A score group paired by [`fewest_left_out`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupPairing {
    /// The players who may meet nobody else in the group, in group order: always left out.
    pub unpairable: Vec<usize>,
    /// The other players left out, in the order of the rules' proposal.
    pub left_out: Vec<usize>,
    /// Whether `left_out` is the rules' first proposal: the fewest players that make the
    /// group even, the first of the proposal order. Otherwise the rules' pairing of the
    /// first proposal failed and more or other players had to be left out.
    pub first_choice: bool,
    /// The pairing of the others ([`first_pairing`]'s, in the rules' order).
    pub pairs: Vec<(usize, usize)>,
}

/// Pairs the score group `group` (oriented: `group[0]` is paired first) with as few players
/// left out as possible, trying each number of players left out from the fewest a maximum
/// matching allows, and for each number the subsets of `proposal` (the order in which the
/// rules propose players to leave the group; the players who may meet nobody in the group
/// are taken out of it and always left out) in [`first_subset`]'s order; the first set after
/// which [`first_pairing`] pairs the rest is the answer.
///
/// With `must_complete` only a pairing of the whole group is an answer, and `None` says there
/// is none; a group that need not be complete always has an answer (at worst everybody left
/// out).
///
/// # Errors
/// The first error of [`PairingOrder::step`].
pub fn fewest_left_out<R: PairingOrder + ?Sized>(
    rules: &mut R,
    group: &[usize],
    proposal: &[usize],
    must_complete: bool,
) -> Result<Option<GroupPairing>, R::Error> {
    let n = group.len();
    let may_meet = |rules: &R, a: usize, b: usize| a != b && rules.may_meet(a, b);
    let unpairable: Vec<usize> = group
        .iter()
        .copied()
        .filter(|&i| !group.iter().any(|&j| may_meet(rules, i, j)))
        .collect();
    let proposal: Vec<usize> = proposal
        .iter()
        .copied()
        .filter(|i| !unpairable.contains(i))
        .collect();
    let mut start = unpairable.len();
    if (n - start) % 2 == 1 {
        start += 1;
    }
    // The fewest players left out possible: what a maximum matching leaves over.
    let max_pairs = maximum_matching_size(n, &|a, b| may_meet(rules, group[a], group[b]));
    let mut f = start.max(n.saturating_sub(2 * max_pairs));
    while f <= n {
        if must_complete && f > 0 {
            return Ok(None);
        }
        let extra = f - unpairable.len();
        let found = first_subset(&proposal, extra, &mut |chosen: &[usize]| {
            let rest: Vec<usize> = group
                .iter()
                .copied()
                .filter(|i| !unpairable.contains(i) && !chosen.contains(i))
                .collect();
            if !perfectly_matchable(&rest, &|a, b| may_meet(rules, a, b)) {
                return Ok(None);
            }
            rules.step()?;
            Ok(first_pairing(rules, &rest)?.map(|p| (p.pairs, chosen.to_vec())))
        })?;
        if let Some((pairs, left_out)) = found {
            let first_choice = f == start && left_out.iter().zip(&proposal).all(|(a, b)| a == b);
            return Ok(Some(GroupPairing {
                unpairable,
                left_out,
                first_choice,
                pairs,
            }));
        }
        f += 2;
    }
    if must_complete {
        return Ok(None);
    }
    // Not reached: leaving everybody out pairs the empty rest. Kept total: everybody left out.
    Ok(Some(GroupPairing {
        unpairable: group.to_vec(),
        left_out: Vec::new(),
        first_choice: false,
        pairs: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Players `0..n` where the pairs in `met` may not meet; opponents tried in list order;
    /// a step budget.
    struct InOrder<'a> {
        met: &'a [(usize, usize)],
        steps: u64,
        budget: u64,
    }

    impl PairingOrder for InOrder<'_> {
        type Error = u64;
        fn may_meet(&self, a: usize, b: usize) -> bool {
            !self.met.contains(&(a.min(b), a.max(b)))
        }
        fn opponents(&self, rest: &[usize]) -> Vec<usize> {
            rest[1..].to_vec()
        }
        fn step(&mut self) -> Result<(), u64> {
            self.steps += 1;
            if self.steps > self.budget {
                Err(self.budget)
            } else {
                Ok(())
            }
        }
    }

    fn rules(met: &[(usize, usize)]) -> InOrder<'_> {
        InOrder {
            met,
            steps: 0,
            budget: u64::MAX,
        }
    }

    #[test]
    fn first_subset_goes_in_lexicographic_order_of_positions() {
        let mut seen = Vec::new();
        let none: Result<Option<()>, ()> = first_subset(&[7, 8, 9], 2, &mut |s| {
            seen.push(s.to_vec());
            Ok(None)
        });
        assert_eq!(none, Ok(None));
        assert_eq!(seen, vec![vec![7, 8], vec![7, 9], vec![8, 9]]);
    }

    #[test]
    fn first_subset_stops_at_the_first_taken_and_hands_the_empty_subset_once() {
        let mut tried = 0;
        let got: Result<_, ()> = first_subset(&[1, 2, 3, 4], 2, &mut |s| {
            tried += 1;
            Ok((s[1] == 3).then(|| s.to_vec()))
        });
        assert_eq!(got, Ok(Some(vec![1, 3])));
        assert_eq!(tried, 2);
        let mut empties = 0;
        let got: Result<Option<()>, ()> = first_subset(&[1, 2], 0, &mut |s| {
            assert!(s.is_empty());
            empties += 1;
            Ok(None)
        });
        assert_eq!((got, empties), (Ok(None), 1));
        // More than there are: nothing to hand over.
        let got: Result<Option<()>, ()> = first_subset(&[1], 2, &mut |_| Ok(Some(())));
        assert_eq!(got, Ok(None));
        // An error ends the search.
        let got: Result<Option<()>, &str> = first_subset(&[1, 2, 3], 1, &mut |_| Err("stop"));
        assert_eq!(got, Err("stop"));
    }

    #[test]
    fn first_pairing_takes_the_rules_order_and_passes_over_dead_ends() {
        // Nobody has met: 0-1, 2-3.
        let got = first_pairing(&mut rules(&[]), &[0, 1, 2, 3])
            .unwrap()
            .unwrap();
        assert_eq!(got.pairs, vec![(0, 1), (2, 3)]);
        assert!(!got.revised);
        // 2 and 3 have met: 0-1 would leave them, so 0 takes 2, then 1-3.
        let got = first_pairing(&mut rules(&[(2, 3)]), &[0, 1, 2, 3])
            .unwrap()
            .unwrap();
        assert_eq!(got.pairs, vec![(0, 2), (1, 3)]);
        assert!(got.revised);
        // 0 has met everybody: no pairing.
        let met = [(0, 1), (0, 2), (0, 3)];
        assert_eq!(first_pairing(&mut rules(&met), &[0, 1, 2, 3]), Ok(None));
        // The empty list is paired at once.
        let got = first_pairing(&mut rules(&[]), &[]).unwrap().unwrap();
        assert!(got.pairs.is_empty());
    }

    #[test]
    fn first_pairing_counts_a_step_per_list_and_stops_at_the_budget() {
        let mut r = rules(&[]);
        first_pairing(&mut r, &[0, 1, 2, 3, 4, 5]).unwrap();
        // Lists of 6, 4, 2 and 0 players.
        assert_eq!(r.steps, 4);
        let mut r = InOrder {
            met: &[],
            steps: 0,
            budget: 3,
        };
        assert_eq!(first_pairing(&mut r, &[0, 1, 2, 3, 4, 5]), Err(3));
    }

    #[test]
    fn first_pairing_never_pairs_a_player_with_himself_or_beyond_the_order() {
        struct Odd;
        impl PairingOrder for Odd {
            type Error = ();
            fn may_meet(&self, _: usize, _: usize) -> bool {
                true
            }
            // Offers the first player himself, then nobody else but the last.
            fn opponents(&self, rest: &[usize]) -> Vec<usize> {
                vec![rest[0], rest[rest.len() - 1]]
            }
            fn step(&mut self) -> Result<(), ()> {
                Ok(())
            }
        }
        let got = first_pairing(&mut Odd, &[0, 1, 2, 3]).unwrap().unwrap();
        assert_eq!(got.pairs, vec![(0, 3), (1, 2)]);
        assert_eq!(first_pairing(&mut Odd, &[0]).unwrap(), None);
    }

    #[test]
    fn fewest_left_out_leaves_the_first_proposed_player_of_an_odd_group() {
        // Five players, proposals from the bottom: 4 leaves, 0-1, 2-3.
        let got = fewest_left_out(&mut rules(&[]), &[0, 1, 2, 3, 4], &[4, 3, 2, 1, 0], false)
            .unwrap()
            .unwrap();
        assert!(got.unpairable.is_empty());
        assert_eq!(got.left_out, vec![4]);
        assert!(got.first_choice);
        assert_eq!(got.pairs, vec![(0, 1), (2, 3)]);
    }

    #[test]
    fn fewest_left_out_moves_on_when_the_first_proposal_fails() {
        // 3 has met 0, 1 and 2: leaving 4 out cannot pair 3, so 3 leaves instead.
        let met = [(0, 3), (1, 3), (2, 3)];
        let got = fewest_left_out(&mut rules(&met), &[0, 1, 2, 3, 4], &[4, 3, 2, 1, 0], false)
            .unwrap()
            .unwrap();
        assert_eq!(got.left_out, vec![3]);
        assert!(!got.first_choice);
        assert_eq!(got.pairs, vec![(0, 1), (2, 4)]);
    }

    #[test]
    fn fewest_left_out_always_leaves_out_who_may_meet_nobody() {
        // 0 has met everybody; 1, 2, 3 make an odd rest, so the first proposal (3) leaves too.
        let met = [(0, 1), (0, 2), (0, 3)];
        let got = fewest_left_out(&mut rules(&met), &[0, 1, 2, 3], &[3, 2, 1, 0], false)
            .unwrap()
            .unwrap();
        assert_eq!(got.unpairable, vec![0]);
        assert_eq!(got.left_out, vec![3]);
        assert!(got.first_choice);
        assert_eq!(got.pairs, vec![(1, 2)]);
    }

    #[test]
    fn fewest_left_out_starts_from_what_a_maximum_matching_leaves() {
        // A star: 0 has not met 1, 2, 3; those three have all met. One pair at most: two
        // players leave, the first pair of the proposal that lets the others be paired.
        let met = [(1, 2), (1, 3), (2, 3)];
        let got = fewest_left_out(&mut rules(&met), &[0, 1, 2, 3], &[3, 2, 1, 0], false)
            .unwrap()
            .unwrap();
        assert_eq!(got.left_out, vec![3, 2]);
        assert!(!got.first_choice);
        assert_eq!(got.pairs, vec![(0, 1)]);
    }

    #[test]
    fn fewest_left_out_of_a_group_that_must_be_complete() {
        let got = fewest_left_out(&mut rules(&[]), &[0, 1, 2, 3], &[3, 2, 1, 0], true)
            .unwrap()
            .unwrap();
        assert_eq!(got.pairs, vec![(0, 1), (2, 3)]);
        assert!(got.left_out.is_empty() && got.first_choice);
        assert_eq!(
            fewest_left_out(&mut rules(&[]), &[0, 1, 2], &[2, 1, 0], true),
            Ok(None)
        );
        let got = fewest_left_out(&mut rules(&[]), &[], &[], true)
            .unwrap()
            .unwrap();
        assert!(got.pairs.is_empty());
    }

    #[test]
    fn fewest_left_out_stops_at_the_budget() {
        let mut r = InOrder {
            met: &[],
            steps: 0,
            budget: 1,
        };
        assert_eq!(
            fewest_left_out(&mut r, &[0, 1, 2, 3], &[3, 2, 1, 0], false),
            Err(1)
        );
    }

    #[test]
    fn first_pairing_is_the_first_perfect_matching_in_the_order_of_a_brute_force() {
        // Every 6-player graph on a few edge sets: the search's pairing is the first, in the
        // order "first player takes the lowest opponent", of all perfect pairings by brute force.
        fn all(rest: &[usize], ok: &dyn Fn(usize, usize) -> bool) -> Option<Vec<(usize, usize)>> {
            let Some((&top, others)) = rest.split_first() else {
                return Some(Vec::new());
            };
            for &c in others {
                if !ok(top, c) {
                    continue;
                }
                let next: Vec<usize> = others.iter().copied().filter(|&x| x != c).collect();
                if let Some(mut m) = all(&next, ok) {
                    m.insert(0, (top, c));
                    return Some(m);
                }
            }
            None
        }
        let pairs: Vec<(usize, usize)> = (0..6)
            .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
            .collect();
        for mask in 0u32..(1 << 15) {
            if mask % 7 != 0 {
                continue;
            }
            let met: Vec<(usize, usize)> = pairs
                .iter()
                .enumerate()
                .filter(|(k, _)| mask & (1 << k) != 0)
                .map(|(_, &p)| p)
                .collect();
            let mut r = rules(&met);
            let ok = |a: usize, b: usize| !met.contains(&(a.min(b), a.max(b)));
            let got = first_pairing(&mut r, &[0, 1, 2, 3, 4, 5]).unwrap();
            assert_eq!(got.map(|p| p.pairs), all(&[0, 1, 2, 3, 4, 5], &ok));
        }
    }
}
