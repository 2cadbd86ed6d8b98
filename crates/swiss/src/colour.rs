//! Colour preferences (C.04.3 2026 Art. 1.7; 2017 A.6) and colour allocation
//! (2026 Art. 5.2.1–5.2.5; 2017 E.1–E.5, same logic).
//!
//! Colour histories contain played games only (C.04.2 GHR 3.4): unplayed rounds are
//! "moved to the front", which is the same as ignoring them when looking back.

use crate::model::Colour;
use serde::{Deserialize, Serialize};

/// Strength of a colour preference, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Strength {
    /// No game played yet (Art. 1.7.4).
    None,
    /// Colour difference 0: alternate from the last game (Art. 1.7.3).
    Mild,
    /// Colour difference ±1 (Art. 1.7.2).
    Strong,
    /// |colour difference| > 1, or the same colour in the last two played games (Art. 1.7.1).
    Absolute,
}

/// A player's colour situation before the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColourState {
    /// Colours of the games actually played, oldest first.
    pub played: Vec<Colour>,
    /// Whites minus blacks.
    pub difference: i32,
    /// Preferred colour (None when there is no preference).
    pub preference: Option<Colour>,
    pub strength: Strength,
}

impl ColourState {
    /// Derives the preference from the played colours (Art. 1.7).
    pub fn from_history(history: &[Option<Colour>]) -> ColourState {
        let played: Vec<Colour> = history.iter().flatten().copied().collect();
        let difference = played
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum::<i32>();
        let n = played.len();
        let (preference, strength) = if n == 0 {
            (None, Strength::None)
        } else if difference > 1 {
            (Some(Colour::Black), Strength::Absolute)
        } else if difference < -1 {
            (Some(Colour::White), Strength::Absolute)
        } else if n >= 2 && played[n - 1] == played[n - 2] {
            (Some(played[n - 1].opposite()), Strength::Absolute)
        } else if difference == 1 {
            (Some(Colour::Black), Strength::Strong)
        } else if difference == -1 {
            (Some(Colour::White), Strength::Strong)
        } else {
            (Some(played[n - 1].opposite()), Strength::Mild)
        };
        ColourState {
            played,
            difference,
            preference,
            strength,
        }
    }

    /// True when the player would have the same colour three times in a row with `c`.
    pub fn third_in_a_row(&self, c: Colour) -> bool {
        let n = self.played.len();
        n >= 2 && self.played[n - 1] == c && self.played[n - 2] == c
    }

    /// Colour difference after playing `c`.
    pub fn difference_after(&self, c: Colour) -> i32 {
        self.difference + if c == Colour::White { 1 } else { -1 }
    }
}

/// The colour allocated to the *higher-ranked* player `a` when paired with `b`
/// (Art. 5.2). `a_tpn` is the higher-ranked player's TPN; `initial` the colour drawn by lot.
pub fn allocate(a: &ColourState, b: &ColourState, a_tpn: u32, initial: Colour) -> Colour {
    // 5.2.1 grant both preferences.
    match (a.preference, b.preference) {
        (Some(pa), Some(pb)) if pa != pb => return pa,
        (Some(pa), None) => return pa,
        (None, Some(pb)) => return pb.opposite(),
        _ => {}
    }
    // 5.2.2 grant the stronger preference; both absolute (topscorers): the wider difference.
    if let (Some(pa), Some(pb)) = (a.preference, b.preference) {
        if a.strength != b.strength {
            return if a.strength > b.strength {
                pa
            } else {
                pb.opposite()
            };
        }
        if a.strength == Strength::Absolute {
            let (da, db) = (a.difference.abs(), b.difference.abs());
            if da != db {
                return if da > db { pa } else { pb.opposite() };
            }
        }
    }
    // 5.2.3 alternate to the most recent round in which they had different colours.
    let (na, nb) = (a.played.len(), b.played.len());
    for i in 1..=na.min(nb) {
        let (ca, cb) = (a.played[na - i], b.played[nb - i]);
        if ca != cb {
            return ca.opposite();
        }
    }
    // 5.2.4 grant the higher-ranked player's preference.
    if let Some(pa) = a.preference {
        return pa;
    }
    // 5.2.5 odd TPN: initial colour; even: the opposite.
    if a_tpn % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    fn st(h: &[Option<Colour>]) -> ColourState {
        ColourState::from_history(h)
    }

    #[test]
    fn art_1_7_preferences() {
        assert_eq!(st(&[]).strength, Strength::None);
        let s = st(&[Some(W), Some(W)]);
        assert_eq!((s.preference, s.strength), (Some(B), Strength::Absolute));
        let s = st(&[Some(W), Some(B), Some(B)]);
        assert_eq!((s.preference, s.strength), (Some(W), Strength::Absolute));
        let s = st(&[Some(W), None, Some(B), Some(W)]);
        assert_eq!((s.preference, s.strength), (Some(B), Strength::Strong));
        let s = st(&[Some(W), Some(B)]);
        assert_eq!((s.preference, s.strength), (Some(W), Strength::Mild));
    }

    #[test]
    fn ghr_3_4_unplayed_rounds_move_to_the_front() {
        // BWBuW is treated as uBWBW: CD 0, last played W → mild black (not absolute).
        let s = st(&[Some(B), Some(W), Some(B), None, Some(W)]);
        assert_eq!((s.preference, s.strength), (Some(B), Strength::Mild));
    }

    #[test]
    fn art_5_2_1_both_preferences_granted() {
        let a = st(&[Some(B)]);
        let b = st(&[Some(W)]);
        assert_eq!(allocate(&a, &b, 2, W), W);
    }

    #[test]
    fn art_5_2_2_stronger_preference_wins() {
        let a = st(&[Some(W), Some(B)]); // mild white
        let b = st(&[Some(B)]); // strong white
        assert_eq!(allocate(&a, &b, 1, W), B);
    }

    #[test]
    fn art_5_2_3_alternate_from_last_different_round() {
        // Both mild white, the same colours in the last two rounds → 5.2.4 (a's preference).
        let a = st(&[Some(W), Some(B)]);
        let b = st(&[Some(W), Some(B), Some(W), Some(B)]);
        assert_eq!(allocate(&a, &b, 3, B), W);
        // Both strong white; in the last round a had W and b had B → a alternates to B.
        let a = st(&[Some(B), Some(B), Some(W)]);
        let b = st(&[Some(B), Some(W), Some(B)]);
        assert_eq!(
            (a.strength, b.strength),
            (Strength::Strong, Strength::Strong)
        );
        assert_eq!(allocate(&a, &b, 1, W), B);
        let a = st(&[Some(B), Some(W), Some(B)]); // strong white
        let b = st(&[Some(W), Some(W), Some(B), Some(B)]); // CD 0, last two B → absolute white
        assert_eq!(allocate(&a, &b, 3, W), B);
    }

    #[test]
    fn art_5_2_5_initial_colour_by_tpn_parity() {
        let a = st(&[]);
        let b = st(&[]);
        assert_eq!(allocate(&a, &b, 1, W), W);
        assert_eq!(allocate(&a, &b, 2, W), B);
        assert_eq!(allocate(&a, &b, 3, B), B);
    }
}
