//! The Italo-Swiss colour order (seed 000, "L'attribution des couleurs est la suivante dans
//! l'ordre"): White goes
//! 1. to the player who has had White fewer times;
//! 2. if equal, to the player who had Black most recently (ADR italoswiss-002: histories are
//!    compared from the latest game backwards; at the first game where they differ, the one who
//!    had Black gets White);
//! 3. if still equal, to the player with fewer points;
//! 4. if still equal, to the player with the smaller number.

use std::cmp::Ordering;

use crate::state::{Colour, Player};

/// Returns `(white, black)` numbers for a pairing of `a` and `b`.
#[must_use]
pub fn allocate(a: &Player, b: &Player) -> (u32, u32) {
    let a_white = match a.whites().cmp(&b.whites()) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => match latest_black(a, b) {
            Some(x) => x,
            None => match a.pairing_score().cmp(&b.pairing_score()) {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => a.number < b.number,
            },
        },
    };
    if a_white {
        (a.number, b.number)
    } else {
        (b.number, a.number)
    }
}

/// Rule 2: `Some(true)` if `a` had Black more recently than `b`, `Some(false)` if `b` did,
/// `None` if their histories do not tell them apart.
fn latest_black(a: &Player, b: &Player) -> Option<bool> {
    a.colours
        .iter()
        .rev()
        .zip(b.colours.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(x, _)| *x == Colour::Black)
}
