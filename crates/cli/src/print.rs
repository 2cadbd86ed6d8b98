//! `arbiter print pairings|results|standings|crosstable ID …`: the printable sheets of a
//! tournament as text, CSV or HTML (with a print stylesheet), on stdout or `--output
//! FILE`. The data is read in a few calls (`sheets`), the sheet rendered by crates/render.
//! Flags are checked before anything is asked of the server; a file is written whole or
//! not at all (a temporary file beside it, renamed).
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use render::{Category, Format};

use crate::client::connect;
use crate::{Cli, Failure, output, sheets};

#[derive(Subcommand)]
pub enum PrintCommand {
    /// A round's pairing: by board (byes and absentees after it), or `--by name` for the
    /// wall (every player alphabetically with board, colour and opponent).
    Pairings(PairingsArgs),
    /// A round's results sheet: the boards with their results.
    Results(RoundArgs),
    /// The standings with title and federation; `--category` for prize categories.
    Standings(StandingsArgs),
    /// The crosstable (wall chart): every round's opponent, colour and result.
    Crosstable(CrosstableArgs),
}

#[derive(Args, Clone)]
pub struct OutputArgs {
    /// text (default), csv or html (a page with a print stylesheet).
    #[arg(long, default_value = "text")]
    format: String,
    /// Write to this file instead of stdout (written whole or not at all).
    #[arg(long, short)]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum Order {
    /// Board order.
    #[default]
    Board,
    /// Alphabetically by name (the wall list).
    Name,
}

#[derive(Args)]
pub struct PairingsArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// Round (default: the last paired).
    #[arg(default_value_t = 0)]
    round: u32,
    /// board (default) or name.
    #[arg(long, value_enum, default_value_t = Order::Board)]
    by: Order,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Args)]
pub struct RoundArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// Round.
    round: u32,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Args)]
pub struct StandingsArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// After this round (default: every round with all its results).
    #[arg(long, default_value_t = 0)]
    round: u32,
    /// Tie-break list, e.g. "BH/C1,BH,SB" (default: the tournament's).
    #[arg(long, default_value = "")]
    tiebreaks: String,
    /// c07-2026 (default), c07-2024 or seed.
    #[arg(long, default_value = "")]
    edition: String,
    /// A prize category (repeatable, one section each): U1800 (rated under 1800),
    /// 1600-1799, U16 (16 or younger on 1 January), S50 (50 or older in the year), W
    /// (women); combine with +, e.g. U16+W.
    #[arg(long = "category", value_name = "CATEGORY")]
    categories: Vec<String>,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Args)]
pub struct CrosstableArgs {
    /// Tournament id or a unique prefix; left out: the default (`arbiter use`).
    id: String,
    /// After this round (default: every round with all its results).
    #[arg(long, default_value_t = 0)]
    round: u32,
    /// Tie-break list, e.g. "BH/C1,BH,SB" (default: the tournament's).
    #[arg(long, default_value = "")]
    tiebreaks: String,
    /// c07-2026 (default), c07-2024 or seed.
    #[arg(long, default_value = "")]
    edition: String,
    #[command(flatten)]
    out: OutputArgs,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

fn render_failure(e: render::RenderError) -> Failure {
    match e {
        render::RenderError::Input(m) => usage(m),
        render::RenderError::Output(m) => Failure {
            code: 1,
            message: m,
        },
    }
}

/// Checks `--format` and `--output` before the server is asked anything.
fn check_output(o: &OutputArgs) -> Result<Format, Failure> {
    let f = Format::parse(&o.format).map_err(render_failure)?;
    if let Some(path) = &o.output {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if path.is_dir() {
            return Err(usage(format!(
                "--output {}: is a directory; give a file name",
                path.display()
            )));
        }
        if !dir.is_dir() {
            return Err(usage(format!(
                "--output {}: the folder {} does not exist",
                path.display(),
                dir.display()
            )));
        }
    }
    Ok(f)
}

/// Writes `text` to `path` whole: a temporary file beside it, then renamed over it.
fn write_whole(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: std::io::Error| Failure {
        code: 1,
        message: format!("--output {}: {e}", path.display()),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sheet".into());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// Prints or writes a rendered sheet. Text has its control characters escaped, as every
/// text the CLI shows from the server (ADR platform-005).
fn emit(o: &OutputArgs, f: Format, sheet: String) -> Result<(), Failure> {
    let sheet = if f == Format::Text {
        output::clean_lines(&sheet).into_owned()
    } else {
        sheet
    };
    match &o.output {
        Some(path) => {
            write_whole(path, &sheet)?;
            eprintln!("written: {}", path.display());
            Ok(())
        }
        None => {
            use std::io::Write as _;
            let _ = std::io::stdout().lock().write_all(sheet.as_bytes());
            Ok(())
        }
    }
}

/// The round's pairing; with no round asked for and none paired, says which command
/// pairs the first.
async fn pairing_of(
    chan: &crate::client::Chan,
    id: &str,
    round: u32,
) -> Result<arbiter_proto::v1::RoundPairingView, Failure> {
    sheets::pairing_view(chan, id, round).await.map_err(|f| {
        if round == 0 && f.message.starts_with("NotFound") {
            Failure {
                code: 1,
                message: format!(
                    "{}: no round is paired yet (arbiter round pair {id} 1)",
                    f.message
                ),
            }
        } else {
            f
        }
    })
}

/// The tournament's year (its start date, else its end date), for age groups.
fn year_of(e: &render::model::Event) -> Option<i32> {
    [&e.start_date, &e.end_date]
        .into_iter()
        .find_map(|d| d.get(..4).and_then(|y| y.parse().ok()))
}

pub async fn run(cli: &Cli, cmd: &PrintCommand) -> Result<(), Failure> {
    if cli.json {
        return Err(usage(
            "print: --json is not one of its formats: give --format text|csv|html (the data as JSON: round show, result show or standings with --json)",
        ));
    }
    match cmd {
        PrintCommand::Pairings(a) => {
            let f = check_output(&a.out)?;
            let chan = connect(cli).await?;
            // `print pairings 3`: a lone argument of 1–2 digits is the round of the
            // default tournament (a tournament prefix has at least 4 characters).
            let (given, round) = match a.id.trim() {
                r if a.round == 0
                    && (1..=2).contains(&r.len())
                    && r.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    (crate::resolve::DEFAULT, r.parse().unwrap_or(0))
                }
                _ => (a.id.as_str(), a.round),
            };
            let id = crate::resolve::tournament(cli, &chan, given).await?;
            let view = pairing_of(&chan, &id, round).await?;
            let event = sheets::event(&chan, &id).await?;
            let roster = sheets::roster(&chan, &id).await?;
            let points = sheets::points_before(&chan, &id, view.round).await;
            let p = sheets::pairing_sheet(event, &view, &roster, &points, None);
            let sheet = match a.by {
                Order::Board => render::pairings::by_board(&p, f),
                Order::Name => render::pairings::alphabetical(&p, f),
            }
            .map_err(render_failure)?;
            note(&roster);
            emit(&a.out, f, sheet)
        }
        PrintCommand::Results(a) => {
            let f = check_output(&a.out)?;
            let chan = connect(cli).await?;
            let id = crate::resolve::tournament(cli, &chan, &a.id).await?;
            let view = pairing_of(&chan, &id, a.round).await?;
            let results = sheets::round_results(&chan, &id, view.round).await?;
            let event = sheets::event(&chan, &id).await?;
            let roster = sheets::roster(&chan, &id).await?;
            let points = sheets::points_before(&chan, &id, view.round).await;
            let p = sheets::pairing_sheet(event, &view, &roster, &points, Some(&results));
            let sheet = render::pairings::results(&p, f).map_err(render_failure)?;
            note(&roster);
            emit(&a.out, f, sheet)
        }
        PrintCommand::Standings(a) => {
            let f = check_output(&a.out)?;
            let categories = a
                .categories
                .iter()
                .map(|c| Category::parse(c))
                .collect::<Result<Vec<_>, _>>()
                .map_err(render_failure)?;
            let chan = connect(cli).await?;
            let id = crate::resolve::tournament(cli, &chan, &a.id).await?;
            let event = sheets::event(&chan, &id).await?;
            let year = year_of(&event);
            render::standings::check_year(&categories, year).map_err(render_failure)?;
            let s = sheets::standings_msg(&chan, &id, a.round, &a.tiebreaks, &a.edition, 0).await?;
            let roster = sheets::roster(&chan, &id).await?;
            let st = sheets::standings_sheet(event, &s, &roster)?;
            let sheet =
                render::standings::standings(&st, &categories, year, f).map_err(render_failure)?;
            note(&roster);
            emit(&a.out, f, sheet)
        }
        PrintCommand::Crosstable(a) => {
            let f = check_output(&a.out)?;
            let chan = connect(cli).await?;
            let id = crate::resolve::tournament(cli, &chan, &a.id).await?;
            let s = sheets::standings_msg(&chan, &id, a.round, &a.tiebreaks, &a.edition, 0).await?;
            let event = sheets::event(&chan, &id).await?;
            let roster = sheets::roster(&chan, &id).await?;
            let st = sheets::standings_sheet(event, &s, &roster)?;
            let sheet = render::crosstable::crosstable(&st, f).map_err(render_failure)?;
            note(&roster);
            emit(&a.out, f, sheet)
        }
    }
}

fn note(roster: &sheets::Roster) {
    if let Some(n) = &roster.note {
        eprintln!("{n}");
    }
}
