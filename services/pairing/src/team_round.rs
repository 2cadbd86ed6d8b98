//! Pairing a round of a team tournament, pure (ADR pairing-005): the teams are paired by
//! `teampairing` — the team round robin on the Berger tables (C.05 Annex 1) or the Swiss Team
//! Pairing System C.04.6 — and each match's boards are the two teams' line-ups for the round
//! (`SubmitLineup`; a team without one plays its first roster players), board `k` against
//! board `k`, colours by record 352 (default alternating, White on board 1 for the team with
//! the team colour White).
//!
//! A board one team leaves empty is a forfeit win for the other team's player (TRF opponent
//! `0000`, result `+`); a board empty on both sides is no game. The history of the teams —
//! match and game points (record 362, default 2/1/0), the colour of board 1, floats,
//! forfeited matches (no board played over the board: ADR tiebreak-009) and team PABs — is
//! read from the engine input (the record's TRF export) by the team standings' own reading,
//! for rounds paired here and rounds imported from a file alike.

use arbiter_proto::v1::{MatchBoard, PairedBoard, PairedMatch};
use arbiter_registry::roster::Roster;
use arbiter_registry::teams::Team;
use arbiter_registry::tournament::FieldError;
use teampairing::{
    BoardColourSequence, Colour, Cycles, Points, PrimaryScore, RoundRecord, SwissTeamSettings,
    TeamState,
};

/// An imported file's free-text header record `code` (`352`, `362`): its value from column 5.
fn imported_header(roster: &Roster, code: &str) -> Option<String> {
    roster
        .trf
        .as_ref()?
        .kept_lines
        .iter()
        .find(|l| l.starts_with(code) && l.as_bytes().get(3) == Some(&b' '))
        .map(|l| l.get(4..).unwrap_or_default().trim().to_owned())
}

/// The board colours of the team named first: an imported file's record 352 (`WWBB`), else
/// alternating from White; its length must be the boards of a match.
pub fn board_colours(roster: &Roster) -> Result<BoardColourSequence, FieldError> {
    let boards = roster.teams.boards();
    let Some(text) = imported_header(roster, "352") else {
        return BoardColourSequence::alternating(boards)
            .map_err(|e| err("boards", format!("record 352: {e}")));
    };
    let s = BoardColourSequence::parse(&text).map_err(|e| {
        err(
            "tournament_id",
            format!("the imported record 352 {text:?}: {e}"),
        )
    })?;
    if s.boards() != boards as usize {
        return Err(err(
            "boards",
            format!(
                "the imported record 352 {text:?} has {} boards, a match is played on {boards} (arbiter team rules --boards)",
                s.boards()
            ),
        ));
    }
    Ok(s)
}

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// The team systems the pairing service pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamSystem {
    /// Team round robin, single or double cycle by the announced number of rounds.
    RoundRobin,
    /// FIDE Swiss Team Pairing System C.04.6 (2026).
    Swiss,
}

/// A paired team round: the games, the matches that hold them, the team PAB, the working.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TeamPaired {
    pub boards: Vec<PairedBoard>,
    pub matches: Vec<PairedMatch>,
    pub bye_team_id: String,
    pub explanation: String,
}

/// Half points of a crosstable score in its units.
fn to_halves(units: i64, units_per_point: i64) -> Result<Points, FieldError> {
    let h = units * 2;
    if units_per_point <= 0 || h % units_per_point != 0 || h < 0 {
        return Err(err(
            "round",
            format!(
                "a team score of {units}/{units_per_point} points is not a number of half points"
            ),
        ));
    }
    Ok(Points(
        u32::try_from(h / units_per_point).unwrap_or(u32::MAX),
    ))
}

/// The teams' states before the round the engine input `input` precedes (the record's TRF
/// export as of the round before): match and game points and one history entry per earlier
/// round, read with the team crosstable of the standings (ADR tiebreak-009) — the same
/// reading for rounds paired here and rounds imported from a file. Teams are matched by
/// their number (TRF 310 / the order of 013).
pub fn team_states(roster: &Roster, input: &str) -> Result<Vec<TeamState>, FieldError> {
    let engine = |m: String| err("tournament_id", format!("engine input: {m}"));
    let doc = trf::parse(input.as_bytes())
        .map_err(|e| engine(e.to_string()))?
        .doc;
    let ct = tiebreak::trf_team_crosstable::from_trf(
        &doc,
        &tiebreak::trf_team_crosstable::TeamAdapterOptions {
            kind: tiebreak::trf_crosstable::event_kind(&doc),
            ..Default::default()
        },
    )
    .map_err(|e| engine(format!("the team record: {}", e.message)))?
    .crosstable;
    let scores = ct
        .round_scores()
        .map_err(|e| engine(format!("the team record: {e}")))?;
    let upp = ct.scoring.units_per_point;
    let mp_of: Vec<Vec<i64>> = scores
        .iter()
        .map(|t| {
            t.iter()
                .scan(0i64, |acc, s| {
                    let before = *acc;
                    *acc += s.match_points;
                    Some(before)
                })
                .collect()
        })
        .collect();
    let index_of = |tpn: u32| ct.teams.iter().position(|t| t.tpn == tpn);
    let mut states = Vec::with_capacity(roster.teams.teams.len());
    for team in roster.teams.teams.iter() {
        let mut st = TeamState::new(team.number);
        let Some(i) = index_of(team.number) else {
            states.push(st);
            continue;
        };
        let (mut mp, mut gp) = (0i64, 0i64);
        for (r, (entry, score)) in ct.teams[i].entries.iter().zip(&scores[i]).enumerate() {
            use tiebreak::TeamRoundEntry as E;
            let record = match entry {
                E::Match { opponent, .. }
                | E::ForfeitWin { opponent }
                | E::ForfeitLoss { opponent } => match score.played_colour {
                    Some(c) => RoundRecord::Played {
                        opponent: *opponent,
                        colour: match c {
                            tiebreak::Colour::White => Colour::White,
                            tiebreak::Colour::Black => Colour::Black,
                        },
                        floated: index_of(*opponent)
                            .is_some_and(|j| mp_of[j].get(r) != mp_of[i].get(r)),
                    },
                    None => RoundRecord::Forfeit {
                        opponent: *opponent,
                        won: !matches!(entry, E::ForfeitLoss { .. })
                            && index_of(*opponent).is_some_and(|j| {
                                scores[j]
                                    .get(r)
                                    .is_some_and(|o| score.game_points > o.game_points)
                            }),
                    },
                },
                E::PairingAllocatedBye => RoundRecord::Pab,
                E::FullPointBye => RoundRecord::FullPointBye,
                _ => RoundRecord::NotPaired,
            };
            st.history.push(record);
            mp += score.match_points;
            gp += score.game_points;
        }
        st.match_points = to_halves(mp, upp)?;
        st.game_points = to_halves(gp, upp)?;
        states.push(st);
    }
    Ok(states)
}

/// Whether team `t` plays round `round` (not withdrawn by then).
fn plays(t: &Team, round: u32) -> bool {
    t.withdrawn_from_round == 0 || t.withdrawn_from_round > round
}

/// The line-up of `t` in `round`: its submitted line-up, else its first roster players;
/// boards beyond the roster are empty; a team withdrawn by then fields nobody.
fn lineup(t: &Team, round: u32, boards: usize) -> Vec<String> {
    if !plays(t, round) {
        return vec![String::new(); boards];
    }
    let mut l = t
        .lineups
        .get(&round)
        .map(|(l, _)| l.clone())
        .unwrap_or_else(|| t.roster.iter().take(boards).cloned().collect());
    l.resize(boards, String::new());
    l
}

/// One match as paired by a team system: the teams by number, the team named first, the
/// team with White on each board, the colour rule.
struct Pairing {
    table: u32,
    first: u32,
    second: u32,
    white_on: Vec<u32>,
    colour_rule: String,
}

/// The boards and matches of the round from the team pairing and the line-ups.
fn boards_of(
    roster: &Roster,
    round: u32,
    pairings: &[Pairing],
) -> Result<(Vec<PairedBoard>, Vec<PairedMatch>), FieldError> {
    let teams = &roster.teams.teams;
    let n = roster.teams.boards() as usize;
    let team = |number: u32| {
        usize::try_from(number)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| teams.get(i))
            .ok_or_else(|| {
                err(
                    "round",
                    format!("the team pairing named unknown team {number}"),
                )
            })
    };
    let mut boards = Vec::new();
    let mut matches = Vec::new();
    for p in pairings {
        let (first, second) = (team(p.first)?, team(p.second)?);
        let (lf, ls) = (lineup(first, round, n), lineup(second, round, n));
        let mut mbs = Vec::with_capacity(n);
        for k in 0..n {
            let white_team = if p.white_on.get(k) == Some(&first.number) {
                first
            } else {
                second
            };
            let (w, b) = if white_team.number == first.number {
                (&lf[k], &ls[k])
            } else {
                (&ls[k], &lf[k])
            };
            let mut mb = MatchBoard {
                match_board: u32::try_from(k + 1).unwrap_or(u32::MAX),
                white_team_id: white_team.team_id.clone(),
                ..MatchBoard::default()
            };
            match (w.is_empty(), b.is_empty()) {
                (false, false) => {
                    let number = u32::try_from(boards.len() + 1).unwrap_or(u32::MAX);
                    boards.push(PairedBoard {
                        board: number,
                        white_id: w.clone(),
                        black_id: b.clone(),
                        white_tpn: roster.pairing_number(w),
                        black_tpn: roster.pairing_number(b),
                    });
                    mb.board = number;
                }
                (false, true) => mb.unopposed_player_id = w.clone(),
                (true, false) => mb.unopposed_player_id = b.clone(),
                (true, true) => {}
            }
            mbs.push(mb);
        }
        let white_team_id = mbs
            .first()
            .map(|b| b.white_team_id.clone())
            .unwrap_or_default();
        matches.push(PairedMatch {
            table: p.table,
            first_team_id: first.team_id.clone(),
            second_team_id: second.team_id.clone(),
            first_team_number: first.number,
            second_team_number: second.number,
            white_team_id,
            boards: mbs,
            colour_rule: p.colour_rule.clone(),
        });
    }
    Ok((boards, matches))
}

/// The boards of a paired team round made again from the line-ups in force, the matches
/// (teams, the team named first, colours per board) kept as `paired` has them.
pub fn reboard(
    roster: &Roster,
    round: u32,
    paired: &arbiter_proto::v1::RoundPaired,
) -> Result<TeamPaired, FieldError> {
    let number = |id: &str| roster.teams.get(id).map_or(0, |t| t.number);
    let pairings: Vec<Pairing> = paired
        .matches
        .iter()
        .map(|m| Pairing {
            table: m.table,
            first: m.first_team_number,
            second: m.second_team_number,
            white_on: m.boards.iter().map(|b| number(&b.white_team_id)).collect(),
            colour_rule: m.colour_rule.clone(),
        })
        .collect();
    let (boards, matches) = boards_of(roster, round, &pairings)?;
    let explanation = format!(
        "{}\nboards made again from the line-ups in force; the published team pairing is kept",
        paired.explanation
    );
    Ok(TeamPaired {
        boards,
        matches,
        bye_team_id: paired.bye_team_id.clone(),
        explanation,
    })
}

/// The team round robin's cycles for `teams` teams and the announced `rounds`: double when
/// more rounds are announced than one cycle has.
fn cycles(teams: u32, rounds: u32) -> Cycles {
    let single = if teams.is_multiple_of(2) {
        teams - 1
    } else {
        teams
    };
    if rounds > single {
        Cycles::Double(roundrobin::SecondCycle::default())
    } else {
        Cycles::Single
    }
}

/// Pairs `round` of a team tournament of `rounds` announced rounds; `input` is the engine
/// input (the record's TRF export as of the round before), read for the teams' history.
pub fn pair_team_round(
    roster: &Roster,
    round: u32,
    rounds: u32,
    system: TeamSystem,
    input: &str,
) -> Result<TeamPaired, FieldError> {
    let teams = &roster.teams.teams;
    if teams.len() < 2 {
        return Err(err(
            "round",
            format!(
                "a team tournament pairs two teams or more; this one has {} (arbiter team add)",
                teams.len()
            ),
        ));
    }
    if let Some(t) = teams.iter().find(|t| t.roster.is_empty()) {
        return Err(err(
            "round",
            format!(
                "team {} {:?} has no roster (arbiter team roster)",
                t.number, t.name
            ),
        ));
    }
    let sequence = board_colours(roster)?;
    let (pairings, bye, mut text) = match system {
        TeamSystem::RoundRobin => round_robin(teams.len(), round, rounds, &sequence)?,
        TeamSystem::Swiss => swiss(roster, round, rounds, sequence, input)?,
    };
    let (boards, matches) = boards_of(roster, round, &pairings)?;
    let bye_team_id = bye
        .and_then(|n| teams.iter().find(|t| t.number == n))
        .map(|t| t.team_id.clone())
        .unwrap_or_default();
    for m in &matches {
        let empty: Vec<String> = m
            .boards
            .iter()
            .filter(|b| b.board == 0)
            .map(|b| {
                if b.unopposed_player_id.is_empty() {
                    format!("board {} empty on both sides", b.match_board)
                } else {
                    format!(
                        "board {} unopposed: {} wins by forfeit",
                        b.match_board,
                        roster.pairing_number(&b.unopposed_player_id)
                    )
                }
            })
            .collect();
        if !empty.is_empty() {
            text.push_str(&format!(
                "\nmatch {} (teams {}-{}): {}",
                m.table,
                m.first_team_number,
                m.second_team_number,
                empty.join("; ")
            ));
        }
    }
    Ok(TeamPaired {
        boards,
        matches,
        bye_team_id,
        explanation: text,
    })
}

type TeamPairing = (Vec<Pairing>, Option<u32>, String);

fn round_robin(
    teams: usize,
    round: u32,
    rounds: u32,
    sequence: &BoardColourSequence,
) -> Result<TeamPairing, FieldError> {
    let n = u32::try_from(teams).unwrap_or(u32::MAX);
    let c = cycles(n, rounds);
    let schedule =
        teampairing::team_round_robin(n, c, sequence).map_err(|e| err("round", e.to_string()))?;
    let r = schedule
        .into_iter()
        .find(|r| r.number == round)
        .ok_or_else(|| {
            err(
                "round",
                format!("the team round robin of {n} teams has no round {round}"),
            )
        })?;
    let pairings = r
        .matches
        .iter()
        .map(|m| Pairing {
            table: m.table,
            first: m.first,
            second: m.second,
            white_on: m.boards.iter().map(|b| b.white_team).collect(),
            colour_rule: String::new(),
        })
        .collect();
    let text = format!(
        "team round robin, Berger table for {n} teams (C.05 Annex 1, {}), round {round}; board colours {} for the team named first (record 352){}",
        if matches!(c, Cycles::Single) {
            "single cycle"
        } else {
            "double cycle"
        },
        sequence.to_trf(),
        r.bye
            .map(|b| format!("; team {b} is free"))
            .unwrap_or_default()
    );
    // The free team of an odd round robin is no PAB: it scores nothing (ADR pairing-005).
    Ok((pairings, None, text))
}

fn swiss(
    roster: &Roster,
    round: u32,
    rounds: u32,
    sequence: BoardColourSequence,
    input: &str,
) -> Result<TeamPairing, FieldError> {
    let states = team_states(roster, input)?;
    let field: Vec<TeamState> = roster
        .teams
        .teams
        .iter()
        .zip(states)
        .filter(|(t, _)| plays(t, round))
        .map(|(_, s)| s)
        .collect();
    let teams = &roster.teams;
    let settings = SwissTeamSettings {
        edition: teampairing::Edition::default(),
        primary: if teams.primary_score == "gp" {
            PrimaryScore::GamePoints
        } else {
            PrimaryScore::MatchPoints
        },
        use_secondary: true,
        preferences: match teams.colour_preferences.as_str() {
            "type-b" => teampairing::PreferenceType::TypeB,
            "none" => teampairing::PreferenceType::None,
            _ => teampairing::PreferenceType::TypeA,
        },
        initial_colour: Colour::White,
        rounds,
        boards: sequence,
    };
    let r = teampairing::pair_round(&settings, round, &field)
        .map_err(|e| err("round", format!("C.04.6: {e}")))?;
    let score = |n: u32| {
        field
            .iter()
            .find(|s| s.tpn == n)
            .map(|s| format!("{} MP {} GP", s.match_points, s.game_points))
            .unwrap_or_default()
    };
    let mut text = format!(
        "{} ({}), round {round}: {} primary, {} colour preferences, initial-colour White",
        settings.edition.name(),
        "swiss-team-2026",
        match settings.primary {
            PrimaryScore::MatchPoints => "match points",
            PrimaryScore::GamePoints => "game points",
        },
        match settings.preferences {
            teampairing::PreferenceType::TypeA => "Type A",
            teampairing::PreferenceType::TypeB => "Type B",
            teampairing::PreferenceType::None => "no",
        }
    );
    for m in &r.matches {
        text.push_str(&format!(
            "\nmatch {}: team {} ({}) - team {} ({}); first-team {}, colours by {:?}{}",
            m.table,
            m.white,
            score(m.white),
            m.black,
            score(m.black),
            m.first_team,
            m.colour_rule,
            if m.floaters { ", floaters" } else { "" }
        ));
    }
    if let Some(b) = r.pab {
        text.push_str(&format!(
            "\npairing-allocated bye: team {b} ({}), a drawn match's MP and GP (C.04.6 1.4)",
            score(b)
        ));
    }
    let pairings = r
        .matches
        .iter()
        .map(|m| Pairing {
            table: m.table,
            first: m.white,
            second: m.black,
            white_on: m.boards.iter().map(|b| b.white_team).collect(),
            colour_rule: format!("{:?}", m.colour_rule),
        })
        .collect();
    Ok((pairings, r.pab, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::{
        LineupSubmitted, PlayerAdded, PlayerData, TeamAdded, TeamRosterSet, TeamRulesSet,
        TeamWithdrawn,
    };
    use arbiter_registry::roster::RosterEvent;

    /// `teams` teams of three players (two boards and a reserve): team k holds p(3k+1),
    /// p(3k+2), p(3k+3).
    fn roster(teams: usize) -> Roster {
        let mut r = Roster::default();
        for i in 1..=3 * teams {
            r.apply(RosterEvent::PlayerAdded(PlayerAdded {
                player_id: format!("p{i}"),
                data: Some(PlayerData {
                    name: format!("Player, {i}"),
                    rating_standard: 2400 - i as u32,
                    ..Default::default()
                }),
                joined_round: 1,
                missed_rounds: "zero".into(),
            }));
        }
        r.apply(RosterEvent::TeamRulesSet(TeamRulesSet {
            boards: 2,
            ..Default::default()
        }));
        for k in 0..teams {
            let id = format!("t{}", k + 1);
            r.apply(RosterEvent::TeamAdded(TeamAdded {
                team_id: id.clone(),
                name: format!("Team {}", k + 1),
                ..Default::default()
            }));
            r.apply(RosterEvent::TeamRosterSet(TeamRosterSet {
                team_id: id,
                player_ids: (1..=3).map(|j| format!("p{}", 3 * k + j)).collect(),
            }));
        }
        r
    }

    fn lineup(r: &mut Roster, team: &str, round: u32, boards: &[&str]) {
        r.apply(RosterEvent::LineupSubmitted(LineupSubmitted {
            team_id: team.into(),
            round,
            boards: boards.iter().map(|b| (*b).to_owned()).collect(),
            by_captain: false,
        }));
    }

    #[test]
    fn a_match_board_k_meets_board_k_with_colours_alternating_from_the_team_named_first() {
        let r = roster(2);
        let p = pair_team_round(&r, 1, 1, TeamSystem::RoundRobin, "").unwrap();
        assert_eq!(p.matches.len(), 1);
        let m = &p.matches[0];
        let (first, second) = (m.first_team_id.as_str(), m.second_team_id.as_str());
        let players = |t: &str| {
            if t == "t1" {
                ["p1", "p2"]
            } else {
                ["p4", "p5"]
            }
        };
        assert_eq!(m.white_team_id, first);
        let b1 = &p.boards[0];
        assert_eq!(
            (b1.white_id.as_str(), b1.black_id.as_str()),
            (players(first)[0], players(second)[0])
        );
        let b2 = &p.boards[1];
        assert_eq!(
            (b2.white_id.as_str(), b2.black_id.as_str()),
            (players(second)[1], players(first)[1])
        );
        assert_eq!(m.boards[1].white_team_id, second);
        assert_eq!(p.bye_team_id, "", "two teams: no free team");
    }

    #[test]
    fn an_empty_board_is_a_forfeit_win_for_the_other_side_and_two_empty_ones_no_game() {
        let mut r = roster(2);
        lineup(&mut r, "t1", 1, &["p1", ""]);
        let p = pair_team_round(&r, 1, 1, TeamSystem::RoundRobin, "").unwrap();
        assert_eq!(p.boards.len(), 1, "{p:?}");
        let empty = &p.matches[0].boards[1];
        assert_eq!((empty.board, empty.unopposed_player_id.as_str()), (0, "p5"));
        lineup(&mut r, "t2", 1, &["p4", ""]);
        let p = pair_team_round(&r, 1, 1, TeamSystem::RoundRobin, "").unwrap();
        let empty = &p.matches[0].boards[1];
        assert_eq!((empty.board, empty.unopposed_player_id.as_str()), (0, ""));
        assert!(
            p.explanation.contains("board 2 empty on both sides"),
            "{}",
            p.explanation
        );
    }

    #[test]
    fn a_reserve_in_the_line_up_plays_and_a_withdrawn_team_fields_nobody() {
        let mut r = roster(2);
        lineup(&mut r, "t2", 1, &["p4", "p6"]);
        let p = pair_team_round(&r, 1, 1, TeamSystem::RoundRobin, "").unwrap();
        assert!(
            p.boards
                .iter()
                .any(|b| b.white_id == "p6" || b.black_id == "p6"),
            "{p:?}"
        );
        r.apply(RosterEvent::TeamWithdrawn(TeamWithdrawn {
            team_id: "t2".into(),
            from_round: 1,
        }));
        let p = pair_team_round(&r, 1, 1, TeamSystem::RoundRobin, "").unwrap();
        assert!(p.boards.is_empty(), "{p:?}");
        let unopposed: Vec<&str> = p.matches[0]
            .boards
            .iter()
            .map(|b| b.unopposed_player_id.as_str())
            .collect();
        assert_eq!(unopposed, ["p1", "p2"]);
    }

    #[test]
    fn the_boards_made_again_keep_the_matches_and_take_the_new_line_up() {
        let mut r = roster(4);
        let p = pair_team_round(&r, 1, 3, TeamSystem::RoundRobin, "").unwrap();
        let paired = arbiter_proto::v1::RoundPaired {
            round: 1,
            boards: p.boards.clone(),
            matches: p.matches.clone(),
            explanation: p.explanation.clone(),
            ..Default::default()
        };
        lineup(&mut r, "t1", 1, &["p1", "p3"]);
        let again = reboard(&r, 1, &paired).unwrap();
        let teams = |ms: &[PairedMatch]| -> Vec<(String, String)> {
            ms.iter()
                .map(|m| (m.first_team_id.clone(), m.second_team_id.clone()))
                .collect()
        };
        assert_eq!(teams(&again.matches), teams(&p.matches));
        assert!(
            again
                .boards
                .iter()
                .any(|b| b.white_id == "p3" || b.black_id == "p3")
        );
        assert!(
            !again
                .boards
                .iter()
                .any(|b| b.white_id == "p2" || b.black_id == "p2")
        );
    }

    #[test]
    fn a_double_cycle_when_more_rounds_are_announced_than_one_cycle_has() {
        assert_eq!(cycles(4, 3), Cycles::Single);
        assert!(matches!(cycles(4, 6), Cycles::Double(_)));
        assert_eq!(cycles(5, 5), Cycles::Single);
        assert!(matches!(cycles(5, 10), Cycles::Double(_)));
    }

    #[test]
    fn a_team_tournament_needs_two_teams_with_rosters() {
        let r = roster(1);
        let e = pair_team_round(&r, 1, 1, TeamSystem::RoundRobin, "").unwrap_err();
        assert!(e.message.contains("two teams or more"), "{}", e.message);
    }
}
