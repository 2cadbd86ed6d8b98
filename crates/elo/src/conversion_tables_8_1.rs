//! B.02 §8.1: the two conversion tables.
//!
//! * Table 8.1.1 converts a fractional score `p` (to two decimals) into a rating difference
//!   `dp`. "For a zero or 1.0 score dp is necessarily indeterminate but is shown notionally
//!   as 800."
//! * Table 8.1.2 converts a rating difference `D` into the scoring probability `PD` of the
//!   higher-rated (H) and lower-rated (L) player, to two decimals.
//!
//! Both editions' tables are stored as transcribed: the 2024 tables from the Handbook page
//! (FIDE prints only p ≥ .50 and says dp(p) = −dp(1 − p)), the 2014 tables from seed 000
//! §8.1 (a) and (b), which print all 101 values. A test proves they are the same numbers, so
//! the editions differ here only in provenance.

use crate::edition::Edition;
use crate::error::EloError;
use crate::numbers::Hundredths;

/// Table 8.1.1 (2024), `dp` for p = .50, .51, …, 1.00 (index = 100·p − 50).
const DP_2024_UPPER: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50 – .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60 – .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70 – .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80 – .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90 – .99
    800, // 1.00
];

/// Table 8.1 (a) of the 2014 regulations (seed 000), `dp` for p = .00 … 1.00 (index = 100·p).
const DP_2014_FULL: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, // .00 – .09
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251, // .10 – .19
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, // .20 – .29
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80, // .30 – .39
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7, // .40 – .49
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50 – .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60 – .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70 – .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80 – .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90 – .99
    800, // 1.00
];

/// Table 8.1.2 (2024): the largest D of each row, for PD(H) = .50, .51, …, .99
/// (index = 100·PD(H) − 50). D above the last bound (735) gives PD(H) = 1.00.
const D_UPPER_BOUNDS_2024: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, // .50 – .59
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145, // .60 – .69
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, // .70 – .79
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357, // .80 – .89
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735, // .90 – .99
];

/// Table 8.1 (b) of the 2014 regulations (seed 000), transcribed row by row as printed
/// ("0-3 .50 .50", "4-10 .51 .49", …, "620-735 .99 .01", "> 735 1.0 .00").
const D_ROWS_2014: [(u32, u32, u8); 50] = [
    (0, 3, 50),
    (4, 10, 51),
    (11, 17, 52),
    (18, 25, 53),
    (26, 32, 54),
    (33, 39, 55),
    (40, 46, 56),
    (47, 53, 57),
    (54, 61, 58),
    (62, 68, 59),
    (69, 76, 60),
    (77, 83, 61),
    (84, 91, 62),
    (92, 98, 63),
    (99, 106, 64),
    (107, 113, 65),
    (114, 121, 66),
    (122, 129, 67),
    (130, 137, 68),
    (138, 145, 69),
    (146, 153, 70),
    (154, 162, 71),
    (163, 170, 72),
    (171, 179, 73),
    (180, 188, 74),
    (189, 197, 75),
    (198, 206, 76),
    (207, 215, 77),
    (216, 225, 78),
    (226, 235, 79),
    (236, 245, 80),
    (246, 256, 81),
    (257, 267, 82),
    (268, 278, 83),
    (279, 290, 84),
    (291, 302, 85),
    (303, 315, 86),
    (316, 328, 87),
    (329, 344, 88),
    (345, 357, 89),
    (358, 374, 90),
    (375, 391, 91),
    (392, 411, 92),
    (412, 432, 93),
    (433, 456, 94),
    (457, 484, 95),
    (485, 517, 96),
    (518, 559, 97),
    (560, 619, 98),
    (620, 735, 99),
];

/// Table 8.1.1: `dp` for a fractional score `p` given in hundredths (0..=100).
///
/// The caller rounds p to two decimals first (see [`percentage_hundredths`]).
pub fn dp_from_p(edition: Edition, p: Hundredths) -> Result<i32, EloError> {
    let h = p.0;
    if !(0..=100).contains(&h) {
        return Err(EloError::PercentageOutOfRange { hundredths: h });
    }
    let h = h as usize;
    Ok(match edition {
        Edition::Fide2014 => DP_2014_FULL[h],
        Edition::Fide2024 | Edition::Fide2026 => {
            if h >= 50 {
                DP_2024_UPPER[h - 50]
            } else {
                // "For p < 0.50, dp(p) = −dp(1 − p)".
                -DP_2024_UPPER[50 - h]
            }
        }
    })
}

/// A score of `half_points` half points out of `games` games as a percentage to two decimals,
/// rounded half up (ADR elo-003). `games == 0` gives `None`.
pub fn percentage_hundredths(half_points: u64, games: u64) -> Option<Hundredths> {
    let (hp, g) = (half_points as u128, games as u128);
    if g == 0 || hp > 2 * g {
        return None;
    }
    // p = half_points / (2·games); 100·p rounded half up, in 0..=100.
    let q = (200 * hp + 2 * g) / (4 * g);
    Some(Hundredths(q as i64))
}

/// Largest |D| with PD(H) below 1.00 (the last row of table 8.1.2 ends at 735).
const LAST_ROW_END: usize = 735;

/// PD(H) in hundredths for |D| = 0..=735, expanded at compile time from the 2024 row bounds.
const PD_HIGH_2024: [u8; LAST_ROW_END + 1] = {
    let mut t = [0u8; LAST_ROW_END + 1];
    let mut row = 0;
    let mut d = 0;
    while d <= LAST_ROW_END {
        while D_UPPER_BOUNDS_2024[row] < d as u32 {
            row += 1;
        }
        t[d] = 50 + row as u8;
        d += 1;
    }
    t
};

/// The same, expanded from the 2014 rows as printed in the seed.
const PD_HIGH_2014: [u8; LAST_ROW_END + 1] = {
    let mut t = [0u8; LAST_ROW_END + 1];
    let mut row = 0;
    let mut d = 0;
    while d <= LAST_ROW_END {
        while D_ROWS_2014[row].1 < d as u32 {
            row += 1;
        }
        t[d] = D_ROWS_2014[row].2;
        d += 1;
    }
    t
};

/// Table 8.1.2: the scoring probability PD for a player whose rating minus the opponent's
/// rating is `d` (already capped where the 400-point rule applies). Positive `d`: the player
/// is the higher-rated (H) and gets the H column; negative `d`: the L column.
pub fn pd_from_d(edition: Edition, d: i32) -> Hundredths {
    let abs = d.unsigned_abs() as usize;
    let table = match edition {
        Edition::Fide2014 => &PD_HIGH_2014,
        Edition::Fide2024 | Edition::Fide2026 => &PD_HIGH_2024,
    };
    let high = table.get(abs).map_or(100, |&pd| pd as i64);
    if d >= 0 {
        Hundredths(high)
    } else {
        Hundredths(100 - high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_8_1_1_editions_identical_and_antisymmetric() {
        for p in 0..=100 {
            let a = dp_from_p(Edition::Fide2014, Hundredths(p)).unwrap();
            let b = dp_from_p(Edition::Fide2026, Hundredths(p)).unwrap();
            assert_eq!(a, b, "p = {p}");
            assert_eq!(
                a,
                -dp_from_p(Edition::Fide2024, Hundredths(100 - p)).unwrap()
            );
        }
    }

    #[test]
    fn table_8_1_2_editions_identical_rows_contiguous() {
        let mut lo = 0;
        for (i, &(a, b, pd)) in D_ROWS_2014.iter().enumerate() {
            assert_eq!(a, lo, "row {i} starts where the previous ended");
            assert_eq!(b, D_UPPER_BOUNDS_2024[i]);
            assert_eq!(pd as usize, 50 + i);
            lo = b + 1;
        }
        for d in -1000..=1000 {
            assert_eq!(
                pd_from_d(Edition::Fide2014, d),
                pd_from_d(Edition::Fide2026, d)
            );
        }
    }

    #[test]
    fn table_8_1_2_row_edges() {
        let e = Edition::Fide2026;
        assert_eq!(pd_from_d(e, 0), Hundredths(50));
        assert_eq!(pd_from_d(e, 3), Hundredths(50));
        assert_eq!(pd_from_d(e, 4), Hundredths(51));
        assert_eq!(pd_from_d(e, -4), Hundredths(49));
        assert_eq!(pd_from_d(e, 400), Hundredths(92));
        assert_eq!(pd_from_d(e, -400), Hundredths(8));
        assert_eq!(pd_from_d(e, 413), Hundredths(93));
        assert_eq!(pd_from_d(e, 735), Hundredths(99));
        assert_eq!(pd_from_d(e, 736), Hundredths(100));
        assert_eq!(pd_from_d(e, -736), Hundredths(0));
        assert_eq!(pd_from_d(e, i32::MIN), Hundredths(0));
        assert_eq!(pd_from_d(e, i32::MAX), Hundredths(100));
    }

    #[test]
    fn table_8_1_1_examples_and_range() {
        let e = Edition::Fide2026;
        assert_eq!(dp_from_p(e, Hundredths(100)), Ok(800));
        assert_eq!(dp_from_p(e, Hundredths(0)), Ok(-800));
        assert_eq!(dp_from_p(e, Hundredths(57)), Ok(50));
        assert_eq!(dp_from_p(e, Hundredths(43)), Ok(-50));
        assert_eq!(
            dp_from_p(e, Hundredths(101)),
            Err(EloError::PercentageOutOfRange { hundredths: 101 })
        );
        assert!(dp_from_p(e, Hundredths(-1)).is_err());
    }

    #[test]
    fn percentage_rounding() {
        // 4/7 = .5714 → .57 (the §8.2 worked example F-N01).
        assert_eq!(percentage_hundredths(8, 7), Some(Hundredths(57)));
        // 5.5/8 = .6875 → .69
        assert_eq!(percentage_hundredths(11, 8), Some(Hundredths(69)));
        // 1/8 = .125 → .13 (half up)
        assert_eq!(percentage_hundredths(1, 4), Some(Hundredths(13)));
        assert_eq!(percentage_hundredths(1, 0), None);
        assert_eq!(percentage_hundredths(5, 2), None);
    }
}
