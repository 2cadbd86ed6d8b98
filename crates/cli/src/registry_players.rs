//! `arbiter player add|list|correct|withdraw|bye|prohibit` and
//! `arbiter tournament import|export` (TRF through the registry service).
use std::path::PathBuf;

use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::{
    AddPlayerRequest, CommandAck, CommandMeta, CorrectPlayerRequest, ExportTrfRequest,
    ImportTrfRequest, ListPlayersRequest, Player, PlayerData, ProhibitPairingRequest,
    RequestByeRequest, SetEntryRulesRequest, WithdrawPlayerRequest,
};
use clap::{Args, Subcommand};

use crate::client::{authed, connect, token};
use crate::{Cli, Failure, output};

/// Largest TRF message sent or received (the TRF reader takes up to 16 MiB).
const MAX_TRF_MESSAGE: usize = 17 * 1024 * 1024;

/// Idempotency and reason of a command.
#[derive(Args)]
pub struct Meta {
    /// Idempotency key: retrying with the same id is safe (default: a new id).
    #[arg(long)]
    command_id: Option<String>,
    /// Why (recorded on the event; required for corrections).
    #[arg(long, default_value = "")]
    reason: String,
    /// Fail unless the tournament is at this version (optimistic concurrency).
    #[arg(long)]
    expected_version: Option<i64>,
}

impl Meta {
    pub fn to_proto(&self) -> Option<CommandMeta> {
        Some(CommandMeta {
            command_id: self
                .command_id
                .clone()
                .unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
            expected_version: self.expected_version,
            reason: self.reason.clone(),
            request_digest: Vec::new(),
        })
    }
}

/// TRF import and export, entry rules (subcommands of `arbiter tournament`).
#[derive(Subcommand)]
pub enum TournamentTrfCommand {
    /// Set the event's rules for entries (only the options given change).
    Rules {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        id: String,
        /// Whether players may request full-point byes (true/false).
        #[arg(long)]
        full_point_byes: Option<bool>,
        /// Rounds a late entry missed score as: zero or half.
        #[arg(long)]
        late_entry_byes: Option<String>,
        /// Ties after rating, title and name (C.04.2 art. 2): registration or fide-id.
        #[arg(long)]
        tie_criterion: Option<String>,
        /// Rating the initial ranking uses: standard, rapid or blitz.
        #[arg(long)]
        rating: Option<String>,
        #[command(flatten)]
        meta: Meta,
    },
    /// Import a TRF16/TRF26 file as a new tournament, with its players and rounds.
    Import {
        /// The TRF file.
        file: PathBuf,
        /// Tournament name (default: the file's 012 record).
        #[arg(long, default_value = "")]
        name: String,
        /// Import although the same file, or a tournament of the same name and dates, is
        /// already here (a second, separate tournament).
        #[arg(long)]
        as_new: bool,
        /// The tournament and its players only: none of the file's rounds, results or byes.
        #[arg(long)]
        players_only: bool,
        #[command(flatten)]
        meta: Meta,
    },
    /// Write a tournament as TRF (to stdout, or --output).
    Export {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        id: String,
        /// As of this round (default: every round paired so far).
        #[arg(long, default_value_t = 0)]
        round: u32,
        /// trf26 (default) or trf16.
        #[arg(long = "to", default_value = "trf26")]
        to: String,
        /// Add the XXR/XXZ/XXP lines pairing engines read.
        #[arg(long)]
        engine_lines: bool,
        /// Write to this file instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

/// Player data flags (`add` and `correct`).
#[derive(Args, Default)]
pub struct DataArgs {
    /// "Lastname, Firstname".
    #[arg(long)]
    name: Option<String>,
    /// FIDE ID.
    #[arg(long)]
    fide_id: Option<u64>,
    /// m or w.
    #[arg(long)]
    sex: Option<String>,
    /// GM IM WGM FM WIM CM WFM WCM.
    #[arg(long)]
    title: Option<String>,
    /// 3-letter FIDE federation, e.g. IRL.
    #[arg(long)]
    federation: Option<String>,
    /// YYYY/MM/DD or YYYY.
    #[arg(long)]
    birth: Option<String>,
    /// Standard rating (0 = unrated).
    #[arg(long)]
    rating: Option<u32>,
    /// Rapid rating.
    #[arg(long)]
    rapid: Option<u32>,
    /// Blitz rating.
    #[arg(long)]
    blitz: Option<u32>,
    /// National ID.
    #[arg(long)]
    national_id: Option<String>,
    /// National rating.
    #[arg(long)]
    national_rating: Option<u32>,
    /// Club.
    #[arg(long)]
    club: Option<String>,
}

impl DataArgs {
    /// `base` with the given flags applied.
    fn apply(&self, mut d: PlayerData) -> PlayerData {
        macro_rules! set {
            ($($flag:ident => $field:ident),*) => {
                $( if let Some(v) = &self.$flag { d.$field = v.clone(); } )*
            };
        }
        set!(name => name, fide_id => fide_id, sex => sex, title => title,
             federation => federation, birth => birth_date, rating => rating_standard,
             rapid => rating_rapid, blitz => rating_blitz, national_id => national_id,
             national_rating => national_rating, club => club);
        d
    }
}

/// Players and entries.
#[derive(Subcommand)]
pub enum PlayerCommand {
    /// Enter a player (after round 1 has been paired: a late entry).
    Add {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        #[command(flatten)]
        data: DataArgs,
        /// Rounds a late entry missed score as: zero (default) or half.
        #[arg(long, default_value = "")]
        missed_rounds: String,
        #[command(flatten)]
        meta: Meta,
    },
    /// Enter many players from a file, all or nothing: a CSV with a header (name, title,
    /// rating, federation, fide id, birth date, sex, …) or the player lines (001) of a TRF.
    /// Everything is checked first (faults as FILE:LINE:COLUMN); nothing is written then.
    Import {
        /// Tournament id.
        tournament: String,
        /// The CSV or TRF file.
        file: PathBuf,
        /// Print what would be written (pairing numbers included), write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Rounds late entries missed score as: zero (default) or half.
        #[arg(long, default_value = "")]
        missed_rounds: String,
        #[command(flatten)]
        meta: Meta,
    },
    /// The players in pairing-number order.
    List {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
    },
    /// Correct a player's data (--reason is required).
    Correct {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Pairing number, player id or a unique prefix of it.
        player: String,
        #[command(flatten)]
        data: DataArgs,
        #[command(flatten)]
        meta: Meta,
    },
    /// Withdraw a player from a round on.
    Withdraw {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Pairing number, player id or a unique prefix of it.
        player: String,
        /// First round the player will not play.
        #[arg(long)]
        from_round: u32,
        #[command(flatten)]
        meta: Meta,
    },
    /// Request a bye for a round not yet paired.
    Bye {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Pairing number, player id or a unique prefix of it.
        player: String,
        /// Round.
        #[arg(long)]
        round: u32,
        /// half (default), zero, or full (where the tournament allows it).
        #[arg(long, default_value = "half")]
        kind: String,
        #[command(flatten)]
        meta: Meta,
    },
    /// Forbid pairings among players (same club, family) for a range of rounds.
    Prohibit {
        /// Tournament id or a unique prefix (default: the one `arbiter use` set).
        tournament: String,
        /// Two or more player ids or pairing numbers.
        #[arg(num_args = 2.., required = true)]
        players: Vec<String>,
        /// First round (default: 1).
        #[arg(long, default_value_t = 0)]
        from_round: u32,
        /// Last round (default: the last).
        #[arg(long, default_value_t = 0)]
        to_round: u32,
        #[command(flatten)]
        meta: Meta,
    },
}

fn player_json(p: &Player) -> serde_json::Value {
    let d = p.data.clone().unwrap_or_default();
    serde_json::json!({
        "player_id": p.player_id, "pairing_number": p.pairing_number,
        "name": d.name, "fide_id": d.fide_id, "sex": d.sex, "title": d.title,
        "federation": d.federation, "birth_date": d.birth_date,
        "rating_standard": d.rating_standard, "rating_rapid": d.rating_rapid,
        "rating_blitz": d.rating_blitz, "national_id": d.national_id,
        "national_rating": d.national_rating, "club": d.club,
        "joined_round": p.joined_round, "withdrawn_from_round": p.withdrawn_from_round,
        "byes": p.byes.iter().map(|b| serde_json::json!({"round": b.round, "kind": b.kind})).collect::<Vec<_>>(),
    })
}

pub fn print_ack(cli: &Cli, what: &str, a: &CommandAck) {
    if cli.json {
        output::json(&serde_json::json!({
            "stream": a.stream, "version": a.stream_version, "replayed": a.replayed,
        }));
    } else {
        println!("{what} (version {})", a.stream_version);
    }
}

async fn players(
    client: &mut RegistryServiceClient<crate::client::Chan>,
    tournament: &str,
) -> Result<Vec<Player>, Failure> {
    Ok(client
        .list_players(ListPlayersRequest {
            tournament_id: tournament.to_owned(),
        })
        .await?
        .into_inner()
        .players)
}

/// Warnings of an entry (players without a FIDE ID), on stderr so a script's stdout stays
/// the answer.
fn print_warnings(cli: &Cli, warnings: &[String]) {
    if !cli.json {
        for w in warnings {
            eprintln!("warning: {}", output::clean(w));
        }
    }
}

/// Reads a file of at most `max` bytes, or says which limit it passes.
pub(crate) fn read_bounded(path: &std::path::Path, max: u64) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let fail = |m: String| Failure {
        code: 1,
        message: format!("{}: {m}", path.display()),
    };
    let f = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(fail(format!("larger than {max} bytes, the most read")));
    }
    Ok(bytes)
}

/// `arbiter player import`: read and check the file, then one `AddPlayer` with every
/// player (a dry run first when asked), all or nothing.
async fn import_players(
    cli: &Cli,
    client: &mut RegistryServiceClient<crate::client::Chan>,
    tournament: &str,
    file: &std::path::Path,
    dry_run: bool,
    missed_rounds: &str,
    meta: &Meta,
) -> Result<(), Failure> {
    use crate::player_import;
    let bytes = read_bounded(file, player_import::MAX_FILE_BYTES)?;
    let at = |line: usize, column: usize| match (line, column) {
        (0, _) => file.display().to_string(),
        (l, 0) => format!("{}:{l}", file.display()),
        (l, c) => format!("{}:{l}:{c}", file.display()),
    };
    let (players, source) = player_import::read(&bytes).map_err(|f| Failure {
        code: 1,
        message: format!("{}: {} (nothing written)", at(f.line, f.column), f.message),
    })?;
    let count = players.len();
    let request = AddPlayerRequest {
        meta: meta.to_proto(),
        tournament_id: tournament.to_owned(),
        missed_rounds: missed_rounds.to_owned(),
        players,
        dry_run,
        ..Default::default()
    };
    let answer = client
        .add_player(authed(&token(cli)?, request)?)
        .await
        .map_err(|status| {
            let message = status.message();
            match player_import::refused_player(message) {
                Some((index, field, what)) => {
                    let (line, column) = source.locate(index, field).unwrap_or((0, 0));
                    Failure {
                        code: 1,
                        message: format!(
                            "{}: {field}: {what} (player {} of the file; nothing written)",
                            at(line, column),
                            index + 1
                        ),
                    }
                }
                None => Failure::from(status),
            }
        })?
        .into_inner();
    if cli.json {
        output::json(&serde_json::json!({
            "dry_run": dry_run,
            "format": source.format,
            "players": answer.players.iter().map(player_json).collect::<Vec<_>>(),
            "warnings": answer.warnings,
            "version": answer.ack.as_ref().map(|a| a.stream_version),
        }));
        return Ok(());
    }
    print_warnings(cli, &answer.warnings);
    let rows: Vec<Vec<String>> = answer
        .players
        .iter()
        .zip(&source.lines)
        .map(|(p, line)| {
            let d = p.data.clone().unwrap_or_default();
            vec![
                line.to_string(),
                p.pairing_number.to_string(),
                d.title,
                d.name,
                if d.rating_standard == 0 {
                    String::new()
                } else {
                    d.rating_standard.to_string()
                },
                d.federation,
                if d.fide_id == 0 {
                    String::new()
                } else {
                    d.fide_id.to_string()
                },
            ]
        })
        .collect();
    output::table(
        &["LINE", "TPN", "TITLE", "NAME", "RATING", "FED", "FIDE ID"],
        &rows,
    );
    match (&answer.ack, dry_run) {
        (_, true) => println!(
            "dry run: {count} player(s) would be added from {}; nothing written",
            file.display()
        ),
        (Some(a), false) => println!(
            "added {count} player(s) from {} in one command (version {}{})",
            file.display(),
            a.stream_version,
            if a.replayed { ", replayed" } else { "" }
        ),
        (None, false) => println!("added {count} player(s) from {}", file.display()),
    }
    Ok(())
}

/// `arbiter player …`.
impl PlayerCommand {
    /// The tournament argument as given.
    fn given(&self) -> &str {
        match self {
            PlayerCommand::Add { tournament, .. }
            | PlayerCommand::Import { tournament, .. }
            | PlayerCommand::List { tournament }
            | PlayerCommand::Correct { tournament, .. }
            | PlayerCommand::Withdraw { tournament, .. }
            | PlayerCommand::Bye { tournament, .. }
            | PlayerCommand::Prohibit { tournament, .. } => tournament,
        }
    }
}

/// `player prohibit`'s arguments: with the default tournament (the first argument a
/// pairing number, which no tournament prefix is) every argument is a player.
fn prohibit_args<'a>(tournament: &'a str, players: &'a [String]) -> (&'a str, Vec<String>) {
    if tournament != crate::resolve::DEFAULT
        && crate::resolve::is_pairing_number(tournament)
        && !tournament.starts_with('0')
    {
        let mut all = vec![tournament.to_owned()];
        all.extend(players.iter().cloned());
        (crate::resolve::DEFAULT, all)
    } else {
        (tournament, players.to_vec())
    }
}

pub async fn run_player(cli: &Cli, cmd: &PlayerCommand) -> Result<(), Failure> {
    let chan = connect(cli).await?;
    let (given, prohibited) = match cmd {
        PlayerCommand::Prohibit {
            tournament,
            players,
            ..
        } => {
            let (t, p) = prohibit_args(tournament, players);
            (t, p)
        }
        _ => (cmd.given(), Vec::new()),
    };
    let tournament_id = crate::resolve::tournament(cli, &chan, given).await?;
    let tournament = &tournament_id;
    let mut client = RegistryServiceClient::new(chan.clone());
    match cmd {
        PlayerCommand::Add {
            data,
            missed_rounds,
            meta,
            ..
        } => {
            let r = client
                .add_player(authed(
                    &token(cli)?,
                    AddPlayerRequest {
                        meta: meta.to_proto(),
                        tournament_id: tournament.clone(),
                        data: Some(data.apply(PlayerData::default())),
                        missed_rounds: missed_rounds.clone(),
                        ..Default::default()
                    },
                )?)
                .await?
                .into_inner();
            print_warnings(cli, &r.warnings);
            let p = r.player.unwrap_or_default();
            if cli.json {
                output::json(&player_json(&p));
            } else {
                println!(
                    "added {} as pairing number {} (joins in round {}; player id {})",
                    output::clean(&p.data.unwrap_or_default().name),
                    p.pairing_number,
                    p.joined_round,
                    p.player_id
                );
            }
        }
        PlayerCommand::Import {
            file,
            dry_run,
            missed_rounds,
            meta,
            ..
        } => {
            import_players(
                cli,
                &mut client,
                tournament,
                file,
                *dry_run,
                missed_rounds,
                meta,
            )
            .await?;
        }
        PlayerCommand::List { .. } => {
            let list = players(&mut client, tournament).await?;
            if cli.json {
                output::json(&serde_json::Value::Array(
                    list.iter().map(player_json).collect(),
                ));
            } else {
                let rows: Vec<Vec<String>> = list
                    .iter()
                    .map(|p| {
                        let d = p.data.clone().unwrap_or_default();
                        let mut notes = Vec::new();
                        if p.joined_round > 1 {
                            notes.push(format!("joined in round {}", p.joined_round));
                        }
                        if p.withdrawn_from_round > 0 {
                            notes.push(format!("withdrawn from round {}", p.withdrawn_from_round));
                        }
                        for b in &p.byes {
                            notes.push(format!("{} bye in round {}", b.kind, b.round));
                        }
                        vec![
                            p.pairing_number.to_string(),
                            d.title,
                            d.name,
                            if d.rating_standard == 0 {
                                String::new()
                            } else {
                                d.rating_standard.to_string()
                            },
                            d.federation,
                            if d.fide_id == 0 {
                                String::new()
                            } else {
                                d.fide_id.to_string()
                            },
                            notes.join("; "),
                            p.player_id.clone(),
                        ]
                    })
                    .collect();
                output::table(
                    &[
                        "TPN", "TITLE", "NAME", "RATING", "FED", "FIDE ID", "NOTES", "ID",
                    ],
                    &rows,
                );
            }
        }
        PlayerCommand::Correct {
            player, data, meta, ..
        } => {
            let list = players(&mut client, tournament).await?;
            let wanted = crate::resolve::player(&chan, tournament, player).await?;
            let current = list
                .iter()
                .find(|p| p.player_id == wanted || p.pairing_number.to_string() == wanted)
                .ok_or_else(|| Failure {
                    code: 1,
                    message: format!("player: no player {player:?} in tournament {tournament}"),
                })?;
            let a = client
                .correct_player(authed(
                    &token(cli)?,
                    CorrectPlayerRequest {
                        meta: meta.to_proto(),
                        tournament_id: tournament.clone(),
                        player: current.player_id.clone(),
                        data: Some(data.apply(current.data.clone().unwrap_or_default())),
                    },
                )?)
                .await?
                .into_inner();
            print_ack(cli, &format!("corrected player {player}"), &a);
        }
        PlayerCommand::Withdraw {
            player,
            from_round,
            meta,
            ..
        } => {
            let a = client
                .withdraw_player(authed(
                    &token(cli)?,
                    WithdrawPlayerRequest {
                        meta: meta.to_proto(),
                        tournament_id: tournament.clone(),
                        player: crate::resolve::player(&chan, tournament, player).await?,
                        from_round: *from_round,
                    },
                )?)
                .await?
                .into_inner();
            print_ack(
                cli,
                &format!("withdrew player {player} from round {from_round}"),
                &a,
            );
        }
        PlayerCommand::Bye {
            player,
            round,
            kind,
            meta,
            ..
        } => {
            let a = client
                .request_bye(authed(
                    &token(cli)?,
                    RequestByeRequest {
                        meta: meta.to_proto(),
                        tournament_id: tournament.clone(),
                        player: crate::resolve::player(&chan, tournament, player).await?,
                        round: *round,
                        kind: kind.clone(),
                    },
                )?)
                .await?
                .into_inner();
            print_ack(
                cli,
                &format!("{kind} bye for player {player} in round {round}"),
                &a,
            );
        }
        PlayerCommand::Prohibit {
            from_round,
            to_round,
            meta,
            ..
        } => {
            let a = client
                .prohibit_pairing(authed(
                    &token(cli)?,
                    ProhibitPairingRequest {
                        meta: meta.to_proto(),
                        tournament_id: tournament.clone(),
                        players: crate::resolve::players_named(&chan, tournament, &prohibited)
                            .await?,
                        first_round: *from_round,
                        last_round: *to_round,
                    },
                )?)
                .await?
                .into_inner();
            print_ack(
                cli,
                &format!(
                    "players {} may not be paired together",
                    prohibited.join(", ")
                ),
                &a,
            );
        }
    }
    Ok(())
}

/// `arbiter tournament import|export`.
pub async fn run_trf(cli: &Cli, cmd: &TournamentTrfCommand) -> Result<(), Failure> {
    match cmd {
        TournamentTrfCommand::Rules {
            id,
            full_point_byes,
            late_entry_byes,
            tie_criterion,
            rating,
            meta,
        } => {
            let token = token(cli)?;
            let chan = connect(cli).await?;
            let id = &crate::resolve::tournament(cli, &chan, id).await?;
            let mut client = RegistryServiceClient::new(chan);
            let a = client
                .set_entry_rules(authed(
                    &token,
                    SetEntryRulesRequest {
                        meta: meta.to_proto(),
                        tournament_id: id.clone(),
                        full_point_byes_allowed: *full_point_byes,
                        late_entry_byes: late_entry_byes.clone(),
                        announced_criterion: tie_criterion.clone(),
                        rating: rating.clone(),
                    },
                )?)
                .await?
                .into_inner();
            print_ack(cli, &format!("entry rules of {id} set"), &a);
        }
        TournamentTrfCommand::Import {
            file,
            name,
            as_new,
            players_only,
            meta,
        } => {
            let bytes = std::fs::read(file).map_err(|e| Failure {
                code: 2,
                message: format!("{}: {e}", file.display()),
            })?;
            let token = token(cli)?;
            let mut client = RegistryServiceClient::new(connect(cli).await?)
                .max_encoding_message_size(MAX_TRF_MESSAGE);
            let r = client
                .import_trf(authed(
                    &token,
                    ImportTrfRequest {
                        meta: meta.to_proto(),
                        trf: bytes,
                        name: name.clone(),
                        as_new: *as_new,
                        players_only: *players_only,
                    },
                )?)
                .await
                .map_err(|s| {
                    let mut f = Failure::from(s);
                    f.message = format!("{}: {}", file.display(), f.message);
                    f
                })?
                .into_inner();
            let t = r.tournament.unwrap_or_default();
            if cli.json {
                output::json(&serde_json::json!({
                    "tournament_id": t.tournament_id, "name": t.name, "players": t.players,
                    "paired_rounds": t.paired_rounds, "rounds": t.rounds,
                    "findings": r.findings.iter().map(|f| serde_json::json!({
                        "severity": f.severity, "line": f.line, "column": f.column,
                        "record": f.record, "message": f.message,
                    })).collect::<Vec<_>>(),
                }));
            } else {
                let of = if t.rounds == 0 {
                    " (number of rounds not in the file: set it with `arbiter tournament update ID --rounds N`)".to_owned()
                } else {
                    format!(" of {}", t.rounds)
                };
                println!(
                    "imported tournament {} ({:?}): {} players, {} rounds paired{of}",
                    t.tournament_id, t.name, t.players, t.paired_rounds
                );
                for f in &r.findings {
                    let record = if f.record.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", output::clean(&f.record))
                    };
                    println!(
                        "{}:{}:{}: {}{record}: {}",
                        file.display(),
                        f.line,
                        f.column,
                        output::clean(&f.severity),
                        output::clean(&f.message)
                    );
                }
            }
        }
        TournamentTrfCommand::Export {
            id,
            round,
            to,
            engine_lines,
            output: out,
        } => {
            let chan = connect(cli).await?;
            let id = crate::resolve::tournament(cli, &chan, id).await?;
            let mut client =
                RegistryServiceClient::new(chan).max_decoding_message_size(MAX_TRF_MESSAGE);
            let r = client
                .export_trf(ExportTrfRequest {
                    tournament_id: id,
                    round: *round,
                    format: to.clone(),
                    engine_lines: *engine_lines,
                })
                .await?
                .into_inner();
            match out {
                Some(path) => {
                    std::fs::write(path, r.trf.as_bytes()).map_err(|e| Failure {
                        code: 1,
                        message: format!("{}: {e}", path.display()),
                    })?;
                    eprintln!("wrote {} as of round {}", path.display(), r.round);
                }
                None => {
                    use std::io::Write;
                    let mut stdout = std::io::stdout().lock();
                    stdout
                        .write_all(r.trf.as_bytes())
                        .and_then(|()| stdout.flush())
                        .map_err(|e| Failure {
                            code: 1,
                            message: format!("stdout: {e}"),
                        })?;
                }
            }
        }
    }
    Ok(())
}
