//! Standard knockout seeding: "1 contre N" (seed 000, "Playoff" 3: "1 contre 4 et 2 contre 3";
//! 7: "1 contre 8, 2 contre 7, 3 contre 6 et 4 contre 5") laid out so that seeds 1 and 2 can only
//! meet in the final, 1–4 only in the semi-finals, and so on (ADR
//! `docs/decisions/knockout-001-bracket-seeding-and-preliminary-round.md`).

use crate::KnockoutError;

/// Largest bracket size handled (2^16 slots).
pub const MAX_BRACKET_SIZE: usize = 1 << 16;

/// The seeds in bracket position order for a bracket of `size` slots (a power of two).
///
/// Built recursively: `[1]`, then every seed `s` of the bracket of half size is followed by its
/// first-round opponent `size + 1 − s`. For 8: `1 8 4 5 2 7 3 6`, i.e. round 1 is
/// 1–8, 4–5, 2–7, 3–6 and the winners of 1–8 and 4–5 meet in the semi-final.
///
/// # Errors
/// [`KnockoutError::PlayerCountOutOfRange`] if `size` is not a power of two in `1..=2^16`.
pub fn bracket_order(size: usize) -> Result<Vec<u32>, KnockoutError> {
    if size == 0 || !size.is_power_of_two() || size > MAX_BRACKET_SIZE {
        return Err(KnockoutError::PlayerCountOutOfRange {
            what: "a knockout bracket (power of two)",
            got: size,
            min: 1,
            max: MAX_BRACKET_SIZE,
        });
    }
    let mut order: Vec<u32> = vec![1];
    while order.len() < size {
        let next = u32::try_from(order.len() * 2 + 1).unwrap_or(u32::MAX);
        order = order.iter().flat_map(|&s| [s, next - s]).collect();
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000, "Playoff" 3: four players, "1 contre 4 et 2 contre 3".
    #[test]
    fn seed_000_playoff_3_four_players_1v4_2v3() {
        assert_eq!(bracket_order(4).unwrap(), vec![1, 4, 2, 3]);
    }

    /// Seed 000, "Playoff" 7: eight players, "1 contre 8, 2 contre 7, 3 contre 6 et 4 contre 5".
    #[test]
    fn seed_000_playoff_7_eight_players_first_round() {
        let o = bracket_order(8).unwrap();
        let mut pairs: Vec<(u32, u32)> = o.chunks(2).map(|c| (c[0], c[1])).collect();
        pairs.sort_unstable();
        assert_eq!(pairs, vec![(1, 8), (2, 7), (3, 6), (4, 5)]);
        assert_eq!(o, vec![1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn not_a_power_of_two_is_an_error() {
        assert!(bracket_order(0).is_err());
        assert!(bracket_order(6).is_err());
        assert!(bracket_order(MAX_BRACKET_SIZE * 2).is_err());
    }
}
