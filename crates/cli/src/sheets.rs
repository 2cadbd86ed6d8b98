//! The data of a printed sheet, read from the server in a few calls (never one per board):
//! the tournament (heading), its players (names, titles, ratings, federations: one
//! `ListPlayers`), the standings before the round (points: one `GetStandings`), the
//! round's pairing or results. Turned into `render::model` values; rendering is
//! crates/render's.
use std::collections::HashMap;

use arbiter_proto::v1::pairing_service_client::PairingServiceClient;
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::{
    GetPairingsRequest, GetRoundResultsRequest, GetStandingsRequest, GetTournamentRequest,
    ListPlayersRequest, RoundPairingView, RoundResults, Standings as StandingsMsg,
};
use render::model::{
    Board, Cell, Event, Pairings, Player, Side, StandingLine, Standings, Unpaired,
};

use crate::Failure;
use crate::client::Chan;

/// A player of the record, as the sheets need them.
#[derive(Debug, Clone, Default)]
pub struct Entry {
    /// Printed fields.
    pub player: Player,
    /// First round the player can be paired in.
    pub joined_round: u32,
    /// First round the player is absent from (0 = not withdrawn).
    pub withdrawn_from_round: u32,
    /// Requested byes by round: `half`, `zero`, `full`.
    pub byes: HashMap<u32, String>,
}

/// The players by id, and a note when they could not be listed (the role may not).
#[derive(Debug, Clone, Default)]
pub struct Roster {
    /// By player id.
    pub by_id: HashMap<String, Entry>,
    /// Set when the names come from the standings (no `ListPlayers` for this caller).
    pub note: Option<String>,
}

impl Roster {
    /// The printed player of `id`, else one known only by its pairing number.
    pub fn player(&self, id: &str, tpn: u32) -> Player {
        self.by_id.get(id).map_or_else(
            || Player {
                tpn,
                name: if id.is_empty() {
                    String::new()
                } else {
                    format!("#{tpn}")
                },
                ..Player::default()
            },
            |e| {
                let mut p = e.player.clone();
                if tpn > 0 {
                    p.tpn = tpn;
                }
                p
            },
        )
    }

    /// The name of `id` ("" when unknown).
    pub fn name(&self, id: &str) -> String {
        self.by_id
            .get(id)
            .map(|e| e.player.name.clone())
            .unwrap_or_default()
    }
}

/// The tournament's heading.
pub async fn event(chan: &Chan, id: &str) -> Result<Event, Failure> {
    let t = RegistryServiceClient::new(chan.clone())
        .get_tournament(GetTournamentRequest {
            tournament_id: id.to_owned(),
        })
        .await?
        .into_inner();
    Ok(Event {
        name: t.name,
        place: t.place,
        start_date: t.start_date,
        end_date: t.end_date,
        rounds: t.rounds,
    })
}

fn denied(s: &tonic::Status) -> bool {
    matches!(
        s.code(),
        tonic::Code::PermissionDenied | tonic::Code::Unauthenticated
    )
}

/// The heading, or one naming the tournament by its id when the server cannot say (a
/// standalone service without the registry): the command's own answer still prints.
pub async fn event_or_id(chan: &Chan, id: &str) -> Event {
    event(chan, id).await.unwrap_or_else(|_| Event {
        name: format!("tournament {id}"),
        ..Event::default()
    })
}

/// The players, or none with a note saying why (a standalone service without the
/// registry, a role that may not read them): the command's own answer still prints, with
/// pairing numbers for names.
pub async fn roster_or_note(chan: &Chan, id: &str) -> Roster {
    roster(chan, id).await.unwrap_or_else(|f| Roster {
        by_id: HashMap::new(),
        note: Some(format!(
            "note: no names (the players could not be read: {})",
            f.message
        )),
    })
}

/// The players: one `ListPlayers`; a caller whose role may not list players (results
/// entry, a public page) gets the names and ratings of the standings instead.
pub async fn roster(chan: &Chan, id: &str) -> Result<Roster, Failure> {
    let listed = RegistryServiceClient::new(chan.clone())
        .list_players(ListPlayersRequest {
            tournament_id: id.to_owned(),
        })
        .await;
    match listed {
        Ok(r) => Ok(Roster {
            by_id: r
                .into_inner()
                .players
                .into_iter()
                .map(|p| {
                    let d = p.data.unwrap_or_default();
                    (
                        p.player_id,
                        Entry {
                            player: Player {
                                tpn: p.pairing_number,
                                name: d.name,
                                title: d.title,
                                rating: d.rating_standard,
                                federation: d.federation,
                                sex: d.sex,
                                birth_date: d.birth_date,
                            },
                            joined_round: p.joined_round,
                            withdrawn_from_round: p.withdrawn_from_round,
                            byes: p.byes.into_iter().map(|b| (b.round, b.kind)).collect(),
                        },
                    )
                })
                .collect(),
            note: None,
        }),
        Err(s) if denied(&s) => {
            let rows = standings_msg(chan, id, 0, "", "", 0).await.ok();
            Ok(Roster {
                by_id: rows
                    .map(|s| {
                        s.rows
                            .into_iter()
                            .map(|r| {
                                (
                                    r.player_id,
                                    Entry {
                                        player: Player {
                                            tpn: r.tpn,
                                            name: r.name,
                                            rating: r.rating,
                                            ..Player::default()
                                        },
                                        ..Entry::default()
                                    },
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                note: Some(
                    "note: names from the standings (this token may not list the players: no titles or federations)"
                        .into(),
                ),
            })
        }
        Err(s) => Err(s.into()),
    }
}

/// `GetStandings` (message rows only, or the `json` document with the rounds).
pub async fn standings_msg(
    chan: &Chan,
    id: &str,
    round: u32,
    tiebreaks: &str,
    edition: &str,
    as_of: i64,
) -> Result<StandingsMsg, tonic::Status> {
    ResultsServiceClient::new(chan.clone())
        .get_standings(GetStandingsRequest {
            tournament_id: id.to_owned(),
            round,
            as_of_position: as_of,
            as_of_micros: 0,
            tiebreaks: tiebreaks.to_owned(),
            edition: edition.to_owned(),
            format: "json".into(),
            explain_player: String::new(),
            ..Default::default()
        })
        .await
        .map(tonic::Response::into_inner)
}

/// Points of every player (by id) before `round`: the standings after `round − 1`
/// ("0" for all before round 1; empty when the standings cannot be computed).
pub async fn points_before(chan: &Chan, id: &str, round: u32) -> HashMap<String, String> {
    if round <= 1 {
        return HashMap::new();
    }
    standings_msg(chan, id, round - 1, "", "", 0)
        .await
        .map(|s| {
            s.rows
                .into_iter()
                .map(|r| (r.player_id, r.points))
                .collect()
        })
        .unwrap_or_default()
}

/// The round's pairing (0 = the last paired).
pub async fn pairing_view(chan: &Chan, id: &str, round: u32) -> Result<RoundPairingView, Failure> {
    Ok(PairingServiceClient::new(chan.clone())
        .get_pairings(GetPairingsRequest {
            tournament_id: id.to_owned(),
            round,
        })
        .await?
        .into_inner())
}

/// The round's results.
pub async fn round_results(chan: &Chan, id: &str, round: u32) -> Result<RoundResults, Failure> {
    Ok(ResultsServiceClient::new(chan.clone())
        .get_round_results(GetRoundResultsRequest {
            tournament_id: id.to_owned(),
            round,
        })
        .await?
        .into_inner())
}

/// Why a player of the record has no board in `round`; `none` is the word for a player
/// with no other reason (`absent` in a Swiss, no game in a knockout's round).
fn unpaired_kind(e: Option<&Entry>, round: u32, none: &str) -> String {
    let Some(e) = e else {
        return none.into();
    };
    if e.withdrawn_from_round > 0 && e.withdrawn_from_round <= round {
        return "withdrawn".into();
    }
    if e.joined_round > round {
        return "not yet entered".into();
    }
    match e.byes.get(&round).map(String::as_str) {
        Some("half") => "half-point bye".into(),
        Some("zero") => "zero-point bye".into(),
        Some("full") => "full-point bye".into(),
        Some(other) => format!("{other} bye"),
        None => none.into(),
    }
}

/// The sheet of a round: its boards with names and points before the round, then the
/// bye and the absentees with their kind; `results` fills each board's result.
pub fn pairing_sheet(
    event: Event,
    view: &RoundPairingView,
    roster: &Roster,
    points: &HashMap<String, String>,
    results: Option<&RoundResults>,
) -> Pairings {
    let pts = |id: &str| {
        points.get(id).cloned().unwrap_or_else(|| {
            if view.round <= 1 {
                "0".into()
            } else {
                String::new()
            }
        })
    };
    let side = |id: &str, tpn: u32| Side {
        player: roster.player(id, tpn),
        points: pts(id),
    };
    let result_of: HashMap<u32, String> = results
        .map(|r| {
            r.boards
                .iter()
                .map(|b| (b.board, b.result.clone()))
                .collect()
        })
        .unwrap_or_default();
    // A round robin's bye is the table's free number; a knockout's unpaired players are
    // exempt, eliminated or waiting for the other matches, not absent.
    // A team round's unpaired players are the teams' reserves (ADR pairing-005).
    let (bye, none) = if !view.matches.is_empty() {
        ("pairing-allocated bye", "not in the line-up")
    } else if view.system.contains("round-robin") {
        ("bye (round robin)", "absent")
    } else if view.system == "knockout" {
        ("bye", "no game this round")
    } else {
        ("pairing-allocated bye", "absent")
    };
    let mut unpaired = Vec::new();
    if !view.bye_player_id.is_empty() {
        unpaired.push(Unpaired {
            side: side(&view.bye_player_id, view.bye_tpn),
            kind: bye.into(),
        });
    }
    let mut absent: Vec<Unpaired> = view
        .absent_player_ids
        .iter()
        .map(|id| {
            let tpn = roster.by_id.get(id).map_or(0, |e| e.player.tpn);
            Unpaired {
                side: side(id, tpn),
                kind: unpaired_kind(roster.by_id.get(id), view.round, none),
            }
        })
        .collect();
    absent.sort_by_key(|u| u.side.player.tpn);
    unpaired.extend(absent);
    Pairings {
        event,
        round: view.round,
        published: view.published,
        boards: view
            .boards
            .iter()
            .map(|b| Board {
                board: b.board,
                white: side(&b.white_id, b.white_tpn),
                black: side(&b.black_id, b.black_tpn),
                result: result_of.get(&b.board).cloned().unwrap_or_default(),
            })
            .collect(),
        unpaired,
    }
}

/// The standings (with each round's cells, for the crosstable) from the service's JSON
/// document, with the players' titles and federations from the roster.
pub fn standings_sheet(
    event: Event,
    s: &StandingsMsg,
    roster: &Roster,
) -> Result<Standings, Failure> {
    let doc: serde_json::Value = serde_json::from_str(&s.document).map_err(|e| Failure {
        code: 1,
        message: format!("standings: the server's JSON document does not read: {e}"),
    })?;
    let empty = Vec::new();
    let doc_rows = doc["rows"].as_array().unwrap_or(&empty);
    let cells_of: HashMap<u64, Vec<Cell>> = doc_rows
        .iter()
        .map(|r| {
            let cells = r["rounds"]
                .as_array()
                .unwrap_or(&empty)
                .iter()
                .map(|c| Cell {
                    opponent: u32::try_from(c["opponent"].as_u64().unwrap_or(0)).unwrap_or(0),
                    colour: c["colour"].as_str().unwrap_or_default().to_owned(),
                    result: c["result"].as_str().unwrap_or_default().to_owned(),
                })
                .collect();
            (r["tpn"].as_u64().unwrap_or(0), cells)
        })
        .collect();
    let lines = s
        .rows
        .iter()
        .map(|r| {
            let mut player = roster.player(&r.player_id, r.tpn);
            if player.name.is_empty() || player.name.starts_with('#') {
                player.name.clone_from(&r.name);
            }
            if r.rating > 0 {
                player.rating = r.rating;
            }
            StandingLine {
                rank: r.rank,
                shared: r.shared,
                overall_rank: r.rank,
                player,
                points: r.points.clone(),
                tiebreaks: r.tiebreak_values.clone(),
                rounds: cells_of.get(&u64::from(r.tpn)).cloned().unwrap_or_default(),
            }
        })
        .collect();
    Ok(Standings {
        event,
        after_round: s.after_round,
        tiebreaks: s.tiebreaks.clone(),
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::PairedBoard;

    fn entry(tpn: u32, name: &str) -> Entry {
        Entry {
            player: Player {
                tpn,
                name: name.into(),
                ..Player::default()
            },
            joined_round: 1,
            ..Entry::default()
        }
    }

    #[test]
    fn the_unpaired_are_listed_with_their_kind_after_the_bye() {
        let mut by_id = HashMap::new();
        by_id.insert("a".to_owned(), entry(1, "Short, Nigel"));
        by_id.insert("b".to_owned(), entry(2, "Baburin, Alex"));
        by_id.insert("c".to_owned(), entry(3, "Bye, Pab"));
        let mut half = entry(4, "Half, Point");
        half.byes.insert(2, "half".into());
        by_id.insert("d".to_owned(), half);
        let mut gone = entry(5, "Gone, Early");
        gone.withdrawn_from_round = 2;
        by_id.insert("e".to_owned(), gone);
        let mut late = entry(6, "Late, Comer");
        late.joined_round = 3;
        by_id.insert("f".to_owned(), late);
        by_id.insert("g".to_owned(), entry(7, "Not, Here"));
        let roster = Roster { by_id, note: None };
        let view = RoundPairingView {
            round: 2,
            boards: vec![PairedBoard {
                board: 1,
                white_id: "a".into(),
                black_id: "b".into(),
                white_tpn: 1,
                black_tpn: 2,
            }],
            bye_player_id: "c".into(),
            bye_tpn: 3,
            absent_player_ids: vec!["g".into(), "f".into(), "e".into(), "d".into()],
            ..RoundPairingView::default()
        };
        let points: HashMap<String, String> =
            [("a".to_owned(), "1".to_owned())].into_iter().collect();
        let p = pairing_sheet(Event::default(), &view, &roster, &points, None);
        assert_eq!(p.boards[0].white.player.name, "Short, Nigel");
        assert_eq!(p.boards[0].white.points, "1");
        let kinds: Vec<(&str, &str)> = p
            .unpaired
            .iter()
            .map(|u| (u.side.player.name.as_str(), u.kind.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("Bye, Pab", "pairing-allocated bye"),
                ("Half, Point", "half-point bye"),
                ("Gone, Early", "withdrawn"),
                ("Late, Comer", "not yet entered"),
                ("Not, Here", "absent"),
            ]
        );
    }
}
