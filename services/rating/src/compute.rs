//! The rating period, pure: a starting list and the period's tournaments → the next
//! list, deterministically (same inputs → byte-identical output), with each player's
//! working (FIDE's "individual calculation").
//!
//! Order is fixed so that nothing depends on arrival order: players by FIDE id,
//! tournaments by (end date, id), games by (round, White, Black). The batch
//! ([`elo::period_batch::rate_period`]) computes the list; the per-player report
//! ([`elo::rating_change_8_3::period_change`]) the working; both use the same rules:
//! the edition in force on the first day of the rating period (`Edition::in_force_on`).
//!
//! Decisions (the list file does not carry everything K needs):
//! - imported K = 10 → reached 2400; K = 20 or blank → 30 games completed; K = 40 →
//!   treated as new (0 games completed) unless the junior rule explains it;
//! - imported players not flagged `i` count as active on the imported list's month;
//! - the `i` flag (§7.2.2) follows the standard list; the floor (§7.2.1) drops a rating
//!   below 1400 to unrated; unrated players' events are pooled (§8.2, ≤ 26 months) until an
//!   initial rating is published;
//! - the one-off March 2024 adjustment is applied to the February 2024 ratings when
//!   period 2024-03 is computed from them.
use std::collections::BTreeMap;

use arbiter_proto::v1::{
    ExternalTournamentSubmitted, RatingChange, RatingKindReport, RatingListEntry, RatingListPlayer,
    RatingReportEvent, RatingReportGame, RatingTournamentReportRow, RatingUnratedEvent,
};
use elo::initial_rating_8_2::{UnratedEvent, UnratedTally, initial_rating};
use elo::k_factor_8_3_3::{BirthDate, KProfile, base_k};
use elo::march_2024_adjustment::march_2024_adjustment;
use elo::period_batch::{BatchGame, BatchPlayer, BatchResult, rate_period_8_2_4};
use elo::rating_change_8_3::{EventGames, GameStatus, OpponentGame, period_change};
use elo::rating_list_7::{FloorStatus, apply_floor, is_inactive};
use elo::{Edition, GameScore, ListMonth, RatingKind, Rules};
use prost::Message;
use sha2::{Digest, Sha256};

use crate::calendar::{
    FieldError, KINDS, kind_from_number, kind_name, kind_number, month_text, parse_month, previous,
};
use crate::intake::{BLACK_WINS, DRAW, WHITE_WINS};

/// The entry of one list.
pub fn entry(p: &RatingListPlayer, kind: RatingKind) -> Option<&RatingListEntry> {
    match kind {
        RatingKind::Standard => p.standard.as_ref(),
        RatingKind::Rapid => p.rapid.as_ref(),
        RatingKind::Blitz => p.blitz.as_ref(),
    }
}

fn entry_mut(p: &mut RatingListPlayer, kind: RatingKind) -> &mut Option<RatingListEntry> {
    match kind {
        RatingKind::Standard => &mut p.standard,
        RatingKind::Rapid => &mut p.rapid,
        RatingKind::Blitz => &mut p.blitz,
    }
}

/// The published rating of an entry (`None`: unrated).
pub fn rating_of(e: Option<&RatingListEntry>) -> Option<u16> {
    e.and_then(|e| u16::try_from(e.rating).ok())
        .filter(|r| *r > 0)
}

/// The rating a player is rated with on list `kind`: their own, or, for rapid and blitz,
/// their standard rating when they have none of their own (rapid/blitz §7.2.1).
pub fn effective_rating(p: &RatingListPlayer, kind: RatingKind) -> Option<u16> {
    rating_of(entry(p, kind)).or_else(|| {
        if kind.is_rapid_or_blitz() {
            rating_of(p.standard.as_ref())
        } else {
            None
        }
    })
}

fn profile(p: &RatingListPlayer, e: Option<&RatingListEntry>) -> KProfile {
    KProfile {
        games_before_period: e.map_or(0, |e| e.games_total),
        ever_published_2400: e.is_some_and(|e| e.ever_2400),
        ever_published_2300: e.is_some_and(|e| e.ever_2300),
        birth: (p.birth_year > 0).then_some(BirthDate {
            year: p.birth_year as i32,
            month_day: None,
        }),
    }
}

/// A starting-list player as read from a FIDE file (published fields only) → the
/// service's entry, with the K history derived from the published K (module docs).
pub fn starting_player(
    month: ListMonth,
    index: usize,
    mut p: RatingListPlayer,
) -> Result<RatingListPlayer, FieldError> {
    let field = |f: &str| format!("players[{index}].{f}");
    if p.fide_id == 0 {
        return Err(FieldError::new(field("fide_id"), "must not be 0"));
    }
    if p.name.trim().is_empty() {
        return Err(FieldError::new(
            field("name"),
            format!("FIDE id {}: must not be empty", p.fide_id),
        ));
    }
    let inactive = ratinglist::Flags::parse(&p.flags).inactive;
    for kind in KINDS {
        let slot = entry_mut(&mut p, kind);
        let Some(e) = slot.as_mut() else { continue };
        if e.rating == 0 {
            *slot = None;
            continue;
        }
        if e.rating > 3500 {
            return Err(FieldError::new(
                field(&format!("{}.rating", kind_name(kind))),
                format!("FIDE id: rating {} is out of range", e.rating),
            ));
        }
        e.ever_2400 = e.rating >= 2400 || e.k == 10;
        e.ever_2300 = e.rating >= 2300;
        e.games_total = if e.k == 40 { 0 } else { 30 };
        e.last_active = if inactive {
            String::new()
        } else {
            month_text(month)
        };
        e.pending.clear();
    }
    Ok(p)
}

/// The ratings a period starts from: the base list, with the one-off March 2024
/// adjustment when the period is 2024-03.
pub fn starting_ratings(
    period: ListMonth,
    base: &BTreeMap<u32, RatingListPlayer>,
) -> BTreeMap<u32, RatingListPlayer> {
    let mut out = base.clone();
    if period
        == (ListMonth {
            year: 2024,
            month: 3,
        })
    {
        for p in out.values_mut() {
            for kind in KINDS {
                if let Some(e) = entry_mut(p, kind).as_mut()
                    && let Ok(r) = u16::try_from(e.rating)
                    && r > 0
                {
                    e.rating = march_2024_adjustment(r).after as u32;
                }
            }
        }
    }
    out
}

/// The tournaments in rating order: end date, then id.
pub fn in_order(mut ts: Vec<&ExternalTournamentSubmitted>) -> Vec<&ExternalTournamentSubmitted> {
    ts.sort_by(|a, b| {
        (a.end_date.as_str(), a.tournament_id.as_str())
            .cmp(&(b.end_date.as_str(), b.tournament_id.as_str()))
    });
    ts
}

/// A computed list.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    /// Every player, by FIDE id.
    pub players: Vec<RatingListPlayer>,
    /// Games rated (all lists).
    pub games: u32,
    /// SHA-256 of the list (see [`list_sha256`]).
    pub sha256: String,
}

/// SHA-256 over the length-delimited protobuf of each player, in order.
pub fn list_sha256(players: &[RatingListPlayer]) -> String {
    let mut h = Sha256::new();
    for p in players {
        h.update(p.encode_length_delimited_to_vec());
    }
    hex::encode(h.finalize())
}

fn batch_result(code: u32) -> Option<BatchResult> {
    match code {
        WHITE_WINS => Some(BatchResult::WhiteWins),
        DRAW => Some(BatchResult::Draw),
        BLACK_WINS => Some(BatchResult::BlackWins),
        _ => None,
    }
}

fn tally_add(a: &UnratedTally, b: &UnratedTally) -> UnratedTally {
    UnratedTally {
        games: a.games.saturating_add(b.games),
        opponents_rating_sum: a
            .opponents_rating_sum
            .saturating_add(b.opponents_rating_sum),
        half_points: a.half_points.saturating_add(b.half_points),
    }
}

/// §8.2.4: the players of `t` who were unrated when it was played (the file's rating
/// column for the tournament's list is empty, see [`crate::intake`]) but are rated
/// (`rated_now`) on the list the period starts from. They are rated with that rating; their
/// opponents count them as unrated. Submissions made before the file's ratings were kept
/// carry no rating entry: nobody is counted unrated there.
pub fn late_rated(t: &ExternalTournamentSubmitted, rated_now: impl Fn(u32) -> bool) -> Vec<u32> {
    let Some(kind) = kind_from_number(t.kind) else {
        return Vec::new();
    };
    let mut v: Vec<u32> = t
        .players
        .iter()
        .filter(|p| entry(p, kind).is_some_and(|e| e.rating == 0) && rated_now(p.fide_id))
        .map(|p| p.fide_id)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Rules for a kind in a period producing list `period`.
pub fn rules_for(kind: RatingKind, period: ListMonth) -> Rules {
    Rules::new(
        Edition::in_force_on(kind, previous(period).list_date()),
        kind,
    )
}

/// Computes the list of `period` from `base` and the period's tournaments.
pub fn compute(
    period: ListMonth,
    base: &BTreeMap<u32, RatingListPlayer>,
    tournaments: &[&ExternalTournamentSubmitted],
) -> Result<Computed, String> {
    let mut map = starting_ratings(period, base);
    let tournaments = in_order(tournaments.to_vec());
    for t in &tournaments {
        for p in &t.players {
            map.entry(p.fide_id).or_insert_with(|| RatingListPlayer {
                standard: None,
                rapid: None,
                blitz: None,
                flags: String::new(),
                ..p.clone()
            });
        }
        for g in &t.games {
            for id in [g.white, g.black] {
                map.entry(id).or_insert_with(|| RatingListPlayer {
                    fide_id: id,
                    ..Default::default()
                });
            }
        }
    }
    let mut players: Vec<RatingListPlayer> = map.into_values().collect();
    let index = |id: u32| players_index(&players, id);
    let elo_period = previous(period);
    let mut total_games = 0u32;
    let mut updated = players.clone();
    for kind in KINDS {
        let rules = rules_for(kind, period);
        let batch: Vec<BatchPlayer> = players
            .iter()
            .map(|p| BatchPlayer {
                rating: effective_rating(p, kind),
                profile: profile(p, entry(p, kind)),
            })
            .collect();
        let mut games = Vec::new();
        // per game: (White, Black) counted unrated by the opponent (§8.2.4)
        let mut unrated_for_opponent = Vec::new();
        for (ei, t) in tournaments
            .iter()
            .filter(|t| kind_from_number(t.kind) == Some(kind))
            .enumerate()
        {
            let late = late_rated(t, |id| {
                index(id).is_some_and(|i| batch[i as usize].rating.is_some())
            });
            for g in &t.games {
                unrated_for_opponent.push((
                    late.binary_search(&g.white).is_ok(),
                    late.binary_search(&g.black).is_ok(),
                ));
                let (Some(w), Some(b), Some(result)) =
                    (index(g.white), index(g.black), batch_result(g.result))
                else {
                    return Err(format!(
                        "tournament {}: game {} - {} cannot be rated",
                        t.tournament_id, g.white, g.black
                    ));
                };
                games.push(BatchGame {
                    white: w,
                    black: b,
                    result,
                    event: ei as u32,
                });
            }
        }
        total_games = total_games.saturating_add(games.len() as u32);
        let out = rate_period_8_2_4(rules, elo_period, &batch, &games, |gi, p| {
            match (games.get(gi), unrated_for_opponent.get(gi)) {
                (Some(g), Some(&(w, b))) => (w && g.white == p) || (b && g.black == p),
                _ => false,
            }
        })
        .map_err(|e| e.to_string())?;
        for ((p, o), u) in players.iter().zip(&out).zip(updated.iter_mut()) {
            let before = entry(p, kind);
            let new = match effective_rating(p, kind) {
                // rated with the standard rating (§7.2.1) but played no rated game here:
                // nothing to publish on this list
                Some(_) if rating_of(before).is_none() && o.rated_games == 0 => {
                    before.cloned().map(|mut e| {
                        e.games = 0;
                        e
                    })
                }
                Some(_) => {
                    let mut e = before.cloned().unwrap_or_default();
                    e.games = o.rated_games;
                    if o.rated_games > 0 {
                        e.games_total = e.games_total.saturating_add(o.rated_games);
                        e.last_active = month_text(period);
                        match apply_floor(rules.edition, o.rating_after.unwrap_or(0)) {
                            FloorStatus::Rated(r) => e.rating = r as u32,
                            FloorStatus::Unrated => {
                                e.rating = 0;
                                e.pending.clear();
                            }
                        }
                    }
                    Some(e)
                }
                None => {
                    let played = o.unrated_first_event.games + o.unrated_later_events.games;
                    if played == 0 {
                        before.cloned().map(|mut e| {
                            e.games = 0;
                            e
                        })
                    } else {
                        let mut e = before.cloned().unwrap_or_default();
                        let mut events: Vec<UnratedEvent> = e
                            .pending
                            .iter()
                            .filter_map(|u| {
                                Some(UnratedEvent {
                                    period: parse_month("pending", &u.period).ok()?,
                                    tally: UnratedTally {
                                        games: u.games,
                                        opponents_rating_sum: u.opponents_rating_sum,
                                        half_points: u.half_points,
                                    },
                                })
                            })
                            .collect();
                        let (first, later) = (o.unrated_first_event, o.unrated_later_events);
                        if events.is_empty() {
                            for t in [first, later] {
                                if t.games > 0 {
                                    events.push(UnratedEvent {
                                        period: elo_period,
                                        tally: t,
                                    });
                                }
                            }
                        } else {
                            events.push(UnratedEvent {
                                period: elo_period,
                                tally: tally_add(&first, &later),
                            });
                        }
                        let ir = initial_rating(rules, elo_period, &events);
                        e.games = played;
                        match ir.published {
                            Some(r) => {
                                e.rating = r as u32;
                                e.games_total = e.games_total.saturating_add(ir.working.games);
                                e.last_active = month_text(period);
                                e.pending.clear();
                            }
                            None => {
                                e.rating = 0;
                                e.pending = events
                                    .iter()
                                    .map(|u| RatingUnratedEvent {
                                        period: month_text(u.period),
                                        games: u.tally.games,
                                        opponents_rating_sum: u.tally.opponents_rating_sum,
                                        half_points: u.tally.half_points,
                                    })
                                    .collect();
                            }
                        }
                        Some(e)
                    }
                }
            };
            let new = new.map(|mut e| {
                if e.rating >= 2400 {
                    e.ever_2400 = true;
                }
                if e.rating >= 2300 {
                    e.ever_2300 = true;
                }
                e.k = match u16::try_from(e.rating) {
                    Ok(r) if r > 0 => {
                        base_k(
                            rules.edition,
                            r,
                            &profile(p, Some(&e)),
                            e.games_total,
                            period,
                        )
                        .0
                    }
                    _ => 0,
                };
                e
            });
            *entry_mut(u, kind) = new;
        }
    }
    for p in updated.iter_mut() {
        if let Some(e) = p.standard.as_ref().filter(|e| e.rating > 0) {
            let last = parse_month("last_active", &e.last_active).ok();
            let mut flags = ratinglist::Flags::parse(&p.flags);
            flags.inactive = is_inactive(period, last);
            p.flags = flags.code();
        }
    }
    players = updated;
    let sha256 = list_sha256(&players);
    Ok(Computed {
        players,
        games: total_games,
        sha256,
    })
}

fn players_index(players: &[RatingListPlayer], id: u32) -> Option<u32> {
    players
        .binary_search_by_key(&id, |p| p.fide_id)
        .ok()
        .and_then(|i| u32::try_from(i).ok())
}

/// The players whose rating changes between two lists (both sorted by FIDE id), per
/// list kind; 0 = unrated.
pub fn diff(old: &[RatingListPlayer], new: &[RatingListPlayer]) -> Vec<RatingChange> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let none = RatingListPlayer::default();
    while i < old.len() || j < new.len() {
        let (a, b) = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a.fide_id == b.fide_id => {
                i += 1;
                j += 1;
                (a, b)
            }
            (Some(a), Some(b)) if a.fide_id < b.fide_id => {
                i += 1;
                (a, &none)
            }
            (Some(a), None) => {
                i += 1;
                (a, &none)
            }
            (_, Some(b)) => {
                j += 1;
                (&none, b)
            }
            (None, None) => break,
        };
        for kind in KINDS {
            let r = |p: &RatingListPlayer| rating_of(entry(p, kind)).unwrap_or(0) as u32;
            if r(a) != r(b) {
                out.push(RatingChange {
                    fide_id: a.fide_id.max(b.fide_id),
                    name: if b.name.is_empty() {
                        a.name.clone()
                    } else {
                        b.name.clone()
                    },
                    kind: kind_number(kind),
                    old_rating: r(a),
                    new_rating: r(b),
                });
            }
        }
    }
    out
}

fn score_of(result: u32, white: bool) -> Option<GameScore> {
    let s = match batch_result(result)? {
        BatchResult::WhiteWins => GameScore::Win,
        BatchResult::Draw => GameScore::Draw,
        BatchResult::BlackWins => GameScore::Loss,
    };
    Some(if white { s } else { s.reversed() })
}

fn half(s: GameScore) -> String {
    match s {
        GameScore::Win => "1".into(),
        GameScore::Draw => "0.5".into(),
        GameScore::Loss => "0".into(),
    }
}

/// The individual calculation of one player on one list: every game with opponent,
/// opponent's rating, D, PD, score, ΔR, K and the totals. `result` is the player's
/// entry on the computed list (after the floor or an initial rating).
pub fn player_report(
    period: ListMonth,
    base: &BTreeMap<u32, RatingListPlayer>,
    tournaments: &[&ExternalTournamentSubmitted],
    fide_id: u32,
    kind: RatingKind,
    result: Option<&RatingListEntry>,
) -> Option<RatingKindReport> {
    let start = starting_ratings(period, base);
    player_report_from(period, &start, tournaments, fide_id, kind, result)
}

/// One row per player of a tournament: the tournament's part of each player's
/// calculation (rated games, score, expected score, K, K × ΣΔR), in FIDE id order.
pub fn tournament_report(
    period: ListMonth,
    base: &BTreeMap<u32, RatingListPlayer>,
    tournaments: &[&ExternalTournamentSubmitted],
    tournament_id: &str,
    list: &[RatingListPlayer],
) -> Vec<RatingTournamentReportRow> {
    let start = starting_ratings(period, base);
    let Some(t) = tournaments
        .iter()
        .find(|t| t.tournament_id == tournament_id)
    else {
        return Vec::new();
    };
    let Some(kind) = kind_from_number(t.kind) else {
        return Vec::new();
    };
    let late = late_rated(t, |id| {
        start
            .get(&id)
            .and_then(|p| effective_rating(p, kind))
            .is_some()
    });
    let mut ids: Vec<u32> = t.games.iter().flat_map(|g| [g.white, g.black]).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .filter_map(|id| {
            let result = list
                .binary_search_by_key(&id, |p| p.fide_id)
                .ok()
                .and_then(|i| list.get(i))
                .and_then(|p| entry(p, kind));
            let r = player_report_from(period, &start, tournaments, id, kind, result)?;
            let e = r.events.iter().find(|e| e.tournament_id == tournament_id)?;
            let name = start
                .get(&id)
                .map(|p| p.name.clone())
                .or_else(|| {
                    t.players
                        .iter()
                        .find(|p| p.fide_id == id)
                        .map(|p| p.name.clone())
                })
                .unwrap_or_default();
            Some(RatingTournamentReportRow {
                fide_id: id,
                name,
                rating: r.rating_before,
                games: e.games.iter().filter(|g| g.status == "rated").count() as u32,
                score: e.score.clone(),
                expected: e.expected.clone(),
                k: e.k,
                change: e.change.clone(),
                note: if r.rating_before == 0 {
                    "unrated: the games count towards an initial rating".into()
                } else if late.binary_search(&id).is_ok() {
                    "unrated when played, rated since: rated with the current rating, counted as unrated by the opponents (§8.2.4)".into()
                } else {
                    String::new()
                },
            })
        })
        .collect()
}

fn player_report_from(
    period: ListMonth,
    start: &BTreeMap<u32, RatingListPlayer>,
    tournaments: &[&ExternalTournamentSubmitted],
    fide_id: u32,
    kind: RatingKind,
    result: Option<&RatingListEntry>,
) -> Option<RatingKindReport> {
    let tournaments = in_order(tournaments.to_vec());
    let rules = rules_for(kind, period);
    let me = start.get(&fide_id);
    let name_of = |id: u32| -> String {
        start
            .get(&id)
            .map(|p| p.name.clone())
            .or_else(|| {
                tournaments
                    .iter()
                    .flat_map(|t| t.players.iter())
                    .find(|p| p.fide_id == id)
                    .map(|p| p.name.clone())
            })
            .unwrap_or_default()
    };
    let rating_in_start = |id: u32| start.get(&id).and_then(|p| effective_rating(p, kind));
    let mut events = Vec::new();
    let mut ids = Vec::new();
    // per event: the players counted unrated by their opponents (§8.2.4)
    let mut lates: Vec<Vec<u32>> = Vec::new();
    for t in tournaments
        .iter()
        .filter(|t| kind_from_number(t.kind) == Some(kind))
    {
        let late = late_rated(t, |id| rating_in_start(id).is_some());
        let games: Vec<OpponentGame> = t
            .games
            .iter()
            .filter_map(|g| {
                let (opp, white) = if g.white == fide_id {
                    (g.black, true)
                } else if g.black == fide_id {
                    (g.white, false)
                } else {
                    return None;
                };
                Some(OpponentGame {
                    opponent_id: Some(opp as u64),
                    // §8.2.4: a player rated since the event counts as unrated for us
                    opponent_rating: if late.binary_search(&opp).is_ok() {
                        None
                    } else {
                        rating_in_start(opp)
                    },
                    score: score_of(g.result, white)?,
                })
            })
            .collect();
        if !games.is_empty() {
            events.push(EventGames {
                event: t.name.clone(),
                games,
            });
            ids.push(t.tournament_id.clone());
            lates.push(late);
        }
    }
    if events.is_empty() {
        return None;
    }
    let edition = format!("{:?}", rules.edition);
    let after = rating_of(result).unwrap_or(0) as u32;
    const LATE_OPPONENT: &str =
        "not rated: the opponent was unrated when this event was played (§8.2.4)";
    let is_late = |ei: usize, id: u32| lates.get(ei).is_some_and(|l| l.binary_search(&id).is_ok());
    let Some(rating) = rating_in_start(fide_id) else {
        // unrated: the games against rated opponents feed the initial rating (§8.2)
        let mut rep_events = Vec::new();
        let (mut n, mut sum, mut hp) = (0u32, 0i64, 0u32);
        for (ei, (e, id)) in events.iter().zip(&ids).enumerate() {
            let mut games = Vec::new();
            for g in &e.games {
                let r = g.opponent_rating.unwrap_or(0);
                if r > 0 {
                    n += 1;
                    sum += r as i64;
                    hp += g.score.half_points();
                }
                games.push(RatingReportGame {
                    opponent_id: g.opponent_id.unwrap_or(0) as u32,
                    opponent_name: name_of(g.opponent_id.unwrap_or(0) as u32),
                    opponent_rating: r as u32,
                    score: half(g.score),
                    status: if r > 0 {
                        "counts for the initial rating".into()
                    } else if is_late(ei, g.opponent_id.unwrap_or(0) as u32) {
                        LATE_OPPONENT.into()
                    } else {
                        "not rated: both unrated".into()
                    },
                    ..Default::default()
                });
            }
            rep_events.push(RatingReportEvent {
                tournament_id: id.clone(),
                name: e.event.clone(),
                games,
                ..Default::default()
            });
        }
        let note = if after > 0 {
            format!("unrated: initial rating {after} published (§8.2)")
        } else {
            format!(
                "unrated: {n} game(s) against rated opponents this period (sum of their ratings {sum}, {} points); no initial rating yet (§8.2: 5 games, at least 1400)",
                hp as f64 / 2.0
            )
        };
        return Some(RatingKindReport {
            kind: kind_number(kind) as i32,
            edition,
            rating_before: 0,
            events: rep_events,
            rated_games: 0,
            change_unrounded: "0.00".into(),
            change: 0,
            rating_after: after,
            note,
        });
    };
    let me = me.cloned().unwrap_or_default();
    let w = period_change(
        rules,
        previous(period),
        rating,
        &profile(&me, entry(&me, kind)),
        &events,
    );
    let rep_events = w
        .events
        .iter()
        .zip(&ids)
        .enumerate()
        .map(|(ei, (e, id))| RatingReportEvent {
            tournament_id: id.clone(),
            name: e.event.clone(),
            k: e.k,
            k_rule: e
                .k_working
                .map(|k| match k.capped_for_games {
                    Some(n) => format!("{:?} (K {} capped: {n} games × K ≤ 700)", k.rule, k.base_k),
                    None => format!("{:?}", k.rule),
                })
                .unwrap_or_default(),
            games: e
                .games
                .iter()
                .map(|g| RatingReportGame {
                    opponent_id: g.opponent_id.unwrap_or(0) as u32,
                    opponent_name: name_of(g.opponent_id.unwrap_or(0) as u32),
                    opponent_rating: g.opponent_rating.unwrap_or(0) as u32,
                    d_actual: g.difference.map_or(0, |d| d.actual),
                    d_used: g.difference.map_or(0, |d| d.used),
                    pd: g.expected.map(|x| x.to_string()).unwrap_or_default(),
                    score: half(g.score),
                    delta: g.delta.to_string(),
                    k: g.k,
                    k_delta: g.k_delta.to_string(),
                    status: match g.status {
                        GameStatus::Rated => "rated".into(),
                        GameStatus::NotRated(_)
                            if is_late(ei, g.opponent_id.unwrap_or(0) as u32) =>
                        {
                            LATE_OPPONENT.into()
                        }
                        GameStatus::NotRated(r) => format!("not rated: {r:?}"),
                    },
                })
                .collect(),
            score: e.score.to_string(),
            expected: e.expected.to_string(),
            sum_delta: e.sum_delta.to_string(),
            change: e.change.to_string(),
        })
        .collect();
    let note = match apply_floor(rules.edition, w.rating_after) {
        FloorStatus::Unrated if w.rated_games > 0 => format!(
            "{} is below the floor: shown as unrated on the list (§7.2.1)",
            w.rating_after
        ),
        _ => String::new(),
    };
    let late_in: Vec<&str> = events
        .iter()
        .enumerate()
        .filter(|(ei, _)| is_late(*ei, fide_id))
        .map(|(_, e)| e.event.as_str())
        .collect();
    let note = if late_in.is_empty() {
        note
    } else {
        let late = format!(
            "unrated when {} was played: rated with the current rating, counted as unrated in the opponents' ratings (§8.2.4)",
            late_in.join(", ")
        );
        if note.is_empty() {
            late
        } else {
            format!("{note}; {late}")
        }
    };
    Some(RatingKindReport {
        kind: kind_number(kind) as i32,
        edition,
        rating_before: rating as u32,
        events: rep_events,
        rated_games: w.rated_games,
        change_unrounded: w.change_unrounded.to_string(),
        change: w.change,
        rating_after: after,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::RatingGame;

    fn m(y: i32, mo: u8) -> ListMonth {
        ListMonth::new(y, mo).unwrap()
    }

    fn player(id: u32, rating: u32, k: u32) -> RatingListPlayer {
        starting_player(
            m(2026, 9),
            0,
            RatingListPlayer {
                fide_id: id,
                name: format!("Player {id}"),
                birth_year: 1980,
                standard: Some(RatingListEntry {
                    rating,
                    k,
                    ..Default::default()
                }),
                ..Default::default()
            },
        )
        .unwrap()
    }

    fn tournament(id: &str, end: &str, games: &[(u32, u32, u32)]) -> ExternalTournamentSubmitted {
        ExternalTournamentSubmitted {
            tournament_id: id.into(),
            name: id.into(),
            end_date: end.into(),
            kind: 1,
            period: "2026-10".into(),
            games: games
                .iter()
                .enumerate()
                .map(|(i, &(white, black, result))| RatingGame {
                    white,
                    black,
                    result,
                    round: i as u32 + 1,
                })
                .collect(),
            ..Default::default()
        }
    }

    fn base() -> BTreeMap<u32, RatingListPlayer> {
        [
            player(1, 2000, 20),
            player(2, 1800, 20),
            player(3, 1410, 20),
        ]
        .into_iter()
        .map(|p| (p.fide_id, p))
        .collect()
    }

    #[test]
    fn hand_worked_period_is_deterministic() {
        let t = tournament("a", "2026-09-20", &[(1, 2, BLACK_WINS), (3, 2, BLACK_WINS)]);
        let c = compute(m(2026, 10), &base(), &[&t]).unwrap();
        let again = compute(m(2026, 10), &base(), &[&t]).unwrap();
        assert_eq!(c, again);
        // 2000 loses to 1800: D = 200, PD 0.76, ΔR = −0.76, K 20 → −15.2 → −15
        let p1 = c.players[0].standard.clone().unwrap();
        assert_eq!((p1.rating, p1.games, p1.games_total), (1985, 1, 31));
        // 1800 beats 2000 (+0.76) and 1410 (PD 0.91, +0.09): 20 × 0.85 = 17
        assert_eq!(c.players[1].standard.as_ref().unwrap().rating, 1817);
        // 1410 loses: 20 × −0.09 → −1.8 → −2 → 1408 (still ≥ 1400)
        assert_eq!(c.players[2].standard.as_ref().unwrap().rating, 1408);
        assert_eq!(c.games, 2);
        let d = diff(&base().into_values().collect::<Vec<_>>(), &c.players);
        assert_eq!(d.len(), 3);
        assert_eq!((d[0].old_rating, d[0].new_rating), (2000, 1985));
    }

    #[test]
    fn report_matches_the_list() {
        let t = tournament("a", "2026-09-20", &[(1, 2, BLACK_WINS), (1, 3, DRAW)]);
        let c = compute(m(2026, 10), &base(), &[&t]).unwrap();
        let r = player_report(
            m(2026, 10),
            &base(),
            &[&t],
            1,
            RatingKind::Standard,
            c.players[0].standard.as_ref(),
        )
        .unwrap();
        assert_eq!(r.rating_before, 2000);
        assert_eq!(r.events[0].games.len(), 2);
        assert_eq!(r.events[0].games[0].pd, "0.76");
        assert_eq!(
            r.events[0].games[1].d_used, 400,
            "400-point rule below 2650"
        );
        assert_eq!(
            r.rating_after as i64,
            2000 + r.change,
            "report and list agree"
        );
    }

    #[test]
    fn unrated_player_pooled_until_five_games() {
        let mut ts = Vec::new();
        for (i, opp) in [1u32, 2, 3].iter().enumerate() {
            ts.push(tournament(
                &format!("t{i}"),
                "2026-09-10",
                &[(9, *opp, DRAW)],
            ));
        }
        let refs: Vec<&ExternalTournamentSubmitted> = ts.iter().collect();
        let c = compute(m(2026, 10), &base(), &refs).unwrap();
        let nine = c.players.iter().find(|p| p.fide_id == 9).unwrap();
        let e = nine.standard.as_ref().unwrap();
        assert_eq!(e.rating, 0);
        assert_eq!(e.pending.len(), 2, "first event, then the others");
        // next period: two more games → 5 games → rated
        let next_base: BTreeMap<u32, RatingListPlayer> =
            c.players.iter().map(|p| (p.fide_id, p.clone())).collect();
        let t2 = tournament("u", "2026-10-10", &[(9, 1, DRAW), (2, 9, DRAW)]);
        let c2 = compute(m(2026, 11), &next_base, &[&t2]).unwrap();
        let nine = c2.players.iter().find(|p| p.fide_id == 9).unwrap();
        assert!(nine.standard.as_ref().unwrap().rating >= 1400, "{nine:?}");
        assert!(nine.standard.as_ref().unwrap().pending.is_empty());
    }

    #[test]
    fn inactivity_and_import_derivation() {
        let p = player(5, 2450, 10);
        let e = p.standard.as_ref().unwrap();
        assert!(e.ever_2400 && e.ever_2300);
        assert_eq!(e.last_active, "2026-09");
        let mut b = BTreeMap::new();
        b.insert(5, p);
        let c = compute(m(2027, 9), &b, &[]).unwrap();
        assert_eq!(c.players[0].flags, "i", "12 months without a game");
        let c = compute(m(2027, 8), &b, &[]).unwrap();
        assert_eq!(c.players[0].flags, "");
        assert!(
            starting_player(m(2026, 9), 3, RatingListPlayer::default())
                .unwrap_err()
                .field
                .starts_with("players[3]")
        );
    }

    #[test]
    fn floor_drops_to_unrated_and_the_diff_says_so() {
        let b: BTreeMap<u32, RatingListPlayer> = [player(1, 1405, 20), player(2, 1405, 20)]
            .into_iter()
            .map(|p| (p.fide_id, p))
            .collect();
        let t = tournament("a", "2026-09-20", &[(1, 2, BLACK_WINS)]);
        let c = compute(m(2026, 10), &b, &[&t]).unwrap();
        let e = c.players[0].standard.as_ref().unwrap();
        assert_eq!((e.rating, e.k), (0, 0), "1395 is below the floor (§7.2.1)");
        assert_eq!(c.players[1].standard.as_ref().unwrap().rating, 1415);
        let d = diff(&b.into_values().collect::<Vec<_>>(), &c.players);
        assert_eq!(
            (d[0].fide_id, d[0].old_rating, d[0].new_rating),
            (1, 1405, 0)
        );
    }

    #[test]
    fn k_changes_between_events_of_a_period_after_30_games() {
        let mut b = base();
        let e = b.get_mut(&2).unwrap().standard.as_mut().unwrap();
        e.games_total = 28;
        let t1 = tournament("a", "2026-09-05", &[(2, 1, DRAW), (2, 3, DRAW)]);
        let t2 = tournament("b", "2026-09-20", &[(2, 1, DRAW)]);
        let c = compute(m(2026, 10), &b, &[&t2, &t1]).unwrap();
        let r = player_report(
            m(2026, 10),
            &b,
            &[&t2, &t1],
            2,
            RatingKind::Standard,
            c.players[1].standard.as_ref(),
        )
        .unwrap();
        assert_eq!(r.events[0].tournament_id, "a", "events in end-date order");
        assert_eq!((r.events[0].k, r.events[1].k), (40, 20));
        assert_eq!(c.players[1].standard.as_ref().unwrap().games_total, 31);
        assert_eq!(
            c.players[1].standard.as_ref().unwrap().rating as i64,
            1800 + r.change,
            "batch and report agree"
        );
    }

    #[test]
    fn lists_are_separate_and_march_2024_is_compressed() {
        let mut t = tournament("r", "2026-09-20", &[(1, 2, WHITE_WINS)]);
        t.kind = kind_number(RatingKind::Rapid);
        let mut b = base();
        for id in [1, 2] {
            b.get_mut(&id).unwrap().rapid = Some(RatingListEntry {
                rating: 1600,
                k: 20,
                games_total: 30,
                ..Default::default()
            });
        }
        let c = compute(m(2026, 10), &b, &[&t]).unwrap();
        assert_eq!(c.players[0].standard.as_ref().unwrap().rating, 2000);
        assert_eq!(c.players[0].rapid.as_ref().unwrap().rating, 1610);
        assert_eq!(c.players[1].rapid.as_ref().unwrap().rating, 1590);

        let mut feb: BTreeMap<u32, RatingListPlayer> = BTreeMap::new();
        feb.insert(7, player(7, 1500, 20));
        let march = compute(m(2024, 3), &feb, &[]).unwrap();
        assert_eq!(march.players[0].standard.as_ref().unwrap().rating, 1700);
        let april = compute(m(2024, 4), &feb, &[]).unwrap();
        assert_eq!(april.players[0].standard.as_ref().unwrap().rating, 1500);
    }

    #[test]
    fn rapid_unrated_player_counts_with_the_standard_rating() {
        // player 2 has no rapid rating: rated with the standard 1800 (rapid/blitz §7.2.1)
        let mut t = tournament("r", "2026-09-20", &[(1, 2, WHITE_WINS)]);
        t.kind = kind_number(RatingKind::Rapid);
        let mut b = base();
        b.get_mut(&1).unwrap().rapid = Some(RatingListEntry {
            rating: 2000,
            k: 20,
            games_total: 30,
            ..Default::default()
        });
        let c = compute(m(2026, 10), &b, &[&t]).unwrap();
        // 2000 beats 1800: +0.24 × 20 → +5; 1800 (new to the rapid list, K 40): −0.24 × 40 → −10
        assert_eq!(c.players[0].rapid.as_ref().unwrap().rating, 2005);
        assert_eq!(c.players[1].rapid.as_ref().unwrap().rating, 1790);
        assert!(c.players[2].rapid.is_none(), "no game, no rapid entry");
        let r = player_report(
            m(2026, 10),
            &b,
            &[&t],
            2,
            RatingKind::Rapid,
            c.players[1].rapid.as_ref(),
        )
        .unwrap();
        assert_eq!(r.rating_before, 1800);
        assert_eq!(r.rating_after, 1790);
    }

    #[test]
    fn rated_since_the_event_8_2_4() {
        // player 2 was unrated when "a" was played (the file's rating column is empty) and
        // is 1800 on the starting list: rated with 1800, counted unrated by player 1
        let mut t = tournament("a", "2026-09-20", &[(1, 2, BLACK_WINS), (3, 2, DRAW)]);
        let file_rating = |id: u32, r: u32| RatingListPlayer {
            fide_id: id,
            name: format!("Player {id}"),
            standard: Some(RatingListEntry {
                rating: r,
                ..Default::default()
            }),
            ..Default::default()
        };
        t.players = vec![
            file_rating(1, 2000),
            file_rating(2, 0),
            file_rating(3, 1410),
        ];
        assert_eq!(late_rated(&t, |id| base().contains_key(&id)), vec![2]);
        let c = compute(m(2026, 10), &base(), &[&t]).unwrap();
        // 1 and 3: their games against 2 are not rated
        assert_eq!(c.players[0].standard.as_ref().unwrap().rating, 2000);
        assert_eq!(c.players[0].standard.as_ref().unwrap().games, 0);
        assert_eq!(c.players[2].standard.as_ref().unwrap().rating, 1410);
        // 2 (K 20): beat 2000 (PD .24, +0.76), drew 1410 (D 390, PD .91, −0.41):
        // 20 × 0.35 = +7 → 1807
        let two = c.players[1].standard.as_ref().unwrap();
        assert_eq!((two.rating, two.games), (1807, 2));
        let r1 = player_report(
            m(2026, 10),
            &base(),
            &[&t],
            1,
            RatingKind::Standard,
            c.players[0].standard.as_ref(),
        )
        .unwrap();
        assert_eq!(r1.events[0].games[0].opponent_rating, 0, "counted unrated");
        assert!(
            r1.events[0].games[0].status.starts_with("not rated"),
            "{r1:?}"
        );
        assert_eq!(r1.rating_after, 2000);
        let r2 = player_report(
            m(2026, 10),
            &base(),
            &[&t],
            2,
            RatingKind::Standard,
            c.players[1].standard.as_ref(),
        )
        .unwrap();
        assert_eq!((r2.rating_before, r2.rated_games, r2.change), (1800, 2, 7));
        assert!(r2.note.contains("unrated when a was played"), "{r2:?}");
        let rows = tournament_report(m(2026, 10), &base(), &[&t], "a", &c.players);
        assert!(rows[1].note.contains("§8.2.4"), "{rows:?}");
        assert_eq!((rows[0].games, rows[1].games), (0, 2));
        // the same file with the rating filled in: an ordinary rated game for everyone
        t.players[1].standard.as_mut().unwrap().rating = 1800;
        let plain = compute(m(2026, 10), &base(), &[&t]).unwrap();
        assert_eq!(plain.players[0].standard.as_ref().unwrap().rating, 1985);
    }

    /// Scale check (run with `--ignored --nocapture`, ideally `--release`):
    /// RATING_SCALE_PLAYERS players, 5 games each on average, 1,000 tournaments.
    #[test]
    #[ignore]
    fn scale() {
        let n: u32 = std::env::var("RATING_SCALE_PLAYERS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100_000);
        let b: BTreeMap<u32, RatingListPlayer> = (1..=n)
            .map(|id| {
                let p = player(id, 1400 + (id * 7919) % 1400, 20);
                (id, p)
            })
            .collect();
        let mut ts = Vec::new();
        let mut x: u64 = 42;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for t in 0..1000u32 {
            let games: Vec<(u32, u32, u32)> = (0..(n as usize * 5 / 2 / 1000))
                .map(|_| {
                    let w = (next() % n as u64) as u32 + 1;
                    let b = (w % n) + 1;
                    (w, b, (next() % 3) as u32 + 1)
                })
                .collect();
            ts.push(tournament(&format!("t{t:04}"), "2026-09-20", &games));
        }
        let refs: Vec<&ExternalTournamentSubmitted> = ts.iter().collect();
        let t0 = std::time::Instant::now();
        let c = compute(m(2026, 10), &b, &refs).unwrap();
        let d = diff(&b.into_values().collect::<Vec<_>>(), &c.players);
        eprintln!(
            "{n} players, {} games: computed in {:?} ({} rating changes)",
            c.games,
            t0.elapsed(),
            d.len()
        );
    }
}
