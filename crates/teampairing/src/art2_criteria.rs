//! C.04.6 Article 2, the pairing criteria.
//!
//! * Absolute (2.1): [C1] two teams do not meet twice; [C2] a team that already had the PAB, a
//!   win by forfeit or a full-point bye does not receive the PAB.
//! * Completion (2.2): [C3] a legal pairing exists for all teams not yet paired.
//! * Quality (2.3), descending priority: [C4] fewest upfloaters; [C5] highest upfloater scores
//!   (ascending); [C6] the next bracket can still comply with [C1], [C3], [C4]; [C7] fewest
//!   upfloaters who floated last round (not in the last two rounds); [C8] fewest unfulfilled
//!   colour preferences; [C9] (Type B) fewest unfulfilled strong preferences; [C10] fewest
//!   upfloaters' opponents who floated last round (not in the last two rounds).
//!
//! [C4]–[C7] choose the upfloaters (Article 3.5, in `art3_pairing_procedure`); [C8]–[C10] are
//! counted here per pair, as [`PairCost`].

use crate::art1_definitions::{Preference, PreferenceType, Strength};

/// [C8], [C9], [C10] of one pair or a whole bracket pairing; compared lexicographically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PairCost {
    /// [C8] teams whose colour preference is not fulfilled.
    pub c8: u32,
    /// [C9] teams whose strong preference is not fulfilled (Type B only).
    pub c9: u32,
    /// [C10] upfloaters' opponents who were floaters in the previous round.
    pub c10: u32,
}

impl std::ops::Add for PairCost {
    type Output = PairCost;
    fn add(self, o: PairCost) -> PairCost {
        PairCost {
            c8: self.c8 + o.c8,
            c9: self.c9 + o.c9,
            c10: self.c10 + o.c10,
        }
    }
}

/// [C8]/[C9] of a pair with preferences `a`, `b`, the colours being allocated by Article 4:
/// preferences of different colours, or a single one, are all granted (4.3.2, 4.3.3); two for
/// the same colour leave one unfulfilled, and under Type B a strong one beats a mild one (4.3.4).
#[must_use]
pub fn colour_cost(a: Preference, b: Preference, kind: PreferenceType) -> PairCost {
    match (a.colour, b.colour) {
        (Some(x), Some(y)) if x == y => PairCost {
            c8: 1,
            c9: u32::from(
                kind == PreferenceType::TypeB
                    && a.strength == Strength::Strong
                    && b.strength == Strength::Strong,
            ),
            c10: 0,
        },
        _ => PairCost::default(),
    }
}

/// A lower bound of [C8]/[C9] over any pairing of teams with preferences `prefs`: the excess of
/// one colour over all the others must be paired among itself, one loser per pair.
#[must_use]
pub fn colour_cost_lower_bound(prefs: &[Preference], kind: PreferenceType) -> PairCost {
    let n = prefs.len() as u32;
    let count = |f: &dyn Fn(&Preference) -> bool| prefs.iter().filter(|p| f(p)).count() as u32;
    let w = count(&|p| p.colour == Some(crate::Colour::White));
    let b = count(&|p| p.colour == Some(crate::Colour::Black));
    let excess = |k: u32| (2 * k).saturating_sub(n) / 2;
    let mut cost = PairCost {
        c8: excess(w) + excess(b),
        ..PairCost::default()
    };
    if kind == PreferenceType::TypeB {
        let sw =
            count(&|p| p.colour == Some(crate::Colour::White) && p.strength == Strength::Strong);
        let sb =
            count(&|p| p.colour == Some(crate::Colour::Black) && p.strength == Strength::Strong);
        cost.c9 = excess(sw) + excess(sb);
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Colour;

    fn p(c: Option<Colour>, s: Strength) -> Preference {
        Preference {
            colour: c,
            strength: s,
        }
    }

    #[test]
    fn same_preference_costs_one_c8() {
        let w = p(Some(Colour::White), Strength::Strong);
        let b = p(Some(Colour::Black), Strength::Strong);
        assert_eq!(colour_cost(w, w, PreferenceType::TypeA).c8, 1);
        assert_eq!(colour_cost(w, w, PreferenceType::TypeA).c9, 0);
        assert_eq!(colour_cost(w, w, PreferenceType::TypeB).c9, 1);
        assert_eq!(
            colour_cost(w, b, PreferenceType::TypeA),
            PairCost::default()
        );
        assert_eq!(
            colour_cost(w, Preference::NONE, PreferenceType::TypeA),
            PairCost::default()
        );
        let mw = p(Some(Colour::White), Strength::Mild);
        assert_eq!(
            colour_cost(w, mw, PreferenceType::TypeB),
            PairCost {
                c8: 1,
                c9: 0,
                c10: 0
            }
        );
    }

    #[test]
    fn lower_bound_counts_the_excess() {
        let w = p(Some(Colour::White), Strength::Strong);
        let prefs = [w, w, w, w, Preference::NONE, Preference::NONE];
        assert_eq!(colour_cost_lower_bound(&prefs, PreferenceType::TypeA).c8, 1);
        assert_eq!(
            colour_cost_lower_bound(&prefs[..4], PreferenceType::TypeB).c9,
            2
        );
    }
}
