//! C.04.6 Article 4, colour allocation: the initial-colour (4.1), the first-team of a pair (4.2)
//! and the rules 4.3.1 to 4.3.9 in descending priority. The colour allocated is the colour of the
//! first board; the other boards follow record 352 ([`crate::board_colours_352`]).

use serde::{Deserialize, Serialize};

use crate::art1_definitions::{
    Preference, PreferenceType, PrimaryScore, RoundRecord, Strength, TeamState,
};
use crate::board_colours_352::Colour;

/// Which rule of 4.3 decided a pair's colours (the working shown to the arbiter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColourRule {
    /// 4.3.1: neither team has played; the first-team takes the initial-colour if its TPN is odd.
    R4_3_1InitialColour,
    /// 4.3.2: only one team has a preference: it is granted.
    R4_3_2OnlyOnePreference,
    /// 4.3.3: opposite preferences: both granted.
    R4_3_3OppositePreferences,
    /// 4.3.4 (Type B): only one strong preference: it is granted.
    R4_3_4OnlyOneStrong,
    /// 4.3.5: the team with the lower colour difference gets White.
    R4_3_5LowerColourDifference,
    /// 4.3.6: alternate from the most recent round in which the two had different colours.
    R4_3_6Alternate,
    /// 4.3.7: the first-team's preference is granted.
    R4_3_7FirstTeamPreference,
    /// 4.3.8: the first-team alternates from its last played match.
    R4_3_8FirstTeamAlternates,
    /// 4.3.9: the other team alternates from its last played match.
    R4_3_9OtherTeamAlternates,
}

/// The settings of Article 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ColourSettings {
    /// 4.1: the initial-colour drawn by lot before round 1.
    pub initial_colour: Colour,
    /// 1.2: the primary score.
    pub primary: PrimaryScore,
    /// 4.2.2: whether the secondary score is used to choose the first-team (yes unless the
    /// regulations say not).
    pub use_secondary: bool,
    /// 1.7: the preference type.
    pub preferences: PreferenceType,
}

/// 4.2: whether `a` is the first-team of the pair `{a, b}`: higher primary score, then higher
/// secondary score (if used), then smaller TPN.
#[must_use]
pub fn is_first_team(a: &TeamState, b: &TeamState, s: &ColourSettings) -> bool {
    let key = |t: &TeamState| {
        (
            t.primary(s.primary),
            if s.use_secondary {
                t.secondary(s.primary)
            } else {
                Default::default()
            },
            std::cmp::Reverse(t.tpn),
        )
    };
    key(a) > key(b)
}

/// 4.3: the colour of the first board of `first` (the first-team) against `other`, and the rule
/// that decided it. `pa`, `pb`: their preferences (1.7) for this round.
#[must_use]
pub fn first_team_colour(
    first: &TeamState,
    other: &TeamState,
    pa: Preference,
    pb: Preference,
    s: &ColourSettings,
) -> (Colour, ColourRule) {
    let played = |t: &TeamState| t.matches_played() > 0;
    // 4.3.1
    if !played(first) && !played(other) {
        let c = if first.tpn % 2 == 1 {
            s.initial_colour
        } else {
            s.initial_colour.opposite()
        };
        return (c, ColourRule::R4_3_1InitialColour);
    }
    match (pa.colour, pb.colour) {
        // 4.3.2
        (Some(c), None) => return (c, ColourRule::R4_3_2OnlyOnePreference),
        (None, Some(c)) => return (c.opposite(), ColourRule::R4_3_2OnlyOnePreference),
        // 4.3.3
        (Some(c), Some(d)) if c != d => return (c, ColourRule::R4_3_3OppositePreferences),
        _ => {}
    }
    // 4.3.4
    if s.preferences == PreferenceType::TypeB
        && let (Some(c), Some(_)) = (pa.colour, pb.colour)
    {
        match (pa.strength, pb.strength) {
            (Strength::Strong, Strength::Mild) => return (c, ColourRule::R4_3_4OnlyOneStrong),
            (Strength::Mild, Strength::Strong) => {
                return (c.opposite(), ColourRule::R4_3_4OnlyOneStrong);
            }
            _ => {}
        }
    }
    // 4.3.5
    let (ca, cb) = (first.colour_difference(), other.colour_difference());
    if ca != cb {
        let c = if ca < cb {
            Colour::White
        } else {
            Colour::Black
        };
        return (c, ColourRule::R4_3_5LowerColourDifference);
    }
    // 4.3.6
    let rounds = first.history.len().min(other.history.len());
    for r in (0..rounds).rev() {
        if let (RoundRecord::Played { colour: x, .. }, RoundRecord::Played { colour: y, .. }) =
            (first.history[r], other.history[r])
            && x != y
        {
            return (x.opposite(), ColourRule::R4_3_6Alternate);
        }
    }
    // 4.3.7
    if let Some(c) = pa.colour {
        return (c, ColourRule::R4_3_7FirstTeamPreference);
    }
    // 4.3.8
    if let Some(c) = first.played_colours().next_back() {
        return (c.opposite(), ColourRule::R4_3_8FirstTeamAlternates);
    }
    // 4.3.9 (other has played: 4.3.1 did not apply)
    let c = other.played_colours().next_back().unwrap_or(Colour::Black);
    (c, ColourRule::R4_3_9OtherTeamAlternates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::art1_definitions::{Points, colour_preference};
    use Colour::{Black as B, White as W};

    fn settings() -> ColourSettings {
        ColourSettings {
            initial_colour: W,
            primary: PrimaryScore::MatchPoints,
            use_secondary: true,
            preferences: PreferenceType::TypeA,
        }
    }

    fn team(tpn: u32, colours: &[Colour]) -> TeamState {
        let mut t = TeamState::new(tpn);
        for c in colours {
            t.history.push(RoundRecord::Played {
                opponent: 99,
                colour: *c,
                floated: false,
            });
        }
        t
    }

    fn decide(a: &TeamState, b: &TeamState, s: &ColourSettings) -> (Colour, ColourRule) {
        let pa = colour_preference(a, s.preferences, false);
        let pb = colour_preference(b, s.preferences, false);
        first_team_colour(a, b, pa, pb, s)
    }

    #[test]
    fn first_team_by_score_then_secondary_then_tpn() {
        let s = settings();
        let mut a = TeamState::new(5);
        let mut b = TeamState::new(2);
        assert!(is_first_team(&b, &a, &s));
        a.game_points = Points::whole(3);
        assert!(is_first_team(&a, &b, &s));
        b.match_points = Points::whole(1);
        assert!(is_first_team(&b, &a, &s));
        let no_secondary = ColourSettings {
            use_secondary: false,
            ..s
        };
        b.match_points = Points(0);
        assert!(is_first_team(&b, &a, &no_secondary));
    }

    #[test]
    fn r4_3_1_odd_tpn_takes_initial_colour() {
        let s = settings();
        assert_eq!(
            decide(&team(3, &[]), &team(8, &[]), &s),
            (W, ColourRule::R4_3_1InitialColour)
        );
        assert_eq!(
            decide(&team(4, &[]), &team(9, &[]), &s),
            (B, ColourRule::R4_3_1InitialColour)
        );
    }

    #[test]
    fn r4_3_2_and_4_3_3() {
        let s = settings();
        assert_eq!(
            decide(&team(1, &[W, W]), &team(2, &[W]), &s),
            (B, ColourRule::R4_3_2OnlyOnePreference)
        );
        assert_eq!(
            decide(&team(1, &[W]), &team(2, &[B, B]), &s),
            (B, ColourRule::R4_3_2OnlyOnePreference)
        );
        assert_eq!(
            decide(&team(1, &[W, W]), &team(2, &[B, B]), &s),
            (B, ColourRule::R4_3_3OppositePreferences)
        );
    }

    #[test]
    fn r4_3_4_strong_beats_mild_in_type_b() {
        let s = ColourSettings {
            preferences: PreferenceType::TypeB,
            ..settings()
        };
        // first: mild Black (CD +1), other: strong Black (W W).
        assert_eq!(
            decide(&team(1, &[W]), &team(2, &[B, W, W]), &s),
            (W, ColourRule::R4_3_4OnlyOneStrong)
        );
    }

    #[test]
    fn r4_3_5_lower_colour_difference_gets_white() {
        let s = settings();
        // Both prefer White strongly (CD -2 and -3): the lower one gets White.
        assert_eq!(
            decide(&team(1, &[B, B]), &team(2, &[B, B, B]), &s),
            (B, ColourRule::R4_3_5LowerColourDifference)
        );
    }

    #[test]
    fn r4_3_6_alternates_from_last_different_round() {
        let s = settings();
        // Same CD 0, no Type A preference; round 2 first had B, other W.
        assert_eq!(
            decide(&team(1, &[W, B]), &team(2, &[B, W]), &s),
            (W, ColourRule::R4_3_6Alternate)
        );
    }

    #[test]
    fn r4_3_8_first_team_alternates() {
        let s = settings();
        assert_eq!(
            decide(&team(1, &[W, B]), &team(2, &[W, B]), &s),
            (W, ColourRule::R4_3_8FirstTeamAlternates)
        );
    }

    #[test]
    fn r4_3_9_other_team_alternates() {
        let s = settings();
        // The first-team has not played yet (a PAB), the other had Black last: it gets White.
        let mut none = team(1, &[]);
        none.history.push(RoundRecord::Pab);
        let other = team(2, &[W, B]);
        assert_eq!(
            decide(&none, &other, &s),
            (B, ColourRule::R4_3_9OtherTeamAlternates)
        );
    }
}
