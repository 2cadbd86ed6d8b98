//! Lim art. 9.1 (compatibility through colours), art. 12 (colour allocation rules) and
//! art. 13 (last-round exception).

use crate::state::{Colour, Player};

/// How strongly a player is due a colour (art. 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DueStrength {
    /// Art. 12.1/12.5: only alternation from the last colour is at stake.
    Alternating,
    /// Art. 12.6: the colour evens out the player's Whites and Blacks.
    Equalising,
    /// Art. 12.1 (a)/(b), 12.3: the other colour would give the same colour three times in a row
    /// or three more of one colour than the other.
    Absolute,
}

/// The colour a player is due, and how strongly (art. 12). `None` before any game was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DueColour {
    /// The colour due.
    pub colour: Colour,
    /// Strength of the claim.
    pub strength: DueStrength,
}

/// Whites minus Blacks over the games played.
#[must_use]
pub fn colour_difference(colours: &[Colour]) -> i64 {
    colours.iter().fold(0i64, |d, c| match c {
        Colour::White => d + 1,
        Colour::Black => d - 1,
    })
}

/// Art. 12.1 (a)/(b): would receiving `colour` give the player the same colour in three
/// successive rounds, or three more games with one colour than with the other?
#[must_use]
pub fn breaks_colour_limits(colours: &[Colour], colour: Colour) -> bool {
    let n = colours.len();
    let three_in_a_row = n >= 2 && colours[n - 1] == colour && colours[n - 2] == colour;
    let step = if colour == Colour::White { 1 } else { -1 };
    three_in_a_row || (colour_difference(colours) + step).abs() >= 3
}

/// The colour a player is due (art. 12.1, 12.5, 12.6): the equalising colour if his Whites and
/// Blacks differ, otherwise the colour alternating with his last game.
#[must_use]
pub fn due_colour(colours: &[Colour]) -> Option<DueColour> {
    let diff = colour_difference(colours);
    let colour = if diff > 0 {
        Colour::Black
    } else if diff < 0 {
        Colour::White
    } else {
        colours.last()?.opposite()
    };
    let strength = if breaks_colour_limits(colours, colour.opposite()) {
        DueStrength::Absolute
    } else if diff != 0 {
        DueStrength::Equalising
    } else {
        DueStrength::Alternating
    };
    Some(DueColour { colour, strength })
}

/// Art. 9.1: a colour allocation exists that keeps both players inside the limits of art. 12.1.
/// In the last round art. 13 lifts the colour limits.
#[must_use]
pub fn colours_allow_game(a: &[Colour], b: &[Colour], last_round: bool) -> bool {
    last_round
        || [Colour::White, Colour::Black]
            .into_iter()
            .any(|c| !breaks_colour_limits(a, c) && !breaks_colour_limits(b, c.opposite()))
}

/// Where the pair stands relative to the median (art. 12.4 tie rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MedianSide {
    /// The median scoregroup or a higher one: the higher-ranked player wins an identical history.
    AtOrAbove,
    /// Below the median: the lower-ranked player wins an identical history.
    Below,
}

/// Allocates colours to a pair (art. 12.3–12.6); returns `(white, black)`.
///
/// `higher` has the smaller pairing number. Order of decisions:
/// 1. a colour that would break art. 12.1 (a)/(b) is not given (unless both options do, which
///    only the last round allows, art. 13);
/// 2. different due colours: both get theirs;
/// 3. only one player is due a colour: he gets it;
/// 4. same due colour: the stronger claim wins (absolute > equalising > alternating);
/// 5. equal claims: going back through both histories to the latest round in which they had
///    different colours, each gets the colour opposite to the one he had then (art. 12.4,
///    ADR lim-002);
/// 6. identical histories: at or above the median the higher-ranked player gets his due colour,
///    below it the lower-ranked one (art. 12.4);
/// 7. nobody has played yet: the higher-ranked player gets the initial colour if his pairing
///    number is odd, the other colour if even (art. 14.2 extended, ADR lim-002).
#[must_use]
pub fn allocate_colours<'p>(
    higher: &'p Player,
    lower: &'p Player,
    side: MedianSide,
    initial_colour: Colour,
) -> (&'p Player, &'p Player) {
    let higher_white = (higher, lower);
    let lower_white = (lower, higher);
    let pick = |higher_gets: Colour| {
        if higher_gets == Colour::White {
            higher_white
        } else {
            lower_white
        }
    };
    let h_forbidden_white = breaks_colour_limits(&higher.colours, Colour::White)
        || breaks_colour_limits(&lower.colours, Colour::Black);
    let h_forbidden_black = breaks_colour_limits(&higher.colours, Colour::Black)
        || breaks_colour_limits(&lower.colours, Colour::White);
    if h_forbidden_white && !h_forbidden_black {
        return pick(Colour::Black);
    }
    if h_forbidden_black && !h_forbidden_white {
        return pick(Colour::White);
    }
    match (due_colour(&higher.colours), due_colour(&lower.colours)) {
        (None, None) => {
            let c = if higher.pairing_number % 2 == 1 {
                initial_colour
            } else {
                initial_colour.opposite()
            };
            pick(c)
        }
        (Some(h), None) => pick(h.colour),
        (None, Some(l)) => pick(l.colour.opposite()),
        (Some(h), Some(l)) if h.colour != l.colour => pick(h.colour),
        (Some(h), Some(l)) => {
            if h.strength != l.strength {
                return if h.strength > l.strength {
                    pick(h.colour)
                } else {
                    pick(h.colour.opposite())
                };
            }
            let (hc, lc) = (&higher.colours, &lower.colours);
            let back = hc.len().min(lc.len());
            for j in 1..=back {
                let (a, b) = (hc[hc.len() - j], lc[lc.len() - j]);
                if a != b {
                    return pick(a.opposite());
                }
            }
            match side {
                MedianSide::AtOrAbove => pick(h.colour),
                MedianSide::Below => pick(h.colour.opposite()),
            }
        }
    }
}
