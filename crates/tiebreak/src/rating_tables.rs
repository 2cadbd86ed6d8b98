//! FIDE Rating Regulations B.02 §8.1 conversion tables, used by TPR (C.07 Art. 10.2) and
//! PTP (Art. 10.3). Values transcribed from `fide-rules-2026.md` §3.4 (unchanged since 2014).

/// Table 8.1.1: dp for p = 0.50 ..= 1.00 (index = hundredths − 50).
const DP: [i64; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50 - .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60 - .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70 - .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80 - .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90 - .99
    800, // 1.00 ("shown notionally as 800")
];

/// dp(p) for `p` in hundredths (0..=100); p < 0.50 gives −dp(1 − p) (B.02 8.1.1).
/// Out-of-range inputs are clamped.
pub fn dp(p_hundredths: i64) -> i64 {
    let p = p_hundredths.clamp(0, 100);
    if p >= 50 {
        DP[(p - 50) as usize]
    } else {
        -DP[(50 - p) as usize]
    }
}

/// Table 8.1.2: upper bound of each rating-difference range and the higher-rated player's
/// expected score in hundredths. D > 735 gives 100.
const PD: [(i64, i64); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];

/// PD(D), the expected score in hundredths of a player rated D points above the opponent
/// (negative D: below), over the full scale with no 400-point cap (Art. 10.3).
pub fn expected_score(d: i64) -> i64 {
    let a = d.abs();
    let h = PD
        .iter()
        .find(|(upper, _)| a <= *upper)
        .map(|(_, h)| *h)
        .unwrap_or(100);
    if d >= 0 { h } else { 100 - h }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dp_table_spot_checks() {
        assert_eq!(dp(100), 800);
        assert_eq!(dp(0), -800);
        assert_eq!(dp(50), 0);
        assert_eq!(dp(75), 193);
        assert_eq!(dp(25), -193);
        assert_eq!(dp(99), 677);
        assert_eq!(dp(61), 80);
        // monotone
        for p in 1..=100 {
            assert!(dp(p) > dp(p - 1));
        }
    }

    #[test]
    fn pd_table_spot_checks() {
        assert_eq!(expected_score(0), 50);
        assert_eq!(expected_score(3), 50);
        assert_eq!(expected_score(4), 51);
        assert_eq!(expected_score(-4), 49);
        assert_eq!(expected_score(735), 99);
        assert_eq!(expected_score(736), 100);
        assert_eq!(expected_score(-736), 0);
        assert_eq!(expected_score(400), 92);
        for d in -900..900 {
            assert!(expected_score(d + 1) >= expected_score(d));
            assert_eq!(expected_score(d) + expected_score(-d), 100);
        }
    }
}
