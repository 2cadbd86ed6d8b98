//! C.04.6 Article 1, definitions: pairing numbers (1.1), primary and secondary scores (1.2), the
//! pairing-allocated bye (1.4), floaters (1.5), the colour difference (1.6) and the colour
//! preferences of Type A and Type B (1.7).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board_colours_352::Colour;

/// A score in exact half points (match points are whole; game points may hold halves).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Points(pub u32);

impl Points {
    /// `n` whole points.
    #[must_use]
    pub fn whole(n: u32) -> Points {
        Points(n * 2)
    }
    /// `h` half points.
    #[must_use]
    pub fn halves(h: u32) -> Points {
        Points(h)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// 1.2: which score is primary (match points by default; the other is the secondary score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum PrimaryScore {
    /// Match points primary, game points secondary (the default of 1.2).
    #[default]
    MatchPoints,
    /// Game points primary, match points secondary.
    GamePoints,
}

/// 1.7: the colour preferences used by the competition (Type A unless its rules say otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum PreferenceType {
    /// 1.7.1, Type A (the default): one strength.
    #[default]
    TypeA,
    /// 1.7.2, Type B: strong and mild preferences.
    TypeB,
    /// The competition uses no colour preferences.
    None,
}

/// What happened to a team in one past round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoundRecord {
    /// A match actually played against `opponent`, the team's first board having `colour`
    /// (1.6.1). `floated`: the team played an opponent with a different score (1.5).
    Played {
        opponent: u32,
        colour: Colour,
        floated: bool,
    },
    /// A match paired but not played: a forfeit. `won`: the team won it by forfeit (then [C2]
    /// forbids it the PAB). It counts as an opponent for [C1] but gives no colour (1.6.1).
    Forfeit { opponent: u32, won: bool },
    /// The pairing-allocated bye.
    Pab,
    /// A (FIDE-deprecated) full-point bye given by the arbiter: [C2] forbids the PAB afterwards.
    FullPointBye,
    /// Not paired (absent, half-point or zero-point bye).
    NotPaired,
}

/// A team as the pairing of a round sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamState {
    /// 1.1: the Tournament Pairing Number, unique, 1-based.
    pub tpn: u32,
    /// Match points so far.
    pub match_points: Points,
    /// Game points so far.
    pub game_points: Points,
    /// The past rounds, round 1 first.
    pub history: Vec<RoundRecord>,
}

impl TeamState {
    /// A team that has played nothing yet.
    #[must_use]
    pub fn new(tpn: u32) -> Self {
        Self {
            tpn,
            match_points: Points(0),
            game_points: Points(0),
            history: Vec::new(),
        }
    }

    /// The primary score (1.2).
    #[must_use]
    pub fn primary(&self, p: PrimaryScore) -> Points {
        match p {
            PrimaryScore::MatchPoints => self.match_points,
            PrimaryScore::GamePoints => self.game_points,
        }
    }

    /// The secondary score (1.2).
    #[must_use]
    pub fn secondary(&self, p: PrimaryScore) -> Points {
        match p {
            PrimaryScore::MatchPoints => self.game_points,
            PrimaryScore::GamePoints => self.match_points,
        }
    }

    /// The colours of the matches actually played, in order (1.6.1).
    pub fn played_colours(&self) -> impl DoubleEndedIterator<Item = Colour> + '_ {
        self.history.iter().filter_map(|r| match r {
            RoundRecord::Played { colour, .. } => Some(*colour),
            _ => None,
        })
    }

    /// 1.6.2: colour difference = matches with White − matches with Black.
    #[must_use]
    pub fn colour_difference(&self) -> i32 {
        self.played_colours()
            .map(|c| if c == Colour::White { 1 } else { -1 })
            .sum()
    }

    /// Every opponent met or paired against ([C1]).
    pub fn opponents(&self) -> impl Iterator<Item = u32> + '_ {
        self.history.iter().filter_map(|r| match r {
            RoundRecord::Played { opponent, .. } | RoundRecord::Forfeit { opponent, .. } => {
                Some(*opponent)
            }
            _ => None,
        })
    }

    /// [C2]: has already received the PAB, won a match by forfeit, or a full-point bye.
    #[must_use]
    pub fn pab_barred(&self) -> bool {
        self.history.iter().any(|r| {
            matches!(
                r,
                RoundRecord::Pab
                    | RoundRecord::FullPointBye
                    | RoundRecord::Forfeit { won: true, .. }
            )
        })
    }

    /// Number of matches played (3.4.3). Forfeits are not played (ADR teampairing-002).
    #[must_use]
    pub fn matches_played(&self) -> usize {
        self.played_colours().count()
    }

    /// 1.5: was a floater in the previous round (the last record).
    #[must_use]
    pub fn floated_last_round(&self) -> bool {
        matches!(
            self.history.last(),
            Some(RoundRecord::Played { floated: true, .. })
        )
    }
}

/// Strength of a colour preference (1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Strength {
    /// Type A's only strength, or Type B's strong preference.
    Strong,
    /// Type B's mild preference.
    Mild,
}

/// A team's colour preference for the round (1.7); `None` in [`Preference::colour`] for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Preference {
    /// The preferred colour, if any.
    pub colour: Option<Colour>,
    /// Its strength (meaningful only with a colour).
    pub strength: Strength,
}

impl Preference {
    /// No preference.
    pub const NONE: Preference = Preference {
        colour: None,
        strength: Strength::Mild,
    };
}

/// 1.7: the colour preference of `team`; `last_round`: the round being paired is the last one.
///
/// * 1.7.1 Type A: White when CD < −1, or CD is 0 or −1 and the last two played matches were
///   with Black; Black symmetrically; otherwise none.
/// * 1.7.2 Type B: strong as Type A; mild White when CD = −1, or CD = 0, not the last round and
///   the last played match was with Black (mild Black symmetrically); none before any match or
///   with CD = 0 in the last round.
#[must_use]
pub fn colour_preference(team: &TeamState, kind: PreferenceType, last_round: bool) -> Preference {
    if kind == PreferenceType::None {
        return Preference::NONE;
    }
    let cd = team.colour_difference();
    let mut last = team.played_colours().rev();
    let l1 = last.next();
    let l2 = last.next();
    let last_two = |c: Colour| l1 == Some(c) && l2 == Some(c);
    let strong = |colour| Preference {
        colour: Some(colour),
        strength: Strength::Strong,
    };
    if cd < -1 || ((cd == 0 || cd == -1) && last_two(Colour::Black)) {
        return strong(Colour::White);
    }
    if cd > 1 || ((cd == 0 || cd == 1) && last_two(Colour::White)) {
        return strong(Colour::Black);
    }
    if kind == PreferenceType::TypeA || l1.is_none() {
        return Preference::NONE;
    }
    let mild = |colour| Preference {
        colour: Some(colour),
        strength: Strength::Mild,
    };
    if cd == -1 || (cd == 0 && !last_round && l1 == Some(Colour::Black)) {
        return mild(Colour::White);
    }
    if cd == 1 || (cd == 0 && !last_round && l1 == Some(Colour::White)) {
        return mild(Colour::Black);
    }
    Preference::NONE
}

/// 1.4: the pairing-allocated bye is worth a draw's match points and game points unless the
/// regulations say otherwise: `draw_match_points` (usually 1 of 2/1/0) and half the boards.
#[must_use]
pub fn pab_award(draw_match_points: Points, boards: u32) -> (Points, Points) {
    (draw_match_points, Points::halves(boards))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    fn team(colours: &[Colour]) -> TeamState {
        let mut t = TeamState::new(1);
        for (i, c) in colours.iter().enumerate() {
            t.history.push(RoundRecord::Played {
                opponent: 100 + u32::try_from(i).unwrap(),
                colour: *c,
                floated: false,
            });
        }
        t
    }

    #[test]
    fn colour_difference_counts_played_matches_only() {
        let mut t = team(&[W, W, B]);
        t.history.push(RoundRecord::Pab);
        t.history.push(RoundRecord::Forfeit {
            opponent: 9,
            won: false,
        });
        assert_eq!(t.colour_difference(), 1);
    }

    #[test]
    fn type_a_preferences() {
        let a = PreferenceType::TypeA;
        assert_eq!(colour_preference(&team(&[]), a, false), Preference::NONE);
        assert_eq!(colour_preference(&team(&[W]), a, false), Preference::NONE);
        assert_eq!(colour_preference(&team(&[W, W]), a, false).colour, Some(B));
        assert_eq!(
            colour_preference(&team(&[B, W, W]), a, false).colour,
            Some(B)
        );
        assert_eq!(
            colour_preference(&team(&[W, B, B]), a, false).colour,
            Some(W)
        );
        assert_eq!(
            colour_preference(&team(&[W, B]), a, false),
            Preference::NONE
        );
        assert_eq!(
            colour_preference(&team(&[B, W]), a, false),
            Preference::NONE
        );
    }

    #[test]
    fn type_b_preferences() {
        let b = PreferenceType::TypeB;
        let p = colour_preference(&team(&[W]), b, false);
        assert_eq!((p.colour, p.strength), (Some(B), Strength::Mild));
        let p = colour_preference(&team(&[W, B]), b, false);
        assert_eq!((p.colour, p.strength), (Some(W), Strength::Mild));
        // CD = 0 in the last round: no preference.
        assert_eq!(colour_preference(&team(&[W, B]), b, true), Preference::NONE);
        // CD = -1 is mild White even in the last round.
        assert_eq!(colour_preference(&team(&[B]), b, true).colour, Some(W));
        let p = colour_preference(&team(&[B, B]), b, true);
        assert_eq!((p.colour, p.strength), (Some(W), Strength::Strong));
        assert_eq!(colour_preference(&team(&[]), b, false), Preference::NONE);
    }

    #[test]
    fn no_preferences_mode() {
        assert_eq!(
            colour_preference(&team(&[W, W, W]), PreferenceType::None, false),
            Preference::NONE
        );
    }

    #[test]
    fn pab_is_a_draw() {
        assert_eq!(
            pab_award(Points::whole(1), 4),
            (Points::whole(1), Points::whole(2))
        );
        assert_eq!(pab_award(Points::whole(1), 5).1.to_string(), "2.5");
    }

    #[test]
    fn c2_bars_pab_after_pab_forfeit_win_or_full_bye() {
        let mut t = team(&[W]);
        assert!(!t.pab_barred());
        t.history.push(RoundRecord::Forfeit {
            opponent: 3,
            won: false,
        });
        assert!(!t.pab_barred());
        t.history.push(RoundRecord::Forfeit {
            opponent: 4,
            won: true,
        });
        assert!(t.pab_barred());
        let mut u = team(&[]);
        u.history.push(RoundRecord::FullPointBye);
        assert!(u.pab_barred());
    }
}
