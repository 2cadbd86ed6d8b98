//! TRF team events → [`crate::TeamCrosstable`]: the adapter between the file and the team
//! tie-break rules, following [`crate::trf_crosstable`] (errors name line and column).
//!
//! Read exactly what the team standings need:
//!
//! | record | used for |
//! |---|---|
//! | `013` (TRF16) or `310` (TRF26) | the teams and their members, in board order; the team number is the `310` number, or the position of the `013` line (1, 2, …: `013` has none) |
//! | `001` | every board game: a team's opponent in a round is the team of its players' opponents |
//! | `162` | game points per board (via [`crate::trf_crosstable::scoring`]) |
//! | `362` | match points `TW`/`TD`/`TL` (default 2 / 1 / 0) |
//! | `320` | the team PAB of each round and its MP / GP (TRF26) |
//! | `330` | matches forfeited as a whole (TRF26): `+-`, `-+`, `--` |
//!
//! Boards of a match are put together from the two teams' players in member order (or,
//! for a team and round with a TRF26 `300` line-up, in its order); a
//! player with opponent `0000` and result `+` (TRF26: a forfeit win against an undefined
//! opponent) holds a board the other team left empty. Boards missing on both sides at the
//! bottom are empty on both sides (both score a loss). Without a `320` record, a team with no
//! board in a round is the round's pairing-allocated bye when it is the only such team, else
//! absent (ADR tiebreak-009); with one, the teams it names are the PABs and every other
//! team without a board or a `330` match is absent.

use std::collections::{BTreeMap, HashMap};

use crate::team_crosstable::{
    BoardResult, PointType, Team, TeamCrosstable, TeamRoundEntry, TeamScoring,
};
use crate::trf_crosstable::{AdapterError, scoring};
use crate::{Colour, EventKind};
use trf::{Opponent, PlayerRecord, Record, ResultCode, TrfDocument};

/// How to build the team crosstable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TeamAdapterOptions {
    pub kind: EventKind,
    /// Standings after this many rounds (default: every round in the player records).
    pub rounds: Option<usize>,
    /// The primary score.
    pub primary: PointType,
    /// Some exporters write a board won by forfeit as a double forfeit (`-` on both sides)
    /// and count the point only in the player's points column (columns 81–84). With this
    /// option, a double-forfeit board of a player whose points column is higher than the
    /// results is read as a forfeit win, earliest round first; every such reading is
    /// reported in [`TrfTeamCrosstable::notes`].
    pub forfeits_from_points: bool,
}

/// The team crosstable and what was inferred.
#[derive(Debug, Clone)]
pub struct TrfTeamCrosstable {
    pub crosstable: TeamCrosstable,
    /// Line of each team's record, in the order of `crosstable.teams`.
    pub team_lines: Vec<usize>,
    /// `LINE:COL: text` for every inference.
    pub notes: Vec<String>,
}

fn opponent_col(round: usize) -> usize {
    92 + 10 * (round - 1)
}
fn result_col(round: usize) -> usize {
    99 + 10 * (round - 1)
}

/// Match points of record `362` (`TW 2.0 TD 1.0 TL 0.0`), in tenths.
fn match_points(doc: &TrfDocument) -> Result<(i64, i64, i64), AdapterError> {
    let (mut w, mut d, mut l) = (20, 10, 0);
    let Some(text) = doc.header_value(trf::HeaderKind::TeamScoring) else {
        return Ok((w, d, l));
    };
    let line = doc
        .lines
        .iter()
        .position(
            |x| matches!(&x.record, Record::Header(h) if h.kind == trf::HeaderKind::TeamScoring),
        )
        .map_or(0, |x| x + 1);
    let bad = |m: String| AdapterError {
        line,
        column: 5,
        message: m,
    };
    let mut tokens = text.split_whitespace();
    while let Some(key) = tokens.next() {
        let value = tokens
            .next()
            .and_then(trf::Score::parse)
            .ok_or_else(|| bad(format!("record 362: {key} needs a number after it")))?;
        let v = i64::from(value.tenths());
        match key {
            "TW" => w = v,
            "TD" => d = v,
            "TL" => l = v,
            _ => return Err(bad(format!("record 362: unknown key {key:?} (TW, TD, TL)"))),
        }
    }
    Ok((w, d, l))
}

/// A team record: line, number, name, members, the members' columns.
type FileTeam = (usize, u32, String, Vec<u16>, Vec<usize>);

/// A match as read: opposing team index, (own, their) result per board, own board-1 colour.
type FileMatch = (usize, Vec<(BoardResult, BoardResult)>, Option<Colour>);

/// One board as seen from one team's member list.
#[derive(Clone, Copy, Debug)]
enum Item {
    /// Player `a` against player `b`, result for `a`.
    Game { a: u16, b: u16, result: BoardResult },
    /// A board won against an empty board (`0000 +`).
    Unopposed,
}

fn board_result(code: ResultCode) -> Option<BoardResult> {
    Some(match code {
        ResultCode::Win | ResultCode::UnratedWin => BoardResult::Win,
        ResultCode::Draw | ResultCode::UnratedDraw => BoardResult::Draw,
        ResultCode::Loss | ResultCode::UnratedLoss => BoardResult::Loss,
        ResultCode::ForfeitWin => BoardResult::ForfeitWin,
        ResultCode::ForfeitLoss => BoardResult::ForfeitLoss,
        _ => return None,
    })
}

/// Builds the team crosstable of `doc`.
pub fn from_trf(
    doc: &TrfDocument,
    opts: &TeamAdapterOptions,
) -> Result<TrfTeamCrosstable, AdapterError> {
    let board = scoring(doc)?;
    let (mw, md, ml) = match_points(doc)?;
    let err = |line: usize, column: usize, message: String| AdapterError {
        line,
        column,
        message,
    };
    // Players by starting rank, with their lines.
    let mut players: BTreeMap<u16, (usize, &PlayerRecord)> = BTreeMap::new();
    // Teams: (line, number, name, members, members' columns).
    let mut teams: Vec<FileTeam> = Vec::new();
    let mut team_of: HashMap<u16, usize> = HashMap::new();
    // 320: (line, MP, GP, PAB team per round); 330: (line, record).
    let mut byes: Option<(usize, &trf::TeamByeRecord)> = None;
    let mut forfeited: Vec<(usize, &trf::ForfeitedMatchRecord)> = Vec::new();
    // 300: (round, team number) → the players in board order (0 = an empty board).
    let mut lineups: HashMap<(usize, u32), Vec<u16>> = HashMap::new();
    for (x, line) in doc.lines.iter().enumerate() {
        let ln = x + 1;
        let (number, name, members, first_col) = match &line.record {
            Record::Lineup(l) => {
                if let (Some(r), Some(t)) = (l.round.get(), l.team.get()) {
                    lineups.insert(
                        (usize::from(r), u32::from(t)),
                        l.players.iter().map(|p| p.get().unwrap_or(0)).collect(),
                    );
                }
                continue;
            }
            Record::TeamBye(b) => {
                if let Some((first, _)) = byes {
                    return Err(err(
                        ln,
                        1,
                        format!("a second team-bye record 320 (the first is on line {first})"),
                    ));
                }
                byes = Some((ln, b));
                continue;
            }
            Record::ForfeitedMatch(f) => {
                forfeited.push((ln, f));
                continue;
            }
            Record::Player(p) => {
                let tpn = p.tpn().ok_or_else(|| {
                    err(
                        ln,
                        5,
                        "the starting rank (columns 5-8) is not a number".into(),
                    )
                })?;
                if let Some((first, _)) = players.insert(tpn, (ln, p)) {
                    return Err(err(
                        ln,
                        5,
                        format!("starting rank {tpn} is already used on line {first}"),
                    ));
                }
                continue;
            }
            Record::Team013(t) => (teams.len() as u32 + 1, &t.name, &t.members, 37),
            Record::Team(t) => {
                let n = t.number.get().ok_or_else(|| {
                    err(
                        ln,
                        5,
                        "the team number (columns 5-7) is not a number".into(),
                    )
                })?;
                (u32::from(n), &t.name, &t.members, 74)
            }
            _ => continue,
        };
        let t = teams.len();
        let mut list = Vec::with_capacity(members.len());
        let mut cols = Vec::with_capacity(members.len());
        for (m, f) in members.iter().enumerate() {
            let col = first_col + 5 * m;
            let id = f
                .get()
                .ok_or_else(|| err(ln, col, "a team member is not a starting rank".into()))?;
            if id == 0 {
                continue;
            }
            if let Some(&other) = team_of.get(&id) {
                return Err(err(
                    ln,
                    col,
                    format!(
                        "player {id} is already a member of the team on line {}",
                        teams[other].0
                    ),
                ));
            }
            team_of.insert(id, t);
            list.push(id);
            cols.push(col);
        }
        if teams.iter().any(|x| x.1 == number) {
            return Err(err(ln, 5, format!("team number {number} is used twice")));
        }
        teams.push((ln, number, name.clone(), list, cols));
    }
    if teams.is_empty() {
        return Err(err(0, 0, "the file has no team record (013 or 310)".into()));
    }
    for team in &teams {
        for (&m, &col) in team.3.iter().zip(&team.4) {
            if !players.contains_key(&m) {
                return Err(err(
                    team.0,
                    col,
                    format!("team member {m} has no player record (001)"),
                ));
            }
        }
    }
    let in_file = doc.rounds_in_player_records();
    let rounds = match opts.rounds {
        None => in_file,
        Some(r) if r <= in_file => r,
        Some(r) => {
            return Err(err(
                0,
                0,
                format!("--rounds {r}: the player records hold only {in_file} rounds"),
            ));
        }
    };
    let mut notes = Vec::new();
    // Results per (player, round), after the points-column reading.
    let mut result: HashMap<(u16, usize), BoardResult> = HashMap::new();
    for (&tpn, &(ln, p)) in &players {
        if !team_of.contains_key(&tpn) {
            // Not in a team: may only have unpaired rounds.
            for r in 1..=rounds {
                if let Some(Opponent::Player(_)) = p.round(r).map(|b| &b.opponent) {
                    return Err(err(
                        ln,
                        opponent_col(r),
                        format!("round {r}: player {tpn} played but is in no team (013/310)"),
                    ));
                }
            }
            continue;
        }
        let mut double_forfeits = Vec::new();
        let mut total = 0i64;
        for r in 1..=rounds {
            let Some(b) = p.round(r) else { continue };
            let code = b.result.to_char();
            match &b.opponent {
                Opponent::Invalid(text) => {
                    return Err(err(
                        ln,
                        opponent_col(r),
                        format!("round {r}: opponent {text:?} is not a starting rank"),
                    ));
                }
                Opponent::Player(o) => {
                    let o = *o;
                    let Some(&(oln, op)) = players.get(&o) else {
                        return Err(err(
                            ln,
                            opponent_col(r),
                            format!("round {r}: opponent {o} has no player record"),
                        ));
                    };
                    let res = board_result(b.result).ok_or_else(|| {
                        err(
                            ln,
                            result_col(r),
                            match b.result {
                                ResultCode::Blank => format!(
                                    "round {r}: paired against {o} but no result yet; standings \
                                     need finished rounds"
                                ),
                                _ => {
                                    format!("round {r}: result code '{code}' next to opponent {o}")
                                }
                            },
                        )
                    })?;
                    let back = op.round(r);
                    if back.map(|x| &x.opponent) != Some(&Opponent::Player(tpn)) {
                        return Err(err(
                            oln,
                            opponent_col(r),
                            format!("round {r}: player {o} does not have {tpn} as opponent"),
                        ));
                    }
                    if !team_of.contains_key(&o) {
                        return Err(err(
                            oln,
                            5,
                            format!("player {o} played in round {r} but is in no team"),
                        ));
                    }
                    if res == BoardResult::ForfeitLoss
                        && back.map(|x| x.result) == Some(ResultCode::ForfeitLoss)
                    {
                        double_forfeits.push(r);
                    }
                    total += board.points_of(res);
                    result.insert((tpn, r), res);
                }
                Opponent::Zero | Opponent::Blank => {
                    if b.result == ResultCode::ForfeitWin {
                        total += board.points_of(BoardResult::ForfeitWin);
                        result.insert((tpn, r), BoardResult::ForfeitWin);
                    }
                }
            }
        }
        if opts.forfeits_from_points
            && rounds == in_file
            && let Some(stated) = p.points.get()
        {
            let mut missing = i64::from(stated.tenths()) - total;
            let step = board.forfeit_win - board.forfeit_loss;
            for r in double_forfeits {
                if missing < step || step <= 0 {
                    break;
                }
                result.insert((tpn, r), BoardResult::ForfeitWin);
                missing -= step;
                notes.push(format!(
                    "{ln}:{}: round {r}: double forfeit read as a forfeit win for player {tpn} \
                     (points column {})",
                    result_col(r),
                    crate::Exact::of(i64::from(stated.tenths()), 10)
                ));
            }
        }
    }
    // Matches per round.
    let n = teams.len();
    let mut entries: Vec<Vec<TeamRoundEntry>> = vec![Vec::with_capacity(rounds); n];
    let mut boards_max = 1usize;
    let mut matches: Vec<Vec<Option<FileMatch>>> = vec![vec![None; n]; rounds];
    for r in 1..=rounds {
        // Items and the opposing team of every team.
        let mut items: Vec<Vec<Item>> = vec![Vec::new(); n];
        let mut against: Vec<Option<(usize, u16)>> = vec![None; n];
        for (t, team) in teams.iter().enumerate() {
            // Board order: the round's 300 line-up when the file has one (TRF26: a team
            // out of its default order), else member order.
            let mut order: Vec<u16> = team.3.clone();
            if let Some(l) = lineups.get(&(r, team.1)) {
                let at = |a: &u16| l.iter().position(|p| p == a).unwrap_or(usize::MAX);
                order.sort_by_key(at);
            }
            for &a in &order {
                let Some(&res) = result.get(&(a, r)) else {
                    continue;
                };
                let (ln, p) = players[&a];
                match p.round(r).map(|b| &b.opponent) {
                    Some(Opponent::Player(b)) => {
                        let u = team_of[b];
                        if u == t {
                            return Err(err(
                                ln,
                                opponent_col(r),
                                format!("round {r}: player {a} plays team-mate {b}"),
                            ));
                        }
                        match against[t] {
                            Some((v, first)) if v != u => {
                                return Err(err(
                                    ln,
                                    opponent_col(r),
                                    format!(
                                        "round {r}: player {a} meets team {} but team-mate {first} \
                                         meets team {}",
                                        teams[u].1, teams[v].1
                                    ),
                                ));
                            }
                            Some(_) => {}
                            None => against[t] = Some((u, a)),
                        }
                        items[t].push(Item::Game {
                            a,
                            b: *b,
                            result: res,
                        });
                    }
                    _ => items[t].push(Item::Unopposed),
                }
            }
        }
        for t in 0..n {
            let Some((u, _)) = against[t] else { continue };
            if u < t {
                continue;
            }
            let mut consumed: Vec<u16> = Vec::new();
            let (mut i, mut j) = (0, 0);
            let (ti, ui) = (&items[t], &items[u]);
            let mut boards: Vec<(BoardResult, BoardResult)> = Vec::new();
            let mut colour = None;
            loop {
                while let Some(Item::Game { a, .. }) = ui.get(j) {
                    if consumed.contains(a) {
                        j += 1;
                    } else {
                        break;
                    }
                }
                match (ti.get(i), ui.get(j)) {
                    (Some(Item::Unopposed), _) => {
                        boards.push((BoardResult::ForfeitWin, BoardResult::ForfeitLoss));
                        i += 1;
                    }
                    (_, Some(Item::Unopposed)) => {
                        boards.push((BoardResult::ForfeitLoss, BoardResult::ForfeitWin));
                        j += 1;
                    }
                    (Some(&Item::Game { a, b, result: ra }), _) => {
                        let rb = result
                            .get(&(b, r))
                            .copied()
                            .unwrap_or(BoardResult::ForfeitLoss);
                        if boards.is_empty() {
                            colour = match players[&a].1.round(r).map(|x| x.colour) {
                                Some(trf::Colour::White) => Some(Colour::White),
                                Some(trf::Colour::Black) => Some(Colour::Black),
                                _ => None,
                            };
                        }
                        use BoardResult::*;
                        let clash = matches!((ra, rb), (Win, Win) | (ForfeitWin, ForfeitWin))
                            || (matches!(ra, ForfeitWin | ForfeitLoss)
                                != matches!(rb, ForfeitWin | ForfeitLoss));
                        if clash {
                            let ln = players[&a].0;
                            return Err(err(
                                ln,
                                result_col(r),
                                format!("round {r}: the results of players {a} and {b} disagree"),
                            ));
                        }
                        boards.push((ra, rb));
                        consumed.push(b);
                        i += 1;
                    }
                    (None, Some(Item::Game { .. })) => {
                        // every game of u is also a game of t
                        j += 1;
                    }
                    (None, None) => break,
                }
            }
            boards_max = boards_max.max(boards.len());
            matches[r - 1][t] = Some((u, boards.clone(), colour));
            let mirrored = boards.iter().map(|&(x, y)| (y, x)).collect();
            matches[r - 1][u] = Some((t, mirrored, colour.map(Colour::opposite)));
        }
    }
    let index_of = |number: u32| teams.iter().position(|t| t.1 == number);
    // 330: matches forfeited as a whole.
    let mut whole: HashMap<(usize, usize), TeamRoundEntry> = HashMap::new();
    for &(ln, f) in &forfeited {
        let field = |v: Option<u16>, col: usize, what: &str| -> Result<usize, AdapterError> {
            let v =
                v.ok_or_else(|| err(ln, col, format!("record 330: the {what} is not a number")))?;
            index_of(u32::from(v)).ok_or_else(|| err(ln, col, format!("record 330: no team {v}")))
        };
        let r = f
            .round
            .get()
            .map(usize::from)
            .filter(|&r| r >= 1)
            .ok_or_else(|| err(ln, 8, "record 330: the round is not a number".into()))?;
        if r > rounds {
            continue;
        }
        let w = field(f.white_team.get(), 12, "white team")?;
        let b = field(f.black_team.get(), 16, "black team")?;
        if w == b {
            return Err(err(ln, 16, "record 330: a team against itself".into()));
        }
        for t in [w, b] {
            if matches[r - 1][t].is_some() || whole.contains_key(&(t, r)) {
                return Err(err(
                    ln,
                    if t == w { 12 } else { 16 },
                    format!(
                        "record 330: team {} already has a match in round {r}",
                        teams[t].1
                    ),
                ));
            }
        }
        let (ew, eb) = match f.kind.as_str() {
            "+-" => (
                TeamRoundEntry::ForfeitWin {
                    opponent: teams[b].1,
                },
                TeamRoundEntry::ForfeitLoss {
                    opponent: teams[w].1,
                },
            ),
            "-+" => (
                TeamRoundEntry::ForfeitLoss {
                    opponent: teams[b].1,
                },
                TeamRoundEntry::ForfeitWin {
                    opponent: teams[w].1,
                },
            ),
            "--" => (
                TeamRoundEntry::ForfeitLoss {
                    opponent: teams[b].1,
                },
                TeamRoundEntry::ForfeitLoss {
                    opponent: teams[w].1,
                },
            ),
            other => {
                return Err(err(
                    ln,
                    5,
                    format!("record 330: kind {other:?} is not +-, -+ or --"),
                ));
            }
        };
        whole.insert((w, r), ew);
        whole.insert((b, r), eb);
    }
    // 320: the PAB teams per round.
    let mut pab_points = (None, None);
    let mut pab: HashMap<usize, Vec<usize>> = HashMap::new();
    if let Some((ln, b)) = byes {
        pab_points = (
            b.match_points.get().map(|v| i64::from(v.tenths())),
            b.game_points.get().map(|v| i64::from(v.tenths())),
        );
        for (x, f) in b.teams.iter().enumerate() {
            let col = 15 + 4 * x;
            let Some(v) = f.get() else {
                return Err(err(ln, col, "record 320: a team is not a number".into()));
            };
            if v == 0 {
                continue;
            }
            let t = index_of(u32::from(v))
                .ok_or_else(|| err(ln, col, format!("record 320: no team {v}")))?;
            if x < rounds && (matches[x][t].is_some() || whole.contains_key(&(t, x + 1))) {
                return Err(err(
                    ln,
                    col,
                    format!("record 320: team {v} has a match in round {}", x + 1),
                ));
            }
            pab.entry(x + 1).or_default().push(t);
        }
    }
    for r in 1..=rounds {
        let unpaired: Vec<usize> = (0..n)
            .filter(|&t| matches[r - 1][t].is_none() && !whole.contains_key(&(t, r)))
            .collect();
        for t in 0..n {
            if let Some(e) = whole.get(&(t, r)) {
                entries[t].push(e.clone());
                continue;
            }
            let is_pab = match byes {
                Some(_) => pab.get(&r).is_some_and(|v| v.contains(&t)),
                None => unpaired.len() == 1,
            };
            let e = match &matches[r - 1][t] {
                Some((u, boards, colour)) => {
                    let mut own: Vec<BoardResult> = boards.iter().map(|b| b.0).collect();
                    own.resize(boards_max, BoardResult::ForfeitLoss);
                    TeamRoundEntry::Match {
                        opponent: teams[*u].1,
                        colour: *colour,
                        boards: own,
                    }
                }
                None if is_pab => TeamRoundEntry::PairingAllocatedBye,
                None => TeamRoundEntry::Absent,
            };
            entries[t].push(e);
        }
    }
    let crosstable = TeamCrosstable {
        kind: opts.kind,
        rounds_played: u32::try_from(rounds).unwrap_or(u32::MAX),
        boards: u32::try_from(boards_max).unwrap_or(u32::MAX),
        scoring: TeamScoring {
            units_per_point: 10,
            match_win: mw,
            match_draw: md,
            match_loss: ml,
            board_win: board.win,
            board_draw: board.draw,
            board_loss: board.loss,
            pab_match_points: pab_points.0,
            pab_game_points: pab_points.1,
        },
        primary: opts.primary,
        teams: teams
            .iter()
            .zip(entries)
            .map(|(t, entries)| Team {
                tpn: t.1,
                name: Some(t.2.clone()).filter(|s| !s.is_empty()),
                entries,
            })
            .collect(),
    };
    Ok(TrfTeamCrosstable {
        crosstable,
        team_lines: teams.iter().map(|t| t.0).collect(),
        notes,
    })
}

trait BoardPoints {
    fn points_of(&self, b: BoardResult) -> i64;
}

impl BoardPoints for crate::Scoring {
    fn points_of(&self, b: BoardResult) -> i64 {
        match b {
            BoardResult::Win => self.win,
            BoardResult::Draw => self.draw,
            BoardResult::Loss => self.loss,
            BoardResult::ForfeitWin => self.forfeit_win,
            BoardResult::ForfeitLoss => self.forfeit_loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> TrfDocument {
        trf::parse(text.as_bytes()).unwrap().doc
    }

    // Two teams of two boards, one round; board 2 of team B is empty.
    const SMALL: &str = "\
001    1      A1                                2100                             1.0    1     3 w 1
001    2      A2                                2000                             1.0    2  0000 - +
001    3      B1                                2000                             0.0    3     1 b 0
001    4      B2                                2000                             0.0    4  0000 - -
013 Team A                            1    2
013 Team B                            3    4
";

    /// TRF26 300: team A plays its second member on board 1 this round; without the record
    /// board order is member order.
    #[test]
    fn a_300_line_up_gives_the_board_order() {
        let text = "\
001    1      A1                                2100                             0.5    1     4 w =
001    2      A2                                2000                             1.0    2     3 b 1
001    3      B1                                2000                             0.0    3     2 w 0
001    4      B2                                2000                             0.5    4     1 b =
310   1 Team A                                                              1    2
310   2 Team B                                                              3    4
";
        let boards = |t: &TrfTeamCrosstable| match &t.crosstable.teams[0].entries[0] {
            TeamRoundEntry::Match { boards, .. } => boards.clone(),
            other => panic!("{other:?}"),
        };
        let member_order = from_trf(&doc(text), &TeamAdapterOptions::default()).unwrap();
        assert_eq!(
            boards(&member_order),
            vec![BoardResult::Draw, BoardResult::Win]
        );
        let with_300 = format!("{text}300   1   1   2    2    1\n");
        let t = from_trf(&doc(&with_300), &TeamAdapterOptions::default()).unwrap();
        assert_eq!(boards(&t), vec![BoardResult::Win, BoardResult::Draw]);
    }

    #[test]
    fn boards_and_empty_boards() {
        let t = from_trf(&doc(SMALL), &TeamAdapterOptions::default()).unwrap();
        let c = &t.crosstable;
        assert_eq!((c.boards, c.rounds_played), (2, 1));
        assert_eq!(
            c.teams[0].entries[0],
            TeamRoundEntry::Match {
                opponent: 2,
                colour: Some(Colour::White),
                boards: vec![BoardResult::Win, BoardResult::ForfeitWin],
            }
        );
        assert_eq!(
            c.teams[1].entries[0],
            TeamRoundEntry::Match {
                opponent: 1,
                colour: Some(Colour::Black),
                boards: vec![BoardResult::Loss, BoardResult::ForfeitLoss],
            }
        );
        assert_eq!(t.team_lines, vec![5, 6]);
    }

    #[test]
    fn errors_name_line_and_column() {
        // a member without a player record
        let text = SMALL.replace(
            "013 Team B                            3    4",
            "013 Team B                            3    9",
        );
        let e = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (6, 42), "{e}");
        // a player in two teams
        let text = SMALL.replace(
            "013 Team B                            3    4",
            "013 Team B                            3    2",
        );
        let e = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (6, 42), "{e}");
        assert!(e.to_string().starts_with("6:42: "), "{e}");
        // two wins on one board
        let text = SMALL.replace("1 b 0", "1 b 1");
        let e = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 99), "{e}");
        // no team records
        let text: String = SMALL.lines().take(4).map(|l| format!("{l}\n")).collect();
        let e = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap_err();
        assert!(e.message.contains("no team record"), "{e}");
        // bad record 362
        let text = format!("362 TW 3.0 TX 1.0\n{SMALL}");
        let e = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!(e.line, 1, "{e}");
    }

    #[test]
    fn records_320_and_330_give_byes_and_forfeited_matches() {
        // Teams A, B (playing), C (PAB by 320), D and E (330: D forfeits against E).
        let text = format!(
            "{SMALL}\
001    5      C1                                2000                             0.0    5  0000 - -
001    6      D1                                2000                             0.0    6  0000 - -
001    7      E1                                2000                             0.0    7  0000 - -
013 Team C                            5
013 Team D                            6
013 Team E                            7
320  2.0  1.0   3
330 -+   1   4   5
"
        );
        let t = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap();
        let c = &t.crosstable;
        assert_eq!(c.teams[2].entries[0], TeamRoundEntry::PairingAllocatedBye);
        assert_eq!(c.scoring.pab_match_points, Some(20));
        assert_eq!(c.scoring.pab_game_points, Some(10));
        assert_eq!(
            c.teams[3].entries[0],
            TeamRoundEntry::ForfeitLoss { opponent: 5 }
        );
        assert_eq!(
            c.teams[4].entries[0],
            TeamRoundEntry::ForfeitWin { opponent: 4 }
        );
        // a 330 for a team that played
        let bad = text.replace("330 -+   1   4   5", "330 -+   1   1   5");
        let e = from_trf(&doc(&bad), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (14, 12), "{e}");
        let bad = text.replace("330 -+", "330 ++");
        let e = from_trf(&doc(&bad), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (14, 5), "{e}");
        let bad = text.replace("320  2.0  1.0   3", "320  2.0  1.0   9");
        let e = from_trf(&doc(&bad), &TeamAdapterOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (13, 15), "{e}");
    }

    #[test]
    fn record_362_sets_match_points() {
        let text = format!("362 TW 3.0 TD 1.0 TL 0.0\n{SMALL}");
        let t = from_trf(&doc(&text), &TeamAdapterOptions::default()).unwrap();
        assert_eq!(t.crosstable.scoring.match_win, 30);
        assert_eq!(t.crosstable.scoring.match_draw, 10);
    }

    #[test]
    fn double_forfeit_read_from_the_points_column_only_when_asked() {
        let text = "\
001    1      A1                                2100                             1.0    1     3 w -
001    2      A2                                2000                             1.0    2     4 b 1
001    3      B1                                2000                             0.0    3     1 b -
001    4      B2                                2000                             0.0    4     2 w 0
013 Team A                            1    2
013 Team B                            3    4
";
        let plain = from_trf(&doc(text), &TeamAdapterOptions::default()).unwrap();
        let TeamRoundEntry::Match { boards, .. } = &plain.crosstable.teams[0].entries[0] else {
            panic!("a match")
        };
        assert_eq!(boards[0], BoardResult::ForfeitLoss);
        assert!(plain.notes.is_empty());
        let opts = TeamAdapterOptions {
            forfeits_from_points: true,
            ..TeamAdapterOptions::default()
        };
        let read = from_trf(&doc(text), &opts).unwrap();
        let TeamRoundEntry::Match { boards, .. } = &read.crosstable.teams[0].entries[0] else {
            panic!("a match")
        };
        assert_eq!(boards[0], BoardResult::ForfeitWin);
        assert_eq!(read.notes.len(), 1);
        assert!(
            read.notes[0].starts_with("1:99: round 1: "),
            "{:?}",
            read.notes
        );
    }
}
