//! `arbiter team add|roster|lineup|list|rules|withdraw`: the teams of a team tournament
//! through the registry service (ADR registry-008). Players are given by pairing number
//! or player id; what is printed names them.
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::{
    AddTeamRequest, LineupDeadline, ListTeamsRequest, SetTeamRosterRequest, SetTeamRulesRequest,
    SubmitLineupRequest, Team, TeamMember, WithdrawTeamRequest,
};
use clap::Subcommand;
use serde_json::json;

use crate::client::{authed, connect, token};
use crate::registry_players::{Meta, print_ack};
use crate::{Cli, Failure, output};

/// `arbiter team …`.
#[derive(Subcommand)]
pub enum TeamCommand {
    /// Enter a team into a team tournament (pairing system team-round-robin or swiss-team).
    Add {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Team name (at most 32 characters, as TRF 310 holds).
        name: String,
        /// 3-letter FIDE federation, e.g. IRL.
        #[arg(long, default_value = "")]
        federation: String,
        /// Club.
        #[arg(long, default_value = "")]
        club: String,
        /// The captain's name.
        #[arg(long, default_value = "")]
        captain: String,
        /// The captain's principal id (p_…, from `arbiter access add`): it may submit this
        /// team's line-ups once granted the team-captain role on the tournament.
        #[arg(long, default_value = "")]
        captain_principal: String,
        #[command(flatten)]
        meta: Meta,
    },
    /// Set a team's roster in board order: the first players are boards 1, 2, …; the
    /// ones after the number of boards are reserves.
    Roster {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Team number, name or id.
        team: String,
        /// Players (pairing numbers or player ids) in board order.
        #[arg(required = true)]
        players: Vec<String>,
        #[command(flatten)]
        meta: Meta,
    },
    /// Submit a team's line-up for a round: one player per board, `-` for a board the
    /// team leaves empty (forfeited). Board order must follow the roster.
    Lineup {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Team number, name or id.
        team: String,
        /// Round.
        #[arg(long)]
        round: u32,
        /// Players (pairing numbers or player ids) for boards 1, 2, …; `-` = empty board.
        #[arg(required = true)]
        boards: Vec<String>,
        #[command(flatten)]
        meta: Meta,
    },
    /// The teams, their rosters and line-ups.
    List {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Only this round's line-ups.
        #[arg(long)]
        round: Option<u32>,
    },
    /// Boards per match and line-up deadlines (captains submit until then).
    Rules {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Boards per match (default 4).
        #[arg(long)]
        boards: Option<u32>,
        /// ROUND=TIME, e.g. `2=2026-12-05T13:00:00Z` (`2=` clears it); repeatable.
        #[arg(long = "deadline")]
        deadlines: Vec<String>,
        /// Swiss team (C.04.6 1.7), before round 1: type-a (the default), type-b or none.
        #[arg(long)]
        colour_preferences: Option<String>,
        /// Swiss team (C.04.6 1.2), before round 1: mp (the default) or gp.
        #[arg(long)]
        primary: Option<String>,
        #[command(flatten)]
        meta: Meta,
    },
    /// Withdraw a team from a round on.
    Withdraw {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Team number, name or id.
        team: String,
        /// First round the team will not play.
        #[arg(long)]
        from_round: u32,
        #[command(flatten)]
        meta: Meta,
    },
}

impl TeamCommand {
    fn given(&self) -> &str {
        match self {
            TeamCommand::Add { tournament, .. }
            | TeamCommand::Roster { tournament, .. }
            | TeamCommand::Lineup { tournament, .. }
            | TeamCommand::List { tournament, .. }
            | TeamCommand::Rules { tournament, .. }
            | TeamCommand::Withdraw { tournament, .. } => tournament,
        }
    }
}

fn usage(message: String) -> Failure {
    Failure { code: 2, message }
}

fn member_label(m: &TeamMember) -> String {
    if m.player_id.is_empty() {
        "— (forfeited board)".to_owned()
    } else {
        format!("{} ({})", output::clean(&m.name), m.pairing_number)
    }
}

fn team_json(t: &Team, boards: u32) -> serde_json::Value {
    let m = |m: &TeamMember| json!({"player_id": m.player_id, "pairing_number": m.pairing_number, "name": m.name});
    json!({
        "team_id": t.team_id, "number": t.number, "name": t.name,
        "federation": t.federation, "club": t.club, "captain": t.captain,
        "captain_principal": t.captain_principal,
        "roster": t.roster.iter().enumerate().map(|(i, p)| {
            let mut v = m(p);
            v["reserve"] = json!(i as u32 >= boards);
            v
        }).collect::<Vec<_>>(),
        "lineups": t.lineups.iter().map(|l| json!({
            "round": l.round, "by_captain": l.by_captain,
            "boards": l.boards.iter().map(m).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "withdrawn_from_round": t.withdrawn_from_round,
    })
}

fn print_team(t: &Team, boards: u32, round: Option<u32>) {
    let mut head = format!("{:>3}  {}", t.number, output::clean(&t.name));
    let about: Vec<String> = [&t.federation, &t.club]
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(|s| output::clean(s).into_owned())
        .collect();
    if !about.is_empty() {
        head.push_str(&format!(" ({})", about.join(", ")));
    }
    if !t.captain.is_empty() {
        head.push_str(&format!(", captain {}", output::clean(&t.captain)));
    }
    if t.withdrawn_from_round > 0 {
        head.push_str(&format!(
            ", withdrawn from round {}",
            t.withdrawn_from_round
        ));
    }
    println!("{head}");
    if round.is_none() {
        if t.roster.is_empty() {
            println!("       no roster yet");
        }
        for (i, p) in t.roster.iter().enumerate() {
            let place = if (i as u32) < boards {
                format!("board {}", i + 1)
            } else {
                "reserve".to_owned()
            };
            println!("       {place:<8} {}", member_label(p));
        }
    }
    for l in t
        .lineups
        .iter()
        .filter(|l| round.is_none_or(|r| r == l.round))
    {
        println!(
            "       round {} line-up{}:",
            l.round,
            if l.by_captain {
                " (by the captain)"
            } else {
                ""
            }
        );
        for (i, b) in l.boards.iter().enumerate() {
            println!("         board {} {}", i + 1, member_label(b));
        }
    }
}

pub async fn run(cli: &Cli, cmd: &TeamCommand) -> Result<(), Failure> {
    let chan = connect(cli).await?;
    let tournament_id = crate::resolve::tournament(cli, &chan, cmd.given()).await?;
    let tid = &tournament_id;
    let mut client = RegistryServiceClient::new(chan.clone());
    match cmd {
        TeamCommand::Add {
            name,
            federation,
            club,
            captain,
            captain_principal,
            meta,
            ..
        } => {
            let r = client
                .add_team(authed(
                    &token(cli)?,
                    AddTeamRequest {
                        meta: meta.to_proto(),
                        tournament_id: tid.clone(),
                        name: name.clone(),
                        federation: federation.clone(),
                        club: club.clone(),
                        captain: captain.clone(),
                        captain_principal: captain_principal.clone(),
                    },
                )?)
                .await?
                .into_inner();
            let t = r.team.unwrap_or_default();
            if cli.json {
                output::json(&team_json(&t, 0));
            } else {
                println!(
                    "added team {} as team number {} (team id {})",
                    output::clean(&t.name),
                    t.number,
                    t.team_id
                );
            }
        }
        TeamCommand::Roster {
            team,
            players,
            meta,
            ..
        } => {
            let a = client
                .set_team_roster(authed(
                    &token(cli)?,
                    SetTeamRosterRequest {
                        meta: meta.to_proto(),
                        tournament_id: tid.clone(),
                        team: team.clone(),
                        players: players.clone(),
                    },
                )?)
                .await?
                .into_inner();
            print_ack(
                cli,
                &format!("roster of team {team} set, {} players", players.len()),
                &a,
            );
        }
        TeamCommand::Lineup {
            team,
            round,
            boards,
            meta,
            ..
        } => {
            let given: Vec<String> = boards
                .iter()
                .map(|b| {
                    if b.trim() == "-" {
                        String::new()
                    } else {
                        b.clone()
                    }
                })
                .collect();
            let a = client
                .submit_lineup(authed(
                    &token(cli)?,
                    SubmitLineupRequest {
                        meta: meta.to_proto(),
                        tournament_id: tid.clone(),
                        team: team.clone(),
                        round: *round,
                        boards: given,
                    },
                )?)
                .await?
                .into_inner();
            print_ack(
                cli,
                &format!("line-up of team {team} for round {round} submitted"),
                &a,
            );
        }
        TeamCommand::List { round, .. } => {
            let r = client
                .list_teams(authed(
                    &token(cli)?,
                    ListTeamsRequest {
                        tournament_id: tid.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!({
                    "boards": r.boards,
                    "colour_preferences": r.colour_preferences,
                    "primary_score": r.primary_score,
                    "deadlines": r.deadlines.iter().map(|d| json!({"round": d.round, "deadline": d.deadline})).collect::<Vec<_>>(),
                    "teams": r.teams.iter().map(|t| team_json(t, r.boards)).collect::<Vec<_>>(),
                }));
            } else {
                println!("{} teams, {} boards per match", r.teams.len(), r.boards);
                if r.colour_preferences != "type-a" || r.primary_score != "mp" {
                    println!(
                        "C.04.6 as announced: colour preferences {}, primary score {}",
                        r.colour_preferences, r.primary_score
                    );
                }
                for d in &r.deadlines {
                    println!("line-ups of round {} due by {}", d.round, d.deadline);
                }
                for t in &r.teams {
                    print_team(t, r.boards, *round);
                }
            }
        }
        TeamCommand::Rules {
            boards,
            deadlines,
            colour_preferences,
            primary,
            meta,
            ..
        } => {
            let mut ds = Vec::with_capacity(deadlines.len());
            for d in deadlines {
                let (round, time) = d.split_once('=').ok_or_else(|| {
                    usage(format!(
                        "--deadline {d:?}: expected ROUND=TIME, e.g. 2=2026-12-05T13:00:00Z"
                    ))
                })?;
                let round: u32 = round.trim().parse().map_err(|_| {
                    usage(format!(
                        "--deadline {d:?}: the round {round:?} is not a number"
                    ))
                })?;
                ds.push(LineupDeadline {
                    round,
                    deadline: time.trim().to_owned(),
                });
            }
            let a = client
                .set_team_rules(authed(
                    &token(cli)?,
                    SetTeamRulesRequest {
                        meta: meta.to_proto(),
                        tournament_id: tid.clone(),
                        boards: boards.unwrap_or(0),
                        deadlines: ds,
                        colour_preferences: colour_preferences.clone().unwrap_or_default(),
                        primary_score: primary.clone().unwrap_or_default(),
                    },
                )?)
                .await?
                .into_inner();
            print_ack(cli, "team rules set", &a);
        }
        TeamCommand::Withdraw {
            team,
            from_round,
            meta,
            ..
        } => {
            let a = client
                .withdraw_team(authed(
                    &token(cli)?,
                    WithdrawTeamRequest {
                        meta: meta.to_proto(),
                        tournament_id: tid.clone(),
                        team: team.clone(),
                        from_round: *from_round,
                    },
                )?)
                .await?
                .into_inner();
            print_ack(
                cli,
                &format!("team {team} withdrawn from round {from_round}"),
                &a,
            );
        }
    }
    Ok(())
}

/// The matches of a team round (ADR pairing-005) with the teams' names: JSON for `--json`,
/// and the lines printed above the boards. Team names come from `ListTeams`; without
/// them (not readable) the teams are named by number.
pub async fn round_matches(
    cli: &Cli,
    chan: &crate::client::Chan,
    p: &arbiter_proto::v1::RoundPairingView,
) -> (serde_json::Value, Vec<String>) {
    if p.matches.is_empty() {
        return (json!([]), Vec::new());
    }
    let mut client = RegistryServiceClient::new(chan.clone());
    let teams: Vec<Team> = match token(cli).and_then(|t| {
        authed(
            &t,
            ListTeamsRequest {
                tournament_id: p.tournament_id.clone(),
            },
        )
    }) {
        Ok(req) => client
            .list_teams(req)
            .await
            .map(|r| r.into_inner().teams)
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let name = |id: &str, number: u32| {
        teams
            .iter()
            .find(|t| t.team_id == id)
            .map_or_else(|| format!("team {number}"), |t| t.name.clone())
    };
    let player = |id: &str| {
        teams
            .iter()
            .flat_map(|t| &t.roster)
            .find(|m| m.player_id == id)
            .map_or_else(|| id.to_owned(), member_label)
    };
    let mut lines = Vec::new();
    let mut out = Vec::new();
    for m in &p.matches {
        let (a, b) = (
            name(&m.first_team_id, m.first_team_number),
            name(&m.second_team_id, m.second_team_number),
        );
        let games: Vec<u32> = m
            .boards
            .iter()
            .map(|x| x.board)
            .filter(|x| *x > 0)
            .collect();
        let mut line = format!(
            "match {:>2}  {a} ({}) - {b} ({}): boards {}",
            m.table,
            m.first_team_number,
            m.second_team_number,
            games
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        for x in m.boards.iter().filter(|x| x.board == 0) {
            if x.unopposed_player_id.is_empty() {
                line.push_str(&format!("; board {} empty on both sides", x.match_board));
            } else {
                line.push_str(&format!(
                    "; board {} unopposed, {} wins by forfeit",
                    x.match_board,
                    player(&x.unopposed_player_id)
                ));
            }
        }
        lines.push(line);
        out.push(json!({
            "table": m.table,
            "first_team": {"id": m.first_team_id, "number": m.first_team_number, "name": a},
            "second_team": {"id": m.second_team_id, "number": m.second_team_number, "name": b},
            "white_team_id": m.white_team_id,
            "colour_rule": m.colour_rule,
            "boards": m.boards.iter().map(|x| json!({
                "match_board": x.match_board, "board": x.board,
                "unopposed": x.unopposed_player_id, "white_team_id": x.white_team_id,
            })).collect::<Vec<_>>(),
        }));
    }
    if !p.bye_team_id.is_empty() {
        let t = teams.iter().find(|t| t.team_id == p.bye_team_id);
        lines.push(format!(
            "pairing-allocated bye: {} ({})",
            t.map_or(p.bye_team_id.as_str(), |t| t.name.as_str()),
            t.map_or(0, |t| t.number)
        ));
    }
    (json!(out), lines)
}
