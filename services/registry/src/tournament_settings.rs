//! A tournament's settings, pure: the scoring system (points per result and per bye, in
//! the JaVaFo `XXS` notation the TRF export writes), the accelerated pairing declared
//! (C.04.7 Baku by default among accelerations; the seeds' Haley and degressive as named
//! methods), the announced tie-break list (C.07 art. 4.1) and the date of the rating list
//! used. Validated when set; the pairing and results services read them from the record.
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

/// Validates a settings change against the current settings.
pub fn decide_settings(
    current: &TournamentSettings,
    mut e: TournamentSettingsSet,
) -> Result<TournamentSettingsSet, FieldError> {
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
        decide_settings(&TournamentSettings::default(), e)
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
            decide_settings(&current, later).unwrap_err().field,
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
}
