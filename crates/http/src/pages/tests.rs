use super::*;
use arbiter_proto::v1::{BoardResult, PairedBoard, StandingRow};

const HOSTILE: &str = "<script>alert(1)</script> & 'Bob'";

fn site(lang: Lang) -> Site {
    Site {
        lang,
        explicit: lang == Lang::Fr,
        path: "/t/T1/rounds/1".into(),
        base_url: "http://chess.example.org".into(),
    }
}

fn tournament() -> Tournament {
    Tournament {
        tournament_id: "T1".into(),
        name: "Open <img src=x onerror=alert(1)>".into(),
        place: "Ennis".into(),
        start_date: "2026-02-20".into(),
        end_date: "2026-02-22".into(),
        rounds: 5,
        paired_rounds: 1,
        players: 5,
        pairing_system: "dutch".into(),
        ..Tournament::default()
    }
}

fn players(n: u32) -> Players {
    Players {
        by_id: (1..=n)
            .map(|i| {
                (
                    format!("p{i}"),
                    PublicPlayer {
                        tpn: i,
                        id: format!("p{i}"),
                        name: if i == 1 {
                            HOSTILE.into()
                        } else {
                            format!("Player{i:05}, Ann")
                        },
                        title: if i == 2 { "GM".into() } else { String::new() },
                        federation: "IRL".into(),
                        rating: 2000 + i,
                        byes: if i == n {
                            [(1, "half".to_owned())].into()
                        } else {
                            BTreeMap::new()
                        },
                        ..PublicPlayer::default()
                    },
                )
            })
            .collect(),
        teams: HashMap::new(),
    }
}

fn view(boards: u32) -> RoundPairingView {
    RoundPairingView {
        tournament_id: "T1".into(),
        round: 1,
        published: true,
        system: "dutch".into(),
        boards: (1..=boards)
            .map(|b| PairedBoard {
                board: b,
                white_id: format!("p{}", 2 * b - 1),
                black_id: format!("p{}", 2 * b),
                white_tpn: 2 * b - 1,
                black_tpn: 2 * b,
            })
            .collect(),
        absent_player_ids: vec![format!("p{}", 2 * boards + 1)],
        ..RoundPairingView::default()
    }
}

fn results(boards: u32) -> RoundResults {
    RoundResults {
        boards: (1..=boards)
            .map(|b| BoardResult {
                board: b,
                result: if b == 1 { "1/2".into() } else { String::new() },
                ..BoardResult::default()
            })
            .collect(),
        ..RoundResults::default()
    }
}

fn no_markup_from_data(html: &str) {
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img src=x"), "{html}");
    assert!(
        html.contains("&lt;script&gt;") || !html.contains("alert(1)</"),
        "{html}"
    );
}

#[test]
fn the_round_page_has_every_board_with_both_names_and_escapes_them() {
    let t = tournament();
    let p = players(5);
    let html = round_page(
        &site(Lang::En),
        &t,
        &view(2),
        Some(&results(2)),
        &p,
        &HashMap::new(),
    )
    .unwrap();
    no_markup_from_data(&html);
    assert_eq!(html.matches("<tr class=\"board\"").count(), 2);
    for i in 2..=4 {
        assert!(html.contains(&format!("Player{i:05}, Ann")), "{i}");
    }
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#x27;Bob&#x27;"));
    assert!(html.contains("½-½"));
    assert!(html.contains("half-point bye"), "player 5's requested bye");
    assert!(html.contains("href=\"/t/T1/players/3\""));
    assert!(html.contains("<html lang=\"en\">"));
}

#[test]
fn french_pages_are_in_french_and_keep_the_language_in_their_links() {
    let t = tournament();
    let html = round_page(
        &site(Lang::Fr),
        &t,
        &view(2),
        None,
        &players(5),
        &HashMap::new(),
    )
    .unwrap();
    assert!(html.contains("<html lang=\"fr\">"));
    assert!(html.contains("Appariements et résultats, ronde 1"));
    assert!(html.contains("Blancs") && html.contains("Noirs"));
    assert!(html.contains("bye d’un demi-point"));
    assert!(html.contains("/t/T1/players/3?lang=fr"));
    assert!(!html.contains(">White<"));
}

#[test]
fn the_wall_list_has_every_player_once_in_name_order() {
    let html = by_name_page(
        &site(Lang::En),
        &tournament(),
        &view(2),
        Some(&results(2)),
        &players(5),
        &HashMap::new(),
    )
    .unwrap();
    assert_eq!(html.matches("<tr class=\"player\"").count(), 5);
    let a = html.find("Player00002").unwrap();
    let b = html.find("Player00004").unwrap();
    assert!(a < b);
}

#[test]
fn standings_crosstable_and_the_players_card() {
    let t = tournament();
    let p = players(3);
    let doc = serde_json::json!({"rows": [
        {"tpn": 2, "rounds": [{"round": 1, "opponent": 1, "colour": "w", "result": "1"}]},
        {"tpn": 1, "rounds": [{"round": 1, "opponent": 2, "colour": "b", "result": "0"}]},
        {"tpn": 3, "rounds": [{"round": 1, "opponent": 0, "colour": "", "result": "PAB"}]},
    ]});
    let s = Standings {
        tournament_id: "T1".into(),
        after_round: 1,
        tiebreaks: vec!["BH/C1".into()],
        rows: vec![
            StandingRow {
                rank: 1,
                shared: true,
                tpn: 2,
                player_id: "p2".into(),
                name: "Player00002, Ann".into(),
                rating: 2002,
                points: "1".into(),
                tiebreak_values: vec!["0".into()],
            },
            StandingRow {
                rank: 1,
                shared: true,
                tpn: 3,
                player_id: "p3".into(),
                name: "Player00003, Ann".into(),
                rating: 2003,
                points: "1".into(),
                tiebreak_values: vec!["0".into()],
            },
            StandingRow {
                rank: 3,
                shared: false,
                tpn: 1,
                player_id: "p1".into(),
                name: HOSTILE.into(),
                rating: 2001,
                points: "0".into(),
                tiebreak_values: vec!["1".into()],
            },
        ],
        document: doc.to_string(),
        ..Standings::default()
    };
    let html = standings_page(&site(Lang::En), &t, &s, &p).unwrap();
    no_markup_from_data(&html);
    assert_eq!(html.matches("<tr class=\"player\"").count(), 3);
    assert!(html.contains("Standings after round 1"));
    assert!(html.contains(">1=<") && html.contains(">BH/C1<"));
    let ct = crosstable_page(&site(Lang::En), &t, &s, &p).unwrap();
    assert!(ct.contains(">3w1<"), "line 1 beat line 3 with white: {ct}");
    assert!(ct.contains(">1b0<"));
    assert!(ct.contains(">PAB<"));
    let card = player_page(&site(Lang::En), &t, &s, &p, 2)
        .unwrap()
        .unwrap();
    assert!(card.contains("Player00002, Ann — Player card"));
    assert!(card.contains("<tr class=\"game\" data-round=\"1\">"));
    no_markup_from_data(&card);
    assert!(player_page(&site(Lang::En), &t, &s, &p, 9).is_none());
}

#[test]
fn the_list_the_tournament_page_and_its_qr_code() {
    let t = tournament();
    let list = list_page(&site(Lang::En), std::slice::from_ref(&t)).unwrap();
    no_markup_from_data(&list);
    assert!(list.contains("href=\"/t/T1\""));
    let empty = list_page(&site(Lang::Fr), &[]).unwrap();
    assert!(empty.contains("Aucun tournoi public"));
    let page = tournament_page(&site(Lang::En), &t, &[1]).unwrap();
    assert!(page.contains("http://chess.example.org/t/T1"));
    assert!(page.contains("src=\"/t/T1/qr.svg\""));
    assert!(page.contains("Round 1"));
    let svg = qr_svg(&tournament_url(&site(Lang::En), "T1")).unwrap();
    assert!(svg.contains("<svg") && svg.len() > 1000);
    let err = error_page(&site(Lang::En), "Error", HOSTILE).unwrap();
    no_markup_from_data(&err);
}

#[test]
fn a_page_cannot_show_personal_data() {
    // The record's entry has every personal field; the public player keeps none of them.
    let mut roster = arbiter_registry::roster::Roster::default();
    std::sync::Arc::make_mut(&mut roster.entries).push(arbiter_registry::roster::Entry {
        player_id: "p1".into(),
        data: arbiter_proto::v1::PlayerData {
            name: "Doyle, Ann".into(),
            sex: "w".into(),
            birth_date: "2012/05/01".into(),
            club: "Secret Chess Club".into(),
            national_id: "NAT-123456".into(),
            rating_standard: 2050,
            ..Default::default()
        },
        ..Default::default()
    });
    let p = public_players(&roster);
    let shown = serde_json::to_string(&p.by_id).unwrap();
    for secret in ["2012/05/01", "Secret Chess Club", "NAT-123456", "\"w\""] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    assert!(shown.contains("Doyle, Ann"));
}

#[test]
fn a_two_thousand_board_round_renders_whole() {
    let html = round_page(
        &site(Lang::En),
        &tournament(),
        &view(2000),
        Some(&results(2000)),
        &players(4001),
        &HashMap::new(),
    )
    .unwrap();
    assert_eq!(html.matches("<tr class=\"board\"").count(), 2000);
}

/// A team round (ADR pairing-005): the matches with the teams' names above the boards, a
/// board left empty named with the player who wins it by forfeit, in both languages.
#[test]
fn a_team_round_page_names_the_matches() {
    use arbiter_proto::v1::{MatchBoard, PairedMatch};
    let t = tournament();
    let mut p = players(5);
    p.teams.insert("ta".into(), (1, "Dublin Knights".into()));
    p.teams.insert("tb".into(), (2, "Cork <b>Rooks</b>".into()));
    let mut v = view(2);
    v.matches = vec![PairedMatch {
        table: 1,
        first_team_id: "ta".into(),
        second_team_id: "tb".into(),
        first_team_number: 1,
        second_team_number: 2,
        white_team_id: "ta".into(),
        boards: vec![
            MatchBoard {
                match_board: 1,
                board: 1,
                ..MatchBoard::default()
            },
            MatchBoard {
                match_board: 2,
                board: 2,
                ..MatchBoard::default()
            },
            MatchBoard {
                match_board: 3,
                unopposed_player_id: "p5".into(),
                ..MatchBoard::default()
            },
        ],
        colour_rule: String::new(),
    }];
    let html = round_page(&site(Lang::En), &t, &v, None, &p, &HashMap::new()).unwrap();
    assert!(html.contains("<table id=\"matches\">"), "{html}");
    assert!(html.contains("Dublin Knights (1)"), "{html}");
    assert!(html.contains("Cork &lt;b&gt;Rooks&lt;/b&gt; (2)"), "{html}");
    assert!(
        html.contains("board 3 unopposed, won by forfeit: Player00005, Ann (5)"),
        "{html}"
    );
    let fr = round_page(&site(Lang::Fr), &t, &v, None, &p, &HashMap::new()).unwrap();
    assert!(
        fr.contains("Rencontres") && fr.contains("échiquier 3 sans adversaire"),
        "{fr}"
    );
}

#[test]
fn the_live_page_has_each_boards_clocks_as_they_stand_and_marks_boards_without_one() {
    let state = arbiter_proto::v1::ClockState {
        board: 1,
        round: 1,
        started: true,
        side_to_move: "black".into(),
        white_ms: 5_390_000,
        black_ms: 65_000,
        as_of_ms: 10_000,
        moves_san: vec!["e4".into(), "e5".into(), "Nf3".into()],
        ..Default::default()
    };
    let states: HashMap<u32, crate::live::LiveBoardJson> =
        [(1, crate::live::LiveBoardJson::of(&state))].into();
    let html = live::live_page(
        &site(Lang::En),
        &tournament(),
        &view(2),
        &states,
        &players(5),
        15_000,
    )
    .unwrap();
    no_markup_from_data(&html);
    // Board 1: Black's clock ran 5 s since its reading; board 2 has no clock.
    assert!(html.contains("data-board=\"1\" data-moves=\"3\" data-running=\"black\""));
    assert!(
        html.contains(">1:29:50<") && html.contains(">1:00<"),
        "{html}"
    );
    assert!(html.contains("2. Nf3"));
    assert!(html.contains("data-board=\"2\" data-moves=\"0\" data-running=\"\""));
    assert_eq!(html.matches("no clock").count(), 2);
    assert!(html.contains("data-stream=\"/api/v1/tournaments/T1/rounds/1/live\""));
    assert!(html.contains("<script src=\"/static/live.js\" defer></script>"));
    let fr = live::live_page(
        &site(Lang::Fr),
        &tournament(),
        &view(2),
        &states,
        &players(5),
        15_000,
    )
    .unwrap();
    assert!(fr.contains("Parties en direct, ronde 1") && fr.contains("sans pendule"));
}
