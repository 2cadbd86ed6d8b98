//! A round's games as PGN (issue 44), in the form live broadcasts read: the seven-tag roster
//! with the board, the players' ratings, and the movetext of the clock's game (its `[%clk]`
//! comments) when clock-telemetry has one for that board and round. Pure: the server asks
//! the services, this file writes the text.
use arbiter_proto::v1::{PairedBoard, Tournament};

use crate::pages::Players;

/// A header value as PGN writes it: `\` and `"` escaped, control characters (a line break
/// would end the tag) as spaces.
fn tag_value(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            other => vec![other],
        })
        .collect()
}

/// The PGN result of a recorded result (`1-0`, `1/2-1/2`, `+-`, `W-L`…), `*` when none or
/// when it is no game's result (a double forfeit).
pub fn pgn_result(recorded: &str) -> &'static str {
    match recorded.trim() {
        "1-0" | "+-" | "W-L" => "1-0",
        "0-1" | "-+" | "L-W" => "0-1",
        "1/2-1/2" | "1/2" | "½-½" | "D-D" => "1/2-1/2",
        _ => "*",
    }
}

/// The movetext of a PGN game (what follows its tags), without its result token.
fn movetext(pgn: &str) -> (String, Option<&'static str>) {
    let body: Vec<&str> = pgn
        .lines()
        .skip_while(|l| l.starts_with('['))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let text = body.join("\n");
    let trimmed = text.trim_end();
    for r in ["1-0", "0-1", "1/2-1/2", "*"] {
        if let Some(rest) = trimmed.strip_suffix(r) {
            return (rest.trim_end().to_owned(), Some(pgn_result(r)));
        }
    }
    (trimmed.to_owned(), None)
}

/// Board `b` of round `round` as one PGN game: the players' names and ratings from the
/// record, the moves with their clock times from `clock_pgn` (the clock's game of that
/// board and round) when there is one, the result the clock gave or else the one recorded.
pub fn round_game(
    t: &Tournament,
    round: u32,
    b: &PairedBoard,
    players: &Players,
    clock_pgn: Option<&str>,
    recorded: &str,
) -> String {
    let (moves, clock_result) = clock_pgn.map(movetext).unwrap_or_default();
    let recorded_result = pgn_result(recorded);
    let result = if recorded_result != "*" {
        recorded_result
    } else {
        clock_result.unwrap_or("*")
    };
    let player = |id: &str| players.by_id.get(id);
    let name = |id: &str| player(id).map_or_else(String::new, |p| p.name.clone());
    let elo = |id: &str| player(id).map_or(0, |p| p.rating);
    let mut tags = vec![
        ("Event", t.name.clone()),
        // The seven-tag roster: unknown values as PGN writes them.
        (
            "Site",
            if t.place.trim().is_empty() {
                "?".to_owned()
            } else {
                t.place.clone()
            },
        ),
        (
            "Date",
            if t.start_date.trim().is_empty() {
                "????.??.??".to_owned()
            } else {
                t.start_date.replace('-', ".")
            },
        ),
        ("Round", round.to_string()),
        ("Board", b.board.to_string()),
        ("White", name(&b.white_id)),
        ("Black", name(&b.black_id)),
        ("Result", result.to_owned()),
    ];
    for (tag, id) in [("WhiteElo", &b.white_id), ("BlackElo", &b.black_id)] {
        if elo(id) > 0 {
            tags.push((tag, elo(id).to_string()));
        }
    }
    let mut out = String::new();
    for (tag, value) in tags {
        out.push_str(&format!("[{tag} \"{}\"]\n", tag_value(&value)));
    }
    out.push('\n');
    if !moves.is_empty() {
        out.push_str(&moves);
        out.push(' ');
    }
    out.push_str(result);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::PublicPlayer;
    use std::collections::HashMap;

    fn players() -> Players {
        let p = |tpn: u32, name: &str, rating: u32| PublicPlayer {
            tpn,
            id: format!("p{tpn}"),
            name: name.into(),
            rating,
            ..PublicPlayer::default()
        };
        Players {
            by_id: [
                ("p1".to_owned(), p(1, "Short, \"Nigel\" \\ N", 2658)),
                ("p2".to_owned(), p(2, "Doyle,\nAnn", 0)),
            ]
            .into_iter()
            .collect(),
            teams: HashMap::new(),
        }
    }

    fn board() -> PairedBoard {
        PairedBoard {
            board: 3,
            white_id: "p1".into(),
            black_id: "p2".into(),
            white_tpn: 1,
            black_tpn: 2,
        }
    }

    #[test]
    fn a_clock_game_keeps_its_moves_and_clock_comments_under_the_records_tags() {
        let t = Tournament {
            name: "Ennis Open".into(),
            start_date: "2026-02-20".into(),
            ..Tournament::default()
        };
        let clock = "[Event \"01a2\"]\n[White \"\"]\n\n1. f3 { [%clk 1:29:59] } e5 { [%clk 1:29:58] } 2. g4 Qh4# 0-1\n";
        let g = round_game(&t, 2, &board(), &players(), Some(clock), "");
        assert!(g.starts_with("[Event \"Ennis Open\"]\n"), "{g}");
        assert!(
            g.contains("[Date \"2026.02.20\"]\n[Round \"2\"]\n[Board \"3\"]\n"),
            "{g}"
        );
        assert!(g.contains("[White \"Short, \\\"Nigel\\\" \\\\ N\"]"), "{g}");
        assert!(g.contains("[Black \"Doyle, Ann\"]"), "{g}");
        assert!(
            g.contains("[WhiteElo \"2658\"]") && !g.contains("BlackElo"),
            "{g}"
        );
        assert!(g.contains("[Result \"0-1\"]"), "{g}");
        assert!(
            g.ends_with("1. f3 { [%clk 1:29:59] } e5 { [%clk 1:29:58] } 2. g4 Qh4# 0-1\n"),
            "{g}"
        );
    }

    #[test]
    fn a_board_without_a_clock_game_has_its_tags_and_the_recorded_result() {
        let t = Tournament::default();
        let g = round_game(&t, 1, &board(), &players(), None, "1/2-1/2");
        assert!(
            g.contains("[Result \"1/2-1/2\"]") && g.ends_with("\n\n1/2-1/2\n"),
            "{g}"
        );
        let g = round_game(&t, 1, &board(), &players(), None, "");
        assert!(g.ends_with("\n\n*\n"), "{g}");
        assert!(g.contains("[Site \"?\"]\n[Date \"????.??.??\"]"), "{g}");
        for (r, want) in [
            ("1-0", "1-0"),
            ("0-1", "0-1"),
            ("+-", "1-0"),
            ("-+", "0-1"),
            ("--", "*"),
            ("W-L", "1-0"),
            ("D-D", "1/2-1/2"),
            ("1-1/2", "*"),
        ] {
            assert_eq!(pgn_result(r), want, "{r}");
        }
    }
}
