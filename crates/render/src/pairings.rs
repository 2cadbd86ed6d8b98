//! A round's pairing by board (the arbiter's table and the players' sheet), the same
//! round alphabetically by name (the wall list: each player finds their board), and the
//! results sheet (the boards with their results).
use serde::Serialize;

use crate::model::{Pairings, Player, Side};
use crate::text_table::{self, Align};
use crate::{Format, RenderError, csv_out, heading, html};

/// Which board sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sheet {
    Pairings,
    Results,
}

fn title_of(p: &Pairings, sheet: Sheet) -> String {
    match sheet {
        Sheet::Pairings => format!(
            "Round {} pairings{}",
            p.round,
            if p.published { "" } else { " (not published)" }
        ),
        Sheet::Results => format!("Round {} results", p.round),
    }
}

/// The round by board: board, both players (pairing number, title, name, rating, points
/// before the round), the result; then the players without a board and why.
///
/// # Errors
/// Only when the HTML template set cannot render (a bug, tested).
pub fn by_board(p: &Pairings, f: Format) -> Result<String, RenderError> {
    boards(p, f, Sheet::Pairings)
}

/// The results sheet: the boards with their results ("" = still to come).
///
/// # Errors
/// Only when the HTML template set cannot render (a bug, tested).
pub fn results(p: &Pairings, f: Format) -> Result<String, RenderError> {
    boards(p, f, Sheet::Results)
}

fn result_text(r: &str, sheet: Sheet) -> String {
    if r.is_empty() && sheet == Sheet::Results {
        "…".into()
    } else if r.is_empty() {
        "-".into()
    } else {
        r.to_owned()
    }
}

fn boards(p: &Pairings, f: Format, sheet: Sheet) -> Result<String, RenderError> {
    let title = title_of(p, sheet);
    match f {
        Format::Text => {
            let rows: Vec<Vec<String>> = p
                .boards
                .iter()
                .map(|b| {
                    vec![
                        b.board.to_string(),
                        b.white.player.tpn.to_string(),
                        b.white.player.title.clone(),
                        b.white.player.name.clone(),
                        b.white.player.rating_text(),
                        b.white.points.clone(),
                        result_text(&b.result, sheet),
                        b.black.points.clone(),
                        b.black.player.title.clone(),
                        b.black.player.name.clone(),
                        b.black.player.rating_text(),
                        b.black.player.tpn.to_string(),
                    ]
                })
                .collect();
            let mut s = heading::text(&p.event, &title);
            s.push_str(&text_table::render(
                &[
                    "BOARD", "NO", "TITLE", "WHITE", "RTG", "PTS", "RESULT", "PTS", "TITLE",
                    "BLACK", "RTG", "NO",
                ],
                &[
                    Align::Right,
                    Align::Right,
                    Align::Left,
                    Align::Left,
                    Align::Right,
                    Align::Right,
                    Align::Left,
                    Align::Right,
                    Align::Left,
                    Align::Left,
                    Align::Right,
                    Align::Right,
                ],
                &rows,
            ));
            s.push_str(&unpaired_text(p));
            Ok(s)
        }
        Format::Csv => {
            let mut rows: Vec<Vec<String>> = Vec::new();
            for b in &p.boards {
                let mut r = vec![b.board.to_string()];
                r.extend(side_cells(&b.white));
                r.extend(side_cells(&b.black));
                r.push(b.result.clone());
                r.push(String::new());
                rows.push(r);
            }
            for u in &p.unpaired {
                let mut r = vec![String::new()];
                r.extend(side_cells(&u.side));
                r.extend(std::iter::repeat_n(String::new(), 7));
                r.push(u.kind.clone());
                rows.push(r);
            }
            csv_out::render(
                &[
                    "board",
                    "white_tpn",
                    "white_name",
                    "white_title",
                    "white_rating",
                    "white_federation",
                    "white_points",
                    "black_tpn",
                    "black_name",
                    "black_title",
                    "black_rating",
                    "black_federation",
                    "black_points",
                    "result",
                    "unpaired",
                ],
                &rows,
            )
        }
        Format::Html => html::render(
            "pairings.html",
            &PairingsPage {
                title: &title,
                event_line: heading::event_line(&p.event),
                p,
                results: sheet == Sheet::Results,
            },
        ),
    }
}

fn side_cells(s: &Side) -> [String; 6] {
    [
        s.player.tpn.to_string(),
        s.player.name.clone(),
        s.player.title.clone(),
        s.player.rating_text(),
        s.player.federation.clone(),
        s.points.clone(),
    ]
}

fn unpaired_text(p: &Pairings) -> String {
    if p.unpaired.is_empty() {
        return String::new();
    }
    let rows: Vec<Vec<String>> = p
        .unpaired
        .iter()
        .map(|u| {
            vec![
                u.side.player.tpn.to_string(),
                u.side.player.title.clone(),
                u.side.player.name.clone(),
                u.side.player.rating_text(),
                u.side.points.clone(),
                u.kind.clone(),
            ]
        })
        .collect();
    let mut s = String::from("\nNot paired\n");
    s.push_str(&text_table::render(
        &["NO", "TITLE", "NAME", "RTG", "PTS", "WHY"],
        &[
            Align::Right,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Left,
        ],
        &rows,
    ));
    s
}

#[derive(Serialize)]
struct PairingsPage<'a> {
    title: &'a str,
    event_line: String,
    p: &'a Pairings,
    results: bool,
}

/// One line of the alphabetical list.
#[derive(Debug, Clone, Serialize)]
struct WallLine {
    player: Player,
    points: String,
    /// "" for a player without a board.
    board: String,
    /// "White", "Black" or "".
    colour: String,
    /// The opponent, or why there is none.
    opponent: String,
    opponent_tpn: String,
}

fn wall_lines(p: &Pairings) -> Vec<WallLine> {
    let mut lines: Vec<WallLine> = Vec::new();
    for b in &p.boards {
        for (me, other, colour) in [(&b.white, &b.black, "White"), (&b.black, &b.white, "Black")] {
            lines.push(WallLine {
                player: me.player.clone(),
                points: me.points.clone(),
                board: b.board.to_string(),
                colour: colour.into(),
                opponent: other.player.name.clone(),
                opponent_tpn: other.player.tpn.to_string(),
            });
        }
    }
    for u in &p.unpaired {
        lines.push(WallLine {
            player: u.side.player.clone(),
            points: u.side.points.clone(),
            board: String::new(),
            colour: String::new(),
            opponent: u.kind.clone(),
            opponent_tpn: String::new(),
        });
    }
    lines.sort_by(|a, b| {
        crate::collate::name_key(&a.player.name)
            .cmp(&crate::collate::name_key(&b.player.name))
            .then(a.player.tpn.cmp(&b.player.tpn))
    });
    lines
}

/// The round alphabetically by name: every player, their board and colour, the opponent
/// (or why they have no board).
///
/// # Errors
/// Only when the HTML template set cannot render (a bug, tested).
pub fn alphabetical(p: &Pairings, f: Format) -> Result<String, RenderError> {
    let title = format!("Round {} pairings by name", p.round);
    let lines = wall_lines(p);
    match f {
        Format::Text => {
            let rows: Vec<Vec<String>> = lines
                .iter()
                .map(|l| {
                    vec![
                        l.player.name.clone(),
                        l.player.title.clone(),
                        l.player.tpn.to_string(),
                        l.points.clone(),
                        l.board.clone(),
                        l.colour.clone(),
                        l.opponent.clone(),
                        l.opponent_tpn.clone(),
                    ]
                })
                .collect();
            let mut s = heading::text(&p.event, &title);
            s.push_str(&text_table::render(
                &[
                    "NAME", "TITLE", "NO", "PTS", "BOARD", "COLOUR", "OPPONENT", "NO",
                ],
                &[
                    Align::Left,
                    Align::Left,
                    Align::Right,
                    Align::Right,
                    Align::Right,
                    Align::Left,
                    Align::Left,
                    Align::Right,
                ],
                &rows,
            ));
            Ok(s)
        }
        Format::Csv => csv_out::render(
            &[
                "name",
                "title",
                "tpn",
                "rating",
                "federation",
                "points",
                "board",
                "colour",
                "opponent",
                "opponent_tpn",
            ],
            &lines
                .iter()
                .map(|l| {
                    vec![
                        l.player.name.clone(),
                        l.player.title.clone(),
                        l.player.tpn.to_string(),
                        l.player.rating_text(),
                        l.player.federation.clone(),
                        l.points.clone(),
                        l.board.clone(),
                        l.colour.clone(),
                        l.opponent.clone(),
                        l.opponent_tpn.clone(),
                    ]
                })
                .collect::<Vec<_>>(),
        ),
        Format::Html => html::render(
            "wall.html",
            &WallPage {
                title: &title,
                event_line: heading::event_line(&p.event),
                lines: &lines,
            },
        ),
    }
}

#[derive(Serialize)]
struct WallPage<'a> {
    title: &'a str,
    event_line: String,
    lines: &'a [WallLine],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Board, Event, Unpaired};

    fn player(tpn: u32, name: &str, title: &str, rating: u32) -> Player {
        Player {
            tpn,
            name: name.into(),
            title: title.into(),
            rating,
            federation: "IRL".into(),
            ..Player::default()
        }
    }

    fn side(p: Player, pts: &str) -> Side {
        Side {
            player: p,
            points: pts.into(),
        }
    }

    pub(crate) fn sample() -> Pairings {
        Pairings {
            event: Event {
                name: "Spring Open".into(),
                ..Event::default()
            },
            round: 2,
            published: true,
            boards: vec![
                Board {
                    board: 1,
                    white: side(player(1, "Short, Nigel", "GM", 2658), "1"),
                    black: side(player(3, "Zeller, Anna", "", 2100), "1"),
                    result: "1-0".into(),
                },
                Board {
                    board: 2,
                    white: side(player(4, "Adams, Michael", "GM", 2000), "0"),
                    black: side(player(2, "Baburin, Alex", "GM", 2410), "0"),
                    result: String::new(),
                },
            ],
            unpaired: vec![
                Unpaired {
                    side: side(player(5, "Murphy, Seán", "", 0), "0"),
                    kind: "pairing-allocated bye".into(),
                },
                Unpaired {
                    side: side(player(6, "Doyle, Ann", "WIM", 1990), "0.5"),
                    kind: "half-point bye".into(),
                },
            ],
        }
    }

    #[test]
    fn by_board_text_names_both_players_then_the_unpaired_with_their_kind() {
        let s = by_board(&sample(), Format::Text).unwrap_or_default();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "Spring Open");
        assert_eq!(lines[1], "Round 2 pairings");
        assert!(lines[3].starts_with("BOARD  NO  TITLE  WHITE"), "{s}");
        assert!(
            lines[4].contains("GM     Short, Nigel")
                && lines[4].contains("2658")
                && lines[4].contains("1-0")
                && lines[4].contains("Zeller, Anna"),
            "{s}"
        );
        assert!(lines[5].contains("Adams, Michael") && lines[5].contains("Baburin, Alex"));
        assert!(s.contains("Not paired\n"), "{s}");
        assert!(s.contains("Murphy, Seán") && s.contains("pairing-allocated bye"));
        assert!(s.contains("Doyle, Ann") && s.contains("half-point bye"));
    }

    #[test]
    fn by_board_csv_has_one_row_per_board_and_per_unpaired_player() {
        let s = by_board(&sample(), Format::Csv).unwrap_or_default();
        let mut r = csv::Reader::from_reader(s.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().filter_map(Result::ok).collect();
        assert_eq!(rows.len(), 4);
        assert_eq!(&rows[0][0], "1");
        assert_eq!(&rows[0][2], "Short, Nigel");
        assert_eq!(&rows[0][8], "Zeller, Anna");
        assert_eq!(&rows[0][13], "1-0");
        assert_eq!(&rows[2][0], "");
        assert_eq!(&rows[2][2], "Murphy, Seán");
        assert_eq!(&rows[2][14], "pairing-allocated bye");
    }

    #[test]
    fn alphabetical_lists_every_player_with_board_colour_and_opponent() {
        let s = alphabetical(&sample(), Format::Text).unwrap_or_default();
        let names: Vec<&str> = s
            .lines()
            .skip(4)
            .map(|l| l.split("  ").next().unwrap_or(""))
            .collect();
        assert_eq!(
            names,
            [
                "Adams, Michael",
                "Baburin, Alex",
                "Doyle, Ann",
                "Murphy, Seán",
                "Short, Nigel",
                "Zeller, Anna"
            ]
        );
        let baburin = s.lines().find(|l| l.starts_with("Baburin")).unwrap_or("");
        assert!(
            baburin.contains("Black") && baburin.contains("Adams, Michael"),
            "{baburin}"
        );
    }

    #[test]
    fn results_sheet_marks_boards_still_to_come() {
        let s = results(&sample(), Format::Text).unwrap_or_default();
        assert!(s.contains("Round 2 results"));
        let b2 = s.lines().nth(5).unwrap_or("");
        assert!(b2.contains('…'), "{b2}");
    }
}
