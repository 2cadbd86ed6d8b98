//! The crosstable (wall chart): one line per player in standing order, numbered 1…n;
//! each round's cell names the opponent by that line number, the colour and the result
//! (`12w1`, `3b½`, `7+` a forfeit won, `PAB`, `H`/`F`/`Z` byes, `-` absent).
use std::collections::HashMap;

use serde::Serialize;

use crate::model::{Cell, Standings};
use crate::text_table::{self, Align};
use crate::{Format, RenderError, csv_out, heading, html};

#[derive(Debug, Clone, Serialize)]
struct Line {
    no: usize,
    rank: String,
    tpn: u32,
    title: String,
    name: String,
    federation: String,
    rating: String,
    cells: Vec<String>,
    points: String,
    tiebreaks: Vec<String>,
}

fn cell_text(c: &Cell, line_of: &HashMap<u32, usize>) -> String {
    if c.opponent == 0 {
        return if c.result.is_empty() {
            "-".into()
        } else {
            c.result.clone()
        };
    }
    let no = line_of
        .get(&c.opponent)
        .map_or_else(|| format!("#{}", c.opponent), ToString::to_string);
    match c.result.as_str() {
        "+" | "-" => format!("{no}{}", c.result),
        r => format!("{no}{}{r}", c.colour),
    }
}

/// A line's cells for the text and CSV tables (CSV also gives the pairing number).
fn row(l: &Line, with_tpn: bool) -> Vec<String> {
    let mut r = vec![l.no.to_string(), l.rank.clone()];
    if with_tpn {
        r.push(l.tpn.to_string());
    }
    r.extend([
        l.title.clone(),
        l.name.clone(),
        l.federation.clone(),
        l.rating.clone(),
    ]);
    r.extend(l.cells.iter().cloned());
    r.push(l.points.clone());
    r.extend(l.tiebreaks.iter().cloned());
    r
}

fn lines(s: &Standings) -> (usize, Vec<Line>) {
    let line_of: HashMap<u32, usize> = s
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.player.tpn, i + 1))
        .collect();
    let rounds = s
        .lines
        .iter()
        .map(|l| l.rounds.len())
        .max()
        .unwrap_or(0)
        .max(usize::try_from(s.after_round).unwrap_or(0));
    let out = s
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| Line {
            no: i + 1,
            rank: format!("{}{}", l.rank, if l.shared { "=" } else { "" }),
            tpn: l.player.tpn,
            title: l.player.title.clone(),
            name: l.player.name.clone(),
            federation: l.player.federation.clone(),
            rating: l.player.rating_text(),
            cells: (0..rounds)
                .map(|r| {
                    l.rounds
                        .get(r)
                        .map_or_else(|| "-".into(), |c| cell_text(c, &line_of))
                })
                .collect(),
            points: l.points.clone(),
            tiebreaks: l.tiebreaks.clone(),
        })
        .collect();
    (rounds, out)
}

/// The crosstable after `s.after_round`.
///
/// # Errors
/// Only when the HTML template set cannot render (a bug, tested).
pub fn crosstable(s: &Standings, f: Format) -> Result<String, RenderError> {
    let (rounds, lines) = lines(s);
    let title = format!("Crosstable after round {}", s.after_round);
    let round_names: Vec<String> = (1..=rounds).map(|r| format!("R{r}")).collect();
    match f {
        Format::Text => {
            let mut header: Vec<&str> = vec!["NO", "RANK", "TITLE", "NAME", "FED", "RTG"];
            let mut align = vec![
                Align::Right,
                Align::Left,
                Align::Left,
                Align::Left,
                Align::Left,
                Align::Right,
            ];
            header.extend(round_names.iter().map(String::as_str));
            align.extend(std::iter::repeat_n(Align::Right, rounds));
            header.push("PTS");
            align.push(Align::Right);
            header.extend(s.tiebreaks.iter().map(String::as_str));
            align.extend(std::iter::repeat_n(Align::Right, s.tiebreaks.len()));
            let rows: Vec<Vec<String>> = lines.iter().map(|l| row(l, false)).collect();
            let mut out = heading::text(&s.event, &title);
            out.push_str(&text_table::render(&header, &align, &rows));
            Ok(out)
        }
        Format::Csv => {
            let mut header: Vec<&str> =
                vec!["no", "rank", "tpn", "title", "name", "federation", "rating"];
            header.extend(round_names.iter().map(String::as_str));
            header.push("points");
            header.extend(s.tiebreaks.iter().map(String::as_str));
            let rows: Vec<Vec<String>> = lines.iter().map(|l| row(l, true)).collect();
            csv_out::render(&header, &rows)
        }
        Format::Html => html::render(
            "crosstable.html",
            &CrosstablePage {
                title: &title,
                event_line: heading::event_line(&s.event),
                rounds: &round_names,
                tiebreaks: &s.tiebreaks,
                lines: &lines,
            },
        ),
    }
}

#[derive(Serialize)]
struct CrosstablePage<'a> {
    title: &'a str,
    event_line: String,
    rounds: &'a [String],
    tiebreaks: &'a [String],
    lines: &'a [Line],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_name_the_opponent_by_line_number() {
        let s = crosstable(&crate::standings::tests::sample(), Format::Text).unwrap_or_default();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[1], "Crosstable after round 2");
        assert!(lines[3].contains("R1   R2  PTS"), "{s}");
        // Short (line 1) beat Adams (line 4) with white, then Zeller (tpn 3, line 2) with black.
        assert!(lines[4].contains("4w1  2b1"), "{s}");
        // Baburin (line 3) had the pairing-allocated bye in round 2.
        assert!(lines[6].contains("PAB"), "{s}");
        assert!(lines[7].contains("1b0    -"), "{s}");
    }

    #[test]
    fn the_printed_wall_chart_is_landscape() {
        let h = crosstable(&crate::standings::tests::sample(), Format::Html).unwrap_or_default();
        assert!(h.contains("@page { size: A4 landscape"), "{h}");
        assert_eq!(
            h.matches("<td class=\"cell\" data-round=\"2\">").count(),
            4,
            "{h}"
        );
    }

    #[test]
    fn csv_has_a_column_per_round() {
        let s = crosstable(&crate::standings::tests::sample(), Format::Csv).unwrap_or_default();
        let mut r = csv::Reader::from_reader(s.as_bytes());
        let h = r.headers().cloned().unwrap_or_default();
        assert_eq!(&h[7], "R1");
        assert_eq!(&h[8], "R2");
        assert_eq!(&h[9], "points");
        let rows: Vec<csv::StringRecord> = r.records().filter_map(Result::ok).collect();
        assert_eq!(&rows[1][7], "3w½");
    }
}
