//! The JSON shapes of `/api/v1` and their making from the RPC answers, pure: paging,
//! query values, ETags. The shapes are this API's own (documented by the OpenAPI
//! document made from these types), so a proto field rename does not change them
//! silently.
use std::collections::HashMap;

use arbiter_proto::v1 as pb;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::pages::{Cell, cells_of};
use crate::problem::{Problem, invalid};

/// Most items a page may ask for.
pub const MAX_PAGE_SIZE: usize = 1_000;
/// Items of a page when the request does not say.
pub const DEFAULT_PAGE_SIZE: usize = 100;
/// Most query parameters a request may carry (more is refused before any is read).
pub const MAX_QUERY_PARAMS: usize = 16;
/// Longest query string read (longer is refused).
pub const MAX_QUERY_BYTES: usize = 4_096;

/// A request's query, decoded; unknown names are refused by [`Query::only`].
#[derive(Debug, Clone, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Decodes `raw` (`a=1&b=x%20y`): at most [`MAX_QUERY_BYTES`] and
    /// [`MAX_QUERY_PARAMS`], each name once, UTF-8.
    pub fn parse(raw: Option<&str>) -> Result<Query, Problem> {
        let raw = raw.unwrap_or("");
        if raw.len() > MAX_QUERY_BYTES {
            return Err(invalid(
                "query",
                format!("{} bytes; at most {MAX_QUERY_BYTES}", raw.len()),
            ));
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        for part in raw.split('&').filter(|p| !p.is_empty()) {
            if pairs.len() == MAX_QUERY_PARAMS {
                return Err(invalid(
                    "query",
                    format!("more than {MAX_QUERY_PARAMS} parameters"),
                ));
            }
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let dec = |s: &str, what: &str| {
                let s = s.replace('+', " ");
                percent_encoding::percent_decode_str(&s)
                    .decode_utf8()
                    .map(|c| c.into_owned())
                    .map_err(|_| invalid(what, "not UTF-8 once percent-decoded"))
            };
            let k = dec(k, "query")?;
            let v = dec(v, &k)?;
            if pairs.iter().any(|(n, _)| *n == k) {
                return Err(invalid(&k, "given twice"));
            }
            pairs.push((k, v));
        }
        Ok(Query { pairs })
    }

    /// Refuses a parameter not in `known` (naming it and the known ones).
    pub fn only(&self, known: &[&str]) -> Result<(), Problem> {
        match self
            .pairs
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            Some((k, _)) => Err(invalid(
                &escape_name(k),
                format!(
                    "unknown query parameter; this address takes {}",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            )),
            None => Ok(()),
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A whole number (`0` when absent).
    pub fn number<T: std::str::FromStr + Default>(&self, name: &str) -> Result<T, Problem> {
        match self.get(name) {
            None | Some("") => Ok(T::default()),
            Some(v) => v.parse().map_err(|_| {
                invalid(
                    name,
                    format!("{:?} is not a whole number in range", shorten(v)),
                )
            }),
        }
    }
}

/// A name shown in a message: at most 40 characters, control characters escaped.
fn escape_name(s: &str) -> String {
    shorten(s).escape_debug().to_string()
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A path segment that must be a number (`round`, `tpn`): 1…`max`.
pub fn path_number(field: &str, value: &str, max: u32) -> Result<u32, Problem> {
    match value.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(invalid(
            field,
            format!("{:?}: a number from 1 to {max}", shorten(value)),
        )),
    }
}

/// Which slice of a list a request asks for: `page_size` (1…1,000, default 100) and
/// `page_token` (the `next_page_token` of the page before; opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// Items on the page.
    pub size: usize,
    /// Items before it.
    pub offset: usize,
}

impl Paging {
    /// From the query.
    pub fn from_query(q: &Query) -> Result<Paging, Problem> {
        let size: usize = q.number("page_size")?;
        if size > MAX_PAGE_SIZE {
            return Err(invalid(
                "page_size",
                format!("{size}: at most {MAX_PAGE_SIZE}"),
            ));
        }
        let offset = match q.get("page_token") {
            None | Some("") => 0,
            Some(t) => t
                .strip_prefix("o")
                .and_then(|n| n.parse::<usize>().ok())
                .ok_or_else(|| {
                    invalid(
                        "page_token",
                        format!(
                            "{:?} is not a token this API gave: pass back next_page_token",
                            shorten(t)
                        ),
                    )
                })?,
        };
        Ok(Paging {
            size: if size == 0 { DEFAULT_PAGE_SIZE } else { size },
            offset,
        })
    }

    /// The page of `items` and the token of the next (`None`: the last page).
    pub fn page<T>(&self, items: Vec<T>) -> (Vec<T>, Option<String>) {
        let total = items.len();
        let end = self.offset.saturating_add(self.size).min(total);
        let next = (end < total).then(|| format!("o{end}"));
        let page = items
            .into_iter()
            .skip(self.offset)
            .take(end.saturating_sub(self.offset))
            .collect();
        (page, next)
    }
}

/// The strong ETag of a body: its SHA-256 (first 128 bits, hex).
pub fn etag(body: &[u8]) -> String {
    let d = Sha256::digest(body);
    format!("\"{}\"", hex::encode(&d[..16]))
}

/// Whether an `If-None-Match` value matches `tag` (`*`, a list, weak tags compared
/// weakly as RFC 9110 says for this header).
pub fn none_match(header: &str, tag: &str) -> bool {
    let bare = tag.trim_start_matches("W/");
    header
        .split(',')
        .map(str::trim)
        .any(|t| t == "*" || t.trim_start_matches("W/") == bare)
}

/// A tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentJson {
    /// Id (UUID).
    pub id: String,
    /// Name.
    pub name: String,
    /// Place.
    pub place: String,
    /// Three-letter federation.
    pub federation: String,
    /// First day, `YYYY-MM-DD`.
    pub start_date: String,
    /// Last day, `YYYY-MM-DD`.
    pub end_date: String,
    /// Announced rounds (0 = not decided).
    pub rounds: u32,
    /// Rounds paired so far.
    pub paired_rounds: u32,
    /// Entries.
    pub players: u32,
    /// Time control as announced.
    pub time_control: String,
    /// `dutch`, `round-robin`, …
    pub pairing_system: String,
    /// Rule edition (`dutch-2026`, …).
    pub rule_edition: String,
    /// Scoring in XXS notation ("" = 1/½/0).
    pub scoring: String,
    /// Announced tie-breaks.
    pub tiebreaks: String,
    /// Chief arbiter.
    pub chief_arbiter: String,
    /// Deputy arbiters.
    pub deputy_arbiters: Vec<String>,
    /// Stream version (for `expected_version`).
    pub version: i64,
}

impl From<&pb::Tournament> for TournamentJson {
    fn from(t: &pb::Tournament) -> Self {
        TournamentJson {
            id: t.tournament_id.clone(),
            name: t.name.clone(),
            place: t.place.clone(),
            federation: t.federation.clone(),
            start_date: t.start_date.clone(),
            end_date: t.end_date.clone(),
            rounds: t.rounds,
            paired_rounds: t.paired_rounds,
            players: t.players,
            time_control: t.time_control.clone(),
            pairing_system: t.pairing_system.clone(),
            rule_edition: t.rule_edition.clone(),
            scoring: t.scoring.clone(),
            tiebreaks: t.tiebreaks.clone(),
            chief_arbiter: t.chief_arbiter.clone(),
            deputy_arbiters: t.deputy_arbiters.clone(),
            version: t.version,
        }
    }
}

/// A page of tournaments.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentPage {
    /// The tournaments, in creation order.
    pub items: Vec<TournamentJson>,
    /// Pass back as `page_token` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// The tournament page of a `ListTournaments` answer.
pub fn tournament_page(r: &pb::ListTournamentsResponse) -> TournamentPage {
    TournamentPage {
        items: r.tournaments.iter().map(TournamentJson::from).collect(),
        next_page_token: (!r.next_page_token.is_empty()).then(|| r.next_page_token.clone()),
    }
}

/// A requested bye.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ByeJson {
    /// Round.
    pub round: u32,
    /// `half`, `zero`, `full`.
    pub kind: String,
}

/// A player as `ListPlayers` answers (personal data: only for the roles that may list
/// players).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerJson {
    /// Player id.
    pub id: String,
    /// Pairing number.
    pub tpn: u32,
    /// Name.
    pub name: String,
    /// FIDE title.
    pub title: String,
    /// Federation.
    pub federation: String,
    /// FIDE id (0 = none).
    pub fide_id: u64,
    /// Standard rating.
    pub rating_standard: u32,
    /// Rapid rating.
    pub rating_rapid: u32,
    /// Blitz rating.
    pub rating_blitz: u32,
    /// `m`, `w` or "".
    pub sex: String,
    /// `YYYY/MM/DD`, `YYYY` or "".
    pub birth_date: String,
    /// Club.
    pub club: String,
    /// National id.
    pub national_id: String,
    /// National rating.
    pub national_rating: u32,
    /// First round the player can be paired in.
    pub joined_round: u32,
    /// First round of absence (0 = not withdrawn).
    pub withdrawn_from_round: u32,
    /// Requested byes of rounds not yet paired.
    pub byes: Vec<ByeJson>,
}

/// A page of players.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerPage {
    /// Players by pairing number.
    pub items: Vec<PlayerJson>,
    /// Pass back as `page_token` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// The players of a `ListPlayers` answer, by pairing number, paged.
pub fn player_page(r: &pb::ListPlayersResponse, paging: Paging) -> PlayerPage {
    let mut all: Vec<PlayerJson> = r
        .players
        .iter()
        .map(|p| {
            let d = p.data.clone().unwrap_or_default();
            PlayerJson {
                id: p.player_id.clone(),
                tpn: p.pairing_number,
                name: d.name,
                title: d.title,
                federation: d.federation,
                fide_id: d.fide_id,
                rating_standard: d.rating_standard,
                rating_rapid: d.rating_rapid,
                rating_blitz: d.rating_blitz,
                sex: d.sex,
                birth_date: d.birth_date,
                club: d.club,
                national_id: d.national_id,
                national_rating: d.national_rating,
                joined_round: p.joined_round,
                withdrawn_from_round: p.withdrawn_from_round,
                byes: p
                    .byes
                    .iter()
                    .map(|b| ByeJson {
                        round: b.round,
                        kind: b.kind.clone(),
                    })
                    .collect(),
            }
        })
        .collect();
    all.sort_by_key(|p| p.tpn);
    let (items, next_page_token) = paging.page(all);
    PlayerPage {
        items,
        next_page_token,
    }
}

/// A player on a board.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SideJson {
    /// Player id.
    pub player_id: String,
    /// Pairing number.
    pub tpn: u32,
}

/// A board of a pairing.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardJson {
    /// Board number.
    pub board: u32,
    /// White.
    pub white: SideJson,
    /// Black.
    pub black: SideJson,
}

/// A round's pairing.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairingJson {
    /// Tournament id.
    pub tournament_id: String,
    /// Round.
    pub round: u32,
    /// Published to the players.
    pub published: bool,
    /// Boards in board order.
    pub boards: Vec<BoardJson>,
    /// The pairing-allocated bye (absent: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<SideJson>,
    /// Players of the record without a board or bye.
    pub absent_player_ids: Vec<String>,
    /// Pairing system.
    pub system: String,
    /// Its edition.
    pub edition: String,
    /// Made by the engine (false: set by hand).
    pub engine_made: bool,
    /// When it was paired (µs since the Unix epoch).
    pub paired_at_micros: i64,
    /// Log position of the pairing.
    pub position: i64,
}

impl From<&pb::RoundPairingView> for PairingJson {
    fn from(v: &pb::RoundPairingView) -> Self {
        PairingJson {
            tournament_id: v.tournament_id.clone(),
            round: v.round,
            published: v.published,
            boards: v
                .boards
                .iter()
                .map(|b| BoardJson {
                    board: b.board,
                    white: SideJson {
                        player_id: b.white_id.clone(),
                        tpn: b.white_tpn,
                    },
                    black: SideJson {
                        player_id: b.black_id.clone(),
                        tpn: b.black_tpn,
                    },
                })
                .collect(),
            bye: (!v.bye_player_id.is_empty()).then(|| SideJson {
                player_id: v.bye_player_id.clone(),
                tpn: v.bye_tpn,
            }),
            absent_player_ids: v.absent_player_ids.clone(),
            system: v.system.clone(),
            edition: v.edition.clone(),
            engine_made: v.engine_made,
            paired_at_micros: v.paired_at_micros,
            position: v.position,
        }
    }
}

/// A board's result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardResultJson {
    /// Board.
    pub board: u32,
    /// White.
    pub white: SideJson,
    /// Black.
    pub black: SideJson,
    /// As recorded (`1-0`, `1/2`, `+-` …; "" = none yet).
    pub result: String,
    /// Corrections so far.
    pub corrections: u32,
    /// Board stream version (`expected_version` of a correction).
    pub version: i64,
    /// `arbiter` or `clock`.
    pub source: String,
    /// What the clock reported ("" = nothing).
    pub reported_result: String,
}

/// A round's results.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResultsJson {
    /// Tournament id.
    pub tournament_id: String,
    /// Round.
    pub round: u32,
    /// Closed (every result in).
    pub closed: bool,
    /// Its pairing is published.
    pub published: bool,
    /// Boards.
    pub boards: Vec<BoardResultJson>,
}

impl From<&pb::RoundResults> for ResultsJson {
    fn from(r: &pb::RoundResults) -> Self {
        ResultsJson {
            tournament_id: r.tournament_id.clone(),
            round: r.round,
            closed: r.closed,
            published: r.published,
            boards: r
                .boards
                .iter()
                .map(|b| BoardResultJson {
                    board: b.board,
                    white: SideJson {
                        player_id: b.white_id.clone(),
                        tpn: b.white_tpn,
                    },
                    black: SideJson {
                        player_id: b.black_id.clone(),
                        tpn: b.black_tpn,
                    },
                    result: b.result.clone(),
                    corrections: b.corrections,
                    version: b.version,
                    source: b.source.clone(),
                    reported_result: b.reported_result.clone(),
                })
                .collect(),
        }
    }
}

/// A round of a standings line (the crosstable).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CellJson {
    /// Round.
    pub round: u32,
    /// Opponent's pairing number (0 = none).
    pub opponent: u32,
    /// `w`, `b` or "".
    pub colour: String,
    /// `1`, `½`, `0`, `+`, `-` (games and forfeits), `PAB`, `F`, `H`, `Z` (byes), `-`.
    pub result: String,
}

impl From<&Cell> for CellJson {
    fn from(c: &Cell) -> Self {
        CellJson {
            round: c.round,
            opponent: c.opponent,
            colour: c.colour.clone(),
            result: c.result.clone(),
        }
    }
}

/// A line of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StandingJson {
    /// Rank.
    pub rank: u32,
    /// Shared with another line.
    pub shared: bool,
    /// Pairing number.
    pub tpn: u32,
    /// Player id.
    pub player_id: String,
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: u32,
    /// Points.
    pub points: String,
    /// Tie-break values, in the order of `tiebreaks`.
    pub tiebreaks: Vec<String>,
    /// Every round.
    pub rounds: Vec<CellJson>,
}

/// The standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StandingsJson {
    /// Tournament id.
    pub tournament_id: String,
    /// After this round.
    pub after_round: u32,
    /// Tie-breaks as applied.
    pub tiebreaks: Vec<String>,
    /// The log position they were computed at.
    pub as_of_position: i64,
    /// Lines in standing order.
    pub items: Vec<StandingJson>,
    /// Pass back as `page_token` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// The standings of a `GetStandings` answer (asked for with `format: json`, whose
/// document carries each line's rounds), paged.
pub fn standings(s: &pb::Standings, paging: Paging) -> StandingsJson {
    let cells: HashMap<u32, Vec<Cell>> = cells_of(&s.document);
    let all = s
        .rows
        .iter()
        .map(|r| StandingJson {
            rank: r.rank,
            shared: r.shared,
            tpn: r.tpn,
            player_id: r.player_id.clone(),
            name: r.name.clone(),
            rating: r.rating,
            points: r.points.clone(),
            tiebreaks: r.tiebreak_values.clone(),
            rounds: cells
                .get(&r.tpn)
                .map(|cs| cs.iter().map(CellJson::from).collect())
                .unwrap_or_default(),
        })
        .collect();
    let (items, next_page_token) = paging.page(all);
    StandingsJson {
        tournament_id: s.tournament_id.clone(),
        after_round: s.after_round,
        tiebreaks: s.tiebreaks.clone(),
        as_of_position: s.as_of_position,
        items,
        next_page_token,
    }
}

/// An event of the tournament's history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEntryJson {
    /// Global log position.
    pub position: i64,
    /// Stream.
    pub stream: String,
    /// Version in the stream.
    pub stream_version: i64,
    /// Event type.
    pub event_type: String,
    /// When (µs since the Unix epoch).
    pub recorded_at_micros: i64,
    /// Who (`NAME (p_…; token t_…)`).
    pub actor: String,
    /// The command's id.
    pub command_id: String,
    /// Why.
    pub reason: String,
    /// Rule edition.
    pub rule_edition: String,
    /// Value before.
    pub before: String,
    /// Value after.
    pub after: String,
    /// In words.
    pub summary: String,
    /// Event hash (hex).
    pub hash: String,
}

/// A page of history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryPage {
    /// Events, oldest first.
    pub items: Vec<HistoryEntryJson>,
    /// Pass back as `page_token` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// The history of a `GetHistory` answer, paged.
pub fn history(h: &pb::History, paging: Paging) -> HistoryPage {
    let all = h
        .entries
        .iter()
        .map(|e| HistoryEntryJson {
            position: e.position,
            stream: e.stream.clone(),
            stream_version: e.stream_version,
            event_type: e.event_type.clone(),
            recorded_at_micros: e.recorded_at_micros,
            actor: e.actor.clone(),
            command_id: e.command_id.clone(),
            reason: e.reason.clone(),
            rule_edition: e.rule_edition.clone(),
            before: e.before.clone(),
            after: e.after.clone(),
            summary: e.summary.clone(),
            hash: e.hash.clone(),
        })
        .collect();
    let (items, next_page_token) = paging.page(all);
    HistoryPage {
        items,
        next_page_token,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_bounded_strict_and_decoded() {
        let q = Query::parse(Some("page_size=5&tiebreaks=BH%2FC1%2CSB&x=a+b")).unwrap();
        assert_eq!(q.get("tiebreaks"), Some("BH/C1,SB"));
        assert_eq!(q.get("x"), Some("a b"));
        let e = q.only(&["page_size", "tiebreaks"]).unwrap_err();
        assert_eq!((e.status, e.field.as_deref()), (400, Some("x")));
        assert_eq!(
            Query::parse(Some("a=1&a=2")).unwrap_err().field.as_deref(),
            Some("a")
        );
        assert!(Query::parse(Some(&"a=1&".repeat(17))).is_err());
        assert!(Query::parse(Some(&"a".repeat(5000))).is_err());
        assert_eq!(
            Query::parse(Some("round=%FF"))
                .unwrap_err()
                .field
                .as_deref(),
            Some("round")
        );
        let q = Query::parse(Some("round=-1")).unwrap();
        assert_eq!(
            q.number::<u32>("round").unwrap_err().field.as_deref(),
            Some("round")
        );
        assert_eq!(path_number("round", "0", 99).unwrap_err().status, 400);
        assert_eq!(path_number("round", "3", 99).unwrap(), 3);
        assert!(path_number("round", "99999999999999999999", 99).is_err());
    }

    #[test]
    fn pages_cover_every_item_once() {
        let q = Query::parse(Some("page_size=3")).unwrap();
        let mut paging = Paging::from_query(&q).unwrap();
        let mut seen = Vec::new();
        loop {
            let (page, next) = paging.page((0..10).collect::<Vec<_>>());
            seen.extend(page);
            match next {
                Some(t) => {
                    let q = Query::parse(Some(&format!("page_size=3&page_token={t}"))).unwrap();
                    paging = Paging::from_query(&q).unwrap();
                }
                None => break,
            }
        }
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        let bad = Query::parse(Some("page_token=zz")).unwrap();
        assert_eq!(
            Paging::from_query(&bad).unwrap_err().field.as_deref(),
            Some("page_token")
        );
        let big = Query::parse(Some("page_size=1001")).unwrap();
        assert!(Paging::from_query(&big).is_err());
        let beyond = Paging {
            size: 5,
            offset: 50,
        };
        assert_eq!(beyond.page(vec![1, 2, 3]), (vec![], None));
    }

    #[test]
    fn etags_follow_the_body_and_if_none_match_reads_lists() {
        let a = etag(b"one");
        assert_eq!(a, etag(b"one"));
        assert_ne!(a, etag(b"two"));
        assert!(none_match(&a, &a));
        assert!(none_match(&format!("\"x\", W/{a}"), &a));
        assert!(none_match("*", &a));
        assert!(!none_match("\"x\"", &a));
    }
}
