//! Pairing-engine extension records (reference §1.8): JaVaFo's `XXR XXC XXZ XXS XXA XXP` and
//! bbpPairings' `BBW BBD BBL BBZ BBF BBU`. These are not FIDE records, but every pairing-engine
//! input uses them, so they are typed.

use crate::columns::{Cols, LineBuf, field_text, number_field, score_field};
use crate::field::Field;
use crate::score::Score;

/// One token of `XXC` (cumulative options).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum XxcOption {
    /// `rank`: pair by position in the file.
    Rank,
    /// `white1`: the top player has White in round 1.
    White1,
    /// `black1`: the top player has Black in round 1.
    Black1,
    /// Anything else (kept, reported by validation).
    Other(String),
}

impl XxcOption {
    fn parse(t: &str) -> XxcOption {
        match t {
            "rank" => XxcOption::Rank,
            "white1" => XxcOption::White1,
            "black1" => XxcOption::Black1,
            other => XxcOption::Other(other.to_string()),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            XxcOption::Rank => "rank",
            XxcOption::White1 => "white1",
            XxcOption::Black1 => "black1",
            XxcOption::Other(s) => s,
        }
    }
}

/// One `CODE=VALUE` item of `XXS` (JaVaFo scoring). A token without `=` keeps an empty value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct XxsItem {
    /// `WW BW WD BD WL BL ZPB HPB FPB PAB FW FL W D` (others are reported by validation).
    pub code: String,
    /// The value.
    pub value: Field<Score>,
}

/// Which bbpPairings point record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum BbPointKind {
    /// `BBW` win.
    Win,
    /// `BBD` draw.
    Draw,
    /// `BBL` played loss.
    Loss,
    /// `BBZ` zero-point bye.
    ZeroPointBye,
    /// `BBF` forfeit loss.
    ForfeitLoss,
    /// `BBU` pairing-allocated bye (defaults to the win value).
    PairingAllocatedBye,
}

impl BbPointKind {
    /// The record code.
    pub fn code(self) -> &'static str {
        match self {
            BbPointKind::Win => "BBW",
            BbPointKind::Draw => "BBD",
            BbPointKind::Loss => "BBL",
            BbPointKind::ZeroPointBye => "BBZ",
            BbPointKind::ForfeitLoss => "BBF",
            BbPointKind::PairingAllocatedBye => "BBU",
        }
    }

    /// The kind for a record code.
    pub fn from_code(code: &str) -> Option<BbPointKind> {
        [
            BbPointKind::Win,
            BbPointKind::Draw,
            BbPointKind::Loss,
            BbPointKind::ZeroPointBye,
            BbPointKind::ForfeitLoss,
            BbPointKind::PairingAllocatedBye,
        ]
        .into_iter()
        .find(|k| k.code() == code)
    }
}

/// `XXA NNNN pp.p pp.p …`: acceleration points of one player, per round.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct XxaRecord {
    /// Columns 5–8: the player's starting rank.
    pub player: Field<u16>,
    /// Round `r` at columns `10+5(r−1)`…`13+5(r−1)`.
    pub points: Vec<Field<Score>>,
}

/// Text after the record code, split on blanks.
pub(crate) fn tokens(cols: &Cols) -> Vec<String> {
    cols.rest(4).split_whitespace().map(String::from).collect()
}

pub(crate) fn parse_id_tokens(cols: &Cols) -> Vec<Field<u16>> {
    tokens(cols).iter().map(|t| number_field(t)).collect()
}

pub(crate) fn render_tokens(code: &str, tokens: impl IntoIterator<Item = String>) -> String {
    let mut s = code.to_string();
    for t in tokens {
        s.push(' ');
        s.push_str(&t);
    }
    s
}

pub(crate) fn parse_xxc(cols: &Cols) -> Vec<XxcOption> {
    tokens(cols).iter().map(|t| XxcOption::parse(t)).collect()
}

pub(crate) fn render_xxc(options: &[XxcOption]) -> String {
    render_tokens("XXC", options.iter().map(|o| o.as_str().to_string()))
}

pub(crate) fn parse_xxs(cols: &Cols) -> Vec<XxsItem> {
    tokens(cols)
        .iter()
        .map(|t| match t.split_once('=') {
            Some((code, value)) => XxsItem {
                code: code.to_string(),
                value: score_field(value),
            },
            None => XxsItem {
                code: t.clone(),
                value: Field::Empty,
            },
        })
        .collect()
}

pub(crate) fn render_xxs(items: &[XxsItem]) -> String {
    render_tokens(
        "XXS",
        items.iter().map(|i| match &i.value {
            Field::Empty => i.code.clone(),
            v => format!("{}={}", i.code, field_text(v)),
        }),
    )
}

pub(crate) fn parse_xxa(cols: &Cols) -> XxaRecord {
    let mut points = Vec::new();
    let mut col = 10;
    while col <= cols.len() {
        points.push(cols.score(col, col + 3));
        col += 5;
    }
    while points.last().is_some_and(Field::is_empty) {
        points.pop();
    }
    XxaRecord {
        player: cols.number(5, 8),
        points,
    }
}

pub(crate) fn render_xxa(r: &XxaRecord) -> String {
    let mut b = LineBuf::new("XXA");
    b.right(5, 8, &field_text(&r.player));
    for (i, p) in r.points.iter().enumerate() {
        let col = 10 + 5 * i;
        b.right(col, col + 3, &field_text(p));
    }
    b.finish()
}

/// Value of a single-value record (`XXR n`, `BBW pp.p`, `142 n`): the trimmed text after the code.
pub(crate) fn single_value(cols: &Cols) -> String {
    cols.rest(4).trim().to_string()
}

pub(crate) fn render_bb(kind: BbPointKind, value: &Field<Score>) -> String {
    let mut b = LineBuf::new(kind.code());
    b.right(5, 8, &field_text(value));
    b.finish()
}
