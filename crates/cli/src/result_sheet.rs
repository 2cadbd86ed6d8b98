//! `arbiter result set ID ROUND --file FILE`: a round's result sheet, `BOARD RESULT` a
//! line, read and checked here (pure [`parse`]) before one `RecordResult` with every board
//! is sent; the server's refusal of a board is printed at the board's line and column
//! (ADR registry-005).
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::{RecordResultRequest, SheetResult};

use crate::client::{Chan, authed, token};
use crate::round_results::{SetResultArgs, meta};
use crate::{Cli, Failure, output};

/// Largest sheet read (bytes).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// One line of the sheet: where it is and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetLine {
    /// 1-based line.
    pub line: usize,
    /// 1-based columns of the board and of the result.
    pub board_column: usize,
    pub result_column: usize,
    pub board: u32,
    /// The result as the server reads it (`½` written `1/2`).
    pub result: String,
}

/// A fault: `(line, column, message)`.
pub type Fault = (usize, usize, String);

/// `½-½`, `1/2-1/2`, `=`, `0.5-0.5` → `1/2`; `½` elsewhere → `1/2`; the rest as written.
fn normalise(result: &str) -> String {
    let r = result.replace('½', "1/2").replace(['–', '—'], "-");
    match r.as_str() {
        "1/2-1/2" | "=" | "0.5-0.5" | "=-=" | "1/2:1/2" => "1/2".into(),
        "1:0" => "1-0".into(),
        "0:1" => "0-1".into(),
        _ => r,
    }
}

/// Reads a sheet: each non-blank line `BOARD RESULT` (`#` to the end of a line is a
/// comment); a board twice is refused at its second line.
pub fn parse(text: &str) -> Result<Vec<SheetLine>, Fault> {
    let mut out: Vec<SheetLine> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("");
        // Columns in characters, 1-based.
        let mut fields = Vec::new();
        let mut start = None;
        for (c, ch) in content.chars().enumerate() {
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some(c),
                (true, Some(s)) => {
                    fields.push((
                        s + 1,
                        content.chars().skip(s).take(c - s).collect::<String>(),
                    ));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            fields.push((s + 1, content.chars().skip(s).collect::<String>()));
        }
        match fields.as_slice() {
            [] => continue,
            [(c, _)] => {
                return Err((
                    line,
                    c + fields[0].1.chars().count(),
                    "a board and its result are needed, e.g. `12 1-0`".into(),
                ));
            }
            [(bc, board), (rc, result)] => {
                let b: u32 = match board.parse() {
                    Ok(b) if b > 0 => b,
                    _ => {
                        return Err((line, *bc, format!("board: {board:?} is not a board number")));
                    }
                };
                if let Some(prev) = out.iter().find(|x| x.board == b) {
                    return Err((
                        line,
                        *bc,
                        format!("board {b} is given twice (also on line {})", prev.line),
                    ));
                }
                out.push(SheetLine {
                    line,
                    board_column: *bc,
                    result_column: *rc,
                    board: b,
                    result: normalise(result),
                });
            }
            [_, _, (c, extra), ..] => {
                return Err((
                    line,
                    *c,
                    format!("{extra:?}: one board and one result a line"),
                ));
            }
        }
    }
    if out.is_empty() {
        return Err((0, 0, "no results in the file".into()));
    }
    Ok(out)
}

/// Reads, checks and records (or, with `--dry-run`, shows) the sheet.
pub async fn record(
    cli: &Cli,
    results: &mut ResultsServiceClient<Chan>,
    tournament_id: &str,
    a: &SetResultArgs,
    file: &std::path::Path,
) -> Result<(), Failure> {
    let at = |line: usize, column: usize| match (line, column) {
        (0, _) => file.display().to_string(),
        (l, 0) => format!("{}:{l}", file.display()),
        (l, c) => format!("{}:{l}:{c}", file.display()),
    };
    let bytes = crate::registry_players::read_bounded(file, MAX_FILE_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| Failure {
        code: 1,
        message: format!("{}: not UTF-8 text (nothing recorded)", file.display()),
    })?;
    let sheet = parse(&text).map_err(|(l, c, m)| Failure {
        code: 1,
        message: format!("{}: {m} (nothing recorded)", at(l, c)),
    })?;
    let request = RecordResultRequest {
        meta: meta(&a.meta),
        tournament_id: tournament_id.to_owned(),
        round: a.round,
        results: sheet
            .iter()
            .map(|s| SheetResult {
                board: s.board,
                result: s.result.clone(),
            })
            .collect(),
        dry_run: a.dry_run,
        ..Default::default()
    };
    let answer = results
        .record_result(authed(&token(cli)?, request)?)
        .await
        .map_err(|status| {
            let message = status.message().to_owned();
            let refused = message.strip_prefix("results[").and_then(|rest| {
                let (i, rest) = rest.split_once("].")?;
                let (field, what) = rest.split_once(": ")?;
                Some((i.parse::<usize>().ok()?, field.to_owned(), what.to_owned()))
            });
            match refused.and_then(|(i, f, w)| sheet.get(i).map(|s| (s, f, w))) {
                Some((s, field, what)) => Failure {
                    code: 1,
                    message: format!(
                        "{}: {field}: {what} (nothing recorded)",
                        at(
                            s.line,
                            if field == "result" {
                                s.result_column
                            } else {
                                s.board_column
                            }
                        )
                    ),
                },
                None => Failure::from(status),
            }
        })?
        .into_inner();
    if cli.json {
        output::json(&serde_json::json!({
            "round": a.round,
            "dry_run": a.dry_run,
            "boards": answer.boards.iter().map(|b| serde_json::json!({
                "board": b.board, "result": b.result,
                "position": b.ack.as_ref().map(|x| x.last_position),
                "replayed": b.ack.as_ref().is_some_and(|x| x.replayed),
            })).collect::<Vec<_>>(),
        }));
        return Ok(());
    }
    let rows: Vec<Vec<String>> = answer
        .boards
        .iter()
        .map(|b| vec![b.board.to_string(), b.result.clone()])
        .collect();
    output::table(&["BOARD", "RESULT"], &rows);
    if a.dry_run {
        println!(
            "dry run: {} result(s) of round {} would be recorded from {}; nothing recorded",
            rows.len(),
            a.round,
            file.display()
        );
    } else {
        let replayed = answer
            .boards
            .iter()
            .any(|b| b.ack.as_ref().is_some_and(|x| x.replayed));
        println!(
            "recorded {} result(s) of round {} from {} in one command{}",
            rows.len(),
            a.round,
            file.display(),
            if replayed { " (replayed)" } else { "" }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_reads_board_and_result_with_their_columns() {
        let s = parse("# round 3\n12 1-0\n\n 13  ½-½\n14 +-   # forfeit\n15 1/2\n").unwrap();
        let got: Vec<(usize, u32, &str)> = s
            .iter()
            .map(|x| (x.line, x.board, x.result.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (2, 12, "1-0"),
                (4, 13, "1/2"),
                (5, 14, "+-"),
                (6, 15, "1/2")
            ]
        );
        assert_eq!((s[1].board_column, s[1].result_column), (2, 6));
    }

    #[test]
    fn faults_name_line_and_column() {
        assert_eq!(parse("1 1-0\nx 0-1\n").unwrap_err().0, 2);
        let e = parse("1 1-0\n2 0-1 extra\n").unwrap_err();
        assert_eq!((e.0, e.1), (2, 7));
        let e = parse("1 1-0\n1 0-1\n").unwrap_err();
        assert_eq!((e.0, e.1), (2, 1));
        assert!(e.2.contains("twice (also on line 1)"), "{e:?}");
        assert_eq!(parse("1 1-0\n3\n").unwrap_err().0, 2);
        assert_eq!(parse("0 1-0\n").unwrap_err().1, 1);
        assert!(parse("# nothing\n").is_err());
    }
}
