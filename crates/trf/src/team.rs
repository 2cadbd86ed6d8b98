//! Team records (reference §1.5): `013` (TRF16, "to be phased out"), and the TRF26 records
//! `310` team, `320` team pairing-allocated byes, `330` forfeited matches, `300` out-of-order
//! line-ups.

use crate::columns::{Cols, LineBuf, field_text};
use crate::field::Field;
use crate::pairing_records::render_number_list;
use crate::score::Score;

/// Record `013`: team name at columns 5–36, member starting ranks at 37–40, 42–45, …
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Team013Record {
    /// Team name (trimmed).
    pub name: String,
    /// Members' starting ranks, board order.
    pub members: Vec<Field<u16>>,
}

pub(crate) fn parse_013(c: &Cols) -> Team013Record {
    Team013Record {
        name: c.text(5, 36),
        members: c.number_list(37, 4, 5),
    }
}

pub(crate) fn render_013(r: &Team013Record) -> String {
    let mut b = LineBuf::new("013");
    b.left(5, 36, &r.name);
    render_number_list(&mut b, 37, 4, 5, &r.members);
    b.finish()
}

/// Record `310` (TRF26, replaces `013`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct TeamRecord {
    /// Columns 5–7: team pairing number.
    pub number: Field<u16>,
    /// Columns 9–40.
    pub name: String,
    /// Columns 42–46.
    pub nickname: String,
    /// Columns 48–53 (kept as text).
    pub strength: String,
    /// Columns 55–60.
    pub match_points: Field<Score>,
    /// Columns 62–67.
    pub game_points: Field<Score>,
    /// Columns 69–71 (ties allowed).
    pub rank: Field<u16>,
    /// Members at 74–77, 79–82, …
    pub members: Vec<Field<u16>>,
}

pub(crate) fn parse_310(c: &Cols) -> TeamRecord {
    TeamRecord {
        number: c.number(5, 7),
        name: c.text(9, 40),
        nickname: c.text(42, 46),
        strength: c.text(48, 53),
        match_points: c.score(55, 60),
        game_points: c.score(62, 67),
        rank: c.number(69, 71),
        members: c.number_list(74, 4, 5),
    }
}

pub(crate) fn render_310(r: &TeamRecord) -> String {
    let mut b = LineBuf::new("310");
    b.right(5, 7, &field_text(&r.number));
    b.left(9, 40, &r.name);
    b.left(42, 46, &r.nickname);
    b.right(48, 53, &r.strength);
    b.right(55, 60, &field_text(&r.match_points));
    b.right(62, 67, &field_text(&r.game_points));
    b.right(69, 71, &field_text(&r.rank));
    render_number_list(&mut b, 74, 4, 5, &r.members);
    b.finish()
}

/// Record `320` (TRF26): pairing-allocated byes of teams.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct TeamByeRecord {
    /// Columns 5–8.
    pub match_points: Field<Score>,
    /// Columns 10–13.
    pub game_points: Field<Score>,
    /// PAB team of round 1, 2, … at 15–17, 19–21, … (`0` = none).
    pub teams: Vec<Field<u16>>,
}

pub(crate) fn parse_320(c: &Cols) -> TeamByeRecord {
    TeamByeRecord {
        match_points: c.score(5, 8),
        game_points: c.score(10, 13),
        teams: c.number_list(15, 3, 4),
    }
}

pub(crate) fn render_320(r: &TeamByeRecord) -> String {
    let mut b = LineBuf::new("320");
    b.right(5, 8, &field_text(&r.match_points));
    b.right(10, 13, &field_text(&r.game_points));
    render_number_list(&mut b, 15, 3, 4, &r.teams);
    b.finish()
}

/// Record `330` (TRF26): a forfeited team match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct ForfeitedMatchRecord {
    /// Columns 5–6: `+-` White won, `-+` Black won, `--` double forfeit.
    pub kind: String,
    /// Columns 8–10.
    pub round: Field<u16>,
    /// Columns 12–14.
    pub white_team: Field<u16>,
    /// Columns 16–18.
    pub black_team: Field<u16>,
}

pub(crate) fn parse_330(c: &Cols) -> ForfeitedMatchRecord {
    ForfeitedMatchRecord {
        kind: c.text(5, 6),
        round: c.number(8, 10),
        white_team: c.number(12, 14),
        black_team: c.number(16, 18),
    }
}

pub(crate) fn render_330(r: &ForfeitedMatchRecord) -> String {
    let mut b = LineBuf::new("330");
    b.left(5, 6, &r.kind);
    b.right(8, 10, &field_text(&r.round));
    b.right(12, 14, &field_text(&r.white_team));
    b.right(16, 18, &field_text(&r.black_team));
    b.finish()
}

/// Record `300` (TRF26): a team playing out of its default board order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct LineupRecord {
    /// Columns 5–7.
    pub round: Field<u16>,
    /// Columns 9–11.
    pub team: Field<u16>,
    /// Columns 13–15.
    pub opponent: Field<u16>,
    /// Player per board at 17–20, 22–25, … (`0` = empty board).
    pub players: Vec<Field<u16>>,
}

pub(crate) fn parse_300(c: &Cols) -> LineupRecord {
    LineupRecord {
        round: c.number(5, 7),
        team: c.number(9, 11),
        opponent: c.number(13, 15),
        players: c.number_list(17, 4, 5),
    }
}

pub(crate) fn render_300(r: &LineupRecord) -> String {
    let mut b = LineBuf::new("300");
    b.right(5, 7, &field_text(&r.round));
    b.right(9, 11, &field_text(&r.team));
    b.right(13, 15, &field_text(&r.opponent));
    render_number_list(&mut b, 17, 4, 5, &r.players);
    b.finish()
}
