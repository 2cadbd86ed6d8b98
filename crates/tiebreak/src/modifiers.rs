//! C.07 Art. 14 modifiers (Cut-1, Cut-2, Median-1, Median-2) with the Art. 16.5 exception
//! ("VUR first") for participants who have voluntary unplayed rounds.

use crate::codes::Modifier;

/// One value of a sum that a modifier may cut.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item {
    /// The value added to the sum.
    pub value: i64,
    /// What "least significant" is judged on: the value itself for BH/ARO, the opponent's
    /// score for SB (14.1: "the product for the lowest-scoring opponent").
    pub key: i64,
    /// Whether the round is a voluntary unplayed round (16.1).
    pub vur: bool,
}

/// Which form of the 16.5 exception applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VurRule {
    /// No exception (ARO, Solkoff, seed edition, round robins).
    None,
    /// 16.5.1 (BH, FB): cut the lowest VUR contribution instead of the least significant
    /// value, as long as it is not lower than that value.
    Buchholz,
    /// 16.5.1 (SB): compare the lowest VUR contribution with the least significant value
    /// and cut the higher.
    SonnebornBerger,
}

/// Returns, for each item, whether the modifier cuts it. Cuts are made one at a time and
/// the 16.5 rule is re-applied for each further cut (16.5.2). Median cuts the least
/// significant values first, then the most significant ones (14.3 "in that order").
/// Ties between equal candidates cut the earliest round, which does not change sums.
pub(crate) fn cut_flags(items: &[Item], modifier: Option<Modifier>, rule: VurRule) -> Vec<bool> {
    let mut cut = vec![false; items.len()];
    let (low, high) = match modifier {
        None => return cut,
        Some(Modifier::Cut(n)) => (n as usize, 0),
        Some(Modifier::Median(n)) => (n as usize, n as usize),
    };
    for _ in 0..low {
        let least = (0..items.len())
            .filter(|&x| !cut[x])
            .min_by_key(|&x| (items[x].key, items[x].value, x));
        let Some(least) = least else { break };
        let lowest_vur = (0..items.len())
            .filter(|&x| !cut[x] && items[x].vur)
            .min_by_key(|&x| (items[x].value, x));
        let choice = match (rule, lowest_vur) {
            (VurRule::Buchholz, Some(v)) if items[v].value >= items[least].value => v,
            (VurRule::SonnebornBerger, Some(v)) => {
                if items[v].value >= items[least].value {
                    v
                } else {
                    least
                }
            }
            _ => least,
        };
        cut[choice] = true;
    }
    for _ in 0..high {
        let most = (0..items.len())
            .filter(|&x| !cut[x])
            .max_by_key(|&x| (items[x].key, items[x].value, std::cmp::Reverse(x)));
        let Some(most) = most else { break };
        cut[most] = true;
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn it(value: i64, vur: bool) -> Item {
        Item {
            value,
            key: value,
            vur,
        }
    }

    #[test]
    fn art_14_1_cut_1_drops_lowest() {
        let items = [it(3, false), it(1, false), it(2, false)];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Cut(1)), VurRule::Buchholz),
            [false, true, false]
        );
    }

    #[test]
    fn art_14_3_median_drops_lowest_then_highest() {
        let items = [it(3, false), it(1, false), it(2, false), it(5, false)];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Median(1)), VurRule::None),
            [false, true, false, true]
        );
    }

    #[test]
    fn art_16_5_buchholz_cuts_the_vur_first() {
        // The VUR dummy is worth 4, the lowest opponent 1: Art. 16.5 cuts the VUR (4).
        let items = [it(4, true), it(1, false), it(2, false)];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Cut(1)), VurRule::Buchholz),
            [true, false, false]
        );
        // Without the exception the lowest value goes.
        assert_eq!(
            cut_flags(&items, Some(Modifier::Cut(1)), VurRule::None),
            [false, true, false]
        );
    }

    #[test]
    fn art_16_5_2_reapplied_for_each_cut() {
        // Cut-2 with one VUR: first cut takes the VUR, second the lowest remaining.
        let items = [it(4, true), it(1, false), it(2, false)];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Cut(2)), VurRule::Buchholz),
            [true, true, false]
        );
    }

    #[test]
    fn art_16_5_sonneborn_berger_cuts_the_higher() {
        // SB items: value = product, key = opponent score.
        // Lowest-scoring opponent has key 1 and product 1 (a win against a 1-pointer);
        // the VUR product is 0 (a ZPB): cut the higher of (0, 1) = the opponent's 1.
        let items = [
            Item {
                value: 0,
                key: 3,
                vur: true,
            },
            Item {
                value: 1,
                key: 1,
                vur: false,
            },
            Item {
                value: 2,
                key: 2,
                vur: false,
            },
        ];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Cut(1)), VurRule::SonnebornBerger),
            [false, true, false]
        );
    }

    #[test]
    fn sb_cut_on_equal_opponent_scores_drops_lowest_product() {
        // Two opponents with the same (lowest) score 2: products 2 (win) and 0 (loss):
        // since Aug 2024 the lower product is dropped.
        let items = [
            Item {
                value: 2,
                key: 2,
                vur: false,
            },
            Item {
                value: 0,
                key: 2,
                vur: false,
            },
            Item {
                value: 3,
                key: 3,
                vur: false,
            },
        ];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Cut(1)), VurRule::SonnebornBerger),
            [false, true, false]
        );
    }

    #[test]
    fn more_cuts_than_values_cuts_everything_without_panicking() {
        let items = [it(1, false)];
        assert_eq!(
            cut_flags(&items, Some(Modifier::Median(2)), VurRule::Buchholz),
            [true]
        );
        assert!(cut_flags(&[], Some(Modifier::Cut(2)), VurRule::Buchholz).is_empty());
    }
}
