//! Annex V art. 7: colours. 7.1 for an initial list by ranking, 7.2 for one drawn by lot.
//! Unplayed games and rests do not count (7.1.8): callers pass played colours only.

use crate::group_pairing::third_in_a_row;
use crate::state::{Colour, InitialOrder};

/// How strongly a participant claims a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Claim {
    /// 7.1.6: colours are equal; the colour of his first game (ranking list), or the colour
    /// alternating with his last game (7.2.4, lot).
    Repeat,
    /// 7.1.5 / 7.2.2: the colour that equalises Whites and Blacks ("priority to equal colours
    /// rather than alternation", 7.1.4).
    Equalise,
    /// 7.1.6: the other colour would be the third in a row.
    Absolute,
}

/// The colour a participant is due and how strongly; `None` before any game was played.
#[must_use]
pub fn due_colour(colours: &[Colour], order: InitialOrder) -> Option<(Colour, Claim)> {
    let diff: i64 = colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let colour = match diff.signum() {
        1 => Colour::Black,
        -1 => Colour::White,
        _ => match order {
            InitialOrder::RankingList => *colours.first()?,
            InitialOrder::DrawnLots => colours.last()?.opposite(),
        },
    };
    let claim = if third_in_a_row(colours, colour.opposite()) {
        Claim::Absolute
    } else if diff != 0 {
        Claim::Equalise
    } else {
        Claim::Repeat
    };
    Some((colour, claim))
}

/// One side of a pairing as the colour rules see it.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// Identification number.
    pub id: u32,
    /// Played colours, oldest first.
    pub colours: &'a [Colour],
}

/// Allocates colours to a pair after round 1; `better` is the better-ranked participant.
/// Returns the identification numbers `(white, black)`.
///
/// Ranking list (7.1.4–7.1.6): both claims granted if they differ; otherwise the stronger claim
/// wins (third colour in a row > equalising > first-game colour), and on equal claims the
/// better-ranked participant has priority "whether the colour is White or Black". Neither has
/// played: the better-ranked gets `first_colour` (ADR draughtsswiss-002).
///
/// Lot (7.2.4): the same, but an undecided case is settled by the sum of the identification
/// numbers: even → the larger number has White, odd → the larger number has Black.
#[must_use]
pub fn allocate(
    better: Side<'_>,
    worse: Side<'_>,
    order: InitialOrder,
    first_colour: Colour,
) -> (u32, u32) {
    let give = |better_gets: Colour| {
        if better_gets == Colour::White {
            (better.id, worse.id)
        } else {
            (worse.id, better.id)
        }
    };
    let by_lot_rule = || {
        let larger_white = (better.id + worse.id).is_multiple_of(2);
        let larger = better.id.max(worse.id);
        let smaller = better.id.min(worse.id);
        if larger_white {
            (larger, smaller)
        } else {
            (smaller, larger)
        }
    };
    match (
        due_colour(better.colours, order),
        due_colour(worse.colours, order),
    ) {
        (None, None) => match order {
            InitialOrder::RankingList => give(first_colour),
            InitialOrder::DrawnLots => by_lot_rule(),
        },
        (Some((c, _)), None) => give(c),
        (None, Some((c, _))) => give(c.opposite()),
        (Some((b, _)), Some((w, _))) if b != w => give(b),
        (Some((b, bs)), Some((_, ws))) => {
            if bs > ws {
                give(b)
            } else if ws > bs {
                give(b.opposite())
            } else {
                match order {
                    InitialOrder::RankingList => give(b),
                    InitialOrder::DrawnLots => by_lot_rule(),
                }
            }
        }
    }
}
