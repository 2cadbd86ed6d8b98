//! # arbiter-render: printable outputs of a tournament
//!
//! Pure: data in ([`model`]), `String` out; no I/O, no clock, deterministic. The CLI
//! (`arbiter print …`, and its human tables of pairings and results) renders from here,
//! and the public pages of the HTTP service are to render from the same HTML template set
//! ([`html::templates`]). Decisions: ADR render-001.
//!
//! | sheet | function | text | CSV | HTML |
//! |---|---|---|---|---|
//! | pairing by board (byes and absentees after it) | [`pairings::by_board`] | ✓ | ✓ | ✓ |
//! | pairing alphabetically by name (the wall list) | [`pairings::alphabetical`] | ✓ | ✓ | ✓ |
//! | results sheet | [`pairings::results`] | ✓ | ✓ | ✓ |
//! | standings (title, federation; categories) | [`standings::standings`] | ✓ | ✓ | ✓ |
//! | crosstable / wall chart | [`crosstable::crosstable`] | ✓ | ✓ | ✓ |
//!
//! Categories (rating bands, age groups, women): [`category`]. HTML escapes every value
//! (template auto-escaping): a name such as `<script>` is printed as text.
pub mod category;
pub mod collate;
pub mod crosstable;
mod csv_out;
mod format;
mod heading;
pub mod html;
pub mod model;
pub mod pairings;
pub mod standings;
mod text_table;

pub use category::Category;
pub use format::Format;
pub use heading::event_line;

/// Why a sheet was not rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The caller's input (a format, a category …): the message names the flag.
    #[error("{0}")]
    Input(String),
    /// The writer or the template set failed (a bug: the template set is tested).
    #[error("rendering failed: {0}")]
    Output(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Board, Player, Side, StandingLine, Standings, Unpaired};

    const HOSTILE: &str = "<script>alert(\"x\")</script> & 'Bob'";

    fn hostile_pairings() -> model::Pairings {
        let side = |tpn: u32, name: &str| Side {
            player: Player {
                tpn,
                name: name.into(),
                title: "<b>GM</b>".into(),
                ..Player::default()
            },
            points: "0".into(),
        };
        model::Pairings {
            event: model::Event {
                name: "Open <img src=x onerror=alert(1)>".into(),
                ..model::Event::default()
            },
            round: 1,
            published: true,
            boards: vec![Board {
                board: 1,
                white: side(1, HOSTILE),
                black: side(2, "Normal, Ann"),
                result: String::new(),
            }],
            unpaired: vec![Unpaired {
                side: side(3, "</td></tr><tr><td>injected"),
                kind: "half-point bye".into(),
            }],
        }
    }

    fn assert_no_markup_from_data(html: &str) {
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("<b>GM"), "{html}");
        assert!(!html.contains("</td></tr><tr><td>injected"), "{html}");
        assert!(html.contains("&lt;script&gt;alert("), "{html}");
        assert!(html.contains("&amp;"), "{html}");
    }

    #[test]
    fn every_html_sheet_escapes_names_titles_and_the_event() {
        let p = hostile_pairings();
        for html in [
            pairings::by_board(&p, Format::Html),
            pairings::alphabetical(&p, Format::Html),
            pairings::results(&p, Format::Html),
        ] {
            assert_no_markup_from_data(&html.unwrap_or_default());
        }
        let s = Standings {
            event: p.event.clone(),
            after_round: 1,
            tiebreaks: vec!["<i>BH</i>".into()],
            lines: vec![StandingLine {
                rank: 1,
                overall_rank: 1,
                player: p.boards[0].white.player.clone(),
                points: "1".into(),
                tiebreaks: vec!["<u>0</u>".into()],
                ..StandingLine::default()
            }],
        };
        let st = standings::standings(&s, &[], None, Format::Html).unwrap_or_default();
        assert_no_markup_from_data(&st);
        assert!(!st.contains("<i>BH") && !st.contains("<u>0"), "{st}");
        assert_no_markup_from_data(&crosstable::crosstable(&s, Format::Html).unwrap_or_default());
    }

    #[test]
    fn html_pages_have_a_print_stylesheet_and_a_row_per_board() {
        let p = hostile_pairings();
        let h = pairings::by_board(&p, Format::Html).unwrap_or_default();
        assert!(h.starts_with("<!DOCTYPE html>"), "{h}");
        assert!(h.contains("@media print"), "{h}");
        assert_eq!(h.matches("<tr class=\"board\"").count(), 1, "{h}");
        assert!(h.contains("data-board=\"1\""), "{h}");
        assert_eq!(h.matches("<tr class=\"unpaired-player\"").count(), 1, "{h}");
        assert!(h.contains("half-point bye"), "{h}");
    }

    #[test]
    fn the_template_set_renders_with_empty_data() {
        let p = model::Pairings::default();
        let s = Standings::default();
        for r in [
            pairings::by_board(&p, Format::Html),
            pairings::alphabetical(&p, Format::Html),
            pairings::results(&p, Format::Html),
            standings::standings(&s, &[], None, Format::Html),
            crosstable::crosstable(&s, Format::Html),
        ] {
            assert!(r.is_ok(), "{r:?}");
        }
        assert_eq!(html::templates().len(), 5);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use model::{Board, Pairings, Player, Side, StandingLine, Standings};
    use proptest::prelude::*;

    fn side(tpn: u32, name: &str) -> Side {
        Side {
            player: Player {
                tpn,
                name: name.to_owned(),
                ..Player::default()
            },
            points: "0".into(),
        }
    }

    proptest! {
        /// Whatever the names, the HTML holds exactly one row per board and per player,
        /// and no `<` or `>` that the data brought (every name is text).
        #[test]
        fn any_names_stay_text_in_every_html_sheet(
            names in proptest::collection::vec("[ -~àéćšœ<>&\"']{1,33}", 2..12)
        ) {
            let boards: Vec<Board> = names
                .chunks_exact(2)
                .enumerate()
                .map(|(i, pair)| {
                    let n = u32::try_from(i).unwrap_or(0);
                    Board {
                        board: n + 1,
                        white: side(2 * n + 1, &pair[0]),
                        black: side(2 * n + 2, &pair[1]),
                        result: String::new(),
                    }
                })
                .collect();
            let p = Pairings { round: 1, boards: boards.clone(), ..Pairings::default() };
            let h = pairings::by_board(&p, Format::Html).unwrap_or_default();
            prop_assert_eq!(h.matches("<tr class=\"board\"").count(), boards.len());
            let rows: usize = h.matches("<tr").count();
            let cells: usize = h.matches("<td").count();
            // 12 header cells per table row are <th>; each board row has 12 <td>.
            prop_assert_eq!(cells, 12 * boards.len());
            prop_assert_eq!(rows, 1 + boards.len());
            let s = Standings {
                lines: names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| StandingLine {
                        rank: u32::try_from(i + 1).unwrap_or(0),
                        overall_rank: u32::try_from(i + 1).unwrap_or(0),
                        player: side(u32::try_from(i + 1).unwrap_or(0), n).player,
                        ..StandingLine::default()
                    })
                    .collect(),
                ..Standings::default()
            };
            let h = standings::standings(&s, &[], None, Format::Html).unwrap_or_default();
            prop_assert_eq!(h.matches("<tr class=\"player\"").count(), names.len());
            prop_assert_eq!(h.matches("<td").count(), 7 * names.len());
            for n in &names {
                let escaped = n
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;")
                    .replace('\'', "&#x27;")
                    .replace('/', "&#x2f;");
                prop_assert!(h.contains(&escaped), "{} not escaped in {}", n, h);
            }
        }
    }
}
