//! The tournament aggregate, pure: validate a command against the current state and
//! decide the event; fold events into state. No I/O.
use arbiter_proto::v1::{
    DeputyArbiters, Tournament, TournamentCreated, TournamentCreatedV1, TournamentUpdated,
};
use arbiter_service_kit::limits;
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
    // team tournaments (ADR registry-008; paired by crates/teampairing)
    ("team-round-robin", &["c05-2026"]),
    ("swiss-team", &["swiss-team-2026"]),
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

/// A free-text field as given (before trimming): no control character, at most
/// `max_chars` characters (`limits`); the error names the field, the character's
/// position and the limit.
pub fn check_free_text(
    field: &'static str,
    text: &str,
    max_chars: usize,
) -> Result<(), FieldError> {
    limits::check_text(text, max_chars).map_err(|m| err(field, m))
}

/// The reason recorded on an event (`meta.reason`): free text, bounded.
pub fn check_reason(reason: &str) -> Result<(), FieldError> {
    check_free_text("meta.reason", reason, limits::MAX_REASON_CHARS)
}

fn check_name(name: &str) -> Result<String, FieldError> {
    check_free_text("name", name, limits::MAX_TOURNAMENT_NAME_CHARS)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(err("name", "must not be empty"));
    }
    Ok(name.to_owned())
}

fn check_place(place: &str) -> Result<String, FieldError> {
    check_free_text("place", place, limits::MAX_PLACE_CHARS)?;
    Ok(place.trim().to_owned())
}

fn check_time_control(tc: &str) -> Result<String, FieldError> {
    check_free_text("time_control", tc, limits::MAX_TIME_CONTROL_CHARS)?;
    Ok(tc.trim().to_owned())
}

/// The chief arbiter (TRF 102): free text, bounded; empty = not recorded.
fn check_chief_arbiter(name: &str) -> Result<String, FieldError> {
    check_free_text("chief_arbiter", name, limits::MAX_ARBITER_NAME_CHARS)?;
    Ok(name.trim().to_owned())
}

/// The deputy arbiters (TRF 112, one line each): each bounded and not empty, at most
/// `MAX_DEPUTY_ARBITERS`, no name twice.
fn check_deputy_arbiters(names: &[String]) -> Result<Vec<String>, FieldError> {
    if names.len() > limits::MAX_DEPUTY_ARBITERS {
        return Err(err(
            "deputy_arbiters",
            format!(
                "{} names: at most {}",
                names.len(),
                limits::MAX_DEPUTY_ARBITERS
            ),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        limits::check_text(n, limits::MAX_ARBITER_NAME_CHARS)
            .map_err(|m| err("deputy_arbiters", format!("name {}: {m}", i + 1)))?;
        let n = n.trim();
        if n.is_empty() {
            return Err(err(
                "deputy_arbiters",
                format!("name {}: must not be empty", i + 1),
            ));
        }
        if out.iter().any(|o| o == n) {
            return Err(err(
                "deputy_arbiters",
                format!("name {}: {n:?} is named twice", i + 1),
            ));
        }
        out.push(n.to_owned());
    }
    Ok(out)
}

pub(crate) fn check_federation(f: &str) -> Result<String, FieldError> {
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
    if r > crate::roster::MAX_ROUND {
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
    /// The chief arbiter (TRF 102).
    pub chief_arbiter: String,
    /// The deputy arbiters (TRF 112).
    pub deputy_arbiters: Vec<String>,
}

/// Decides `TournamentCreated` for a new tournament with id `tournament_id`.
pub fn decide_create(tournament_id: &str, d: Draft) -> Result<TournamentCreated, FieldError> {
    let name = check_name(&d.name)?;
    let place = check_place(&d.place)?;
    let time_control = check_time_control(&d.time_control)?;
    let federation = check_federation(&d.federation)?;
    let start_date = check_date("start_date", &d.start_date)?;
    let end_date = check_date("end_date", &d.end_date)?;
    check_dates(&start_date, &end_date)?;
    let rounds = check_rounds(d.rounds)?;
    let chief_arbiter = check_chief_arbiter(&d.chief_arbiter)?;
    let deputy_arbiters = check_deputy_arbiters(&d.deputy_arbiters)?;
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
        place,
        federation,
        start_date,
        end_date,
        rounds,
        time_control,
        pairing_system: system,
        rule_edition: edition,
        chief_arbiter,
        deputy_arbiters,
    })
}

/// Decides `TournamentUpdated` against the current state; `paired_rounds`: the rounds
/// paired so far (the tournament record's). The number of rounds cannot go below the
/// rounds already paired, nor back to 0 (undecided) once announced or paired.
pub fn decide_update(
    current: &Tournament,
    paired_rounds: u32,
    mut u: TournamentUpdated,
) -> Result<TournamentUpdated, FieldError> {
    if let Some(n) = &u.name {
        u.name = Some(check_name(n)?);
    }
    if let Some(p) = &u.place {
        u.place = Some(check_place(p)?);
    }
    if let Some(tc) = &u.time_control {
        u.time_control = Some(check_time_control(tc)?);
    }
    if let Some(f) = &u.federation {
        u.federation = Some(check_federation(f)?);
    }
    if let Some(c) = &u.chief_arbiter {
        u.chief_arbiter = Some(check_chief_arbiter(c)?);
    }
    if let Some(d) = &u.deputy_arbiters {
        u.deputy_arbiters = Some(DeputyArbiters {
            names: check_deputy_arbiters(&d.names)?,
        });
    }
    if let Some(d) = &u.start_date {
        u.start_date = Some(check_date("start_date", d)?);
    }
    if let Some(d) = &u.end_date {
        u.end_date = Some(check_date("end_date", d)?);
    }
    if let Some(r) = u.rounds {
        check_rounds(r)?;
        if r == 0 {
            return Err(err(
                "rounds",
                "0 is not a number of rounds: the number announced stays set (give the number of rounds, at least the rounds paired)",
            ));
        }
        if r < paired_rounds {
            return Err(err(
                "rounds",
                format!(
                    "{r} is fewer than the {paired_rounds} round(s) already paired; at least {paired_rounds}"
                ),
            ));
        }
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
        chief_arbiter: e.chief_arbiter,
        deputy_arbiters: e.deputy_arbiters,
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
    if let Some(v) = e.chief_arbiter {
        t.chief_arbiter = v;
    }
    if let Some(v) = e.deputy_arbiters {
        t.deputy_arbiters = v.names;
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
        assert_eq!(decide_update(&t, 0, bad).unwrap_err().field, "end_date");
        assert_eq!(
            decide_update(&t, 0, TournamentUpdated::default())
                .unwrap_err()
                .field,
            "update"
        );
        let mut t2 = t.clone();
        let ok = decide_update(
            &t,
            0,
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
    fn rounds_cannot_go_below_the_rounds_paired_nor_to_zero() {
        let t = created(decide_create("t", draft("x")).unwrap(), 1, 0, "a");
        let rounds = |r| TournamentUpdated {
            rounds: Some(r),
            ..Default::default()
        };
        let e = decide_update(&t, 7, rounds(5)).unwrap_err();
        assert_eq!(e.field, "rounds");
        assert!(
            e.message
                .contains("fewer than the 7 round(s) already paired"),
            "{e:?}"
        );
        let e = decide_update(&t, 7, rounds(0)).unwrap_err();
        assert!(e.message.contains("0 is not a number of rounds"), "{e:?}");
        assert_eq!(decide_update(&t, 0, rounds(0)).unwrap_err().field, "rounds");
        assert!(decide_update(&t, 7, rounds(7)).is_ok());
        assert!(decide_update(&t, 7, rounds(9)).is_ok());
    }

    #[test]
    fn free_text_refuses_control_characters_and_names_field_position_and_limit() {
        for (d, field, needle) in [
            (draft("Open\0"), "name", "U+0000 at character 5"),
            (draft("\u{1b}[31mRed"), "name", "U+001B at character 1"),
            (draft("Open\r\n"), "name", "U+000D at character 5"),
            (
                draft(&"x".repeat(201)),
                "name",
                "at most 200 characters, got 201",
            ),
            (
                Draft {
                    place: "Gal\nway".into(),
                    ..draft("x")
                },
                "place",
                "U+000A at character 4",
            ),
            (
                Draft {
                    time_control: "9".repeat(101),
                    ..draft("x")
                },
                "time_control",
                "at most 100 characters",
            ),
        ] {
            let e = decide_create("t", d).unwrap_err();
            assert_eq!(e.field, field);
            assert!(e.message.contains(needle), "{e:?}");
        }
        let t = created(decide_create("t", draft("x")).unwrap(), 1, 0, "a");
        let e = decide_update(
            &t,
            0,
            TournamentUpdated {
                name: Some("a\u{7}".into()),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            (e.field, e.message.contains("U+0007 at character 2")),
            ("name", true)
        );
        assert_eq!(
            check_reason(&"r".repeat(1001)).unwrap_err().field,
            "meta.reason"
        );
        assert!(check_reason("result sheet says 1-0").is_ok());
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

    #[test]
    fn officials_are_recorded_trimmed_and_each_bad_name_is_named() {
        let e = decide_create(
            "t",
            Draft {
                chief_arbiter: " IA Murphy, Sean ".into(),
                deputy_arbiters: vec!["FA Byrne, Ann".into(), "NA Kelly, Joe".into()],
                ..draft("x")
            },
        )
        .unwrap();
        let mut t = created(e, 1, 0, "admin");
        assert_eq!(t.chief_arbiter, "IA Murphy, Sean");
        assert_eq!(t.deputy_arbiters, ["FA Byrne, Ann", "NA Kelly, Joe"]);
        let bad = |names: Vec<&str>| {
            decide_create(
                "t",
                Draft {
                    deputy_arbiters: names.into_iter().map(String::from).collect(),
                    ..draft("x")
                },
            )
            .unwrap_err()
        };
        let twice = bad(vec!["A", "A"]);
        assert_eq!(twice.field, "deputy_arbiters");
        assert!(twice.message.contains("name 2"), "{}", twice.message);
        assert!(bad(vec![" "]).message.contains("must not be empty"));
        let many = bad(vec!["x"; limits::MAX_DEPUTY_ARBITERS + 1]);
        assert!(many.message.contains("at most 50"), "{}", many.message);
        let long = decide_create(
            "t",
            Draft {
                chief_arbiter: "x".repeat(limits::MAX_ARBITER_NAME_CHARS + 1),
                ..draft("x")
            },
        )
        .unwrap_err();
        assert_eq!(long.field, "chief_arbiter");
        // An update replaces the list, or clears it; the chief arbiter alone changes.
        let u = decide_update(
            &t,
            0,
            TournamentUpdated {
                chief_arbiter: Some("IA Walsh, Mary".into()),
                deputy_arbiters: Some(DeputyArbiters { names: vec![] }),
                ..Default::default()
            },
        )
        .unwrap();
        updated(&mut t, u, 2);
        assert_eq!(t.chief_arbiter, "IA Walsh, Mary");
        assert!(t.deputy_arbiters.is_empty());
    }
}
