//! Team tournaments paired through the real binaries (`arbiterd` + `arbiter`), issue 43
//! (ADR pairing-005): a team Swiss of 30 teams × 4 boards × 7 rounds under C.04.6 and a
//! team round robin of 8 teams, each played round by round with the CLI — teams, rosters,
//! line-ups (a forfeited board, a reserve), pairing, publication, board results, a team
//! withdrawal (then a team PAB each round) — and checked against the rules and an
//! independent count: every team once per round, no rematch, at most one PAB per team,
//! board colours by record 352, each board's players from the line-ups, match points 2/1/0
//! and game points as the served team standings give them; then exported, checked,
//! ranked offline from the file and imported again with the same standings.
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use arbiter_tests::{Arbiter, Proc, output_text, start_arbiterd};
use serde_json::Value;

fn start(dir: &Path) -> (Arbiter, Proc) {
    let a = Arbiter {
        data: dir.join("data"),
        port: arbiter_testkit::free_port(),
    };
    let d = start_arbiterd(&a.data, a.port, |_| {});
    (a, d)
}

/// A team tournament of `teams` teams of `boards + 1` players (one reserve), entered from
/// a CSV; team `k` (0-based) holds pairing numbers `k + 1`, `k + 1 + teams`, … in board
/// order. Returns the tournament id and the team list (JSON of `team list`).
fn team_event(
    a: &Arbiter,
    dir: &Path,
    name: &str,
    system: &str,
    teams: usize,
    boards: usize,
    rounds: u32,
) -> (String, Value) {
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        name,
        "--rounds",
        &rounds.to_string(),
        "--system",
        system,
    ])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let players = teams * (boards + 1);
    let mut csv = String::from("name,rating,federation\n");
    for i in 0..players {
        csv.push_str(&format!("\"Player{i:03}, Ann\",{},IRL\n", 2600 - i * 3));
    }
    let file = dir.join(format!("{system}-players.csv"));
    std::fs::write(&file, csv).unwrap();
    a.ok(&["player", "import", &t, file.to_str().unwrap()]);
    a.ok(&["team", "rules", &t, "--boards", &boards.to_string()]);
    for k in 0..teams {
        let team = format!("Team {:02}", k + 1);
        a.ok(&["team", "add", &t, &team, "--federation", "IRL"]);
        let members: Vec<String> = (0..=boards)
            .map(|j| (k + 1 + teams * j).to_string())
            .collect();
        let mut roster = vec!["team", "roster", &t, &team];
        roster.extend(members.iter().map(String::as_str));
        a.ok(&roster);
    }
    let list = a.json(&["team", "list", &t]);
    (t, list)
}

/// Team id → (number, player ids in roster order).
fn teams_of(list: &Value) -> BTreeMap<String, (u64, Vec<String>)> {
    list["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let roster = t["roster"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["player_id"].as_str().unwrap().to_owned())
                .collect();
            (
                t["team_id"].as_str().unwrap().to_owned(),
                (t["number"].as_u64().unwrap(), roster),
            )
        })
        .collect()
}

/// A board's result, decided by the pairing numbers: mostly the stronger player wins,
/// some draws, some upsets (deterministic).
fn result_for(round: u64, board: u64, white_tpn: u64, black_tpn: u64) -> &'static str {
    let k = (round * 7 + board * 3) % 10;
    if k < 3 {
        "1/2"
    } else if (k < 8) == (white_tpn < black_tpn) {
        "1-0"
    } else {
        "0-1"
    }
}

fn halves(result: &str) -> (u64, u64) {
    match result {
        "1-0" => (2, 0),
        "0-1" => (0, 2),
        _ => (1, 1),
    }
}

/// A team's running score in the test's own count: match points and game points in halves.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
struct Score {
    mp: u64,
    gp: u64,
}

/// Pairs, checks, publishes and plays one round; returns (team pair met, pab team).
#[allow(clippy::too_many_arguments)]
fn play_round(
    a: &Arbiter,
    dir: &Path,
    t: &str,
    round: u64,
    boards: usize,
    lineups: &BTreeMap<String, Vec<String>>,
    playing: &BTreeSet<String>,
    round_robin: bool,
    score: &mut BTreeMap<String, Score>,
    on_board: &mut BTreeMap<(u64, String), (u64, u64)>,
) -> (Vec<(String, String)>, Option<String>) {
    let r = round.to_string();
    a.ok(&["round", "pair", t, &r]);
    let p = a.json(&["round", "show", t, &r]);
    let games: BTreeMap<u64, (String, String, u64, u64)> = p["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["board"].as_u64().unwrap(),
                (
                    b["white"].as_str().unwrap().to_owned(),
                    b["black"].as_str().unwrap().to_owned(),
                    b["white_tpn"].as_u64().unwrap(),
                    b["black_tpn"].as_u64().unwrap(),
                ),
            )
        })
        .collect();
    let matches = p["matches"].as_array().unwrap();
    let pab = p["bye_team"]
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    // Every team that plays is in one match, or is the PAB.
    let mut seen = BTreeSet::new();
    for m in matches {
        for side in ["first_team", "second_team"] {
            assert!(
                seen.insert(m[side]["id"].as_str().unwrap().to_owned()),
                "round {round}: a team in two matches: {p}"
            );
        }
    }
    if let Some(b) = &pab {
        assert!(
            seen.insert(b.clone()),
            "round {round}: the PAB team also plays"
        );
    }
    assert_eq!(matches.len(), playing.len() / 2, "round {round}");
    if round_robin {
        // An odd round robin leaves one team free: not a PAB.
        assert!(pab.is_none(), "round {round}: a round robin has no PAB");
        assert!(seen.is_subset(playing), "round {round}");
        assert_eq!(
            playing.len() - seen.len(),
            playing.len() % 2,
            "round {round}"
        );
    } else {
        assert_eq!(
            &seen, playing,
            "round {round}: the teams paired are not the field"
        );
        assert_eq!(pab.is_some(), playing.len() % 2 == 1, "round {round}");
    }

    // Board by board: colours by 352 (alternating, White on board 1 for the team named
    // first), players from the line-ups, results entered from a sheet.
    let mut sheet = String::new();
    let mut met = Vec::new();
    for m in matches {
        let first = m["first_team"]["id"].as_str().unwrap().to_owned();
        let second = m["second_team"]["id"].as_str().unwrap().to_owned();
        assert_eq!(m["white_team_id"], first.as_str(), "round {round}: {m}");
        let mbs = m["boards"].as_array().unwrap();
        assert_eq!(mbs.len(), boards);
        let (mut gf, mut gs) = (0, 0);
        for (k, mb) in mbs.iter().enumerate() {
            let (w_team, b_team) = if k % 2 == 0 {
                (&first, &second)
            } else {
                (&second, &first)
            };
            assert_eq!(mb["white_team_id"], w_team.as_str(), "round {round} {m}");
            let (w, b) = (&lineups[w_team][k], &lineups[b_team][k]);
            let n = mb["board"].as_u64().unwrap();
            match (w.is_empty(), b.is_empty()) {
                (false, false) => {
                    let (gw, gb, wt, bt) = &games[&n];
                    assert_eq!((gw, gb), (w, b), "round {round} board {n}");
                    let res = result_for(round, n, *wt, *bt);
                    sheet.push_str(&format!("{n} {res}\n"));
                    let (hw, hb) = halves(res);
                    let board = k as u64 + 1;
                    for (p, h) in [(w, hw), (b, hb)] {
                        let x = on_board.entry((board, p.clone())).or_default();
                        x.0 += 1;
                        x.1 += h;
                    }
                    if w_team == &first {
                        gf += hw;
                        gs += hb;
                    } else {
                        gf += hb;
                        gs += hw;
                    }
                }
                (true, true) => assert_eq!(n, 0),
                _ => {
                    assert_eq!(n, 0, "an empty board is no game");
                    let present = if w.is_empty() { b } else { w };
                    assert_eq!(mb["unopposed"], present.as_str());
                    assert!(
                        !p["absent"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|x| x == present.as_str()),
                        "round {round}: the unopposed player is not absent"
                    );
                    if lineups[&first].contains(present) {
                        gf += 2;
                    } else {
                        gs += 2;
                    }
                }
            }
        }
        let mp = |x: u64, y: u64| match x.cmp(&y) {
            std::cmp::Ordering::Greater => 4,
            std::cmp::Ordering::Equal => 2,
            std::cmp::Ordering::Less => 0,
        };
        let s = score.entry(first.clone()).or_default();
        s.mp += mp(gf, gs);
        s.gp += gf;
        let s = score.entry(second.clone()).or_default();
        s.mp += mp(gs, gf);
        s.gp += gs;
        met.push((first.clone().min(second.clone()), first.max(second)));
    }
    assert_eq!(
        games.len(),
        sheet.lines().count(),
        "round {round}: a game outside every match"
    );
    if let Some(b) = &pab {
        let s = score.entry(b.clone()).or_default();
        s.mp += 2;
        s.gp += boards as u64;
    }
    a.ok(&["round", "publish", t, &r]);
    let file = dir.join(format!("{t}-r{round}.txt"));
    std::fs::write(&file, sheet).unwrap();
    a.ok(&["result", "set", t, &r, "--file", file.to_str().unwrap()]);
    (met, pab)
}

/// The served team standings: team name → (MP, GP) as text.
fn served(a: &Arbiter, t: &str) -> Value {
    a.json(&["standings", t, "--teams"])
}

fn fmt_halves(h: u64) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// The served rows agree with the test's own count of match and game points.
fn check_points(
    standings: &Value,
    teams: &BTreeMap<String, (u64, Vec<String>)>,
    score: &BTreeMap<String, Score>,
) {
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), teams.len(), "{standings}");
    for row in rows {
        let number = row["team"].as_u64().unwrap();
        let (id, _) = teams.iter().find(|(_, (n, _))| *n == number).unwrap();
        let s = score.get(id).copied().unwrap_or_default();
        assert_eq!(
            row["match_points"],
            fmt_halves(s.mp).as_str(),
            "team {number} MP: {row}"
        );
        assert_eq!(
            row["game_points"],
            fmt_halves(s.gp).as_str(),
            "team {number} GP: {row}"
        );
    }
}

/// The board prizes: per board, every player who played on it with the games and points the
/// test counted there; eligible players (at least 4 of 7 games on the board) ranked by
/// performance; the text names the boards.
fn check_board_prizes(
    a: &Arbiter,
    t: &str,
    boards: usize,
    on_board: &BTreeMap<(u64, String), (u64, u64)>,
) {
    let v = a.json(&["standings", t, "--teams", "--boards"]);
    let b = &v["board_prizes"];
    assert_eq!(b["min_games"], 4, "{b}");
    let list = b["boards"].as_array().unwrap();
    assert_eq!(list.len(), boards);
    let mut seen = 0;
    for board in list {
        let k = board["board"].as_u64().unwrap();
        let mut last_perf = i64::MAX;
        let mut ranked = true;
        for p in board["players"].as_array().unwrap() {
            let id = p["player_id"].as_str().unwrap().to_owned();
            let (games, half) = on_board[&(k, id)];
            assert_eq!(p["games"], games, "board {k}: {p}");
            assert_eq!(p["points"], fmt_halves(half).as_str(), "board {k}: {p}");
            let rank = p["rank"].as_u64().unwrap();
            if games >= 4 {
                assert!(
                    ranked,
                    "board {k}: an eligible player after an ineligible one"
                );
                let perf = p["performance"].as_i64().unwrap();
                assert!(perf <= last_perf, "board {k}: not in performance order");
                last_perf = perf;
                assert!(rank > 0);
            } else {
                ranked = false;
                assert_eq!(rank, 0, "board {k}: {p}");
            }
            seen += 1;
        }
    }
    assert_eq!(
        seen,
        on_board.len(),
        "a player missing from the board prizes"
    );
    let text = a.ok(&["standings", t, "--teams", "--boards"]);
    assert!(
        text.contains("Board 4 (ranked with at least 4 games on the board)"),
        "{text}"
    );
}

/// The record as of round `r` exported, imported as a new tournament, and round `r + 1`
/// paired there: the teams' history is read from the imported rounds, so the matches (teams,
/// the team named first) are those the original made.
fn continue_from_a_file(a: &Arbiter, dir: &Path, t: &str, r: u32) {
    let file = dir.join(format!("after-round-{r}.trf"));
    a.ok(&[
        "tournament",
        "export",
        t,
        "--round",
        &r.to_string(),
        "--output",
        file.to_str().unwrap(),
    ]);
    let u = a.json(&[
        "tournament",
        "import",
        file.to_str().unwrap(),
        "--as-new",
        "--name",
        "Team Swiss continued",
    ])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let next = (r + 1).to_string();
    a.ok(&["round", "pair", &u, &next]);
    let teams_of_round = |id: &str| -> Vec<(u64, u64)> {
        a.json(&["round", "show", id, &next])["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["first_team"]["number"].as_u64().unwrap(),
                    m["second_team"]["number"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        teams_of_round(&u),
        teams_of_round(t),
        "round {next} after the import"
    );
}

/// Export → `trf check` → offline standings of the file = served → import as new → the
/// same standings and teams served again.
fn export_and_reimport(a: &Arbiter, dir: &Path, t: &str, name: &str) {
    let file = dir.join(format!("{name}.trf"));
    a.ok(&[
        "tournament",
        "export",
        t,
        "--output",
        file.to_str().unwrap(),
    ]);
    let check = a.run(&["trf", "check", file.to_str().unwrap()]);
    assert!(check.status.success(), "{}", output_text(&check));
    let server = served(a, t);
    let offline = a.json(&["standings", "--trf", file.to_str().unwrap(), "--teams"]);
    assert_eq!(
        server["rows"], offline["rows"],
        "server:\n{server}\noffline:\n{offline}"
    );
    let again = a.json(&[
        "tournament",
        "import",
        file.to_str().unwrap(),
        "--as-new",
        "--name",
        &format!("{name} again"),
    ]);
    let u = again["tournament_id"].as_str().unwrap().to_owned();
    let back = served(a, &u);
    assert_eq!(
        back["rows"], server["rows"],
        "re-imported:\n{back}\nserved:\n{server}"
    );
    let file2 = dir.join(format!("{name}-again.trf"));
    a.ok(&[
        "tournament",
        "export",
        &u,
        "--output",
        file2.to_str().unwrap(),
    ]);
    let body = |f: &Path| -> Vec<String> {
        std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .filter(|l| {
                ["001", "310", "320", "300", "352", "362"]
                    .iter()
                    .any(|c| l.starts_with(c))
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        body(&file2),
        body(&file),
        "export → import → export changed the record"
    );
}

#[test]
fn a_team_swiss_of_30_teams_is_paired_by_c0406_through_the_service() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let (boards, rounds) = (4usize, 7u64);
    let (t, list) = team_event(&a, dir.path(), "Team Swiss", "swiss-team", 30, boards, 7);
    let teams = teams_of(&list);
    let by_number = |n: u64| teams.iter().find(|(_, (k, _))| *k == n).unwrap().0.clone();
    let mut score = BTreeMap::new();
    let mut met_before: BTreeSet<(String, String)> = BTreeSet::new();
    let mut pabs: BTreeMap<String, u32> = BTreeMap::new();
    let mut on_board = BTreeMap::new();
    for round in 1..=rounds {
        // Default line-ups (the first four of the roster); team 5 leaves board 4 empty in
        // round 3, team 6 fields its reserve on board 4 in round 2.
        let mut lineups: BTreeMap<String, Vec<String>> = teams
            .iter()
            .map(|(id, (_, r))| (id.clone(), r[..boards].to_vec()))
            .collect();
        let r = round.to_string();
        if round == 3 {
            let five = by_number(5);
            a.ok(&[
                "team",
                "lineup",
                &t,
                "5",
                "--round",
                &r,
                &teams[&five].1[0],
                &teams[&five].1[1],
                &teams[&five].1[2],
                "-",
            ]);
            lineups.get_mut(&five).unwrap()[3] = String::new();
        }
        if round == 2 {
            let six = by_number(6);
            let x = &teams[&six].1;
            a.ok(&[
                "team", "lineup", &t, "6", "--round", &r, &x[0], &x[1], &x[2], &x[4],
            ]);
            lineups.get_mut(&six).unwrap()[3] = x[4].clone();
        }
        if round == 5 {
            a.ok(&["team", "withdraw", &t, "30", "--from-round", "5"]);
        }
        let playing: BTreeSet<String> = teams
            .iter()
            .filter(|(_, (n, _))| round < 5 || *n != 30)
            .map(|(id, _)| id.clone())
            .collect();
        let (met, pab) = play_round(
            &a,
            dir.path(),
            &t,
            round,
            boards,
            &lineups,
            &playing,
            false,
            &mut score,
            &mut on_board,
        );
        for m in met {
            assert!(
                met_before.insert(m.clone()),
                "round {round}: teams {m:?} meet again"
            );
        }
        if let Some(p) = pab {
            *pabs.entry(p).or_default() += 1;
        }
        if round == 3 {
            // A round with results has its line-ups fixed: refused, saying why.
            let o = a.refused(&[
                "team",
                "lineup",
                &t,
                "1",
                "--round",
                "3",
                &teams[&by_number(1)].1[0],
                "-",
                "-",
                "-",
            ]);
            assert!(o.contains("round 3 has results"), "{o}");
        }
    }
    assert_eq!(
        pabs.values().sum::<u32>(),
        3,
        "rounds 5–7 have 29 teams: {pabs:?}"
    );
    assert!(
        pabs.values().all(|n| *n == 1),
        "a team had two PABs: {pabs:?}"
    );
    let text = a.ok(&["round", "show", &t, "7"]);
    assert!(text.contains("match  1  Team "), "{text}");
    assert!(text.contains("pairing-allocated bye: Team "), "{text}");
    let r3 = a.ok(&["round", "show", &t, "3"]);
    assert!(r3.contains("board 4 unopposed"), "{r3}");
    check_points(&served(&a, &t), &teams, &score);
    check_board_prizes(&a, &t, boards, &on_board);
    continue_from_a_file(&a, dir.path(), &t, 3);
    export_and_reimport(&a, dir.path(), &t, "team-swiss");
    let file = dir.path().join("team-swiss.trf");
    let trf = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        trf.lines().filter(|l| l.starts_with("320")).count(),
        1,
        "{trf}"
    );
    // TRF26 team records: 352 the board colours, 362 the match points, a 300 for each
    // line-up out of the default board order (team 6's reserve in round 2; team 5's empty
    // board 4 in round 3, written 0).
    assert!(trf.lines().any(|l| l == "352 WBWB"), "{trf}");
    assert!(trf.lines().any(|l| l.starts_with("362 TW 2.0")), "{trf}");
    let r300: Vec<&str> = trf.lines().filter(|l| l.starts_with("300")).collect();
    assert_eq!(r300.len(), 2, "{trf}");
    assert!(r300[0].starts_with("300   2   6 "), "{}", r300[0]);
    assert!(
        r300[1].starts_with("300   3   5 ") && r300[1].ends_with("    0"),
        "{}",
        r300[1]
    );
}

#[test]
fn a_team_round_robin_of_8_teams_meets_every_team_once() {
    round_robin(8, 4);
}

/// Five teams: one free each round, which scores nothing (not a PAB).
#[test]
fn an_odd_team_round_robin_leaves_one_team_free_each_round() {
    round_robin(5, 2);
}

fn round_robin(n: usize, boards: usize) {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let rounds = if n.is_multiple_of(2) { n - 1 } else { n } as u64;
    let (t, list) = team_event(
        &a,
        dir.path(),
        "Team League",
        "team-round-robin",
        n,
        boards,
        rounds as u32,
    );
    let teams = teams_of(&list);
    let lineups: BTreeMap<String, Vec<String>> = teams
        .iter()
        .map(|(id, (_, r))| (id.clone(), r[..boards].to_vec()))
        .collect();
    let playing: BTreeSet<String> = teams.keys().cloned().collect();
    let mut score = BTreeMap::new();
    let mut met_all = BTreeSet::new();
    let mut on_board = BTreeMap::new();
    for round in 1..=rounds {
        let (met, pab) = play_round(
            &a,
            dir.path(),
            &t,
            round,
            boards,
            &lineups,
            &playing,
            true,
            &mut score,
            &mut on_board,
        );
        assert!(pab.is_none());
        for m in met {
            assert!(met_all.insert(m.clone()), "round {round}: {m:?} meet again");
        }
    }
    assert_eq!(
        met_all.len(),
        n * (n - 1) / 2,
        "every pair of {n} teams meets once"
    );
    let o = a.refused(&["round", "pair", &t, &(rounds + 1).to_string()]);
    assert!(o.contains("beyond the announced rounds"), "{o}");
    check_points(&served(&a, &t), &teams, &score);
    export_and_reimport(&a, dir.path(), &t, "team-rr");
}

/// The C.04.6 options the regulations announce (1.2 primary score, 1.7 colour preferences),
/// set before round 1: the pairing applies them and says so, the team standings rank on the
/// announced primary score; after round 1 is paired, or in a round robin, they are refused.
#[test]
fn a_team_swiss_with_game_points_primary_and_type_b_preferences() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let (t, _) = team_event(&a, dir.path(), "GP Swiss", "swiss-team", 6, 2, 5);
    a.ok(&[
        "team",
        "rules",
        &t,
        "--colour-preferences",
        "type-b",
        "--primary",
        "gp",
    ]);
    let list = a.json(&["team", "list", &t]);
    assert_eq!(list["colour_preferences"], "type-b");
    assert_eq!(list["primary_score"], "gp");
    a.ok(&["round", "pair", &t, "1"]);
    let explained = a.ok(&["round", "explain", &t, "1"]);
    assert!(
        explained.contains("game points primary, Type B colour preferences"),
        "{explained}"
    );
    let o = a.refused(&["team", "rules", &t, "--colour-preferences", "type-a"]);
    assert!(
        o.contains("colour_preferences") && o.contains("before round 1"),
        "{o}"
    );
    a.ok(&["round", "publish", &t, "1"]);
    let p = a.json(&["round", "show", &t, "1"]);
    let sheet: String = p["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| format!("{} 1-0\n", b["board"]))
        .collect();
    let file = dir.path().join("r1.txt");
    std::fs::write(&file, sheet).unwrap();
    a.ok(&["result", "set", &t, "1", "--file", file.to_str().unwrap()]);
    let s = a.json(&["standings", &t, "--teams"]);
    assert_eq!(s["primary"], "GP", "{s}");

    let (rr, _) = team_event(&a, dir.path(), "League", "team-round-robin", 4, 2, 3);
    let o = a.refused(&["team", "rules", &rr, "--primary", "gp"]);
    assert!(o.contains("for a Swiss team tournament"), "{o}");
}

/// A public team tournament on the pages: the round page lists the matches with the teams'
/// names above the boards, the standings page ranks the teams with MP and GP.
#[test]
fn a_public_team_tournament_shows_its_matches_and_team_standings() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _server, http) = Arbiter::embedded_http(dir.path());
    let (t, _) = team_event(&a, dir.path(), "Public League", "team-round-robin", 4, 2, 3);
    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    let file = dir.path().join("r1.txt");
    std::fs::write(&file, "1 1-0\n2 1/2\n3 0-1\n4 1-0\n").unwrap();
    a.ok(&["result", "set", &t, "1", "--file", file.to_str().unwrap()]);
    a.ok(&["access", "public", &t]);
    let round = arbiter_tests::http::get(http, &format!("/t/{t}/rounds/1"), &[]);
    assert_eq!(round.status, 200, "{}", round.text());
    let html = round.text();
    assert!(html.contains("<table id=\"matches\">"), "{html}");
    assert!(html.contains("Team 01 (1)"), "{html}");
    let standings = arbiter_tests::http::get(http, &format!("/t/{t}/standings"), &[]);
    assert_eq!(standings.status, 200, "{}", standings.text());
    let html = standings.text();
    assert!(html.contains("id=\"team-standings\""), "{html}");
    for n in 1..=4 {
        assert!(html.contains(&format!("data-team=\"{n}\"")), "{html}");
    }
    assert!(html.contains("MPvGP"), "{html}");
}
