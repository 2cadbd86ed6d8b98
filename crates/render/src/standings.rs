//! The standings: rank, pairing number, title, name, federation, rating, points and the
//! tie-breaks; with categories, one section per category ranked within it.
use serde::Serialize;

use crate::category::{self, Category};
use crate::model::{StandingLine, Standings};
use crate::text_table::{self, Align};
use crate::{Format, RenderError, csv_out, heading, html};

/// A section of the standings: the whole field, or one category.
#[derive(Debug, Clone, Serialize)]
struct Section {
    /// "" for the whole field, else the category as written.
    category: String,
    lines: Vec<StandingLine>,
}

fn rank_text(l: &StandingLine) -> String {
    format!("{}{}", l.rank, if l.shared { "=" } else { "" })
}

fn sections(
    s: &Standings,
    categories: &[Category],
    year: Option<i32>,
) -> Result<Vec<Section>, RenderError> {
    if categories.is_empty() {
        return Ok(vec![Section {
            category: String::new(),
            lines: s.lines.clone(),
        }]);
    }
    check_year(categories, year)?;
    Ok(categories
        .iter()
        .map(|c| Section {
            category: c.label().to_owned(),
            lines: category::select(&s.lines, c, year),
        })
        .collect())
}

/// Refuses an age group when the tournament has no year (its start date), so a caller
/// can check before it reads the standings.
///
/// # Errors
/// The first age group, naming the command that sets the date.
pub fn check_year(categories: &[Category], year: Option<i32>) -> Result<(), RenderError> {
    if year.is_none()
        && let Some(c) = categories.iter().find(|c| c.needs_year())
    {
        return Err(RenderError::Input(format!(
            "--category {}: an age group needs the tournament's year: set its start date (arbiter tournament update ID --start YYYY-MM-DD)",
            c.label()
        )));
    }
    Ok(())
}

/// The standings, whole or by category (`year`: the tournament's, for age groups).
///
/// # Errors
/// An age group without a year; the HTML template set failing (a bug, tested).
pub fn standings(
    s: &Standings,
    categories: &[Category],
    year: Option<i32>,
    f: Format,
) -> Result<String, RenderError> {
    let sections = sections(s, categories, year)?;
    let title = format!("Standings after round {}", s.after_round);
    let by_category = !categories.is_empty();
    match f {
        Format::Text => {
            let mut out = heading::text(&s.event, &title);
            for (i, sec) in sections.iter().enumerate() {
                if by_category {
                    if i > 0 {
                        out.push('\n');
                    }
                    out.push_str(&format!(
                        "Category {} ({} player(s))\n",
                        sec.category,
                        sec.lines.len()
                    ));
                }
                let mut header = vec!["RANK"];
                let mut align = vec![Align::Left];
                if by_category {
                    header.push("OVERALL");
                    align.push(Align::Right);
                }
                header.extend(["NO", "TITLE", "NAME", "FED", "RTG", "PTS"]);
                align.extend([
                    Align::Right,
                    Align::Left,
                    Align::Left,
                    Align::Left,
                    Align::Right,
                    Align::Right,
                ]);
                for t in &s.tiebreaks {
                    header.push(t);
                    align.push(Align::Right);
                }
                let rows: Vec<Vec<String>> = sec
                    .lines
                    .iter()
                    .map(|l| {
                        let mut r = vec![rank_text(l)];
                        if by_category {
                            r.push(l.overall_rank.to_string());
                        }
                        r.extend([
                            l.player.tpn.to_string(),
                            l.player.title.clone(),
                            l.player.name.clone(),
                            l.player.federation.clone(),
                            l.player.rating_text(),
                            l.points.clone(),
                        ]);
                        r.extend(l.tiebreaks.iter().cloned());
                        r
                    })
                    .collect();
                out.push_str(&text_table::render(&header, &align, &rows));
            }
            Ok(out)
        }
        Format::Csv => {
            let mut header = vec![
                "category",
                "rank",
                "shared",
                "overall_rank",
                "tpn",
                "title",
                "name",
                "federation",
                "rating",
                "points",
            ];
            header.extend(s.tiebreaks.iter().map(String::as_str));
            let mut rows = Vec::new();
            for sec in &sections {
                for l in &sec.lines {
                    let mut r = vec![
                        sec.category.clone(),
                        l.rank.to_string(),
                        if l.shared { "yes" } else { "" }.to_owned(),
                        l.overall_rank.to_string(),
                        l.player.tpn.to_string(),
                        l.player.title.clone(),
                        l.player.name.clone(),
                        l.player.federation.clone(),
                        l.player.rating_text(),
                        l.points.clone(),
                    ];
                    r.extend(l.tiebreaks.iter().cloned());
                    rows.push(r);
                }
            }
            csv_out::render(&header, &rows)
        }
        Format::Html => html::render(
            "standings.html",
            &StandingsPage {
                title: &title,
                event_line: heading::event_line(&s.event),
                tiebreaks: &s.tiebreaks,
                by_category,
                sections: &sections,
            },
        ),
    }
}

#[derive(Serialize)]
struct StandingsPage<'a> {
    title: &'a str,
    event_line: String,
    tiebreaks: &'a [String],
    by_category: bool,
    sections: &'a [Section],
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::{Cell, Event, Player};

    fn line(
        rank: u32,
        tpn: u32,
        name: &str,
        rating: u32,
        sex: &str,
        born: &str,
        pts: &str,
    ) -> StandingLine {
        StandingLine {
            rank,
            shared: false,
            overall_rank: rank,
            player: Player {
                tpn,
                name: name.into(),
                title: if rating > 2500 {
                    "GM".into()
                } else {
                    String::new()
                },
                rating,
                federation: "IRL".into(),
                sex: sex.into(),
                birth_date: born.into(),
            },
            points: pts.into(),
            tiebreaks: vec!["3".into(), "2.5".into()],
            rounds: Vec::new(),
        }
    }

    pub(crate) fn sample() -> Standings {
        let mut lines = vec![
            line(1, 1, "Short, Nigel", 2658, "m", "1965/06/01", "2"),
            line(2, 3, "Zeller, Anna", 1750, "w", "2012/03/04", "1.5"),
            line(2, 2, "Baburin, Alex", 2410, "m", "1967", "1.5"),
            line(4, 4, "Adams, Michael", 0, "m", "", "0"),
        ];
        lines[1].shared = true;
        lines[2].shared = true;
        let cell = |o: u32, c: &str, r: &str| Cell {
            opponent: o,
            colour: c.into(),
            result: r.into(),
        };
        lines[0].rounds = vec![cell(4, "w", "1"), cell(3, "b", "1")];
        lines[1].rounds = vec![cell(2, "w", "½"), cell(1, "w", "0")];
        lines[2].rounds = vec![cell(3, "b", "½"), cell(0, "", "PAB")];
        lines[3].rounds = vec![cell(1, "b", "0"), cell(0, "", "-")];
        Standings {
            event: Event {
                name: "Spring Open".into(),
                start_date: "2026-02-20".into(),
                ..Event::default()
            },
            after_round: 2,
            tiebreaks: vec!["BH/C1".into(), "SB".into()],
            lines,
        }
    }

    #[test]
    fn text_has_title_federation_and_the_tie_breaks() {
        let s = standings(&sample(), &[], Some(2026), Format::Text).unwrap_or_default();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[1], "Standings after round 2");
        assert!(lines[3].starts_with("RANK  NO  TITLE  NAME"), "{s}");
        assert!(lines[3].ends_with("BH/C1   SB"), "{s}");
        assert!(
            lines[4].starts_with("1      1  GM     Short, Nigel    IRL  2658"),
            "{s}"
        );
        assert!(lines[5].starts_with("2="), "{s}");
    }

    #[test]
    fn categories_rank_within_each_and_name_it() {
        let cats = [
            Category::parse("W").unwrap_or_else(|_| unreachable!()),
            Category::parse("S50").unwrap_or_else(|_| unreachable!()),
        ];
        let s = standings(&sample(), &cats, Some(2026), Format::Text).unwrap_or_default();
        assert!(s.contains("Category W (1 player(s))\n"), "{s}");
        assert!(s.contains("Category S50 (2 player(s))\n"), "{s}");
        let s50: Vec<&str> = s
            .lines()
            .skip_while(|l| !l.starts_with("Category S50"))
            .collect();
        let words = |l: &str| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(words(s50[2]), "1 1 1", "{s}");
        assert!(s50[2].contains("Short"), "{s}");
        assert_eq!(words(s50[3]), "2 2 2", "{s}");
        assert!(s50[3].contains("Baburin"), "{s}");
        let e = standings(&sample(), &cats, None, Format::Text)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("arbiter tournament update ID --start"), "{e}");
    }

    #[test]
    fn csv_rows_carry_the_category_and_both_ranks() {
        let cats = [Category::parse("U2000").unwrap_or_else(|_| unreachable!())];
        let s = standings(&sample(), &cats, Some(2026), Format::Csv).unwrap_or_default();
        let mut r = csv::Reader::from_reader(s.as_bytes());
        let h = r.headers().cloned().unwrap_or_default();
        assert_eq!(&h[0], "category");
        assert_eq!(&h[10], "BH/C1");
        let rows: Vec<csv::StringRecord> = r.records().filter_map(Result::ok).collect();
        assert_eq!(rows.len(), 1, "{s}");
        assert_eq!(
            (&rows[0][0], &rows[0][1], &rows[0][3], &rows[0][6]),
            ("U2000", "1", "2", "Zeller, Anna")
        );
    }
}
