//! `arbiter tournament create|list|show|update`.
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::{
    CommandMeta, CreateTournamentRequest, DeputyArbiters, GetTournamentRequest,
    SetTournamentSettingsRequest, Tournament, UpdateTournamentRequest,
};
use clap::{Args, Subcommand};

use crate::client::{authed, connect, token};
use crate::resolve;
use crate::{Cli, Failure, output};

#[derive(Subcommand)]
pub enum TournamentCommand {
    /// Create a tournament.
    Create(CreateArgs),
    /// List tournaments (every one, fetched page by page).
    List {
        /// Tournaments per request to the server (0: the server's page size).
        #[arg(long, default_value_t = 0)]
        page_size: u32,
    },
    /// Show one tournament.
    Show {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        id: String,
    },
    /// Change a tournament's details.
    Update(UpdateArgs),
    /// Scoring (XXS notation), acceleration, announced tie-breaks, rating-list date.
    Settings(SettingsArgs),
    #[command(flatten)]
    Trf(crate::registry_players::TournamentTrfCommand),
}

#[derive(Args)]
pub struct CommandArgs {
    /// Idempotency key: retrying with the same id is safe (default: a new id).
    #[arg(long)]
    command_id: Option<String>,
    /// Why (recorded on the event).
    #[arg(long, default_value = "")]
    reason: String,
}

#[derive(Args)]
pub struct CreateArgs {
    /// Name (required).
    #[arg(long)]
    name: String,
    #[arg(long, default_value = "")]
    place: String,
    /// FIDE federation code, e.g. IRL.
    #[arg(long, default_value = "")]
    federation: String,
    /// YYYY-MM-DD.
    #[arg(long, default_value = "")]
    start: String,
    /// YYYY-MM-DD.
    #[arg(long, default_value = "")]
    end: String,
    #[arg(long, default_value_t = 0)]
    rounds: u32,
    /// PGN TimeControl notation, e.g. 40/7200:1800+30.
    #[arg(long, default_value = "")]
    time_control: String,
    /// dutch (default), round-robin, double-round-robin, knockout, lim, italo-swiss,
    /// draughts-swiss; for teams (`arbiter team`): team-round-robin, swiss-team.
    #[arg(long, default_value = "")]
    system: String,
    /// Rule edition (default: the one in force), e.g. dutch-2026, dutch-2017.
    #[arg(long, default_value = "")]
    edition: String,
    /// The chief arbiter (TRF 102), e.g. "IA Murphy, Sean".
    #[arg(long, default_value = "")]
    chief_arbiter: String,
    /// A deputy arbiter (TRF 112); repeat for each.
    #[arg(long = "deputy-arbiter", value_name = "NAME")]
    deputy_arbiters: Vec<String>,
    #[command(flatten)]
    command: CommandArgs,
}

#[derive(Args)]
pub struct UpdateArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    id: String,
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    place: Option<String>,
    #[arg(long)]
    federation: Option<String>,
    #[arg(long)]
    start: Option<String>,
    #[arg(long)]
    end: Option<String>,
    #[arg(long)]
    rounds: Option<u32>,
    #[arg(long)]
    time_control: Option<String>,
    /// The chief arbiter (TRF 102; "" removes it).
    #[arg(long)]
    chief_arbiter: Option<String>,
    /// The deputy arbiters (TRF 112): repeat for each; replaces the list.
    #[arg(
        long = "deputy-arbiter",
        value_name = "NAME",
        conflicts_with = "no_deputy_arbiters"
    )]
    deputy_arbiters: Vec<String>,
    /// Remove every deputy arbiter.
    #[arg(long)]
    no_deputy_arbiters: bool,
    /// Fail unless the tournament is at this version (optimistic concurrency).
    #[arg(long)]
    expected_version: Option<i64>,
    #[command(flatten)]
    command: CommandArgs,
}

#[derive(Args)]
pub struct SettingsArgs {
    /// Tournament id or a unique prefix (default: the one `arbiter use` set).
    id: String,
    /// Points per result and bye in XXS notation, e.g. "W=3 D=1 PAB=3 FW=3" ("" = FIDE 1/½/0).
    #[arg(long)]
    scoring: Option<String>,
    /// Accelerated pairing: baku (C.04.7), baku-2016, haley, haley-example-2,
    /// degressive[:A_MIN:C_BELOW], or none.
    #[arg(long)]
    acceleration: Option<String>,
    /// Announced tie-break list (C.07 art. 4.1), e.g. "BH/C1,BH,SB".
    #[arg(long)]
    tiebreaks: Option<String>,
    /// Date of the rating list the ratings come from (YYYY-MM-DD).
    #[arg(long)]
    rating_list_date: Option<String>,
    /// A knockout's standard games per match (default 2). Fixed once round 1 is paired.
    #[arg(long)]
    knockout_games: Option<u32>,
    /// A knockout's tie-break stages: none, or a list of rapid:N, blitz:N, armageddon,
    /// sudden-death:N (default rapid:2,blitz:2,armageddon). Fixed once round 1 is paired.
    #[arg(long)]
    knockout_tie_breaks: Option<String>,
    /// Fail unless the tournament is at this version (optimistic concurrency).
    #[arg(long)]
    expected_version: Option<i64>,
    #[command(flatten)]
    command: CommandArgs,
}

fn meta(c: &CommandArgs, expected_version: Option<i64>) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: c
            .command_id
            .clone()
            .unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
        expected_version,
        reason: c.reason.clone(),
        request_digest: Vec::new(),
    })
}

fn to_json(t: &Tournament) -> serde_json::Value {
    serde_json::json!({
        "tournament_id": t.tournament_id, "name": t.name, "place": t.place,
        "federation": t.federation, "start_date": t.start_date, "end_date": t.end_date,
        "rounds": t.rounds, "time_control": t.time_control, "pairing_system": t.pairing_system,
        "rule_edition": t.rule_edition, "version": t.version,
        "scoring": t.scoring, "acceleration": t.acceleration, "tiebreaks": t.tiebreaks,
        "rating_list_date": t.rating_list_date, "paired_rounds": t.paired_rounds,
        "knockout_games": knockout_games(t), "knockout_tie_breaks": knockout_tie_breaks(t),
        "players": t.players,
        "chief_arbiter": t.chief_arbiter, "deputy_arbiters": t.deputy_arbiters,
        "created_at": created_at(t), "created_by": t.created_by,
    })
}

/// A knockout's standard games per match (the default when unset).
fn knockout_games(t: &Tournament) -> u32 {
    match t.knockout_games {
        0 => pairings::other_systems::knockout::DEFAULT_GAMES,
        g => g,
    }
}

/// A knockout's tie-break stages (the default when unset).
fn knockout_tie_breaks(t: &Tournament) -> String {
    if t.knockout_tie_breaks.is_empty() {
        pairings::other_systems::knockout::DEFAULT_TIE_BREAKS.to_owned()
    } else {
        t.knockout_tie_breaks.clone()
    }
}

fn created_at(t: &Tournament) -> String {
    chrono::DateTime::from_timestamp_micros(t.created_at_micros)
        .map(|d| d.format("%Y-%m-%d %H:%M:%S UTC").to_string())
        .unwrap_or_default()
}

fn print_one(cli: &Cli, t: &Tournament) {
    if cli.json {
        output::json(&to_json(t));
        return;
    }
    let mut rows = vec![
        ("id", t.tournament_id.clone()),
        ("name", t.name.clone()),
        ("place", t.place.clone()),
        ("federation", t.federation.clone()),
        ("dates", format!("{} – {}", t.start_date, t.end_date)),
        ("rounds", t.rounds.to_string()),
        ("time control", t.time_control.clone()),
        ("chief arbiter", t.chief_arbiter.clone()),
        (
            "deputy arbiters",
            t.deputy_arbiters
                .iter()
                .map(|d| output::clean(d).into_owned())
                .collect::<Vec<_>>()
                .join("; "),
        ),
        (
            "system",
            format!("{} ({})", t.pairing_system, t.rule_edition),
        ),
        (
            "scoring",
            if t.scoring.is_empty() {
                "FIDE 1/½/0".into()
            } else {
                t.scoring.clone()
            },
        ),
        (
            "acceleration",
            if t.acceleration.is_empty() {
                "none".into()
            } else {
                t.acceleration.clone()
            },
        ),
        ("tie-breaks", t.tiebreaks.clone()),
        ("rating list", t.rating_list_date.clone()),
        ("players", t.players.to_string()),
        ("rounds paired", t.paired_rounds.to_string()),
        ("version", t.version.to_string()),
        ("created", format!("{} by {}", created_at(t), t.created_by)),
    ];
    if t.pairing_system == "knockout" || t.knockout_games != 0 || !t.knockout_tie_breaks.is_empty()
    {
        rows.insert(
            14,
            (
                "knockout match",
                format!(
                    "{} games, then {}",
                    knockout_games(t),
                    knockout_tie_breaks(t)
                ),
            ),
        );
    }
    output::table(
        &["FIELD", "VALUE"],
        &rows
            .iter()
            .map(|(k, v)| vec![(*k).to_owned(), v.clone()])
            .collect::<Vec<_>>(),
    );
}

pub async fn run(cli: &Cli, cmd: &TournamentCommand) -> Result<(), Failure> {
    if let TournamentCommand::Trf(t) = cmd {
        return crate::registry_players::run_trf(cli, t).await;
    }
    let chan = connect(cli).await?;
    let mut client = RegistryServiceClient::new(chan.clone());
    match cmd {
        TournamentCommand::Create(a) => {
            let token = token(cli)?;
            let r = client
                .create_tournament(authed(
                    &token,
                    CreateTournamentRequest {
                        meta: meta(&a.command, None),
                        name: a.name.clone(),
                        place: a.place.clone(),
                        federation: a.federation.clone(),
                        start_date: a.start.clone(),
                        end_date: a.end.clone(),
                        rounds: a.rounds,
                        time_control: a.time_control.clone(),
                        pairing_system: a.system.clone(),
                        rule_edition: a.edition.clone(),
                        chief_arbiter: a.chief_arbiter.clone(),
                        deputy_arbiters: a.deputy_arbiters.clone(),
                    },
                )?)
                .await?
                .into_inner();
            let t = r.tournament.unwrap_or_default();
            if cli.json {
                output::json(&to_json(&t));
            } else {
                println!("created tournament {}", t.tournament_id);
            }
        }
        TournamentCommand::List { page_size } => {
            let list = crate::resolve::all_tournaments(&chan, *page_size).await?;
            if cli.json {
                output::json(&serde_json::Value::Array(
                    list.iter().map(to_json).collect(),
                ));
            } else {
                let rows: Vec<Vec<String>> = list
                    .iter()
                    .map(|t| {
                        vec![
                            t.tournament_id.clone(),
                            t.name.clone(),
                            t.start_date.clone(),
                            t.rounds.to_string(),
                            format!("{} ({})", t.pairing_system, t.rule_edition),
                        ]
                    })
                    .collect();
                output::table(&["ID", "NAME", "START", "ROUNDS", "SYSTEM"], &rows);
            }
        }
        TournamentCommand::Show { id } => {
            let id = resolve::tournament(cli, &chan, id).await?;
            let t = client
                .get_tournament(GetTournamentRequest { tournament_id: id })
                .await?
                .into_inner();
            print_one(cli, &t);
        }
        TournamentCommand::Update(a) => {
            let token = token(cli)?;
            let id = resolve::tournament(cli, &chan, &a.id).await?;
            let deputy_arbiters =
                (a.no_deputy_arbiters || !a.deputy_arbiters.is_empty()).then(|| DeputyArbiters {
                    names: a.deputy_arbiters.clone(),
                });
            let ack = client
                .update_tournament(authed(
                    &token,
                    UpdateTournamentRequest {
                        meta: meta(&a.command, a.expected_version),
                        tournament_id: id.clone(),
                        name: a.name.clone(),
                        place: a.place.clone(),
                        federation: a.federation.clone(),
                        start_date: a.start.clone(),
                        end_date: a.end.clone(),
                        rounds: a.rounds,
                        time_control: a.time_control.clone(),
                        chief_arbiter: a.chief_arbiter.clone(),
                        deputy_arbiters,
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(
                    &serde_json::json!({"stream": ack.stream, "version": ack.stream_version, "replayed": ack.replayed}),
                );
            } else {
                println!("updated {id} (version {})", ack.stream_version);
            }
        }
        TournamentCommand::Settings(a) => {
            let token = token(cli)?;
            let id = resolve::tournament(cli, &chan, &a.id).await?;
            let ack = client
                .set_tournament_settings(authed(
                    &token,
                    SetTournamentSettingsRequest {
                        meta: meta(&a.command, a.expected_version),
                        tournament_id: id.clone(),
                        scoring: a.scoring.clone(),
                        acceleration: a.acceleration.clone(),
                        tiebreaks: a.tiebreaks.clone(),
                        rating_list_date: a.rating_list_date.clone(),
                        knockout_games: a.knockout_games,
                        knockout_tie_breaks: a.knockout_tie_breaks.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(
                    &serde_json::json!({"stream": ack.stream, "version": ack.stream_version, "replayed": ack.replayed}),
                );
            } else {
                println!("settings of {id} changed (version {})", ack.stream_version);
            }
        }
        TournamentCommand::Trf(_) => {}
    }
    Ok(())
}
