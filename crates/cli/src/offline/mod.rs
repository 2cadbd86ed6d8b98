//! Offline commands: the pure rule crates applied to files, no server needed.
//!
//! `arbiter trf check|fmt|json`, `arbiter standings`, `arbiter rating calc`,
//! `arbiter clock replay`, `arbiter pair`. Human tables by default, JSON with `--json`.
//! Exit codes: 0 ok; 1 the file has errors (findings of severity Error) or the rule
//! computation failed; 2 usage errors (clap's own, and argument values the rules reject).
use std::path::Path;

use clap::Subcommand;

use crate::{Cli, Failure};

/// `println!` that does not panic when stdout is closed (`arbiter … | head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `print!` that does not panic when stdout is closed.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

pub mod clock;
mod pair;
mod pair_dutch;
mod pair_knockout;
mod pair_trf;
pub mod rating;
mod standings;
mod trf;

/// The offline commands, flattened into the top-level command list.
#[derive(Subcommand)]
pub enum OfflineCommand {
    /// Tournament Report Files (TRF16/TRF26): check, canonical format, JSON model.
    #[command(subcommand)]
    Trf(trf::TrfCommand),
    /// Standings with FIDE tie-breaks (C.07) computed from a TRF file.
    Standings(standings::StandingsArgs),
    /// FIDE rating calculations (B.02).
    #[command(subcommand)]
    Rating(rating::RatingCommand),
    /// Clock replay of PGN games with recorded clock times (Laws of Chess, art. 6).
    #[command(subcommand)]
    Clock(clock::ClockCommand),
    /// Pairing schedules: round robin (Berger tables, C.05 Annex 1) and knockout brackets;
    /// the next round of a TRF file by the Dutch, Lim, Italo-Swiss or draughts Swiss system,
    /// a round robin or a knockout in progress.
    Pair(pair::PairArgs),
}

/// Runs one offline command.
pub fn run(cli: &Cli, cmd: &OfflineCommand) -> Result<(), Failure> {
    match cmd {
        OfflineCommand::Trf(c) => trf::run(cli, c),
        OfflineCommand::Standings(a) => standings::run(cli, a),
        OfflineCommand::Rating(c) => rating::run(cli, c),
        OfflineCommand::Clock(c) => clock::run(cli, c),
        OfflineCommand::Pair(a) => pair::run(cli, a),
    }
}

/// A usage error (exit 2).
pub(crate) fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

/// An error in the input or the computation (exit 1).
pub(crate) fn failed(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

/// Reads a whole file; the error names the file.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| failed(format!("{}: {e}", path.display())))
}
