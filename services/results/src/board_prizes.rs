//! Board prizes of a team tournament, pure (issue 43; ADR results-004): for each board of
//! the matches, the players who played on it, ranked by their tournament performance rating
//! on that board, then by percentage, then by games — as team regulations (the Olympiad's
//! among them) award the best result per board.
//!
//! Read from the record of the rounds paired here (`RoundPaired.matches`, ADR pairing-005):
//! a game counts on the match board it was played on, so a player who moved boards is ranked
//! on each board with the games played there. Only games played over the board count
//! (results `1`, `½`, `0`); forfeits, unopposed boards and games of less than one move do
//! not, as they do not count for rating. The performance is
//! `elo::rating_change_8_3::performance_rating`
//! (the average of the rated opponents' ratings + dp(p) of table 8.1.1) over the rated
//! opponents; a player who met none has no performance and ranks after those who have.
use std::collections::BTreeMap;

use arbiter_registry::roster::Roster;
use arbiter_registry::tournament::FieldError;

/// One player's result on one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardResult {
    /// Place on the board among the eligible players (0 = not eligible: too few games).
    pub rank: u32,
    pub player_id: String,
    pub tpn: u32,
    pub name: String,
    pub team_number: u32,
    pub team: String,
    /// Games played over the board on this board.
    pub games: u32,
    /// Their points, in half points.
    pub half_points: u32,
    /// Percentage in hundredths of a percent (e.g. 7500 = 75 %).
    pub percentage: u32,
    /// Tournament performance rating over the rated opponents on this board.
    pub performance: Option<i64>,
    /// Rated opponents counted in the performance.
    pub rated_opponents: u32,
}

/// The board prizes: one ranking per board, board 1 first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPrizes {
    /// Games a player needs on a board to be ranked for its prize.
    pub min_games: u32,
    /// Board number → its players, eligible ones first in prize order.
    pub boards: BTreeMap<u32, Vec<BoardResult>>,
}

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// Games on a board of at least half the rounds, rounded up, unless the caller sets it.
pub fn default_min_games(rounds: u32) -> u32 {
    rounds.div_ceil(2)
}

#[derive(Default)]
struct Tally {
    games: u32,
    half_points: u32,
    rated: Vec<elo::Rating>,
    rated_half_points: u64,
}

/// The board prizes after `after_round` (0 = every paired round); `min_games` 0 = the
/// default (half the rounds counted, rounded up).
pub fn compute(
    roster: &Roster,
    after_round: u32,
    min_games: u32,
) -> Result<BoardPrizes, FieldError> {
    if roster.teams.teams.is_empty() {
        return Err(err(
            "board_prizes",
            "this tournament has no teams: board prizes are for team tournaments",
        ));
    }
    let last = if after_round == 0 {
        roster.paired_rounds
    } else {
        after_round.min(roster.paired_rounds)
    };
    let rounds: Vec<u32> = (1..=last)
        .filter(|r| {
            roster
                .record
                .pairings
                .get(r)
                .is_some_and(|p| !p.event.matches.is_empty())
        })
        .collect();
    if rounds.is_empty() && last > 0 {
        return Err(err(
            "board_prizes",
            "no team round of this tournament was paired here (board prizes read the matches of RoundPaired; a team TRF's rounds carry no board numbers)",
        ));
    }
    let min_games = if min_games == 0 {
        default_min_games(u32::try_from(rounds.len()).unwrap_or(u32::MAX))
    } else {
        min_games
    };
    let rating = |id: &str| {
        roster
            .entry(id)
            .map_or(0, |e| roster.rules.rating.of(&e.data))
    };
    let mut tally: BTreeMap<(u32, String), Tally> = BTreeMap::new();
    for r in &rounds {
        let Some(p) = roster.record.pairings.get(r) else {
            continue;
        };
        let blocks = roster.rounds.get(r);
        let code = |id: &str| {
            blocks.and_then(|b| {
                b.iter()
                    .find(|x| x.player_id == id)
                    .map(|x| x.result.clone())
            })
        };
        for m in &p.event.matches {
            for mb in m.boards.iter().filter(|b| b.board > 0) {
                let Some(game) = p.event.boards.iter().find(|b| b.board == mb.board) else {
                    continue;
                };
                for (me, them) in [
                    (&game.white_id, &game.black_id),
                    (&game.black_id, &game.white_id),
                ] {
                    let half = match code(me).as_deref() {
                        Some("1") => 2,
                        Some("=") => 1,
                        Some("0") => 0,
                        _ => continue,
                    };
                    let t = tally.entry((mb.match_board, me.clone())).or_default();
                    t.games += 1;
                    t.half_points += half;
                    if let Ok(opp) = elo::Rating::try_from(rating(them))
                        && opp > 0
                    {
                        t.rated.push(opp);
                        t.rated_half_points += u64::from(half);
                    }
                }
            }
        }
    }
    let mut boards: BTreeMap<u32, Vec<BoardResult>> = BTreeMap::new();
    for ((board, id), t) in tally {
        let team = roster.teams.team_of(&id);
        let name = roster
            .entry(&id)
            .map(|e| e.data.name.clone())
            .unwrap_or_default();
        boards.entry(board).or_default().push(BoardResult {
            rank: 0,
            tpn: roster.pairing_number(&id),
            player_id: id,
            name,
            team_number: team.map_or(0, |t| t.number),
            team: team.map(|t| t.name.clone()).unwrap_or_default(),
            games: t.games,
            half_points: t.half_points,
            percentage: t.half_points * 5_000 / t.games.max(1),
            performance: elo::rating_change_8_3::performance_rating(
                elo::Edition::default(),
                &t.rated,
                t.rated_half_points,
            ),
            rated_opponents: u32::try_from(t.rated.len()).unwrap_or(u32::MAX),
        });
    }
    for list in boards.values_mut() {
        // Eligible first; then performance (none last), percentage, games, pairing number.
        list.sort_by(|a, b| {
            (b.games >= min_games)
                .cmp(&(a.games >= min_games))
                .then(b.performance.is_some().cmp(&a.performance.is_some()))
                .then(b.performance.cmp(&a.performance))
                .then(b.percentage.cmp(&a.percentage))
                .then(b.games.cmp(&a.games))
                .then(a.tpn.cmp(&b.tpn))
        });
        // Eligible players come first: their index is their place.
        for (i, x) in list.iter_mut().enumerate() {
            if x.games < min_games {
                break;
            }
            x.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
    }
    Ok(BoardPrizes { min_games, boards })
}

/// The board prizes as JSON, for the standings document (`board_prizes`).
pub fn to_json(b: &BoardPrizes) -> serde_json::Value {
    serde_json::json!({
        "min_games": b.min_games,
        "boards": b.boards.iter().map(|(board, list)| serde_json::json!({
            "board": board,
            "players": list.iter().map(|x| serde_json::json!({
                "rank": x.rank,
                "player_id": x.player_id,
                "tpn": x.tpn,
                "name": x.name,
                "team": x.team_number,
                "team_name": x.team,
                "games": x.games,
                "points": if x.half_points % 2 == 0 { format!("{}", x.half_points / 2) } else { format!("{}.5", x.half_points / 2) },
                "percentage": format!("{}.{:02}", x.percentage / 100, x.percentage % 100),
                "performance": x.performance,
                "rated_opponents": x.rated_opponents,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
