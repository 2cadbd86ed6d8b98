//! Pairing a round of a team tournament, pure (ADR pairing-005): the teams are paired by
//! `teampairing` — the team round robin on the Berger tables (C.05 Annex 1) or the Swiss Team
//! Pairing System C.04.6 — and each match's boards are the two teams' line-ups for the round
//! (`SubmitLineup`; a team without one plays its first roster players), board `k` against
//! board `k`, colours by record 352 (default alternating, White on board 1 for the team with
//! the team colour White).
//!
//! A board one team leaves empty is a forfeit win for the other team's player (TRF opponent
//! `0000`, result `+`); a board empty on both sides is no game. The history of the teams —
//! match points 2/1/0 from the game points of each match, the colour of board 1, floats,
//! forfeited matches (no board played over the board: ADR tiebreak-009) and team PABs — is
//! read from the record's rounds, the same blocks the TRF export and the standings read.
use std::collections::BTreeMap;

use arbiter_proto::v1::{MatchBoard, PairedBoard, PairedMatch};
use arbiter_registry::roster::Roster;
use arbiter_registry::teams::Team;
use arbiter_registry::tournament::FieldError;
use teampairing::{
    BoardColourSequence, Colour, Cycles, Points, PrimaryScore, RoundRecord, SwissTeamSettings,
    TeamState,
};

/// Match points of a match won, drawn, lost (the default of C.07 and TRF26 record 362:
/// `TW 2`, `TD 1`, `TL 0`).
pub const MATCH_POINTS_WIN_DRAW_LOSS: (u32, u32, u32) = (2, 1, 0);

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

/// Half points of a round block's result code (TRF: `1 + W U F` win, `= D H` draw).
fn halves(code: &str) -> u32 {
    match code {
        "1" | "+" | "W" | "U" | "F" => 2,
        "=" | "D" | "H" => 1,
        _ => 0,
    }
}

/// Whether a round block's result is a game played over the board.
fn over_the_board(code: &str) -> bool {
    matches!(code, "1" | "0" | "=" | "W" | "D" | "L")
}

/// One team's side of a past match: its game points and whether a board was played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Side {
    game_points: Points,
    played: bool,
}

/// The first and second teams' sides of match `m` of round `round`, from the round's blocks.
fn match_sides(roster: &Roster, round: u32, m: &PairedMatch) -> (Side, Side) {
    let blocks = roster.rounds.get(&round);
    let code_of = |player: &str| -> Option<&str> {
        blocks?
            .iter()
            .find(|b| b.player_id == player)
            .map(|b| b.result.as_str())
    };
    let paired = roster.record.pairings.get(&round);
    let board_of = |n: u32| paired.and_then(|p| p.event.boards.iter().find(|b| b.board == n));
    let mut first = Side::default();
    let mut second = Side::default();
    for mb in &m.boards {
        let mut add = |team: &str, player: &str| {
            let Some(code) = code_of(player) else { return };
            let side = if team == m.first_team_id {
                &mut first
            } else {
                &mut second
            };
            side.game_points = Points(side.game_points.0 + halves(code));
            side.played |= over_the_board(code);
        };
        if !mb.unopposed_player_id.is_empty() {
            let team = roster
                .teams
                .team_of(&mb.unopposed_player_id)
                .map(|t| t.team_id.as_str())
                .unwrap_or_default();
            add(team, &mb.unopposed_player_id);
        } else if let Some(b) = board_of(mb.board) {
            let black_team = if mb.white_team_id == m.first_team_id {
                m.second_team_id.as_str()
            } else {
                m.first_team_id.as_str()
            };
            add(&mb.white_team_id, &b.white_id);
            add(black_team, &b.black_id);
        }
    }
    (first, second)
}

fn match_points(mine: Points, theirs: Points) -> Points {
    let (w, d, l) = MATCH_POINTS_WIN_DRAW_LOSS;
    Points::whole(match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => w,
        std::cmp::Ordering::Equal => d,
        std::cmp::Ordering::Less => l,
    })
}

/// The teams' states before `round`: match and game points and one history entry per earlier
/// round, from the record (as for the pairing: an adjourned game counts as a draw).
pub fn team_states(roster: &Roster, round: u32) -> Vec<TeamState> {
    let teams = &roster.teams.teams;
    let boards = roster.teams.boards();
    let mut states: Vec<TeamState> = teams.iter().map(|t| TeamState::new(t.number)).collect();
    let index: BTreeMap<&str, usize> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.team_id.as_str(), i))
        .collect();
    for r in 1..round {
        let before: Vec<Points> = states.iter().map(|s| s.match_points).collect();
        let mut record: Vec<RoundRecord> = vec![RoundRecord::NotPaired; teams.len()];
        let mut gained: Vec<(Points, Points)> = vec![(Points(0), Points(0)); teams.len()];
        let Some(p) = roster.record.pairings.get(&r) else {
            continue;
        };
        for m in &p.event.matches {
            let (Some(&a), Some(&b)) = (
                index.get(m.first_team_id.as_str()),
                index.get(m.second_team_id.as_str()),
            ) else {
                continue;
            };
            let (sa, sb) = match_sides(roster, r, m);
            let played = sa.played || sb.played;
            let board_one = |team: &str| {
                if m.white_team_id == team {
                    Colour::White
                } else {
                    Colour::Black
                }
            };
            for (me, them, mine, theirs, id) in [
                (a, b, sa, sb, &m.first_team_id),
                (b, a, sb, sa, &m.second_team_id),
            ] {
                record[me] = if played {
                    RoundRecord::Played {
                        opponent: teams[them].number,
                        colour: board_one(id),
                        floated: before[me] != before[them],
                    }
                } else {
                    RoundRecord::Forfeit {
                        opponent: teams[them].number,
                        won: mine.game_points > theirs.game_points,
                    }
                };
                gained[me] = (
                    match_points(mine.game_points, theirs.game_points),
                    mine.game_points,
                );
            }
        }
        if let Some(&i) = index.get(p.event.bye_team_id.as_str()) {
            record[i] = RoundRecord::Pab;
            gained[i] = teampairing::pab_award(Points::whole(MATCH_POINTS_WIN_DRAW_LOSS.1), boards);
        }
        for (i, s) in states.iter_mut().enumerate() {
            s.history.push(record[i]);
            s.match_points = Points(s.match_points.0 + gained[i].0.0);
            s.game_points = Points(s.game_points.0 + gained[i].1.0);
        }
    }
    states
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

/// Pairs `round` of a team tournament of `rounds` announced rounds.
pub fn pair_team_round(
    roster: &Roster,
    round: u32,
    rounds: u32,
    system: TeamSystem,
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
    let n_boards = roster.teams.boards();
    let sequence = BoardColourSequence::alternating(n_boards)
        .map_err(|e| err("boards", format!("record 352: {e}")))?;
    let (pairings, bye, mut text) = match system {
        TeamSystem::RoundRobin => round_robin(teams.len(), round, rounds, &sequence)?,
        TeamSystem::Swiss => swiss(roster, round, rounds, sequence)?,
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
) -> Result<TeamPairing, FieldError> {
    let states = team_states(roster, round);
    let field: Vec<TeamState> = roster
        .teams
        .teams
        .iter()
        .zip(states)
        .filter(|(t, _)| plays(t, round))
        .map(|(_, s)| s)
        .collect();
    let settings = SwissTeamSettings {
        edition: teampairing::Edition::default(),
        primary: PrimaryScore::MatchPoints,
        use_secondary: true,
        preferences: teampairing::PreferenceType::TypeA,
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
        "{} ({}), round {round}: match points primary, Type A colour preferences, initial-colour White",
        settings.edition.name(),
        "swiss-team-2026"
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
