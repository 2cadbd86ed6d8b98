//! The public pages as pure functions: what the shell read (the tournament's heading, its
//! public players, the RPC answers) in, HTML out. Nothing here reads the log, the clock
//! or the request. Words come from [`crate::i18n`]; every value is escaped by the
//! template engine (auto-escaping: a name `<script>` is text). Personal data cannot reach
//! a page: [`PublicPlayer`] has no field for it (birth date, sex, club, national id,
//! e-mail), and it is built from the record by [`public_players`] (ADR http-001).
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use arbiter_proto::v1::{RoundPairingView, RoundResults, Standings, Tournament};
use minijinja::Environment;
use serde::Serialize;

use crate::i18n::{Lang, word, word_n, words};

/// The page templates (compiled in).
pub const TEMPLATES: &[(&str, &str)] = &[
    ("site.html", include_str!("../templates/site.html")),
    ("list.html", include_str!("../templates/list.html")),
    (
        "tournament.html",
        include_str!("../templates/tournament.html"),
    ),
    ("round.html", include_str!("../templates/round.html")),
    ("by_name.html", include_str!("../templates/by_name.html")),
    ("live.html", include_str!("../templates/live.html")),
    (
        "standings.html",
        include_str!("../templates/standings.html"),
    ),
    (
        "crosstable.html",
        include_str!("../templates/crosstable.html"),
    ),
    (
        "team_standings.html",
        include_str!("../templates/team_standings.html"),
    ),
    ("player.html", include_str!("../templates/player.html")),
    ("error.html", include_str!("../templates/error.html")),
];

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
        // Text is escaped for HTML text and quoted attributes (`& < > " '`); `/` is left as
        // it is (minijinja's own HTML escaping writes it `&#x2f;`, which bloats every
        // address of a 2,000-board page for nothing).
        env.set_formatter(|out, state, value| match value.as_str() {
            Some(s) if !value.is_safe() && state.auto_escape() != minijinja::AutoEscape::None => {
                out.write_str(&escape_html(s)).map_err(|_| {
                    minijinja::Error::new(minijinja::ErrorKind::WriteFailure, "page output")
                })
            }
            _ => minijinja::escape_formatter(out, state, value),
        });
        for (name, source) in TEMPLATES {
            // The set is tested (every page renders in the tests): a broken template is a
            // bug caught there, and renders as an error page, never a panic.
            if let Err(e) = env.add_template(name, source) {
                tracing::error!(template = name, error = %e, "page template");
            }
        }
        env
    })
}

/// `s` as HTML text or a quoted attribute value.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// Where and in which language a page is shown.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// The language.
    pub lang: Lang,
    /// Chosen by `?lang=` (then kept in every link), not by the browser's preference.
    pub explicit: bool,
    /// The page's path (for the language links).
    pub path: String,
    /// The site's absolute address (`https://chess.example.org`), for the QR code.
    pub base_url: String,
}

impl Site {
    /// `?lang=xx` when the language was chosen by the query, else "".
    pub fn lq(&self) -> String {
        if self.explicit {
            format!("?lang={}", self.lang.code())
        } else {
            String::new()
        }
    }
}

/// A player as the pages show them: nothing personal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PublicPlayer {
    /// Pairing number.
    pub tpn: u32,
    /// Player id.
    pub id: String,
    /// Name as entered.
    pub name: String,
    /// FIDE title ("" = none).
    pub title: String,
    /// Federation ("" = not given).
    pub federation: String,
    /// Rating (0 = unrated).
    pub rating: u32,
    /// First round the player can be paired in.
    pub joined_round: u32,
    /// First round of absence after a withdrawal (0 = none).
    pub withdrawn_from_round: u32,
    /// Requested byes by round (`half`, `zero`, `full`).
    pub byes: BTreeMap<u32, String>,
}

/// The public players of a tournament, by id.
#[derive(Debug, Clone, Default)]
pub struct Players {
    /// By player id.
    pub by_id: HashMap<String, PublicPlayer>,
    /// Team id → (number, name), for a team tournament's matches.
    pub teams: HashMap<String, (u32, String)>,
}

impl Players {
    /// The player of pairing number `tpn`.
    pub fn by_tpn(&self, tpn: u32) -> Option<&PublicPlayer> {
        self.by_id.values().find(|p| p.tpn == tpn)
    }

    fn index_by_tpn(&self) -> HashMap<u32, &PublicPlayer> {
        self.by_id.values().map(|p| (p.tpn, p)).collect()
    }
}

/// The public fields of the record's entries (pairing numbers from its order).
pub fn public_players(roster: &arbiter_registry::roster::Roster) -> Players {
    Players {
        by_id: roster
            .entries
            .iter()
            .map(|e| {
                (
                    e.player_id.clone(),
                    PublicPlayer {
                        tpn: roster.pairing_number(&e.player_id),
                        id: e.player_id.clone(),
                        name: e.data.name.clone(),
                        title: e.data.title.clone(),
                        federation: e.data.federation.clone(),
                        rating: e.data.rating_standard,
                        joined_round: e.joined_round,
                        withdrawn_from_round: e.withdrawn_from_round,
                        byes: e.byes.clone(),
                    },
                )
            })
            .collect(),
        teams: roster
            .teams
            .teams
            .iter()
            .map(|t| (t.team_id.clone(), (t.number, t.name.clone())))
            .collect(),
    }
}

#[derive(Serialize)]
struct Link {
    href: String,
    label: String,
    current: bool,
}

#[derive(Serialize)]
struct LangLink {
    href: String,
    code: &'static str,
    label: &'static str,
    current: bool,
}

#[derive(Serialize)]
struct Fact {
    label: &'static str,
    value: String,
}

/// What every page has: language, words, heading, tabs.
#[derive(Serialize)]
struct Frame {
    lang: &'static str,
    t: BTreeMap<&'static str, &'static str>,
    lq: String,
    langs: Vec<LangLink>,
    heading: String,
    tid: String,
    page_title: String,
    tabs: Vec<Link>,
}

/// Which tab of a tournament a page is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Home,
    Round(u32),
    ByName(u32),
    Live(u32),
    Standings,
    Crosstable,
    None,
}

fn frame(site: &Site, t: Option<&Tournament>, page_title: String, tab: Tab) -> Frame {
    let lang = site.lang;
    let lq = site.lq();
    let langs = Lang::ALL
        .into_iter()
        .map(|l| LangLink {
            href: format!("{}?lang={}", site.path, l.code()),
            code: l.code(),
            label: match l {
                Lang::En => "English",
                Lang::Fr => "Français",
            },
            current: l == lang,
        })
        .collect();
    let mut tabs = Vec::new();
    if let Some(t) = t {
        let base = format!("/t/{}", t.tournament_id);
        tabs.push(Link {
            href: format!("{base}{lq}"),
            label: word(lang, "tournament").into(),
            current: tab == Tab::Home,
        });
        let last = t.paired_rounds;
        if last > 0 {
            let r = match tab {
                Tab::Round(r) | Tab::ByName(r) | Tab::Live(r) => r,
                _ => last,
            };
            tabs.push(Link {
                href: format!("{base}/rounds/{r}{lq}"),
                label: word_n(lang, "round_n", r),
                current: tab == Tab::Round(r),
            });
            tabs.push(Link {
                href: format!("{base}/rounds/{r}/by-name{lq}"),
                label: word(lang, "by_name").into(),
                current: tab == Tab::ByName(r),
            });
            tabs.push(Link {
                href: format!("{base}/rounds/{r}/live{lq}"),
                label: word(lang, "live").into(),
                current: tab == Tab::Live(r),
            });
        }
        tabs.push(Link {
            href: format!("{base}/standings{lq}"),
            label: word(lang, "standings").into(),
            current: tab == Tab::Standings,
        });
        tabs.push(Link {
            href: format!("{base}/crosstable{lq}"),
            label: word(lang, "crosstable").into(),
            current: tab == Tab::Crosstable,
        });
    }
    Frame {
        lang: lang.code(),
        t: words(lang),
        lq,
        langs,
        heading: t.map(|t| t.name.clone()).unwrap_or_default(),
        tid: t.map(|t| t.tournament_id.clone()).unwrap_or_default(),
        page_title,
        tabs,
    }
}

/// Why a page was not rendered (a template bug: the set is tested).
#[derive(Debug)]
pub struct PageError(pub String);

fn render<C: Serialize>(name: &str, frame: Frame, content: C) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct Page<C> {
        #[serde(flatten)]
        frame: Frame,
        #[serde(flatten)]
        content: C,
    }
    let tmpl = environment()
        .get_template(name)
        .map_err(|e| PageError(format!("template {name}: {e}")))?;
    tmpl.render(Page { frame, content })
        .map_err(|e| PageError(format!("template {name}: {e}")))
}

fn dates(t: &Tournament) -> String {
    match (t.start_date.as_str(), t.end_date.as_str()) {
        ("", "") => String::new(),
        (s, "") | ("", s) => s.to_owned(),
        (s, e) if s == e => s.to_owned(),
        (s, e) => format!("{s} – {e}"),
    }
}

/// The tournament list.
pub fn list_page(site: &Site, tournaments: &[Tournament]) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct Item {
        id: String,
        name: String,
        dates: String,
        place: String,
        rounds: String,
    }
    #[derive(Serialize)]
    struct C {
        items: Vec<Item>,
    }
    let items = tournaments
        .iter()
        .map(|t| Item {
            id: t.tournament_id.clone(),
            name: t.name.clone(),
            dates: dates(t),
            place: t.place.clone(),
            rounds: if t.rounds > 0 {
                t.rounds.to_string()
            } else {
                String::new()
            },
        })
        .collect();
    let title = word(site.lang, "tournaments").to_owned();
    render(
        "list.html",
        frame(site, None, title, Tab::None),
        C { items },
    )
}

/// The tournament's page: its facts, its rounds, the QR code of its address.
pub fn tournament_page(
    site: &Site,
    t: &Tournament,
    published_rounds: &[u32],
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct C {
        facts: Vec<Fact>,
        round_links: Vec<Link>,
        url: String,
    }
    let lang = site.lang;
    let mut facts = Vec::new();
    let mut fact = |key: &'static str, value: String| {
        if !value.trim().is_empty() {
            facts.push(Fact {
                label: word(lang, key),
                value,
            });
        }
    };
    fact("place", t.place.clone());
    fact("dates", dates(t));
    fact("federation", t.federation.clone());
    fact(
        "rounds",
        if t.rounds > 0 {
            t.rounds.to_string()
        } else {
            String::new()
        },
    );
    fact("system", t.pairing_system.clone());
    fact("time_control", t.time_control.clone());
    fact("chief_arbiter", t.chief_arbiter.clone());
    fact("deputy_arbiters", t.deputy_arbiters.join("; "));
    fact("players", t.players.to_string());
    let lq = site.lq();
    let round_links = published_rounds
        .iter()
        .map(|r| Link {
            href: format!("/t/{}/rounds/{r}{lq}", t.tournament_id),
            label: word_n(lang, "round_n", *r),
            current: false,
        })
        .collect();
    render(
        "tournament.html",
        frame(site, Some(t), t.name.clone(), Tab::Home),
        C {
            facts,
            round_links,
            url: tournament_url(site, &t.tournament_id),
        },
    )
}

/// The absolute address of a tournament's page (what its QR code holds).
pub fn tournament_url(site: &Site, id: &str) -> String {
    format!("{}/t/{id}", site.base_url.trim_end_matches('/'))
}

/// The QR code of `text` as an SVG image (black on white, quiet zone included).
pub fn qr_svg(text: &str) -> Result<String, PageError> {
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| PageError(format!("QR code: {e}")))?;
    Ok(code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(qrcode::render::svg::Color("#000000"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .build())
}

#[derive(Debug, Clone, Default, Serialize)]
struct SideView {
    tpn: u32,
    name: String,
    title: String,
    rating: String,
    points: String,
    href: String,
}

fn player_href(site: &Site, tid: &str, tpn: u32) -> String {
    if tpn == 0 {
        String::new()
    } else {
        format!("/t/{tid}/players/{tpn}{}", site.lq())
    }
}

fn side_of(
    site: &Site,
    tid: &str,
    players: &Players,
    id: &str,
    tpn: u32,
    points: &HashMap<String, String>,
    round: u32,
) -> SideView {
    let p = players.by_id.get(id);
    let tpn = if tpn > 0 { tpn } else { p.map_or(0, |p| p.tpn) };
    SideView {
        tpn,
        name: p.map_or_else(|| format!("#{tpn}"), |p| p.name.clone()),
        title: p.map(|p| p.title.clone()).unwrap_or_default(),
        rating: p
            .filter(|p| p.rating > 0)
            .map(|p| p.rating.to_string())
            .unwrap_or_default(),
        points: points.get(id).cloned().unwrap_or_else(|| {
            if round <= 1 {
                "0".into()
            } else {
                String::new()
            }
        }),
        href: player_href(site, tid, tpn),
    }
}

/// Why a player of the record has no board in `round` (the message key).
fn unpaired_key(p: Option<&PublicPlayer>, round: u32, none: &'static str) -> &'static str {
    let Some(p) = p else {
        return none;
    };
    if p.withdrawn_from_round > 0 && p.withdrawn_from_round <= round {
        return "kind_withdrawn";
    }
    if p.joined_round > round {
        return "kind_not_entered";
    }
    match p.byes.get(&round).map(String::as_str) {
        Some("half") => "kind_half",
        Some("zero") => "kind_zero",
        Some("full") => "kind_full",
        _ => none,
    }
}

#[derive(Serialize)]
struct BoardView {
    board: u32,
    white: SideView,
    black: SideView,
    result: String,
}

#[derive(Serialize)]
struct UnpairedView {
    side: SideView,
    kind: String,
}

/// One match of a team round: the teams, the round's boards it holds, boards left empty.
#[derive(Serialize)]
struct MatchView {
    table: u32,
    first: String,
    second: String,
    boards: String,
    notes: String,
}

/// The round as the pages read it: boards with both players, the unpaired with why, and a
/// team round's matches.
struct RoundView {
    boards: Vec<BoardView>,
    unpaired: Vec<UnpairedView>,
    matches: Vec<MatchView>,
}

/// A team round's matches with the teams' names (ADR pairing-005).
fn match_views(site: &Site, view: &RoundPairingView, players: &Players) -> Vec<MatchView> {
    let team = |id: &str, number: u32| {
        players
            .teams
            .get(id)
            .map_or_else(|| format!("{number}"), |(n, name)| format!("{name} ({n})"))
    };
    let name = |id: &str| {
        players
            .by_id
            .get(id)
            .map_or_else(|| id.to_owned(), |p| format!("{} ({})", p.name, p.tpn))
    };
    view.matches
        .iter()
        .map(|m| MatchView {
            table: m.table,
            first: team(&m.first_team_id, m.first_team_number),
            second: team(&m.second_team_id, m.second_team_number),
            boards: m
                .boards
                .iter()
                .filter(|b| b.board > 0)
                .map(|b| b.board.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            notes: m
                .boards
                .iter()
                .filter(|b| b.board == 0)
                .map(|b| {
                    if b.unopposed_player_id.is_empty() {
                        word_n(site.lang, "board_empty", b.match_board)
                    } else {
                        format!(
                            "{}: {}",
                            word_n(site.lang, "board_unopposed", b.match_board),
                            name(&b.unopposed_player_id)
                        )
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
        })
        .collect()
}

fn round_view(
    site: &Site,
    t: &Tournament,
    view: &RoundPairingView,
    results: Option<&RoundResults>,
    players: &Players,
    points_before: &HashMap<String, String>,
) -> RoundView {
    let tid = &t.tournament_id;
    let lang = site.lang;
    let round = view.round;
    let side = |id: &str, tpn: u32| side_of(site, tid, players, id, tpn, points_before, round);
    let result_of: HashMap<u32, &str> = results
        .map(|r| {
            r.boards
                .iter()
                .map(|b| (b.board, b.result.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let (bye, none) = if !view.matches.is_empty() {
        ("kind_pab", "kind_not_in_lineup")
    } else if view.system.contains("round-robin") {
        ("kind_rr_bye", "kind_absent")
    } else if view.system == "knockout" {
        ("kind_ko_bye", "kind_no_game")
    } else {
        ("kind_pab", "kind_absent")
    };
    let mut unpaired = Vec::new();
    if !view.bye_player_id.is_empty() {
        unpaired.push(UnpairedView {
            side: side(&view.bye_player_id, view.bye_tpn),
            kind: word(lang, bye).into(),
        });
    }
    let mut absent: Vec<UnpairedView> = view
        .absent_player_ids
        .iter()
        .map(|id| UnpairedView {
            side: side(id, 0),
            kind: word(lang, unpaired_key(players.by_id.get(id), round, none)).into(),
        })
        .collect();
    absent.sort_by_key(|u| u.side.tpn);
    unpaired.extend(absent);
    RoundView {
        boards: view
            .boards
            .iter()
            .map(|b| BoardView {
                board: b.board,
                white: side(&b.white_id, b.white_tpn),
                black: side(&b.black_id, b.black_tpn),
                result: result_of
                    .get(&b.board)
                    .map(|r| display_result(r))
                    .unwrap_or_default(),
            })
            .collect(),
        unpaired,
        matches: match_views(site, view, players),
    }
}

/// A result as a reader writes it: `½-½` for a draw, the rest as recorded.
pub fn display_result(r: &str) -> String {
    match r {
        "1/2" | "1/2-1/2" => "½-½".into(),
        "" => String::new(),
        other => other.replace("1/2", "½"),
    }
}

/// A round's pairing by board, with its results, and the unpaired players.
pub fn round_page(
    site: &Site,
    t: &Tournament,
    view: &RoundPairingView,
    results: Option<&RoundResults>,
    players: &Players,
    points_before: &HashMap<String, String>,
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct C {
        published: bool,
        boards: Vec<BoardView>,
        unpaired: Vec<UnpairedView>,
        matches: Vec<MatchView>,
    }
    let v = round_view(site, t, view, results, players, points_before);
    render(
        "round.html",
        frame(
            site,
            Some(t),
            word_n(site.lang, "pairings_round", view.round),
            Tab::Round(view.round),
        ),
        C {
            published: view.published,
            boards: v.boards,
            unpaired: v.unpaired,
            matches: v.matches,
        },
    )
}

/// A round's pairing by name (the wall list): every player once, alphabetically (accents
/// and case folded), with board, colour and opponent, or why they have no board.
pub fn by_name_page(
    site: &Site,
    t: &Tournament,
    view: &RoundPairingView,
    results: Option<&RoundResults>,
    players: &Players,
    points_before: &HashMap<String, String>,
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct Line {
        player: SideView,
        board: String,
        colour: String,
        opponent: Option<SideView>,
        kind: String,
        result: String,
    }
    #[derive(Serialize)]
    struct C {
        published: bool,
        lines: Vec<Line>,
    }
    let lang = site.lang;
    let v = round_view(site, t, view, results, players, points_before);
    let mut lines = Vec::new();
    for b in v.boards {
        let (w, l) = split_result(&b.result);
        lines.push(Line {
            player: b.white.clone(),
            board: b.board.to_string(),
            colour: word(lang, "w").into(),
            opponent: Some(b.black.clone()),
            kind: String::new(),
            result: w,
        });
        lines.push(Line {
            player: b.black,
            board: b.board.to_string(),
            colour: word(lang, "b").into(),
            opponent: Some(b.white),
            kind: String::new(),
            result: l,
        });
    }
    for u in v.unpaired {
        lines.push(Line {
            player: u.side,
            board: String::new(),
            colour: String::new(),
            opponent: None,
            kind: u.kind,
            result: String::new(),
        });
    }
    lines.sort_by_cached_key(|l| ::render::collate::name_key(&l.player.name));
    render(
        "by_name.html",
        frame(
            site,
            Some(t),
            format!(
                "{} — {}",
                word_n(lang, "pairings_round", view.round),
                word(lang, "by_name")
            ),
            Tab::ByName(view.round),
        ),
        C {
            published: view.published,
            lines,
        },
    )
}

/// White's and Black's score of a result as shown (`1-0` → `1`, `0`).
fn split_result(r: &str) -> (String, String) {
    match r.split_once('-') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => (a.to_owned(), b.to_owned()),
        _ => (r.to_owned(), r.to_owned()),
    }
}

/// One round of a player in the standings' JSON document (`rounds` of each row).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cell {
    /// The round.
    pub round: u32,
    /// Opponent's pairing number (0 = none).
    pub opponent: u32,
    /// `w`, `b` or "".
    pub colour: String,
    /// `1`, `½`, `0`, `+`, `-`, `PAB`, `F`, `H`, `Z`, `-`.
    pub result: String,
}

/// Each player's rounds (by pairing number) from the standings' JSON document; empty
/// when the document has none or does not read.
pub fn cells_of(document: &str) -> HashMap<u32, Vec<Cell>> {
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(document) else {
        return HashMap::new();
    };
    let num = |v: &serde_json::Value| u32::try_from(v.as_u64().unwrap_or(0)).unwrap_or(0);
    doc["rows"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    let cells = r["rounds"]
                        .as_array()
                        .map(|cs| {
                            cs.iter()
                                .map(|c| Cell {
                                    round: num(&c["round"]),
                                    opponent: num(&c["opponent"]),
                                    colour: c["colour"].as_str().unwrap_or_default().to_owned(),
                                    result: c["result"].as_str().unwrap_or_default().to_owned(),
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    (num(&r["tpn"]), cells)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn standing_player(
    site: &Site,
    tid: &str,
    players: &Players,
    id: &str,
    tpn: u32,
    name: &str,
    rating: u32,
) -> SideView {
    let p = players.by_id.get(id);
    SideView {
        tpn,
        name: if name.is_empty() {
            p.map_or_else(|| format!("#{tpn}"), |p| p.name.clone())
        } else {
            name.to_owned()
        },
        title: p.map(|p| p.title.clone()).unwrap_or_default(),
        rating: if rating > 0 {
            rating.to_string()
        } else {
            String::new()
        },
        points: String::new(),
        href: player_href(site, tid, tpn),
    }
}

/// A team tournament's standings: the teams with match and game points and the team
/// tie-breaks, as `GetStandings` with `teams` answered them (its JSON document holds the
/// game points).
pub fn team_standings_page(
    site: &Site,
    t: &Tournament,
    s: &Standings,
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct Row {
        rank: String,
        number: u32,
        name: String,
        match_points: String,
        game_points: String,
        tiebreaks: Vec<String>,
    }
    #[derive(Serialize)]
    struct C {
        after_round: u32,
        tiebreaks: Vec<String>,
        rows: Vec<Row>,
    }
    let doc: serde_json::Value = serde_json::from_str(&s.document).unwrap_or_default();
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    let rows = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| Row {
            rank: format!("{}{}", r.rank, if r.shared { "=" } else { "" }),
            number: r.tpn,
            name: r.name.clone(),
            match_points: text(&doc["rows"][i]["match_points"]),
            game_points: text(&doc["rows"][i]["game_points"]),
            tiebreaks: r.tiebreak_values.clone(),
        })
        .collect();
    render(
        "team_standings.html",
        frame(
            site,
            Some(t),
            word(site.lang, "team_standings").into(),
            Tab::Standings,
        ),
        C {
            after_round: s.after_round,
            tiebreaks: s.tiebreaks.clone(),
            rows,
        },
    )
}

/// The standings with their tie-breaks, as `GetStandings` answered them.
pub fn standings_page(
    site: &Site,
    t: &Tournament,
    s: &Standings,
    players: &Players,
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct Row {
        rank: String,
        player: PlayerCols,
        points: String,
        tiebreaks: Vec<String>,
    }
    #[derive(Serialize)]
    struct PlayerCols {
        tpn: u32,
        name: String,
        title: String,
        federation: String,
        rating: String,
        href: String,
    }
    #[derive(Serialize)]
    struct C {
        after_round: u32,
        tiebreaks: Vec<String>,
        rows: Vec<Row>,
    }
    let tid = &t.tournament_id;
    let rows = s
        .rows
        .iter()
        .map(|r| {
            let v = standing_player(site, tid, players, &r.player_id, r.tpn, &r.name, r.rating);
            Row {
                rank: format!("{}{}", r.rank, if r.shared { "=" } else { "" }),
                player: PlayerCols {
                    tpn: v.tpn,
                    name: v.name,
                    title: v.title,
                    federation: players
                        .by_id
                        .get(&r.player_id)
                        .map(|p| p.federation.clone())
                        .unwrap_or_default(),
                    rating: v.rating,
                    href: v.href,
                },
                points: r.points.clone(),
                tiebreaks: r.tiebreak_values.clone(),
            }
        })
        .collect();
    let title = if s.after_round > 0 {
        word_n(site.lang, "standings_after", s.after_round)
    } else {
        word(site.lang, "standings").into()
    };
    render(
        "standings.html",
        frame(site, Some(t), title, Tab::Standings),
        C {
            after_round: s.after_round,
            tiebreaks: s.tiebreaks.clone(),
            rows,
        },
    )
}

/// The crosstable: lines in standing order numbered 1…n, each cell naming the opponent
/// by line number, colour and result (as render's wall chart, ADR render-001).
pub fn crosstable_page(
    site: &Site,
    t: &Tournament,
    s: &Standings,
    players: &Players,
) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct Line {
        line: usize,
        rank: String,
        player: SideView,
        cells: Vec<String>,
        points: String,
        tiebreaks: Vec<String>,
    }
    #[derive(Serialize)]
    struct RoundNo {
        short: String,
        label: String,
    }
    #[derive(Serialize)]
    struct C {
        round_numbers: Vec<RoundNo>,
        tiebreaks: Vec<String>,
        lines: Vec<Line>,
    }
    let tid = &t.tournament_id;
    let cells = cells_of(&s.document);
    let line_of: HashMap<u32, usize> = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.tpn, i + 1))
        .collect();
    let lines = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| Line {
            line: i + 1,
            rank: format!("{}{}", r.rank, if r.shared { "=" } else { "" }),
            player: standing_player(site, tid, players, &r.player_id, r.tpn, &r.name, r.rating),
            cells: cells
                .get(&r.tpn)
                .map(|cs| {
                    cs.iter()
                        .map(|c| match line_of.get(&c.opponent) {
                            Some(l) if c.opponent > 0 => format!("{l}{}{}", c.colour, c.result),
                            _ => c.result.clone(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            points: r.points.clone(),
            tiebreaks: r.tiebreak_values.clone(),
        })
        .collect();
    let round_numbers = (1..=s.after_round)
        .map(|r| RoundNo {
            short: format!("R{r}"),
            label: word_n(site.lang, "round_n", r),
        })
        .collect();
    render(
        "crosstable.html",
        frame(
            site,
            Some(t),
            word(site.lang, "crosstable").into(),
            Tab::Crosstable,
        ),
        C {
            round_numbers,
            tiebreaks: s.tiebreaks.clone(),
            lines,
        },
    )
}

/// Points a round's result gives, as the standings' cells write it (`1`, `½`, `0`,
/// `+`, `-`, byes), under the FIDE scoring the standings document uses.
fn cell_points(c: &Cell) -> f64 {
    match c.result.as_str() {
        "1" | "+" | "PAB" | "F" => 1.0,
        "½" | "H" => 0.5,
        _ => 0.0,
    }
}

fn fmt_points(p: f64) -> String {
    let whole = p.trunc();
    if (p - whole).abs() < f64::EPSILON {
        format!("{whole}")
    } else if whole == 0.0 {
        "½".into()
    } else {
        format!("{whole}½")
    }
}

/// A player's card: name, title, federation, rating, rank and points, and every round
/// (colour, opponent, result, points after it). `None` when the standings have no such
/// pairing number.
pub fn player_page(
    site: &Site,
    t: &Tournament,
    s: &Standings,
    players: &Players,
    tpn: u32,
) -> Option<Result<String, PageError>> {
    #[derive(Serialize)]
    struct Game {
        round: u32,
        colour: String,
        opponent: Option<SideView>,
        kind: String,
        result: String,
        points: String,
    }
    #[derive(Serialize)]
    struct C {
        facts: Vec<Fact>,
        games: Vec<Game>,
    }
    let lang = site.lang;
    let tid = &t.tournament_id;
    let row = s.rows.iter().find(|r| r.tpn == tpn)?;
    let p = players.by_id.get(&row.player_id);
    let by_tpn = players.index_by_tpn();
    let name_of = |n: u32| -> SideView {
        let row = s.rows.iter().find(|r| r.tpn == n);
        let id = row.map(|r| r.player_id.as_str()).unwrap_or_default();
        let name = row.map(|r| r.name.as_str()).unwrap_or_default();
        let mut v = standing_player(site, tid, players, id, n, name, row.map_or(0, |r| r.rating));
        if v.name.starts_with('#')
            && let Some(p) = by_tpn.get(&n)
        {
            v.name.clone_from(&p.name);
        }
        v
    };
    let mut facts = vec![Fact {
        label: word(lang, "tpn"),
        value: tpn.to_string(),
    }];
    if let Some(p) = p {
        for (key, value) in [
            ("title", p.title.clone()),
            ("federation", p.federation.clone()),
        ] {
            if !value.is_empty() {
                facts.push(Fact {
                    label: word(lang, key),
                    value,
                });
            }
        }
    }
    if row.rating > 0 {
        facts.push(Fact {
            label: word(lang, "rating"),
            value: row.rating.to_string(),
        });
    }
    facts.push(Fact {
        label: word(lang, "rank"),
        value: format!("{}{}", row.rank, if row.shared { "=" } else { "" }),
    });
    facts.push(Fact {
        label: word(lang, "points"),
        value: row.points.clone(),
    });
    let cells = cells_of(&s.document);
    let mut total = 0.0;
    let games = cells
        .get(&tpn)
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    total += cell_points(c);
                    Game {
                        round: c.round,
                        colour: match c.colour.as_str() {
                            "w" => word(lang, "w").into(),
                            "b" => word(lang, "b").into(),
                            _ => String::new(),
                        },
                        opponent: (c.opponent > 0).then(|| name_of(c.opponent)),
                        kind: match c.result.as_str() {
                            "PAB" => word(lang, "kind_pab").into(),
                            "H" => word(lang, "kind_half").into(),
                            "F" => word(lang, "kind_full").into(),
                            "Z" => word(lang, "kind_zero").into(),
                            _ => word(lang, "kind_absent").into(),
                        },
                        result: c.result.clone(),
                        points: fmt_points(total),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let title = format!("{} — {}", row.name, word(lang, "player_card"));
    Some(render(
        "player.html",
        frame(site, Some(t), title, Tab::None),
        C { facts, games },
    ))
}

/// An error page (the problem's detail, in the page's language frame).
pub fn error_page(site: &Site, title: &str, detail: &str) -> Result<String, PageError> {
    #[derive(Serialize)]
    struct C<'a> {
        detail: &'a str,
    }
    render(
        "error.html",
        frame(site, None, title.to_owned(), Tab::None),
        C { detail },
    )
}

pub mod live;
#[cfg(test)]
mod tests;
