//! `arbiter`: the command line. Talks gRPC to `arbiterd` (or a service) at `--server`;
//! every request carries the bearer token from `ARBITER_TOKEN` or
//! `<data-dir>/admin.token` (an empty `ARBITER_TOKEN` is an error). Human tables by default, `--json` for scripts.
//!
//! Exit codes: 0 ok; 1 the server answered with an error (or a service is not
//! SERVING); 2 bad usage; 3 the server cannot be reached.
mod access;
mod admin_backup;
mod client;
mod clock_adjourn;
mod clock_watch;
mod hints;
mod offline;
mod output;
mod player_import;
mod print;
mod rating_service;
mod ratinglist_import;
mod registry_players;
mod resolve;
mod result_sheet;
mod round_results;
mod sheets;
mod teams;
mod tournament;
mod use_default;
mod webhook;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Arbiter command line.
#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Arbiter: FIDE tournaments from the command line"
)]
pub struct Cli {
    /// gRPC address of arbiterd (or of the service to talk to): `http://` (plaintext) or
    /// `https://` (TLS, see --ca-cert).
    #[arg(
        long,
        global = true,
        env = "ARBITER_SERVER",
        default_value = "http://127.0.0.1:50051"
    )]
    pub server: String,
    /// With an `https://` --server: trust this CA (PEM) as well as the system's roots.
    /// A certificate that neither verifies is refused (exit 3); `https://` is never
    /// downgraded to plaintext.
    #[arg(long, global = true, env = "ARBITER_CA_CERT", value_name = "PEM")]
    pub ca_cert: Option<PathBuf>,
    /// Client certificate (PEM) for a server that requires one (mTLS); needs --client-key.
    #[arg(
        long,
        global = true,
        env = "ARBITER_CLIENT_CERT",
        requires = "client_key",
        value_name = "PEM"
    )]
    pub client_cert: Option<PathBuf>,
    /// The private key of --client-cert (PEM).
    #[arg(
        long,
        global = true,
        env = "ARBITER_CLIENT_KEY",
        requires = "client_cert",
        value_name = "PEM"
    )]
    pub client_key: Option<PathBuf>,
    /// Data directory of the local arbiterd (where admin.token is read from).
    #[arg(
        long,
        global = true,
        env = "ARBITER_DATA_DIR",
        default_value = "arbiter-data"
    )]
    pub data_dir: PathBuf,
    /// Machine-readable JSON output.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Exit 0 only when every service answers SERVING.
    Health,
    /// Tournaments.
    #[command(subcommand)]
    Tournament(tournament::TournamentCommand),
    #[command(flatten)]
    Offline(offline::OfflineCommand),
    /// Players and entries of a tournament.
    #[command(subcommand)]
    Player(registry_players::PlayerCommand),
    /// Teams of a team tournament: add, roster (board order), line-ups, list, rules
    /// (boards, deadlines), withdraw.
    #[command(subcommand)]
    Team(teams::TeamCommand),
    /// The server's player directory: a FIDE rating list (import, find).
    #[command(subcommand)]
    Ratinglist(ratinglist_import::RatingListCommand),
    /// Pairing of a round: pair, repair, set by hand, publish, show, explain, close.
    #[command(subcommand)]
    Round(round_results::RoundCommand),
    /// Results: set, correct, byes, show a round, history, correction impact.
    #[command(subcommand)]
    Result(round_results::ResultCommand),
    /// The audit log: verify the hash chain, export as JSON lines.
    #[command(subcommand)]
    Audit(round_results::AuditCommand),
    /// Printable sheets: pairings (by board, by name), results, standings (categories),
    /// crosstable; as text, CSV or HTML (`--format`), to a file (`--output`).
    #[command(subcommand)]
    Print(print::PrintCommand),
    /// Principals, roles, tokens, public tournaments.
    #[command(subcommand)]
    Access(access::AccessCommand),
    /// Webhooks: register an address for event types, list, show, remove, deliveries,
    /// redeliver (ADR http-002).
    #[command(subcommand)]
    Webhook(webhook::WebhookCommand),
    /// Who the token is: principal, roles, token id.
    Whoami,
    /// Backups of the embedded server's data directory: backup (while it runs), restore.
    #[command(subcommand)]
    Admin(admin_backup::AdminCommand),
    /// The default tournament: `arbiter use ID` (a unique prefix will do), `arbiter use`
    /// shows it, `--clear` forgets it. Commands whose tournament is left out use it.
    Use(use_default::UseArgs),
}

/// An error with the exit code it maps to.
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl From<tonic::Status> for Failure {
    fn from(s: tonic::Status) -> Self {
        let code = if s.code() == tonic::Code::Unavailable {
            3
        } else {
            1
        };
        Failure {
            code,
            message: format!("{:?}: {}", s.code(), hints::in_cli_words(s.message())),
        }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure {
            code: 1,
            message: format!("{e:#}"),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        // A left-out tournament argument: the default tournament goes in its place.
        Err(e) => match resolve::with_default_tournament(&argv)
            .and_then(|a| Cli::try_parse_from(a).ok())
        {
            Some(c) => c,
            None => e.exit(),
        },
    };
    let result = match &cli.command {
        Command::Health => client::health(&cli).await,
        Command::Tournament(t) => tournament::run(&cli, t).await,
        // `clock watch` shares the `clock` command with the offline replay but talks to
        // the server.
        Command::Offline(offline::OfflineCommand::Clock(offline::clock::ClockCommand::Watch(
            a,
        ))) => clock_watch::watch(&cli, a).await,
        Command::Offline(offline::OfflineCommand::Clock(offline::clock::ClockCommand::Pgn(a))) => {
            clock_watch::pgn(&cli, a).await
        }
        Command::Offline(offline::OfflineCommand::Clock(
            offline::clock::ClockCommand::Adjourn(a),
        )) => clock_adjourn::adjourn(&cli, a).await,
        Command::Offline(offline::OfflineCommand::Clock(offline::clock::ClockCommand::Resume(
            a,
        ))) => clock_adjourn::resume(&cli, a).await,
        Command::Offline(offline::OfflineCommand::Clock(offline::clock::ClockCommand::Sealed(
            a,
        ))) => clock_adjourn::sealed(&cli, a).await,
        // So do the rating service's commands under `rating` (beside the offline `calc`).
        Command::Offline(offline::OfflineCommand::Rating(
            offline::rating::RatingCommand::Service(r),
        )) => rating_service::run(&cli, r).await,
        // `standings ID` asks the results service; `standings --trf FILE` is offline.
        Command::Offline(offline::OfflineCommand::Standings(a)) if a.on_server() => {
            match a.check_server_flags() {
                Ok(()) => round_results::standings(&cli, &a.query()).await,
                Err(f) => Err(f),
            }
        }
        Command::Offline(o) => offline::run(&cli, o),
        Command::Round(r) => round_results::run_round(&cli, r).await,
        Command::Result(r) => round_results::run_result(&cli, r).await,
        Command::Audit(a) => round_results::run_audit(&cli, a).await,
        Command::Player(p) => registry_players::run_player(&cli, p).await,
        Command::Team(t) => teams::run(&cli, t).await,
        Command::Ratinglist(r) => ratinglist_import::run(&cli, r).await,
        Command::Print(p) => print::run(&cli, p).await,
        Command::Access(a) => access::run(&cli, a).await,
        Command::Webhook(w) => webhook::run(&cli, w).await,
        Command::Whoami => access::whoami(&cli).await,
        Command::Use(a) => use_default::run(&cli, a).await,
        Command::Admin(a) => admin_backup::run(&cli, a).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // The server's message may quote data: its control characters are escaped.
            eprintln!("error: {}", output::clean_lines(&f.message));
            ExitCode::from(f.code)
        }
    }
}
