//! `arbiter trf check|fmt|json FILE`: the TRF crate on a file.
use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};
use serde_json::json;
use trf::{Finding, LineEnding, Parsed, Severity, TrfVersion, WriteOptions};

use super::{failed, read_file};
use crate::{Cli, Failure, output};

#[derive(Subcommand)]
pub enum TrfCommand {
    /// Read and validate a TRF file; list every finding as FILE:LINE:COL: severity: record: message.
    /// Exit 1 if any finding is an error.
    Check {
        /// The TRF file.
        file: PathBuf,
    },
    /// Write the file in canonical layout to stdout (lossless: parse(fmt(x)) == parse(x)).
    Fmt {
        /// The TRF file.
        file: PathBuf,
        /// Edition to write (default: the file's own edition; TRF16 leaves out or converts the
        /// TRF26-only records).
        #[arg(long, value_enum)]
        to: Option<Edition>,
        /// Line terminator.
        #[arg(long, value_enum, default_value = "crlf")]
        line_ending: Eol,
    },
    /// Print the parsed model (every line, typed) as JSON.
    Json {
        /// The TRF file.
        file: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Edition {
    Trf16,
    Trf26,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Eol {
    Crlf,
    Lf,
    Cr,
}

pub fn run(cli: &Cli, cmd: &TrfCommand) -> Result<(), Failure> {
    match cmd {
        TrfCommand::Check { file } => check(cli, file),
        TrfCommand::Fmt {
            file,
            to,
            line_ending,
        } => fmt(cli, file, *to, *line_ending),
        TrfCommand::Json { file } => to_json(file),
    }
}

/// Reads and validates a TRF file; a hopeless input (empty, not TRF, too large) is exit 1.
pub(crate) fn load(path: &Path) -> Result<Parsed, Failure> {
    let bytes = read_file(path)?;
    trf::parse_and_validate(&bytes).map_err(|e| failed(format!("{}: {e}", path.display())))
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}

/// `FILE:LINE:COL: severity: record: message` (line/column left out when 0, record when empty).
pub(crate) fn finding_line(path: &Path, f: &Finding) -> String {
    let mut s = path.display().to_string();
    if f.line > 0 {
        s.push_str(&format!(":{}", f.line));
        if f.column > 0 {
            s.push_str(&format!(":{}", f.column));
        }
    }
    s.push_str(&format!(": {}: ", severity_name(f.severity)));
    if !f.record.is_empty() {
        s.push_str(&format!("{}: ", f.record));
    }
    s.push_str(&f.message);
    s
}

pub(crate) fn error_count(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count()
}

/// Prints the error findings on stderr and fails with exit 1 if there are any.
pub(crate) fn refuse_errors(path: &Path, findings: &[Finding]) -> Result<(), Failure> {
    let errors = error_count(findings);
    if errors == 0 {
        return Ok(());
    }
    for f in findings.iter().filter(|f| f.severity == Severity::Error) {
        eprintln!("{}", finding_line(path, f));
    }
    Err(failed(format!(
        "{}: {errors} error(s) in the file (see `arbiter trf check`)",
        path.display()
    )))
}

fn check(cli: &Cli, path: &Path) -> Result<(), Failure> {
    let parsed = load(path)?;
    let count = |s| parsed.findings.iter().filter(|f| f.severity == s).count();
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    if cli.json {
        output::json(&json!({
            "file": path.display().to_string(),
            "edition": parsed.doc.edition(),
            "players": parsed.doc.players().count(),
            "rounds": parsed.doc.rounds_in_player_records(),
            "errors": errors,
            "warnings": warnings,
            "infos": infos,
            "findings": parsed.findings,
        }));
    } else {
        for f in &parsed.findings {
            outln!("{}", finding_line(path, f));
        }
        outln!(
            "{}: {} players, {} rounds, {errors} error(s), {warnings} warning(s), {infos} info",
            path.display(),
            parsed.doc.players().count(),
            parsed.doc.rounds_in_player_records(),
        );
    }
    if errors > 0 {
        return Err(failed(format!("{}: {errors} error(s)", path.display())));
    }
    Ok(())
}

fn fmt(cli: &Cli, path: &Path, to: Option<Edition>, eol: Eol) -> Result<(), Failure> {
    let parsed = load(path)?;
    let version = match to {
        Some(Edition::Trf16) => TrfVersion::Trf16,
        Some(Edition::Trf26) => TrfVersion::Trf26,
        None => parsed.doc.edition(),
    };
    let line_ending = match eol {
        Eol::Crlf => LineEnding::CrLf,
        Eol::Lf => LineEnding::Lf,
        Eol::Cr => LineEnding::Cr,
    };
    let text = trf::write_with(
        &parsed.doc,
        &WriteOptions {
            version,
            line_ending,
        },
    );
    if cli.json {
        output::json(&json!({ "edition": version, "text": text }));
    } else {
        let mut out = std::io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            // a closed pipe (`arbiter trf fmt … | head`) is the reader's choice
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(failed(format!("writing stdout: {e}")));
            }
            _ => {}
        }
    }
    refuse_errors(path, &parsed.findings)
}

fn to_json(path: &Path) -> Result<(), Failure> {
    let parsed = load(path)?;
    let v = serde_json::to_value(&parsed.doc)
        .map_err(|e| failed(format!("{}: {e}", path.display())))?;
    output::json(&v);
    refuse_errors(path, &parsed.findings)
}
