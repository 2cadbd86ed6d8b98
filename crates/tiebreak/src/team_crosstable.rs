//! The team input model (issue 43): teams, their matches round by round with the board
//! games, and the rule that turns board results into a match result.
//!
//! * Game points (GP) of a match = the sum of the team's board points;
//! * match points (MP) follow from comparing the two teams' GP: more = a match win, equal =
//!   a draw, fewer = a loss (default 2 / 1 / 0, [`TeamScoring`]);
//! * a team pairing-allocated bye scores a drawn match's MP and GP unless the regulations say
//!   otherwise (C.04.6; reference §4.5);
//! * a match in which no board was played over the board is a *forfeited match* (C.07 Art.
//!   16.2.2/16.2.4 for the team), see ADR tiebreak-009.
//!
//! The tie-break rules see a team event as two individual-style events over the same rounds:
//! one scored in MP, one in GP (`TeamPrepared`); the `:MP` / `:GP` selectors pick one.

use crate::crosstable::{Colour, EventKind, GameResult, NO_OPP, Prepared, Scoring, Slot};
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Which of the two team scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum PointType {
    /// Match points (`:MP`).
    #[default]
    Match,
    /// Game points (`:GP`).
    Game,
}

impl PointType {
    /// The other score.
    pub fn other(self) -> PointType {
        match self {
            PointType::Match => PointType::Game,
            PointType::Game => PointType::Match,
        }
    }

    /// `MP` or `GP`.
    pub fn code(self) -> &'static str {
        match self {
            PointType::Match => "MP",
            PointType::Game => "GP",
        }
    }
}

/// One board of a match, from the team's own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoardResult {
    Win,
    Draw,
    Loss,
    /// Won without playing (the opponent's board was empty or its player did not come).
    ForfeitWin,
    /// Lost without playing; also an empty board (no player fielded).
    ForfeitLoss,
}

impl BoardResult {
    fn played(self) -> bool {
        matches!(
            self,
            BoardResult::Win | BoardResult::Draw | BoardResult::Loss
        )
    }
}

/// What one team did in one round.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TeamRoundEntry {
    /// A match against `opponent`, board 1 first (exactly [`TeamCrosstable::boards`]
    /// boards). `colour` is the team's colour on board 1, if known.
    Match {
        opponent: u32,
        colour: Option<Colour>,
        boards: Vec<BoardResult>,
    },
    /// The whole match won by forfeit (TRF26 record 330).
    ForfeitWin {
        opponent: u32,
    },
    /// The whole match lost by forfeit (a double forfeit is two of these facing each other).
    ForfeitLoss {
        opponent: u32,
    },
    /// Team pairing-allocated bye.
    PairingAllocatedBye,
    FullPointBye,
    HalfPointBye,
    ZeroPointBye,
    /// Not paired and not excused (treated as a ZPB, ADR tiebreak-004).
    Absent,
    /// A round after withdrawal (a ZPB, Art. 16.1).
    Withdrawn,
}

/// Points of a team event, in units (`units_per_point` units = one displayed point), the
/// same unit for MP and GP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TeamScoring {
    pub units_per_point: i64,
    /// MP for a match won / drawn / lost (default 2 / 1 / 0; TRF26 record 362).
    pub match_win: i64,
    pub match_draw: i64,
    pub match_loss: i64,
    /// GP per board (default 1 / ½ / 0; TRF record 162). A board forfeit scores a win / loss.
    pub board_win: i64,
    pub board_draw: i64,
    pub board_loss: i64,
    /// MP and GP of a team PAB; `None` = those of a drawn match (C.04.6, TRF26 record 320).
    pub pab_match_points: Option<i64>,
    pub pab_game_points: Option<i64>,
}

impl TeamScoring {
    /// MP 2 / 1 / 0, GP 1 / ½ / 0, PAB = a drawn match, in tenths.
    pub fn standard() -> TeamScoring {
        TeamScoring {
            units_per_point: 10,
            match_win: 20,
            match_draw: 10,
            match_loss: 0,
            board_win: 10,
            board_draw: 5,
            board_loss: 0,
            pab_match_points: None,
            pab_game_points: None,
        }
    }

    /// GP of one board.
    pub fn board_points(&self, b: BoardResult) -> i64 {
        match b {
            BoardResult::Win | BoardResult::ForfeitWin => self.board_win,
            BoardResult::Draw => self.board_draw,
            BoardResult::Loss | BoardResult::ForfeitLoss => self.board_loss,
        }
    }
}

impl Default for TeamScoring {
    fn default() -> Self {
        TeamScoring::standard()
    }
}

/// One team and its round-by-round record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// Team pairing number, unique in the event.
    pub tpn: u32,
    pub name: Option<String>,
    /// Exactly `rounds_played` entries, round 1 first.
    pub entries: Vec<TeamRoundEntry>,
}

/// A team crosstable: everything the team tie-breaks need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamCrosstable {
    pub kind: EventKind,
    pub rounds_played: u32,
    /// Boards per match.
    pub boards: u32,
    pub scoring: TeamScoring,
    /// The primary score of the standings (ETT26 `FIDE_TEAM_…_MP_GP` default: MP).
    pub primary: PointType,
    pub teams: Vec<Team>,
}

/// What one team scored in one round, as the tie-breaks count it (units of
/// [`TeamScoring::units_per_point`]), and the team's colour on board 1 when a board of the
/// match was played over the board (else the round was no match, or a forfeited one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TeamRoundScore {
    pub match_points: i64,
    pub game_points: i64,
    pub played_colour: Option<Colour>,
}

impl TeamCrosstable {
    /// Each team's score per round (teams in crosstable order, round 1 first): what a
    /// later round's pairing reads as the teams' history (C.04.6), by the same reading of
    /// match results as the tie-breaks (ADR tiebreak-009).
    ///
    /// # Errors
    /// As the standings: an inconsistent crosstable or scoring.
    pub fn round_scores(&self) -> Result<Vec<Vec<TeamRoundScore>>, Error> {
        let tp = TeamPrepared::new(self)?;
        let rounds = self.rounds_played as usize;
        Ok((0..self.teams.len())
            .map(|i| {
                (0..rounds)
                    .map(|r| {
                        let k = tp.mp.at(i, r);
                        TeamRoundScore {
                            match_points: tp.mp.pts[k],
                            game_points: tp.gp.pts[k],
                            played_colour: match tp.mp.slots[k] {
                                Slot::Game(_, c) => Some(c),
                                _ => None,
                            },
                        }
                    })
                    .collect()
            })
            .collect())
    }
}

/// The team event validated, as an MP event, a GP event and the board points.
#[derive(Clone, Debug)]
pub(crate) struct TeamPrepared {
    pub mp: Prepared,
    pub gp: Prepared,
    /// GP per board per slot (empty for rounds without a match).
    pub board_points: Vec<Vec<i64>>,
    pub boards: usize,
    pub primary: PointType,
}

impl TeamPrepared {
    pub(crate) fn view(&self, t: PointType) -> &Prepared {
        match t {
            PointType::Match => &self.mp,
            PointType::Game => &self.gp,
        }
    }

    /// Validates the crosstable and builds both views.
    pub(crate) fn new(ct: &TeamCrosstable) -> Result<TeamPrepared, Error> {
        let s = &ct.scoring;
        if s.units_per_point <= 0 {
            return Err(Error::InvalidScoring(
                "units_per_point must be positive".into(),
            ));
        }
        if s.match_win <= 0 || s.match_draw < 0 || s.match_draw > s.match_win || s.match_loss < 0 {
            return Err(Error::InvalidScoring(
                "need match win > 0 and 0 <= match draw <= match win, match loss >= 0".into(),
            ));
        }
        if s.board_win <= 0 || s.board_draw < 0 || s.board_draw > s.board_win || s.board_loss < 0 {
            return Err(Error::InvalidScoring(
                "need board win > 0 and 0 <= board draw <= board win, board loss >= 0".into(),
            ));
        }
        if ct.boards == 0 {
            return Err(Error::InvalidScoring(
                "a team event needs at least one board".into(),
            ));
        }
        let rounds = ct.rounds_played as usize;
        let boards = ct.boards as usize;
        let n = ct.teams.len();
        let mut index: HashMap<u32, usize> = HashMap::with_capacity(n);
        for (i, t) in ct.teams.iter().enumerate() {
            if index.insert(t.tpn, i).is_some() {
                return Err(Error::DuplicateTpn(t.tpn));
            }
            if t.entries.len() != rounds {
                return Err(Error::WrongRoundCount {
                    tpn: t.tpn,
                    expected: rounds,
                    found: t.entries.len(),
                });
            }
        }
        let bad = |tpn: u32, r: usize, detail: String| Error::InconsistentPairing {
            tpn,
            round: r as u32 + 1,
            detail,
        };
        // Opponent index per slot, checked both ways.
        let mut opp = vec![NO_OPP; n * rounds];
        for (i, t) in ct.teams.iter().enumerate() {
            for (r, e) in t.entries.iter().enumerate() {
                let o = match e {
                    TeamRoundEntry::Match {
                        opponent,
                        boards: b,
                        ..
                    } => {
                        if b.len() != boards {
                            return Err(bad(
                                t.tpn,
                                r,
                                format!("{} boards, the event has {boards}", b.len()),
                            ));
                        }
                        *opponent
                    }
                    TeamRoundEntry::ForfeitWin { opponent }
                    | TeamRoundEntry::ForfeitLoss { opponent } => *opponent,
                    _ => continue,
                };
                let j = *index.get(&o).ok_or(Error::UnknownOpponent {
                    tpn: t.tpn,
                    round: r as u32 + 1,
                    opponent: o,
                })?;
                if j == i {
                    return Err(bad(t.tpn, r, "paired against itself".into()));
                }
                opp[i * rounds + r] = j;
            }
        }
        for i in 0..n {
            for r in 0..rounds {
                let j = opp[i * rounds + r];
                if j == NO_OPP {
                    continue;
                }
                let tpn = ct.teams[i].tpn;
                let other = ct.teams[j].tpn;
                if opp[j * rounds + r] != i {
                    return Err(bad(
                        tpn,
                        r,
                        format!("opponent {other}'s entry does not point back"),
                    ));
                }
                let a = &ct.teams[i].entries[r];
                let b = &ct.teams[j].entries[r];
                let ok = match (a, b) {
                    (
                        TeamRoundEntry::Match {
                            colour: ca,
                            boards: ba,
                            ..
                        },
                        TeamRoundEntry::Match {
                            colour: cb,
                            boards: bb,
                            ..
                        },
                    ) => {
                        let colours = match (ca, cb) {
                            (Some(x), Some(y)) => x != y,
                            _ => true,
                        };
                        colours
                            && ba.iter().zip(bb).all(|(x, y)| {
                                use BoardResult::*;
                                match (x, y) {
                                    (Win, Win) => false,
                                    (ForfeitWin, ForfeitWin) => false,
                                    (ForfeitWin | ForfeitLoss, w)
                                    | (w, ForfeitWin | ForfeitLoss)
                                        if w.played() =>
                                    {
                                        false
                                    }
                                    _ => true,
                                }
                            })
                    }
                    (TeamRoundEntry::ForfeitWin { .. }, TeamRoundEntry::ForfeitLoss { .. })
                    | (TeamRoundEntry::ForfeitLoss { .. }, TeamRoundEntry::ForfeitWin { .. })
                    | (TeamRoundEntry::ForfeitLoss { .. }, TeamRoundEntry::ForfeitLoss { .. }) => {
                        true
                    }
                    _ => false,
                };
                if !ok {
                    return Err(bad(
                        tpn,
                        r,
                        format!("the entries of this team and team {other} disagree"),
                    ));
                }
            }
        }
        // Points and slots of both views.
        let draw_gp = s.board_draw * boards as i64;
        let win_gp = s.board_win * boards as i64;
        let loss_gp = s.board_loss * boards as i64;
        let mut slots = Vec::with_capacity(n * rounds);
        let mut mp = Vec::with_capacity(n * rounds);
        let mut gp = Vec::with_capacity(n * rounds);
        let mut board_points = Vec::with_capacity(n * rounds);
        for (i, t) in ct.teams.iter().enumerate() {
            for (r, e) in t.entries.iter().enumerate() {
                let k = i * rounds + r;
                let (slot, m, g, bp) = match e {
                    TeamRoundEntry::Match {
                        colour, boards: b, ..
                    } => {
                        let j = opp[k];
                        let TeamRoundEntry::Match { boards: theirs, .. } = &ct.teams[j].entries[r]
                        else {
                            return Err(bad(t.tpn, r, "not a match on both sides".into()));
                        };
                        let bp: Vec<i64> = b.iter().map(|&x| s.board_points(x)).collect();
                        let own: i64 = bp.iter().sum();
                        let other: i64 = theirs.iter().map(|&x| s.board_points(x)).sum();
                        let result = match own.cmp(&other) {
                            std::cmp::Ordering::Greater => GameResult::Win,
                            std::cmp::Ordering::Equal => GameResult::Draw,
                            std::cmp::Ordering::Less => GameResult::Loss,
                        };
                        let m = match result {
                            GameResult::Win => s.match_win,
                            GameResult::Draw => s.match_draw,
                            GameResult::Loss => s.match_loss,
                        };
                        let any_played =
                            b.iter().any(|x| x.played()) || theirs.iter().any(|x| x.played());
                        let slot = if any_played {
                            let c = colour
                                .or_else(|| match &ct.teams[j].entries[r] {
                                    TeamRoundEntry::Match { colour, .. } => {
                                        colour.map(Colour::opposite)
                                    }
                                    _ => None,
                                })
                                .unwrap_or(if t.tpn < ct.teams[j].tpn {
                                    Colour::White
                                } else {
                                    Colour::Black
                                });
                            Slot::Game(result, c)
                        } else if result == GameResult::Win {
                            // ADR tiebreak-009: no board played = a forfeited match.
                            Slot::ForfeitWin(*colour)
                        } else {
                            Slot::ForfeitLoss(*colour)
                        };
                        (slot, m, own, bp)
                    }
                    TeamRoundEntry::ForfeitWin { .. } => {
                        (Slot::ForfeitWin(None), s.match_win, win_gp, Vec::new())
                    }
                    TeamRoundEntry::ForfeitLoss { .. } => {
                        (Slot::ForfeitLoss(None), s.match_loss, loss_gp, Vec::new())
                    }
                    TeamRoundEntry::PairingAllocatedBye => (
                        Slot::Pab,
                        s.pab_match_points.unwrap_or(s.match_draw),
                        s.pab_game_points.unwrap_or(draw_gp),
                        Vec::new(),
                    ),
                    TeamRoundEntry::FullPointBye => (Slot::Fpb, s.match_win, win_gp, Vec::new()),
                    TeamRoundEntry::HalfPointBye => (Slot::Hpb, s.match_draw, draw_gp, Vec::new()),
                    TeamRoundEntry::ZeroPointBye
                    | TeamRoundEntry::Absent
                    | TeamRoundEntry::Withdrawn => (Slot::Zpb, 0, 0, Vec::new()),
                };
                slots.push(slot);
                mp.push(m);
                gp.push(g);
                board_points.push(bp);
            }
        }
        let view = |pts: Vec<i64>, scoring: Scoring| {
            let mut p = Prepared {
                kind: ct.kind,
                rounds,
                scoring,
                n,
                tpn: ct.teams.iter().map(|t| t.tpn).collect(),
                rating: vec![None; n],
                slots: slots.clone(),
                opp: opp.clone(),
                pts,
                total: vec![0; n],
            };
            p.recompute_totals();
            p
        };
        let u = s.units_per_point;
        let mp_scoring = Scoring {
            units_per_point: u,
            win: s.match_win,
            draw: s.match_draw,
            loss: s.match_loss,
            forfeit_win: s.match_win,
            forfeit_loss: s.match_loss,
            pairing_allocated_bye: s.pab_match_points.unwrap_or(s.match_draw),
            full_point_bye: s.match_win,
            half_point_bye: s.match_draw,
            zero_point_bye: 0,
        };
        let gp_scoring = Scoring {
            units_per_point: u,
            win: win_gp,
            draw: draw_gp,
            loss: loss_gp,
            forfeit_win: win_gp,
            forfeit_loss: loss_gp,
            pairing_allocated_bye: s.pab_game_points.unwrap_or(draw_gp),
            full_point_bye: win_gp,
            half_point_bye: draw_gp,
            zero_point_bye: 0,
        };
        Ok(TeamPrepared {
            mp: view(mp, mp_scoring),
            gp: view(gp, gp_scoring),
            board_points,
            boards,
            primary: ct.primary,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BoardResult::*;

    pub(crate) fn m(opponent: u32, colour: Colour, boards: &[BoardResult]) -> TeamRoundEntry {
        TeamRoundEntry::Match {
            opponent,
            colour: Some(colour),
            boards: boards.to_vec(),
        }
    }

    fn ct(teams: Vec<Team>, rounds: u32, boards: u32) -> TeamCrosstable {
        TeamCrosstable {
            kind: EventKind::Swiss,
            rounds_played: rounds,
            boards,
            scoring: TeamScoring::standard(),
            primary: PointType::Match,
            teams,
        }
    }

    fn team(tpn: u32, entries: Vec<TeamRoundEntry>) -> Team {
        Team {
            tpn,
            name: None,
            entries,
        }
    }

    #[test]
    fn board_points_decide_the_match() {
        let c = ct(
            vec![
                team(1, vec![m(2, Colour::White, &[Win, Draw, Loss, Win])]),
                team(2, vec![m(1, Colour::Black, &[Loss, Draw, Win, Loss])]),
                team(3, vec![TeamRoundEntry::PairingAllocatedBye]),
            ],
            1,
            4,
        );
        let p = TeamPrepared::new(&c).unwrap();
        assert_eq!(p.mp.total, vec![20, 0, 10]);
        assert_eq!(p.gp.total, vec![25, 15, 20]);
        assert_eq!(p.board_points[0], vec![10, 5, 0, 10]);
    }

    #[test]
    fn two_two_is_a_drawn_match_and_all_forfeits_a_forfeited_match() {
        let c = ct(
            vec![
                team(
                    1,
                    vec![
                        m(2, Colour::White, &[Win, Loss]),
                        m(2, Colour::Black, &[ForfeitWin, ForfeitWin]),
                    ],
                ),
                team(
                    2,
                    vec![
                        m(1, Colour::Black, &[Loss, Win]),
                        m(1, Colour::White, &[ForfeitLoss, ForfeitLoss]),
                    ],
                ),
            ],
            2,
            2,
        );
        let p = TeamPrepared::new(&c).unwrap();
        assert_eq!(p.mp.total, vec![30, 10]);
        assert!(matches!(p.mp.slots[0], Slot::Game(GameResult::Draw, _)));
        assert!(matches!(p.mp.slots[1], Slot::ForfeitWin(_)));
        assert!(matches!(p.mp.slots[3], Slot::ForfeitLoss(_)));
    }

    #[test]
    fn inconsistent_entries_are_refused() {
        let c = ct(
            vec![
                team(1, vec![m(2, Colour::White, &[Win, Win])]),
                team(2, vec![m(1, Colour::Black, &[Win, Loss])]),
            ],
            1,
            2,
        );
        assert!(matches!(
            TeamPrepared::new(&c),
            Err(Error::InconsistentPairing {
                tpn: 1,
                round: 1,
                ..
            })
        ));
        let c = ct(vec![team(1, vec![m(2, Colour::White, &[Win, Win])])], 1, 2);
        assert!(matches!(
            TeamPrepared::new(&c),
            Err(Error::UnknownOpponent { opponent: 2, .. })
        ));
        let c = ct(
            vec![
                team(1, vec![m(2, Colour::White, &[Win])]),
                team(2, vec![m(1, Colour::Black, &[Loss])]),
            ],
            1,
            2,
        );
        assert!(
            TeamPrepared::new(&c)
                .unwrap_err()
                .to_string()
                .contains("boards")
        );
    }
}
