//! Team competitions in the registry (ADR registry-008): the teams of a team
//! tournament, their rosters in board order, the line-up of each round, team
//! withdrawals. Pure: every guard is a `decide_*` function over the folded [`Teams`];
//! the handlers in `lib.rs` only authorise, load, append.
//!
//! The board-order rule is the one FIDE's team events announce (e.g. the Olympiad
//! regulations, the C.04.6 team Swiss): a team's players are listed in a fixed board
//! order before the event, and a line-up may leave a player out (a reserve plays instead)
//! but never put a player above a team mate listed before them.

use std::collections::BTreeMap;
use std::sync::Arc;

use arbiter_proto::v1::{LineupSubmitted, TeamAdded, TeamRosterSet, TeamRulesSet, TeamWithdrawn};

use crate::roster::{MAX_ROUND, Roster, RosterEvent};
use crate::tournament::{FieldError, check_federation, check_free_text};

/// Event types.
pub mod types {
    /// Boards per match and line-up deadlines.
    pub const TEAM_RULES_SET: &str = "TeamRulesSet";
    /// A team entered a team tournament.
    pub const TEAM_ADDED: &str = "TeamAdded";
    /// A team's roster in board order (reserves after the boards).
    pub const TEAM_ROSTER_SET: &str = "TeamRosterSet";
    /// A team's line-up for one round.
    pub const LINEUP_SUBMITTED: &str = "LineupSubmitted";
    /// A team withdrew.
    pub const TEAM_WITHDRAWN: &str = "TeamWithdrawn";
}

/// The pairing systems of team tournaments (with their editions in `tournament::SYSTEMS`).
pub const TEAM_SYSTEMS: &[&str] = &["team-round-robin", "swiss-team"];

/// Boards per match until `SetTeamRules` says otherwise (the Olympiad's four).
pub const DEFAULT_BOARDS: u32 = 4;
/// Most boards per match accepted.
pub const MAX_BOARDS: u32 = 12;
/// Most players on one roster (boards and reserves).
pub const MAX_ROSTER: usize = 24;
/// Most teams in one tournament: TRF 310 numbers teams in three columns (1–999).
pub const MAX_TEAMS: usize = 999;
/// A team's name fills TRF 310 columns 9–40.
pub const MAX_TEAM_NAME_CHARS: usize = 32;
/// Club and captain names.
pub const MAX_TEAM_TEXT_CHARS: usize = 100;
/// A captain's principal id (`p_…`, or `jwt:<iss>#<sub>`).
pub const MAX_PRINCIPAL_CHARS: usize = 200;

/// One team.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Team {
    /// Its id.
    pub team_id: String,
    /// Team pairing number: order of entry, from 1.
    pub number: u32,
    /// As entered.
    pub name: String,
    /// 3-letter code or empty.
    pub federation: String,
    /// Club (free text).
    pub club: String,
    /// The captain's name.
    pub captain: String,
    /// The principal that may submit this team's line-ups (empty: arbiters only).
    pub captain_principal: String,
    /// Player ids in board order; after the first `boards`: reserves.
    pub roster: Vec<String>,
    /// Round → player id per board ("" = forfeited board), and whether the captain
    /// submitted it.
    pub lineups: BTreeMap<u32, (Vec<String>, bool)>,
    /// First round it is absent from (0 = not withdrawn).
    pub withdrawn_from_round: u32,
}

/// The teams of one tournament.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Teams {
    /// Boards per match set by `SetTeamRules` (0 = [`DEFAULT_BOARDS`]).
    pub boards_set: u32,
    /// Round → line-up deadline (µs since the epoch).
    pub deadlines: BTreeMap<u32, i64>,
    /// C.04.6 1.7 colour preferences: "type-a" ("" = the default, Type A), "type-b", "none".
    pub colour_preferences: String,
    /// C.04.6 1.2 primary score: "mp" ("" = the default, match points) or "gp".
    pub primary_score: String,
    /// In order of entry (number = index + 1).
    pub teams: Arc<Vec<Team>>,
}

impl Teams {
    /// Boards per match.
    pub fn boards(&self) -> u32 {
        if self.boards_set == 0 {
            DEFAULT_BOARDS
        } else {
            self.boards_set
        }
    }

    /// The team with this id.
    pub fn get(&self, team_id: &str) -> Option<&Team> {
        self.teams.iter().find(|t| t.team_id == team_id)
    }

    /// The team of a player (its roster holds the player).
    pub fn team_of(&self, player_id: &str) -> Option<&Team> {
        self.teams
            .iter()
            .find(|t| t.roster.iter().any(|p| p == player_id))
    }

    /// Finds a team by id, number (digits) or name (case-insensitive).
    pub fn resolve(&self, team: &str) -> Result<&Team, FieldError> {
        let t = team.trim();
        if t.is_empty() {
            return Err(err("team", "must not be empty (a team id, number or name)"));
        }
        check_free_text("team", team, MAX_TEAM_TEXT_CHARS)?;
        if t.bytes().all(|b| b.is_ascii_digit()) && t.len() <= 3 {
            let n: usize = t.parse().unwrap_or(0);
            return n
                .checked_sub(1)
                .and_then(|i| self.teams.get(i))
                .ok_or_else(|| err("team", format!("no team with number {t}")));
        }
        self.teams
            .iter()
            .find(|x| x.team_id == t)
            .or_else(|| {
                self.teams
                    .iter()
                    .find(|x| x.name.to_lowercase() == t.to_lowercase())
            })
            .ok_or_else(|| err("team", format!("no team {t:?} in this tournament")))
    }

    /// Folds one team event.
    pub fn apply(&mut self, e: &RosterEvent) {
        match e {
            RosterEvent::TeamRulesSet(r) => {
                if r.boards != 0 {
                    self.boards_set = r.boards;
                }
                if !r.colour_preferences.is_empty() {
                    self.colour_preferences = r.colour_preferences.clone();
                }
                if !r.primary_score.is_empty() {
                    self.primary_score = r.primary_score.clone();
                }
                for d in &r.deadlines {
                    if d.deadline_micros == 0 {
                        self.deadlines.remove(&d.round);
                    } else {
                        self.deadlines.insert(d.round, d.deadline_micros);
                    }
                }
            }
            RosterEvent::TeamAdded(a) => {
                if self.get(&a.team_id).is_some() {
                    return;
                }
                let number = u32::try_from(self.teams.len() + 1).unwrap_or(u32::MAX);
                Arc::make_mut(&mut self.teams).push(Team {
                    team_id: a.team_id.clone(),
                    number,
                    name: a.name.clone(),
                    federation: a.federation.clone(),
                    club: a.club.clone(),
                    captain: a.captain.clone(),
                    captain_principal: a.captain_principal.clone(),
                    ..Team::default()
                });
            }
            RosterEvent::TeamRosterSet(r) => {
                if let Some(t) = self.get_mut(&r.team_id) {
                    t.roster = r.player_ids.clone();
                }
            }
            RosterEvent::LineupSubmitted(l) => {
                if let Some(t) = self.get_mut(&l.team_id) {
                    t.lineups.insert(l.round, (l.boards.clone(), l.by_captain));
                }
            }
            RosterEvent::TeamWithdrawn(w) => {
                if let Some(t) = self.get_mut(&w.team_id) {
                    t.withdrawn_from_round = w.from_round;
                }
            }
            _ => {}
        }
    }

    fn get_mut(&mut self, team_id: &str) -> Option<&mut Team> {
        Arc::make_mut(&mut self.teams)
            .iter_mut()
            .find(|t| t.team_id == team_id)
    }
}

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// Teams belong to tournaments paired by a team system.
fn check_team_tournament(pairing_system: &str) -> Result<(), FieldError> {
    if TEAM_SYSTEMS.contains(&pairing_system) {
        Ok(())
    } else {
        Err(err(
            "tournament_id",
            format!(
                "not a team tournament: its pairing system is {pairing_system:?}, a team tournament's is one of {}",
                TEAM_SYSTEMS.join(", ")
            ),
        ))
    }
}

fn check_round(field: &'static str, round: u32, rounds: u32) -> Result<(), FieldError> {
    let last = if rounds == 0 { MAX_ROUND } else { rounds };
    if round == 0 || round > last {
        return Err(err(
            field,
            format!("round {round} is not a round of this tournament (1 to {last})"),
        ));
    }
    Ok(())
}

/// The C.04.6 options of `SetTeamRules` ("" = unchanged).
#[derive(Debug, Clone, Copy, Default)]
pub struct SwissTeamOptions<'a> {
    /// 1.7: "type-a", "type-b" or "none".
    pub colour_preferences: &'a str,
    /// 1.2: "mp" or "gp".
    pub primary_score: &'a str,
}

/// Checks the C.04.6 options: known values, announced before round 1 is paired, and for a
/// Swiss team tournament only.
fn check_swiss_team_options(
    pairing_system: &str,
    paired_rounds: u32,
    o: SwissTeamOptions<'_>,
) -> Result<(String, String), FieldError> {
    let norm = |s: &str| s.trim().to_ascii_lowercase();
    let (prefs, primary) = (norm(o.colour_preferences), norm(o.primary_score));
    if prefs.is_empty() && primary.is_empty() {
        return Ok((prefs, primary));
    }
    let field = if prefs.is_empty() {
        "primary_score"
    } else {
        "colour_preferences"
    };
    if pairing_system != "swiss-team" {
        return Err(err(
            field,
            format!(
                "C.04.6 options are for a Swiss team tournament; this one is {pairing_system:?}"
            ),
        ));
    }
    if !matches!(prefs.as_str(), "" | "type-a" | "type-b" | "none") {
        return Err(err(
            "colour_preferences",
            format!("{prefs:?}: type-a (the default), type-b or none (C.04.6 1.7)"),
        ));
    }
    if !matches!(primary.as_str(), "" | "mp" | "gp") {
        return Err(err(
            "primary_score",
            format!("{primary:?}: mp (the default) or gp (C.04.6 1.2)"),
        ));
    }
    if paired_rounds > 0 {
        return Err(err(
            field,
            format!(
                "{paired_rounds} round(s) are paired: the regulations announce the C.04.6 options before round 1"
            ),
        ));
    }
    Ok((prefs, primary))
}

/// `SetTeamRules`: boards per match (fixed once a line-up is in), line-up deadlines, and the
/// C.04.6 options of a Swiss team tournament (before round 1).
pub fn decide_team_rules(
    pairing_system: &str,
    rounds: u32,
    paired_rounds: u32,
    teams: &Teams,
    boards: u32,
    deadlines: &[(u32, i64)],
    swiss: SwissTeamOptions<'_>,
) -> Result<Vec<RosterEvent>, FieldError> {
    check_team_tournament(pairing_system)?;
    let (colour_preferences, primary_score) =
        check_swiss_team_options(pairing_system, paired_rounds, swiss)?;
    if boards > MAX_BOARDS {
        return Err(err(
            "boards",
            format!("{boards} boards per match: at most {MAX_BOARDS}"),
        ));
    }
    if boards != 0 && boards != teams.boards() && teams.teams.iter().any(|t| !t.lineups.is_empty())
    {
        return Err(err(
            "boards",
            format!(
                "line-ups of {} boards are in; the number of boards cannot change now",
                teams.boards()
            ),
        ));
    }
    if deadlines.len() > MAX_ROUND as usize {
        return Err(err(
            "deadlines",
            format!("{} deadlines: at most {MAX_ROUND}", deadlines.len()),
        ));
    }
    for (round, _) in deadlines {
        check_round("deadlines.round", *round, rounds)?;
    }
    if boards == 0
        && deadlines.is_empty()
        && colour_preferences.is_empty()
        && primary_score.is_empty()
    {
        return Err(err(
            "boards",
            "nothing to set: give boards, deadlines, colour preferences or the primary score",
        ));
    }
    Ok(vec![RosterEvent::TeamRulesSet(TeamRulesSet {
        colour_preferences,
        primary_score,
        boards,
        deadlines: deadlines
            .iter()
            .map(
                |&(round, deadline_micros)| arbiter_proto::v1::TeamLineupDeadline {
                    round,
                    deadline_micros,
                },
            )
            .collect(),
    })])
}

/// What `AddTeam` asks.
#[derive(Debug, Clone, Default)]
pub struct TeamDraft {
    /// Name (required).
    pub name: String,
    /// 3-letter code or empty.
    pub federation: String,
    /// Club.
    pub club: String,
    /// Captain's name.
    pub captain: String,
    /// Captain's principal id.
    pub captain_principal: String,
}

/// `AddTeam`: a named team (unique name) in a team tournament.
pub fn decide_add_team(
    pairing_system: &str,
    teams: &Teams,
    team_id: &str,
    d: TeamDraft,
) -> Result<Vec<RosterEvent>, FieldError> {
    check_team_tournament(pairing_system)?;
    check_free_text("name", &d.name, MAX_TEAM_NAME_CHARS)?;
    let name = d.name.trim();
    if name.is_empty() {
        return Err(err("name", "must not be empty"));
    }
    if name.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(
            "name",
            format!("{name:?} is all digits: it would read as a team number"),
        ));
    }
    if let Some(t) = teams
        .teams
        .iter()
        .find(|t| t.name.to_lowercase() == name.to_lowercase())
    {
        return Err(err(
            "name",
            format!("team {} is already called {:?}", t.number, t.name),
        ));
    }
    if teams.teams.len() >= MAX_TEAMS {
        return Err(err(
            "name",
            format!("the tournament has {MAX_TEAMS} teams, the most TRF 310 numbers"),
        ));
    }
    let federation = check_federation(&d.federation)?;
    check_free_text("club", &d.club, MAX_TEAM_TEXT_CHARS)?;
    check_free_text("captain", &d.captain, MAX_TEAM_TEXT_CHARS)?;
    check_free_text(
        "captain_principal",
        &d.captain_principal,
        MAX_PRINCIPAL_CHARS,
    )?;
    let principal = d.captain_principal.trim();
    if principal.contains(char::is_whitespace) {
        return Err(err(
            "captain_principal",
            format!("{principal:?} is not a principal id (p_…, as `arbiter access list` shows)"),
        ));
    }
    Ok(vec![RosterEvent::TeamAdded(TeamAdded {
        team_id: team_id.to_owned(),
        name: name.to_owned(),
        federation,
        club: d.club.trim().to_owned(),
        captain: d.captain.trim().to_owned(),
        captain_principal: principal.to_owned(),
    })])
}

/// `SetTeamRoster`: the team's players in board order. Each is an entry of the
/// tournament, on no other team's roster, listed once. Once the team has a line-up its
/// board order is fixed: the new roster must start with the old one (reserves may be
/// added at the end).
pub fn decide_roster(
    roster: &Roster,
    team: &str,
    players: &[String],
) -> Result<Vec<RosterEvent>, FieldError> {
    let teams = &roster.teams;
    let t = teams.resolve(team)?;
    if players.is_empty() {
        return Err(err("players", "must name at least one player"));
    }
    if players.len() > MAX_ROSTER {
        return Err(err(
            "players",
            format!(
                "{} players: a roster holds at most {MAX_ROSTER}",
                players.len()
            ),
        ));
    }
    let mut ids: Vec<String> = Vec::with_capacity(players.len());
    for (i, p) in players.iter().enumerate() {
        let e = roster.resolve(p).map_err(|e| {
            err(
                "players",
                format!("board order place {}: {}", i + 1, e.message),
            )
        })?;
        if ids.contains(&e.player_id) {
            return Err(err(
                "players",
                format!(
                    "board order place {}: {} is listed twice",
                    i + 1,
                    e.data.name
                ),
            ));
        }
        if let Some(other) = teams
            .team_of(&e.player_id)
            .filter(|o| o.team_id != t.team_id)
        {
            return Err(err(
                "players",
                format!(
                    "board order place {}: {} plays for team {:?}",
                    i + 1,
                    e.data.name,
                    other.name
                ),
            ));
        }
        ids.push(e.player_id.clone());
    }
    if !t.lineups.is_empty() && !ids.starts_with(&t.roster) {
        return Err(err(
            "players",
            format!(
                "{:?} has line-ups, so its board order is fixed: the roster must begin with its {} players as before; reserves may only be added after them",
                t.name,
                t.roster.len()
            ),
        ));
    }
    Ok(vec![RosterEvent::TeamRosterSet(TeamRosterSet {
        team_id: t.team_id.clone(),
        player_ids: ids,
    })])
}

/// Who submits a line-up.
#[derive(Debug, Clone, Copy)]
pub struct Submitter<'a> {
    /// The caller's principal id.
    pub principal_id: &'a str,
    /// It may submit only as a captain (the access rule's `own` roles), not as an arbiter.
    pub only_as_captain: bool,
    /// When it submits (µs since the epoch).
    pub now_micros: i64,
}

/// Why a line-up is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineupRefusal {
    /// A field is wrong (INVALID_ARGUMENT).
    Field(FieldError),
    /// A captain submitted another team's line-up (PERMISSION_DENIED).
    NotTheCaptain(String),
    /// A captain submitted after the round's deadline (FAILED_PRECONDITION).
    Late(String),
    /// The round has results: its line-ups are fixed (FAILED_PRECONDITION; ADR
    /// pairing-005).
    HasResults(String),
}

impl From<FieldError> for LineupRefusal {
    fn from(e: FieldError) -> Self {
        LineupRefusal::Field(e)
    }
}

/// `SubmitLineup`: one player (or "" for a forfeited board) per board.
///
/// - A captain may submit its own team's line-up only, and only until the round's
///   deadline (`SetTeamRules`); an arbiter may submit any team's, also after it.
/// - Every player is on the team's roster, once; at least one board is played.
/// - Board order: the players' roster places rise from board 1 down (a player may not
///   play above a team mate listed before them).
/// - A withdrawn team submits nothing from its withdrawal on.
/// - A later line-up of the same round replaces the earlier one, until the round has
///   results. A round's boards are made from the line-ups in force when it is paired; a
///   line-up submitted after that (e.g. once the team pairing is published) takes its
///   place on the boards when the round is re-paired (ADR pairing-005).
pub fn decide_lineup(
    roster: &Roster,
    rounds: u32,
    team: &str,
    round: u32,
    boards: &[String],
    by: Submitter<'_>,
) -> Result<Vec<RosterEvent>, LineupRefusal> {
    let teams = &roster.teams;
    let t = teams.resolve(team)?;
    if by.only_as_captain
        && (t.captain_principal.is_empty() || t.captain_principal != by.principal_id)
    {
        return Err(LineupRefusal::NotTheCaptain(format!(
            "team: principal {} is not the captain of {:?} (its captain principal is {}); a captain submits its own team's line-up only",
            by.principal_id,
            t.name,
            if t.captain_principal.is_empty() {
                "not set".to_owned()
            } else {
                t.captain_principal.clone()
            }
        )));
    }
    check_round("round", round, rounds)?;
    if roster.record.pairings.contains_key(&round) && roster.round_has_results(round) {
        return Err(LineupRefusal::HasResults(format!(
            "round: round {round} has results, so {:?}'s line-up of that round is fixed",
            t.name
        )));
    }
    if t.withdrawn_from_round != 0 && round >= t.withdrawn_from_round {
        return Err(err(
            "team",
            format!(
                "{:?} withdrew from round {} on",
                t.name, t.withdrawn_from_round
            ),
        )
        .into());
    }
    if by.only_as_captain
        && let Some(&deadline) = teams.deadlines.get(&round)
        && by.now_micros > deadline
    {
        return Err(LineupRefusal::Late(format!(
            "round: the line-up deadline of round {round} was {}; after it only an arbiter enters a line-up",
            fmt_micros(deadline)
        )));
    }
    let n = teams.boards() as usize;
    if boards.len() != n {
        return Err(err(
            "boards",
            format!(
                "{} boards given, a match is played on {n} (give \"\" for a forfeited board)",
                boards.len()
            ),
        )
        .into());
    }
    if t.roster.is_empty() {
        return Err(err(
            "team",
            format!("{:?} has no roster yet (SetTeamRoster first)", t.name),
        )
        .into());
    }
    let mut ids = Vec::with_capacity(n);
    // (board, roster place, name) of the last player placed, for the board-order rule.
    let mut last: Option<(usize, usize, String)> = None;
    for (i, b) in boards.iter().enumerate() {
        let board = i + 1;
        if b.trim().is_empty() {
            ids.push(String::new());
            continue;
        }
        let e = roster
            .resolve(b)
            .map_err(|e| err("boards", format!("board {board}: {}", e.message)))?;
        let Some(place) = t.roster.iter().position(|p| *p == e.player_id) else {
            return Err(err(
                "boards",
                format!(
                    "board {board}: {} is not on the roster of {:?}",
                    e.data.name, t.name
                ),
            )
            .into());
        };
        if ids.contains(&e.player_id) {
            return Err(err(
                "boards",
                format!("board {board}: {} is on two boards", e.data.name),
            )
            .into());
        }
        if let Some((above, above_place, above_name)) = &last
            && *above_place > place
        {
            return Err(err(
                "boards",
                format!(
                    "board order: {} (roster place {}) may not play on board {board} below {above_name} (roster place {}) on board {above}: a player may not play above a team mate listed before them",
                    e.data.name,
                    place + 1,
                    above_place + 1
                ),
            )
            .into());
        }
        last = Some((board, place, e.data.name.clone()));
        ids.push(e.player_id.clone());
    }
    if last.is_none() {
        return Err(err(
            "boards",
            "every board is empty: a team that does not play is withdrawn (WithdrawTeam)",
        )
        .into());
    }
    Ok(vec![RosterEvent::LineupSubmitted(LineupSubmitted {
        team_id: t.team_id.clone(),
        round,
        boards: ids,
        by_captain: by.only_as_captain,
    })])
}

/// `WithdrawTeam` from a round on (once).
pub fn decide_withdraw_team(
    teams: &Teams,
    rounds: u32,
    team: &str,
    from_round: u32,
) -> Result<Vec<RosterEvent>, FieldError> {
    let t = teams.resolve(team)?;
    check_round("from_round", from_round, rounds)?;
    if t.withdrawn_from_round != 0 {
        return Err(err(
            "team",
            format!(
                "{:?} already withdrew from round {}",
                t.name, t.withdrawn_from_round
            ),
        ));
    }
    Ok(vec![RosterEvent::TeamWithdrawn(TeamWithdrawn {
        team_id: t.team_id.clone(),
        from_round,
    })])
}

/// Reads an RFC 3339 UTC deadline (`2026-12-05T13:00:00Z`) as µs since the epoch.
pub fn parse_deadline(s: &str) -> Result<i64, FieldError> {
    let t = s.trim();
    let bad = || {
        err(
            "deadlines.deadline",
            format!("{t:?} is not a UTC time like 2026-12-05T13:00:00Z"),
        )
    };
    if t.len() > 40 {
        return Err(bad());
    }
    let dt = chrono::DateTime::parse_from_rfc3339(t).map_err(|_| bad())?;
    Ok(dt.timestamp_micros())
}

/// A deadline as RFC 3339 UTC.
pub fn fmt_micros(micros: i64) -> String {
    chrono::DateTime::from_timestamp_micros(micros)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| micros.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::{PairingNumbersAssigned, PlayerAdded, PlayerData};

    const SWISS: &str = "swiss-team";

    /// Eight players p1…p8 (pairing numbers 1…8) and teams A (p1–p5) and B (p6–p8),
    /// A's captain principal `p_anna`.
    fn roster() -> Roster {
        let mut r = Roster::default();
        for i in 1..=8 {
            r.apply(RosterEvent::PlayerAdded(PlayerAdded {
                player_id: format!("p{i}"),
                data: Some(PlayerData {
                    name: format!("Player, {i}"),
                    ..PlayerData::default()
                }),
                joined_round: 1,
                missed_rounds: String::new(),
            }));
        }
        r.apply(RosterEvent::PairingNumbersAssigned(
            PairingNumbersAssigned {
                player_ids: (1..=8).map(|i| format!("p{i}")).collect(),
                basis: String::new(),
            },
        ));
        for (id, name, captain) in [("ta", "Alpha", "p_anna"), ("tb", "Beta", "")] {
            for e in decide_add_team(
                SWISS,
                &r.teams,
                id,
                TeamDraft {
                    name: name.into(),
                    captain_principal: captain.into(),
                    ..TeamDraft::default()
                },
            )
            .unwrap()
            {
                r.apply(e);
            }
        }
        let set = |r: &mut Roster, team: &str, players: &[&str]| {
            let players: Vec<String> = players.iter().map(|s| (*s).to_owned()).collect();
            for e in decide_roster(r, team, &players).unwrap() {
                r.apply(e);
            }
        };
        set(&mut r, "Alpha", &["1", "2", "3", "4", "5"]);
        set(&mut r, "2", &["6", "7", "8"]);
        r
    }

    fn arbiter() -> Submitter<'static> {
        Submitter {
            principal_id: "p_chief",
            only_as_captain: false,
            now_micros: 1_000,
        }
    }

    fn boards(b: &[&str]) -> Vec<String> {
        b.iter().map(|s| (*s).to_owned()).collect()
    }

    fn field_of(r: Result<Vec<RosterEvent>, LineupRefusal>) -> (&'static str, String) {
        match r {
            Err(LineupRefusal::Field(e)) => (e.field, e.message),
            other => panic!("expected a field error, got {other:?}"),
        }
    }

    #[test]
    fn teams_belong_to_team_tournaments_and_have_unique_names() {
        let e = decide_add_team(
            "dutch",
            &Teams::default(),
            "t",
            TeamDraft {
                name: "A".into(),
                ..TeamDraft::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.field, "tournament_id");
        assert!(e.message.contains("team-round-robin"), "{}", e.message);
        let r = roster();
        let e = decide_add_team(
            SWISS,
            &r.teams,
            "t",
            TeamDraft {
                name: " alpha ".into(),
                ..TeamDraft::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            (e.field, e.message.as_str()),
            ("name", "team 1 is already called \"Alpha\"")
        );
        let long = "x".repeat(MAX_TEAM_NAME_CHARS + 1);
        let e = decide_add_team(
            SWISS,
            &r.teams,
            "t",
            TeamDraft {
                name: long,
                ..TeamDraft::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.field, "name");
        let e = decide_add_team(
            SWISS,
            &r.teams,
            "t",
            TeamDraft {
                name: "Gamma".into(),
                federation: "ireland".into(),
                ..TeamDraft::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.field, "federation");
    }

    #[test]
    fn a_player_is_on_one_roster_once() {
        let r = roster();
        let e = decide_roster(&r, "Beta", &boards(&["6", "1"])).unwrap_err();
        assert_eq!(e.field, "players");
        assert!(
            e.message.contains("plays for team \"Alpha\""),
            "{}",
            e.message
        );
        let e = decide_roster(&r, "Beta", &boards(&["6", "6"])).unwrap_err();
        assert!(e.message.contains("listed twice"), "{}", e.message);
        let e = decide_roster(&r, "Beta", &boards(&["99"])).unwrap_err();
        assert!(e.message.contains("board order place 1"), "{}", e.message);
        let many: Vec<String> = (0..=MAX_ROSTER).map(|i| i.to_string()).collect();
        assert!(
            decide_roster(&r, "Beta", &many)
                .unwrap_err()
                .message
                .contains("at most")
        );
    }

    #[test]
    fn a_line_up_follows_the_board_order_of_the_roster() {
        let r = roster();
        // A reserve (5) in place of 3: order kept.
        let ok =
            decide_lineup(&r, 7, "Alpha", 1, &boards(&["1", "2", "4", "5"]), arbiter()).unwrap();
        assert!(matches!(&ok[0], RosterEvent::LineupSubmitted(l)
            if l.boards == boards(&["p1", "p2", "p4", "p5"]) && !l.by_captain));
        // 3 above 2: refused, naming both and their boards.
        let (f, m) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            1,
            &boards(&["1", "3", "2", "4"]),
            arbiter(),
        ));
        assert_eq!(f, "boards");
        assert!(m.contains("board order: Player, 2 (roster place 2) may not play on board 3 below Player, 3 (roster place 3) on board 2"), "{m}");
        // An empty board is a forfeited board; the order of the others still counts.
        assert!(decide_lineup(&r, 7, "Alpha", 1, &boards(&["1", "", "3", "4"]), arbiter()).is_ok());
        let (f, m) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            1,
            &boards(&["1", "2", "3"]),
            arbiter(),
        ));
        assert_eq!((f, m.contains("a match is played on 4")), ("boards", true));
        let (_, m) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            1,
            &boards(&["1", "2", "6", "4"]),
            arbiter(),
        ));
        assert!(
            m.contains("board 3: Player, 6 is not on the roster of \"Alpha\""),
            "{m}"
        );
        let (_, m) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            1,
            &boards(&["1", "1", "2", "3"]),
            arbiter(),
        ));
        assert!(m.contains("on two boards"), "{m}");
        let (_, m) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            1,
            &boards(&["", "", "", ""]),
            arbiter(),
        ));
        assert!(m.contains("every board is empty"), "{m}");
        let (f, _) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            8,
            &boards(&["1", "2", "3", "4"]),
            arbiter(),
        ));
        assert_eq!(f, "round");
    }

    #[test]
    fn a_captain_submits_its_own_team_before_the_deadline_an_arbiter_also_after() {
        let mut r = roster();
        for e in
            decide_team_rules(SWISS, 7, 0, &r.teams, 0, &[(2, 500)], Default::default()).unwrap()
        {
            r.apply(e);
        }
        let anna = |now| Submitter {
            principal_id: "p_anna",
            only_as_captain: true,
            now_micros: now,
        };
        let four = boards(&["1", "2", "3", "4"]);
        let ok = decide_lineup(&r, 7, "Alpha", 2, &four, anna(400)).unwrap();
        assert!(matches!(&ok[0], RosterEvent::LineupSubmitted(l) if l.by_captain));
        assert!(matches!(
            decide_lineup(&r, 7, "Beta", 2, &boards(&["6", "7", "8", ""]), anna(400)),
            Err(LineupRefusal::NotTheCaptain(m)) if m.contains("not the captain of \"Beta\"")
        ));
        assert!(matches!(
            decide_lineup(&r, 7, "Alpha", 2, &four, anna(501)),
            Err(LineupRefusal::Late(m)) if m.contains("deadline of round 2")
        ));
        // No deadline for round 3; the arbiter may enter after the deadline.
        assert!(decide_lineup(&r, 7, "Alpha", 3, &four, anna(10_000)).is_ok());
        assert!(decide_lineup(&r, 7, "Alpha", 2, &four, arbiter()).is_ok());
    }

    #[test]
    fn board_order_is_fixed_once_line_ups_are_in_and_withdrawn_teams_submit_nothing() {
        let mut r = roster();
        for e in
            decide_lineup(&r, 7, "Alpha", 1, &boards(&["1", "2", "3", "4"]), arbiter()).unwrap()
        {
            r.apply(e);
        }
        let e = decide_roster(&r, "Alpha", &boards(&["2", "1", "3", "4", "5"])).unwrap_err();
        assert!(e.message.contains("board order is fixed"), "{}", e.message);
        assert!(
            decide_team_rules(SWISS, 7, 0, &r.teams, 6, &[], Default::default())
                .unwrap_err()
                .field
                == "boards"
        );
        for e in decide_withdraw_team(&r.teams, 7, "Alpha", 3).unwrap() {
            r.apply(e);
        }
        let (f, m) = field_of(decide_lineup(
            &r,
            7,
            "Alpha",
            3,
            &boards(&["1", "2", "3", "4"]),
            arbiter(),
        ));
        assert_eq!((f, m.contains("withdrew from round 3")), ("team", true));
        assert!(
            decide_lineup(&r, 7, "Alpha", 2, &boards(&["1", "2", "3", "4"]), arbiter()).is_ok()
        );
        assert!(decide_withdraw_team(&r.teams, 7, "Alpha", 4).is_err());
    }

    #[test]
    fn deadlines_read_as_utc() {
        assert_eq!(parse_deadline("1970-01-01T00:00:01Z").unwrap(), 1_000_000);
        assert_eq!(fmt_micros(1_000_000), "1970-01-01T00:00:01Z");
        assert_eq!(
            parse_deadline("tomorrow").unwrap_err().field,
            "deadlines.deadline"
        );
    }
}
