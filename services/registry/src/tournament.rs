//! The tournament aggregate, pure: validate a command against the current state and
//! decide the event; fold events into state. No I/O.
use arbiter_proto::v1::{Tournament, TournamentCreated, TournamentCreatedV1, TournamentUpdated};
use prost::Message;

/// Stream of one tournament: `tournament-<id>`.
pub fn stream_of(tournament_id: &str) -> String {
    format!("tournament-{tournament_id}")
}

/// Pairing systems a tournament may declare, with their rule editions (default first).
pub const SYSTEMS: &[(&str, &[&str])] = &[
    ("dutch", &["dutch-2026", "dutch-2017"]),
    ("round-robin", &["c05-2026"]),
    ("double-round-robin", &["c05-2026"]),
    ("knockout", &["seed-000"]),
    ("lim", &["seed-000"]),
    ("italo-swiss", &["seed-000"]),
    ("draughts-swiss", &["fmjd-1986"]),
];

/// A rejected command: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Request field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

fn check_name(name: &str) -> Result<String, FieldError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(err("name", "must not be empty"));
    }
    if name.chars().count() > 200 {
        return Err(err("name", "at most 200 characters"));
    }
    Ok(name.to_owned())
}

fn check_federation(f: &str) -> Result<String, FieldError> {
    let f = f.trim();
    if f.is_empty() || (f.len() == 3 && f.chars().all(|c| c.is_ascii_uppercase())) {
        Ok(f.to_owned())
    } else {
        Err(err(
            "federation",
            format!("{f:?} is not a 3-letter FIDE code like IRL"),
        ))
    }
}

/// A YYYY-MM-DD date (or empty), named `field` in the error.
pub fn check_date(field: &'static str, d: &str) -> Result<String, FieldError> {
    let d = d.trim();
    if d.is_empty() {
        return Ok(String::new());
    }
    chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
        .map(|_| d.to_owned())
        .map_err(|_| err(field, format!("{d:?} is not a date YYYY-MM-DD")))
}

fn check_rounds(r: u32) -> Result<u32, FieldError> {
    if r > 99 {
        Err(err("rounds", format!("{r} is more than 99")))
    } else {
        Ok(r)
    }
}

fn check_dates(start: &str, end: &str) -> Result<(), FieldError> {
    if !start.is_empty() && !end.is_empty() && end < start {
        return Err(err(
            "end_date",
            format!("{end} is before start_date {start}"),
        ));
    }
    Ok(())
}

/// The fields of a new tournament, as requested.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Draft {
    /// Name (required).
    pub name: String,
    /// Place.
    pub place: String,
    /// FIDE federation code.
    pub federation: String,
    /// YYYY-MM-DD.
    pub start_date: String,
    /// YYYY-MM-DD.
    pub end_date: String,
    /// Number of rounds (0 = undecided).
    pub rounds: u32,
    /// PGN TimeControl notation.
    pub time_control: String,
    /// Pairing system (default `dutch`).
    pub pairing_system: String,
    /// Rule edition (default: the system's current edition).
    pub rule_edition: String,
}

/// Decides `TournamentCreated` for a new tournament with id `tournament_id`.
pub fn decide_create(tournament_id: &str, d: Draft) -> Result<TournamentCreated, FieldError> {
    let name = check_name(&d.name)?;
    let federation = check_federation(&d.federation)?;
    let start_date = check_date("start_date", &d.start_date)?;
    let end_date = check_date("end_date", &d.end_date)?;
    check_dates(&start_date, &end_date)?;
    let rounds = check_rounds(d.rounds)?;
    let system = if d.pairing_system.trim().is_empty() {
        "dutch".to_owned()
    } else {
        d.pairing_system.trim().to_owned()
    };
    let editions = SYSTEMS
        .iter()
        .find(|(s, _)| *s == system)
        .map(|(_, e)| *e)
        .ok_or_else(|| {
            err(
                "pairing_system",
                format!(
                    "unknown system {system:?}; one of {}",
                    SYSTEMS
                        .iter()
                        .map(|(s, _)| *s)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
    let edition = if d.rule_edition.trim().is_empty() {
        editions[0].to_owned()
    } else if editions.contains(&d.rule_edition.trim()) {
        d.rule_edition.trim().to_owned()
    } else {
        return Err(err(
            "rule_edition",
            format!(
                "{:?} is not an edition of {system}; one of {}",
                d.rule_edition,
                editions.join(", ")
            ),
        ));
    };
    Ok(TournamentCreated {
        tournament_id: tournament_id.to_owned(),
        name,
        place: d.place.trim().to_owned(),
        federation,
        start_date,
        end_date,
        rounds,
        time_control: d.time_control.trim().to_owned(),
        pairing_system: system,
        rule_edition: edition,
    })
}

/// Decides `TournamentUpdated` against the current state.
pub fn decide_update(
    current: &Tournament,
    mut u: TournamentUpdated,
) -> Result<TournamentUpdated, FieldError> {
    if let Some(n) = &u.name {
        u.name = Some(check_name(n)?);
    }
    if let Some(f) = &u.federation {
        u.federation = Some(check_federation(f)?);
    }
    if let Some(d) = &u.start_date {
        u.start_date = Some(check_date("start_date", d)?);
    }
    if let Some(d) = &u.end_date {
        u.end_date = Some(check_date("end_date", d)?);
    }
    if let Some(r) = u.rounds {
        check_rounds(r)?;
    }
    let start = u.start_date.as_deref().unwrap_or(&current.start_date);
    let end = u.end_date.as_deref().unwrap_or(&current.end_date);
    check_dates(start, end)?;
    if u == TournamentUpdated::default() {
        return Err(err("update", "no field to change"));
    }
    Ok(u)
}

/// Folds `TournamentCreated` into a new state.
pub fn created(e: TournamentCreated, version: i64, at: i64, actor: &str) -> Tournament {
    Tournament {
        tournament_id: e.tournament_id,
        name: e.name,
        place: e.place,
        federation: e.federation,
        start_date: e.start_date,
        end_date: e.end_date,
        rounds: e.rounds,
        time_control: e.time_control,
        pairing_system: e.pairing_system,
        rule_edition: e.rule_edition,
        version,
        created_at_micros: at,
        created_by: actor.to_owned(),
        ..Default::default()
    }
}

/// Folds `TournamentUpdated` into the state.
pub fn updated(t: &mut Tournament, e: TournamentUpdated, version: i64) {
    if let Some(v) = e.name {
        t.name = v;
    }
    if let Some(v) = e.place {
        t.place = v;
    }
    if let Some(v) = e.federation {
        t.federation = v;
    }
    if let Some(v) = e.start_date {
        t.start_date = v;
    }
    if let Some(v) = e.end_date {
        t.end_date = v;
    }
    if let Some(v) = e.rounds {
        t.rounds = v;
    }
    if let Some(v) = e.time_control {
        t.time_control = v;
    }
    t.version = version;
}

/// Upcaster `TournamentCreated` v1 → v2: the legacy free-text rounds field becomes a
/// number (its leading digits; 0 when none), the system becomes `dutch`, and the
/// edition stays empty (unknown: v1 did not record it).
pub fn upcast_tournament_created_v1(payload: &[u8]) -> Result<Vec<u8>, String> {
    let v1 = TournamentCreatedV1::decode(payload).map_err(|e| e.to_string())?;
    let digits: String = v1
        .rounds
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    Ok(TournamentCreated {
        tournament_id: v1.tournament_id,
        name: v1.name,
        rounds: digits.parse().unwrap_or(0),
        pairing_system: "dutch".to_owned(),
        ..Default::default()
    }
    .encode_to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(name: &str) -> Draft {
        Draft {
            name: name.into(),
            ..Default::default()
        }
    }

    #[test]
    fn defaults_are_the_editions_in_force() {
        let e = decide_create("t1", draft("  Bunratty  ")).unwrap();
        assert_eq!(e.name, "Bunratty");
        assert_eq!(
            (e.pairing_system.as_str(), e.rule_edition.as_str()),
            ("dutch", "dutch-2026")
        );
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases: Vec<(Draft, &str)> = vec![
            (draft(""), "name"),
            (draft("   "), "name"),
            (
                Draft {
                    federation: "Ireland".into(),
                    ..draft("x")
                },
                "federation",
            ),
            (
                Draft {
                    start_date: "2026-13-01".into(),
                    ..draft("x")
                },
                "start_date",
            ),
            (
                Draft {
                    start_date: "2026-05-02".into(),
                    end_date: "2026-05-01".into(),
                    ..draft("x")
                },
                "end_date",
            ),
            (
                Draft {
                    rounds: 100,
                    ..draft("x")
                },
                "rounds",
            ),
            (
                Draft {
                    pairing_system: "monrad".into(),
                    ..draft("x")
                },
                "pairing_system",
            ),
            (
                Draft {
                    rule_edition: "dutch-1992".into(),
                    ..draft("x")
                },
                "rule_edition",
            ),
        ];
        for (d, field) in cases {
            assert_eq!(decide_create("t", d).unwrap_err().field, field);
        }
    }

    #[test]
    fn update_validates_against_state() {
        let t = created(
            decide_create(
                "t",
                Draft {
                    start_date: "2026-05-01".into(),
                    ..draft("x")
                },
            )
            .unwrap(),
            1,
            0,
            "a",
        );
        let bad = TournamentUpdated {
            end_date: Some("2026-04-30".into()),
            ..Default::default()
        };
        assert_eq!(decide_update(&t, bad).unwrap_err().field, "end_date");
        assert_eq!(
            decide_update(&t, TournamentUpdated::default())
                .unwrap_err()
                .field,
            "update"
        );
        let mut t2 = t.clone();
        let ok = decide_update(
            &t,
            TournamentUpdated {
                rounds: Some(9),
                ..Default::default()
            },
        )
        .unwrap();
        updated(&mut t2, ok, 2);
        assert_eq!((t2.rounds, t2.version), (9, 2));
    }

    #[test]
    fn v1_events_upcast() {
        let v1 = TournamentCreatedV1 {
            tournament_id: "t".into(),
            name: "Old Open".into(),
            rounds: "7 rounds".into(),
        };
        let v2 = TournamentCreated::decode(
            upcast_tournament_created_v1(&v1.encode_to_vec())
                .unwrap()
                .as_slice(),
        )
        .unwrap();
        assert_eq!(
            (v2.name.as_str(), v2.rounds, v2.pairing_system.as_str()),
            ("Old Open", 7, "dutch")
        );
    }
}
