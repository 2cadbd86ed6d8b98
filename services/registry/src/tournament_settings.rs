//! A tournament's settings, pure: the scoring system (points per result and per bye, in
//! the JaVaFo `XXS` notation the TRF export writes), the accelerated pairing declared
//! (C.04.7 Baku by default among accelerations; the seeds' Haley and degressive as named
//! methods), the announced tie-break list (C.07 art. 4.1) and the date of the rating list
//! used, and a knockout's match format (standard games per match and tie-break stages, ADR
//! knockout-005; fixed once round 1 is paired). Validated when set; the pairing and results services read them from the record.
use arbiter_proto::v1::TournamentSettingsSet;

use crate::tournament::{FieldError, check_date};

/// The settings as they stand.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TournamentSettings {
    /// XXS notation, "" = FIDE 1/½/0.
    pub scoring: String,
    /// "" = not accelerated.
    pub acceleration: String,
    /// Announced tie-break list, "" = none announced.
    pub tiebreaks: String,
    /// YYYY-MM-DD, "" = not set.
    pub rating_list_date: String,
    /// Standard games per knockout match, 0 = the default (2).
    pub knockout_games: u32,
    /// A knockout's tie-break stages in `knockout::match_play::parse_tie_breaks` syntax,
    /// canonical ("none" = no tie-break), "" = the default (rapid:2,blitz:2,armageddon).
    pub knockout_tie_breaks: String,
}

impl TournamentSettings {
    /// Folds `TournamentSettingsSet`.
    pub fn apply(&mut self, e: TournamentSettingsSet) {
        if let Some(v) = e.scoring {
            self.scoring = v;
        }
        if let Some(v) = e.acceleration {
            self.acceleration = v;
        }
        if let Some(v) = e.tiebreaks {
            self.tiebreaks = v;
        }
        if let Some(v) = e.rating_list_date {
            self.rating_list_date = v;
        }
        if let Some(v) = e.knockout_games {
            self.knockout_games = v;
        }
        if let Some(v) = e.knockout_tie_breaks {
            self.knockout_tie_breaks = v;
        }
    }
}

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// The accelerations a tournament can declare (names as `arbiter-pairings --acceleration`).
pub const ACCELERATIONS: &[&str] = &[
    "baku",
    "baku-2016",
    "haley",
    "haley-example-2",
    "degressive",
];

/// Checks and normalises an `XXS` scoring text: known codes, readable points, a win
/// worth more than a draw, a draw not less than a loss.
pub fn check_scoring(text: &str) -> Result<String, FieldError> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return Ok(t);
    }
    let line = format!("XXS {t}\n");
    let parsed = trf::parse_and_validate(line.as_bytes())
        .map_err(|e| err("scoring", format!("{t:?}: {e}")))?;
    if let Some(f) = parsed
        .findings
        .iter()
        .find(|f| f.severity != trf::Severity::Info)
    {
        return Err(err("scoring", format!("{t:?}: {}", f.message)));
    }
    let s = trf::ScoringSystem::from_document(&parsed.doc);
    if s.white_win <= s.white_draw || s.white_draw < s.white_loss {
        return Err(err(
            "scoring",
            format!("{t:?}: a win must be worth more than a draw, a draw at least a loss"),
        ));
    }
    Ok(t)
}

/// Checks a tie-break list against the C.07 codes (any edition).
pub fn check_tiebreaks(text: &str) -> Result<String, FieldError> {
    let codes: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    if codes.is_empty() {
        return Ok(String::new());
    }
    let mut first = None;
    for e in [
        tiebreak::Edition::C07_2026,
        tiebreak::Edition::C07_2024,
        tiebreak::Edition::SeedC06,
    ] {
        match tiebreak::parse_list(&codes, e) {
            Ok(_) => return Ok(codes.join(",")),
            Err(x) => {
                first.get_or_insert(x);
            }
        }
    }
    Err(err(
        "tiebreaks",
        first.map_or_else(|| "unreadable".into(), |e| e.to_string()),
    ))
}

/// Checks a knockout's tie-break stages with the parser the CLI and the pairing service use
/// and returns them in canonical form ("none" = no tie-break stage).
pub fn check_knockout_tie_breaks(text: &str) -> Result<String, FieldError> {
    knockout::match_play::parse_tie_breaks(text)
        .map(|stages| knockout::match_play::tie_breaks_text(&stages))
        .map_err(|m| err("knockout_tie_breaks", format!("{:?}: {m}", text.trim())))
}

/// Checks a knockout's number of standard games per match.
pub fn check_knockout_games(games: u32) -> Result<u32, FieldError> {
    let max = knockout::match_play::MAX_GAMES_PER_STAGE;
    if (1..=max).contains(&games) {
        Ok(games)
    } else {
        Err(err(
            "knockout_games",
            format!("{games}: a knockout match has 1..={max} standard games"),
        ))
    }
}

/// Validates a settings change against the current settings. `paired_rounds`: rounds of
/// the tournament paired so far; a knockout's match format is fixed once round 1 is paired
/// (ADR knockout-005), so a change of it is refused from then on (setting the value it
/// already has is accepted).
pub fn decide_settings(
    current: &TournamentSettings,
    paired_rounds: u32,
    mut e: TournamentSettingsSet,
) -> Result<TournamentSettingsSet, FieldError> {
    use arbiter_service_kit::limits;
    for (field, text, max) in [
        ("scoring", &e.scoring, limits::MAX_SCORING_CHARS),
        (
            "acceleration",
            &e.acceleration,
            limits::MAX_ACCELERATION_CHARS,
        ),
        ("tiebreaks", &e.tiebreaks, limits::MAX_TIEBREAKS_CHARS),
        ("rating_list_date", &e.rating_list_date, 10),
        (
            "knockout_tie_breaks",
            &e.knockout_tie_breaks,
            limits::MAX_KNOCKOUT_TIE_BREAKS_CHARS,
        ),
    ] {
        if let Some(t) = text {
            crate::tournament::check_free_text(field, t, max)?;
        }
    }
    if let Some(t) = &e.tiebreaks {
        let n = t.split(',').filter(|c| !c.trim().is_empty()).count();
        if n > limits::MAX_TIEBREAKS {
            return Err(err(
                "tiebreaks",
                format!("at most {} tie-breaks, got {n}", limits::MAX_TIEBREAKS),
            ));
        }
    }
    if let Some(g) = e.knockout_games {
        e.knockout_games = Some(check_knockout_games(g)?);
    }
    if let Some(t) = &e.knockout_tie_breaks {
        e.knockout_tie_breaks = Some(check_knockout_tie_breaks(t)?);
    }
    if paired_rounds > 0 {
        let effective_games = |g: u32| {
            if g == 0 {
                knockout::match_play::DEFAULT_GAMES
            } else {
                g
            }
        };
        let effective_tie_breaks = |t: &str| {
            if t.is_empty() {
                knockout::match_play::DEFAULT_TIE_BREAKS.to_string()
            } else {
                t.to_string()
            }
        };
        let frozen = |field: &'static str| {
            err(
                field,
                format!(
                    "round {paired_rounds} is already paired: a knockout's match format is fixed once round 1 is paired (ADR knockout-005)"
                ),
            )
        };
        if let Some(g) = e.knockout_games
            && effective_games(g) != effective_games(current.knockout_games)
        {
            return Err(frozen("knockout_games"));
        }
        if let Some(t) = &e.knockout_tie_breaks
            && effective_tie_breaks(t) != effective_tie_breaks(&current.knockout_tie_breaks)
        {
            return Err(frozen("knockout_tie_breaks"));
        }
    }
    if let Some(s) = &e.scoring {
        e.scoring = Some(check_scoring(s)?);
    }
    if let Some(a) = &e.acceleration {
        let a = a.trim().to_ascii_lowercase();
        let base = a.split(':').next().unwrap_or_default();
        let ok = a.is_empty()
            || a == "none"
            || (ACCELERATIONS.contains(&a.as_str()))
            || (base == "degressive"
                && a.split(':').skip(1).all(|x| x.parse::<u32>().is_ok())
                && a.split(':').count() == 3);
        if !ok {
            return Err(err(
                "acceleration",
                format!(
                    "{a:?}: none, {} or degressive:A_MIN:C_BELOW",
                    ACCELERATIONS.join(", ")
                ),
            ));
        }
        e.acceleration = Some(if a == "none" { String::new() } else { a });
    }
    if let Some(t) = &e.tiebreaks {
        e.tiebreaks = Some(check_tiebreaks(t)?);
    }
    if let Some(d) = &e.rating_list_date {
        e.rating_list_date = Some(check_date("rating_list_date", d)?);
    }
    let mut next = current.clone();
    next.apply(e.clone());
    if next.acceleration.starts_with("baku") && !next.scoring.is_empty() {
        let line = format!("XXS {}\n", next.scoring);
        if let Ok(p) = trf::parse(line.as_bytes()) {
            let sc = trf::ScoringSystem::from_document(&p.doc);
            if sc.white_win != sc.white_draw + sc.white_draw || sc.white_loss != trf::Score::ZERO {
                return Err(err(
                    if e.acceleration.is_some() {
                        "acceleration"
                    } else {
                        "scoring"
                    },
                    format!(
                        "Baku acceleration needs a win worth twice a draw and a loss worth nothing (C.04.7 art. 1.1); the scoring is {:?}",
                        next.scoring
                    ),
                ));
            }
        }
    }
    if e.scoring.is_none()
        && e.acceleration.is_none()
        && e.tiebreaks.is_none()
        && e.rating_list_date.is_none()
        && e.knockout_games.is_none()
        && e.knockout_tie_breaks.is_none()
    {
        return Err(err("settings", "nothing to change"));
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(
        f: impl FnOnce(&mut TournamentSettingsSet),
    ) -> Result<TournamentSettingsSet, FieldError> {
        let mut e = TournamentSettingsSet::default();
        f(&mut e);
        decide_settings(&TournamentSettings::default(), 0, e)
    }

    #[test]
    fn text_fields_and_the_tie_break_list_are_bounded() {
        let e = set(|e| e.tiebreaks = Some(vec!["BH"; 21].join(","))).unwrap_err();
        assert_eq!(e.field, "tiebreaks");
        assert_eq!(e.message, "at most 20 tie-breaks, got 21");
        let e = set(|e| e.tiebreaks = Some("B".repeat(201))).unwrap_err();
        assert!(e.message.contains("at most 200 characters"), "{e:?}");
        let e = set(|e| e.scoring = Some("W=3\u{1b}".into())).unwrap_err();
        assert_eq!(e.field, "scoring");
        assert!(e.message.contains("U+001B at character 4"), "{e:?}");
        let e = set(|e| e.knockout_tie_breaks = Some("rapid:2,".repeat(30))).unwrap_err();
        assert_eq!(e.field, "knockout_tie_breaks");
    }

    #[test]
    fn settings_are_validated_field_by_field() {
        let ok = set(|e| e.scoring = Some("W=3  D=1 PAB=3".into())).unwrap();
        assert_eq!(ok.scoring.as_deref(), Some("W=3 D=1 PAB=3"));
        assert_eq!(
            set(|e| e.scoring = Some("W=1 D=2".into()))
                .unwrap_err()
                .field,
            "scoring"
        );
        assert_eq!(
            set(|e| e.scoring = Some("W=x".into())).unwrap_err().field,
            "scoring"
        );
        assert_eq!(
            set(|e| e.tiebreaks = Some("BH/C1, BH ,SB".into()))
                .unwrap()
                .tiebreaks
                .as_deref(),
            Some("BH/C1,BH,SB")
        );
        assert_eq!(
            set(|e| e.tiebreaks = Some("XYZ".into())).unwrap_err().field,
            "tiebreaks"
        );
        assert_eq!(
            set(|e| e.acceleration = Some("Baku".into()))
                .unwrap()
                .acceleration
                .as_deref(),
            Some("baku")
        );
        assert!(set(|e| e.acceleration = Some("degressive:2000:1600".into())).is_ok());
        assert_eq!(
            set(|e| e.acceleration = Some("swiss-fast".into()))
                .unwrap_err()
                .field,
            "acceleration"
        );
        assert_eq!(
            set(|e| e.rating_list_date = Some("2026-13-01".into()))
                .unwrap_err()
                .field,
            "rating_list_date"
        );
        assert_eq!(set(|_| {}).unwrap_err().field, "settings");
        // C.04.7 art. 1.1: Baku needs 2/1/0-proportional scoring.
        let baku_310 = set(|e| {
            e.scoring = Some("W=3 D=1".into());
            e.acceleration = Some("baku".into());
        });
        assert_eq!(baku_310.unwrap_err().field, "acceleration");
        let current = TournamentSettings {
            acceleration: "baku".into(),
            ..TournamentSettings::default()
        };
        let later = TournamentSettingsSet {
            scoring: Some("W=3 D=1".into()),
            ..TournamentSettingsSet::default()
        };
        assert_eq!(
            decide_settings(&current, 0, later).unwrap_err().field,
            "scoring"
        );
        assert!(
            set(|e| {
                e.scoring = Some("W=2 D=1".into());
                e.acceleration = Some("baku".into());
            })
            .is_ok()
        );
    }

    #[test]
    fn a_knockouts_match_format_is_validated_by_the_shared_parser() {
        let ok = set(|e| {
            e.knockout_games = Some(4);
            e.knockout_tie_breaks = Some(" Rapid:2, blitz:2 ,ARMAGEDDON".into());
        })
        .unwrap();
        assert_eq!(ok.knockout_games, Some(4));
        assert_eq!(
            ok.knockout_tie_breaks.as_deref(),
            Some("rapid:2,blitz:2,armageddon")
        );
        assert_eq!(
            set(|e| e.knockout_tie_breaks = Some("None".into()))
                .unwrap()
                .knockout_tie_breaks
                .as_deref(),
            Some("none")
        );
        assert_eq!(
            set(|e| e.knockout_games = Some(0)).unwrap_err().field,
            "knockout_games"
        );
        assert_eq!(
            set(|e| e.knockout_games = Some(101)).unwrap_err().field,
            "knockout_games"
        );
        for bad in ["", "rapid", "rapid:0", "bullet:2", "armageddon:1"] {
            let e = set(|e| e.knockout_tie_breaks = Some(bad.into())).unwrap_err();
            assert_eq!(e.field, "knockout_tie_breaks", "{bad:?}");
        }
        let mut s = TournamentSettings::default();
        s.apply(ok);
        assert_eq!(s.knockout_games, 4);
        assert_eq!(s.knockout_tie_breaks, "rapid:2,blitz:2,armageddon");
    }

    #[test]
    fn a_knockouts_match_format_is_fixed_once_round_1_is_paired() {
        let current = TournamentSettings {
            knockout_games: 1,
            knockout_tie_breaks: "armageddon".into(),
            ..TournamentSettings::default()
        };
        let change = |f: fn(&mut TournamentSettingsSet)| {
            let mut e = TournamentSettingsSet::default();
            f(&mut e);
            decide_settings(&current, 1, e)
        };
        let e = change(|e| e.knockout_games = Some(2)).unwrap_err();
        assert_eq!(e.field, "knockout_games");
        assert!(
            e.message.contains("round 1 is already paired"),
            "{}",
            e.message
        );
        let e = change(|e| e.knockout_tie_breaks = Some("rapid:2,armageddon".into())).unwrap_err();
        assert_eq!(e.field, "knockout_tie_breaks");
        // The value it already has, other settings: accepted.
        assert!(change(|e| e.knockout_games = Some(1)).is_ok());
        assert!(change(|e| e.knockout_tie_breaks = Some(" Armageddon ".into())).is_ok());
        assert!(change(|e| e.tiebreaks = Some("BH".into())).is_ok());
        // Unset means the default: declaring the default after round 1 changes nothing.
        let unset = TournamentSettings::default();
        let same = TournamentSettingsSet {
            knockout_games: Some(2),
            knockout_tie_breaks: Some("rapid:2,blitz:2,armageddon".into()),
            ..TournamentSettingsSet::default()
        };
        assert!(decide_settings(&unset, 3, same).is_ok());
        let other = TournamentSettingsSet {
            knockout_games: Some(1),
            ..TournamentSettingsSet::default()
        };
        assert_eq!(
            decide_settings(&unset, 3, other).unwrap_err().field,
            "knockout_games"
        );
        // Before round 1: any valid change.
        assert!(
            decide_settings(
                &current,
                0,
                TournamentSettingsSet {
                    knockout_games: Some(6),
                    ..TournamentSettingsSet::default()
                }
            )
            .is_ok()
        );
    }
}
