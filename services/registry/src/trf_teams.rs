//! The teams of a team tournament in TRF (reference §1.5, ADR registry-008), pure.
//!
//! - Out: record `310` per team in TRF26 (team number, name, members as starting ranks
//!   in roster order), `013` in TRF16. An imported file's team records are written back
//!   as read, with only their members taken from the registry's roster (unchanged
//!   rosters give the same line); teams entered after the import are added.
//! - In: a file with `310` (or, without them, `013`) records makes a team tournament:
//!   each record a team (number = the 310 number, else the order of the 013 records),
//!   its members its roster.
//! - `300` line-ups are not written: the record names the round's opponent team, which
//!   only a team pairing gives (not yet made by the pairing service).
use trf::{Field, Record, Team013Record, TeamByeRecord, TeamRecord, TrfDocument, TrfVersion};

use arbiter_proto::v1::{TeamAdded, TeamRosterSet};

use crate::roster::{Roster, RosterEvent};
use crate::teams::Team;

fn members(roster: &Roster, t: &Team) -> Vec<Field<u16>> {
    t.roster
        .iter()
        .map(|id| {
            u16::try_from(roster.pairing_number(id))
                .map(Field::Value)
                .unwrap_or(Field::Empty)
        })
        .collect()
}

/// Refreshes the team records among an imported file's kept lines and returns the
/// records of the teams they do not hold.
pub fn refresh(
    roster: &Roster,
    version: TrfVersion,
    lines: &mut [&mut Vec<trf::Line>],
) -> Vec<Record> {
    let teams = &roster.teams.teams;
    if teams.is_empty() {
        return Vec::new();
    }
    let mut covered = vec![false; teams.len()];
    for list in lines.iter_mut() {
        for line in list.iter_mut() {
            let (name, current) = match &line.record {
                Record::Team(r) => (&r.name, &r.members),
                Record::Team013(r) => (&r.name, &r.members),
                _ => continue,
            };
            // By name: a tournament's team names are unique (AddTeam), and an imported
            // file's records made its teams under their names.
            // (A file may repeat a name: the first team of it not yet matched.)
            let Some(i) = (0..teams.len()).find(|&i| teams[i].name == *name && !covered[i]) else {
                continue;
            };
            covered[i] = true;
            let now = members(roster, &teams[i]);
            if *current != now {
                match &mut line.record {
                    Record::Team(r) => r.members = now,
                    Record::Team013(r) => r.members = now,
                    _ => {}
                }
                line.verbatim = None;
            }
        }
    }
    teams
        .iter()
        .zip(&covered)
        .filter(|(_, c)| !**c)
        .map(|(t, _)| t)
        .map(|t| match version {
            TrfVersion::Trf16 => Record::Team013(Team013Record {
                name: t.name.clone(),
                members: members(roster, t),
            }),
            _ => Record::Team(TeamRecord {
                number: u16::try_from(t.number).map_or(Field::Empty, Field::Value),
                name: t.name.clone(),
                members: members(roster, t),
                ..TeamRecord::default()
            }),
        })
        .collect()
}

/// Record `320` (TRF26) of a team tournament whose rounds `1..=rounds` were all paired
/// here: the team pairing-allocated bye of each round (`RoundPaired.bye_team_id`, `0` =
/// none — a free team of an odd round robin is none), a drawn match's match points (1 of
/// 2/1/0) and game points (half the boards), C.04.6 1.4 and ADR pairing-005. With it the
/// team crosstable takes no team without a board for a PAB. `None` for rounds imported
/// from a file (their PABs are the file's).
pub fn team_byes(roster: &Roster, rounds: u32) -> Option<Record> {
    let pairings = &roster.record.pairings;
    if roster.teams.teams.is_empty() || rounds == 0 {
        return None;
    }
    let per_round: Vec<Field<u16>> = (1..=rounds)
        .map(|r| {
            pairings.get(&r).map(|p| {
                roster
                    .teams
                    .get(&p.event.bye_team_id)
                    .and_then(|t| u16::try_from(t.number).ok())
                    .map_or(Field::Value(0), Field::Value)
            })
        })
        .collect::<Option<_>>()?;
    let boards = i32::try_from(roster.teams.boards()).unwrap_or(0);
    Some(Record::TeamBye(TeamByeRecord {
        match_points: Field::Value(trf::Score::ONE),
        game_points: Field::Value(trf::Score::from_tenths(boards * 5)),
        teams: per_round,
    }))
}

/// The TRF26 team records of the rounds `1..=rounds` paired here (ADR pairing-005), each
/// unless `kept` (an imported file's lines) already holds its kind: `352` the board colour
/// sequence of the team named first (alternating from White), `362` the match points
/// (`TW 2 TD 1 TL 0`), and a `300` for each team whose line-up in a match is not its default
/// board order (the first roster players): a reserve in, a board left empty.
pub fn team_pairing_records(roster: &Roster, rounds: u32, kept: &[&trf::Line]) -> Vec<Record> {
    let paired: Vec<&arbiter_proto::v1::RoundPaired> = (1..=rounds)
        .filter_map(|r| roster.record.pairings.get(&r))
        .map(|p| &p.event)
        .filter(|e| !e.matches.is_empty())
        .collect();
    if paired.is_empty() {
        return Vec::new();
    }
    let has = |f: &dyn Fn(&Record) -> bool| kept.iter().any(|l| f(&l.record));
    let header =
        |kind: trf::HeaderKind, value: String| Record::Header(trf::HeaderRecord { kind, value });
    let mut out = Vec::new();
    let boards = roster.teams.boards() as usize;
    if !has(&|r| matches!(r, Record::Header(h) if h.kind == trf::HeaderKind::BoardColours)) {
        let seq: String = (0..boards)
            .map(|k| if k % 2 == 0 { 'W' } else { 'B' })
            .collect();
        out.push(header(trf::HeaderKind::BoardColours, seq));
    }
    if !has(&|r| matches!(r, Record::Header(h) if h.kind == trf::HeaderKind::TeamScoring)) {
        out.push(header(
            trf::HeaderKind::TeamScoring,
            "TW 2.0   TD 1.0   TL 0.0".to_owned(),
        ));
    }
    if has(&|r| matches!(r, Record::Lineup(_))) {
        return out;
    }
    for p in paired {
        for m in &p.matches {
            for (team_id, opponent) in [
                (&m.first_team_id, m.second_team_number),
                (&m.second_team_id, m.first_team_number),
            ] {
                let Some(team) = roster.teams.get(team_id) else {
                    continue;
                };
                // The team's player on each match board, from the games and the unopposed
                // boards ("" = empty).
                let players: Vec<String> = m
                    .boards
                    .iter()
                    .map(|mb| {
                        if !mb.unopposed_player_id.is_empty() {
                            return if team.roster.contains(&mb.unopposed_player_id) {
                                mb.unopposed_player_id.clone()
                            } else {
                                String::new()
                            };
                        }
                        p.boards
                            .iter()
                            .find(|b| b.board == mb.board && mb.board > 0)
                            .map(|b| {
                                if team.roster.contains(&b.white_id) {
                                    b.white_id.clone()
                                } else {
                                    b.black_id.clone()
                                }
                            })
                            .unwrap_or_default()
                    })
                    .collect();
                let default: Vec<&String> = team.roster.iter().take(boards).collect();
                let in_order = players.len() == default.len()
                    && players.iter().zip(&default).all(|(a, b)| a == *b);
                if in_order {
                    continue;
                }
                out.push(Record::Lineup(trf::LineupRecord {
                    round: u16::try_from(p.round).map_or(Field::Empty, Field::Value),
                    team: u16::try_from(team.number).map_or(Field::Empty, Field::Value),
                    opponent: u16::try_from(opponent).map_or(Field::Empty, Field::Value),
                    players: players
                        .iter()
                        .map(|id| {
                            if id.is_empty() {
                                Field::Value(0)
                            } else {
                                u16::try_from(roster.pairing_number(id))
                                    .map_or(Field::Empty, Field::Value)
                            }
                        })
                        .collect(),
                }));
            }
        }
    }
    out
}

/// The teams of an imported file: `TeamAdded` and `TeamRosterSet` per `310` record (or
/// per `013` record when there is no `310`), members by starting rank through `id_of`
/// (0 or an unknown rank is left out). Empty for a file without team records.
pub fn import_events(
    doc: &TrfDocument,
    id_of: &dyn Fn(u16) -> String,
    new_id: &mut dyn FnMut() -> String,
) -> Vec<RosterEvent> {
    let mut teams: Vec<(String, Vec<Field<u16>>)> = doc
        .records()
        .filter_map(|r| match r {
            Record::Team(t) => Some((t.name.clone(), t.members.clone())),
            _ => None,
        })
        .collect();
    if teams.is_empty() {
        teams = doc
            .records()
            .filter_map(|r| match r {
                Record::Team013(t) => Some((t.name.clone(), t.members.clone())),
                _ => None,
            })
            .collect();
    }
    let mut events = Vec::with_capacity(teams.len() * 2);
    for (name, members) in teams.into_iter().take(crate::teams::MAX_TEAMS) {
        let team_id = new_id();
        events.push(RosterEvent::TeamAdded(TeamAdded {
            team_id: team_id.clone(),
            name,
            ..TeamAdded::default()
        }));
        let player_ids: Vec<String> = members
            .iter()
            .filter_map(|m| m.get())
            .map(id_of)
            .filter(|id| !id.is_empty())
            .take(crate::teams::MAX_ROSTER)
            .collect();
        events.push(RosterEvent::TeamRosterSet(TeamRosterSet {
            team_id,
            player_ids,
        }));
    }
    events
}

/// A team file's pairing system: `swiss-team` unless its 092 names a round robin.
pub fn team_system(doc: &TrfDocument) -> Option<&'static str> {
    let has_teams = doc
        .records()
        .any(|r| matches!(r, Record::Team(_) | Record::Team013(_)));
    if !has_teams {
        return None;
    }
    let text = doc
        .header_value(trf::HeaderKind::TournamentType)
        .unwrap_or_default()
        .to_ascii_uppercase();
    if text.contains("ROUND ROBIN") || text.contains("ROUND-ROBIN") {
        Some("team-round-robin")
    } else {
        Some("swiss-team")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trf_export::{ExportOptions, export};
    use crate::trf_import::plan_import;

    const CRETE: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/tiebreak/tests/fixtures/heltour-crete-friendship-cup-2024-team.trf"
    );

    fn import(bytes: &[u8]) -> (arbiter_proto::v1::Tournament, Roster, String) {
        let mut n = 0;
        let plan = plan_import(bytes, "", &mut || {
            n += 1;
            format!("id{n}")
        })
        .unwrap();
        let mut roster = Roster::default();
        for e in plan.events {
            roster.apply(e);
        }
        let t = arbiter_proto::v1::Tournament {
            name: plan.draft.name,
            rounds: plan.draft.rounds,
            pairing_system: plan.draft.pairing_system.clone(),
            ..Default::default()
        };
        (t, roster, plan.draft.pairing_system)
    }

    /// The heltour Crete file: a team Swiss in TRF16 team records; its 013 records become
    /// the teams with their rosters, and the export gives back the file's records
    /// unchanged.
    #[test]
    fn the_crete_team_file_imports_as_teams_and_exports_its_records_unchanged() {
        let bytes = std::fs::read(CRETE).unwrap();
        let (t, roster, system) = import(&bytes);
        assert_eq!(system, "swiss-team");
        let original = trf::parse(&bytes).unwrap().doc;
        let n013 = original
            .records()
            .filter(|r| matches!(r, Record::Team013(_)))
            .count();
        assert_eq!(n013, 15);
        assert_eq!(roster.teams.teams.len(), n013);
        let first = &roster.teams.teams[0];
        let Some(Record::Team013(r013)) =
            original.records().find(|r| matches!(r, Record::Team013(_)))
        else {
            unreachable!()
        };
        assert_eq!(first.name, r013.name);
        assert_eq!(first.roster.len(), r013.members.len());
        assert_eq!(roster.pairing_number(&first.roster[0]), 13);
        let (text, _) = export(&t, &roster, &ExportOptions::default()).unwrap();
        let back = trf::parse(text.as_bytes()).unwrap().doc;
        let teams = |d: &TrfDocument| -> Vec<Record> {
            d.records()
                .filter(|r| matches!(r, Record::Team(_) | Record::Team013(_)))
                .cloned()
                .collect()
        };
        assert_eq!(teams(&back), teams(&original));
        // And the export imports again to the same teams (a lossless round trip).
        let (t2, again, _) = import(text.as_bytes());
        let (text2, _) = export(&t2, &again, &ExportOptions::default()).unwrap();
        assert_eq!(text2, text, "export → import → export changes the file");
        let names = |r: &Roster| -> Vec<(String, usize)> {
            r.teams
                .teams
                .iter()
                .map(|t| (t.name.clone(), t.roster.len()))
                .collect()
        };
        assert_eq!(names(&again), names(&roster));
    }

    /// A file that names two teams alike: each record stays one team, none is added.
    #[test]
    fn two_team_records_of_one_name_stay_two_teams() {
        let text = "012 T\n\
001    1      A, A                              2100                             0.0    1\n\
001    2      B, B                              2000                             0.0    2\n\
013 Same                                 1\n\
013 Same                                 2\n";
        let (t, roster, _) = import(text.as_bytes());
        assert_eq!(roster.teams.teams.len(), 2);
        let (out, _) = export(&t, &roster, &ExportOptions::default()).unwrap();
        assert_eq!(
            out.lines().filter(|l| l.starts_with("013")).count(),
            2,
            "{out}"
        );
    }

    /// A tournament made here: one 310 per team (013 in TRF16), members in roster order.
    #[test]
    fn teams_entered_here_are_written_as_310_or_013() {
        let mut r = Roster::default();
        for e in crate::teams::decide_add_team(
            "team-round-robin",
            &r.teams,
            "t1",
            crate::teams::TeamDraft {
                name: "Knights".into(),
                ..Default::default()
            },
        )
        .unwrap()
        {
            r.apply(e);
        }
        let out = refresh(&r, TrfVersion::Trf26, &mut []);
        assert!(
            matches!(&out[..], [Record::Team(t)] if t.name == "Knights" && t.number == Field::Value(1))
        );
        let out = refresh(&r, TrfVersion::Trf16, &mut []);
        assert!(matches!(&out[..], [Record::Team013(t)] if t.name == "Knights"));
    }
}
