//! Accelerated pairings: virtual points added to the real score for pairing only
//! (C.04.7 Art. 1.5: pairing score = points + virtual points; they never enter standings
//! or tie-breaks).
//!
//! Where to find each method:
//! - [`baku`]: Baku acceleration, C.04.7 "FIDE-approved Accelerated Systems" (applied from
//!   1 February 2026, the default) and its 2016 form (C.04.5 Baku 2016, used with the
//!   Dutch 2017 edition).
//! - [`haley`]: Haley system (seed 000, "Appariements accélérés — Système de Haley",
//!   French federation text reproduced by the FEFB vade-mecum 2018), Examples 1 and 2.
//! - [`degressive`]: "Accéléré dégressif" (same seed section).
//!
//! Entry points: [`virtual_points`] (explicit list of players, late entries included) and
//! [`accelerate`] (fills [`Player::acceleration`](crate::Player::acceleration) of a
//! [`TournamentState`] whose players all entered in round 1).
//!
//! Every method assumes the scoring premise of C.04.7 Art. 1.1 (a win is worth two draws,
//! a loss nothing, e.g. 1/½/0 in half-points or 2/1/0); the seed methods were written for
//! 1/½/0, where "one point" is the points for a win (ADR swiss-005).

pub mod baku;
pub mod degressive;
pub mod haley;

use crate::{Score, TournamentState, Tpn};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

pub use degressive::DegressiveGroups;
pub use haley::HaleyRemoval;

/// The accelerated system declared by the chief arbiter before round 1 (C.04.2 Art. 1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum AccelerationMethod {
    /// No acceleration: every virtual point is zero.
    #[default]
    None,
    /// Baku acceleration as in force from 1 February 2026 (C.04.7 Art. 1), the FIDE default.
    Baku,
    /// Baku acceleration, 2016 form (C.04.5 Baku 2016, with the Dutch 2017 edition).
    Baku2016,
    /// Haley system (seed 000), with Example 1 or Example 2 removal of the fictitious point.
    Haley(HaleyRemoval),
    /// Degressive acceleration (seed 000, "accéléré dégressif") with the arbiter's rating
    /// limits of the groups A, B, C.
    Degressive(DegressiveGroups),
}

/// Points of a win, a draw and a loss in the tournament's scoring units (the units of
/// [`Score`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PointValues {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
}

impl PointValues {
    /// 1/½/0 counted in half-points (win 2, draw 1, loss 0).
    pub const HALF_POINTS: PointValues = PointValues {
        win: 2,
        draw: 1,
        loss: 0,
    };
}

/// One player as the acceleration methods see them before the round to be paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AcceleratedPlayer {
    /// Current tournament pairing number (late entries are inserted per C.04.2 Art. 2, so
    /// TPN order is the ranking order).
    pub tpn: Tpn,
    /// Rating (the degressive method groups by rating).
    pub rating: u32,
    /// Real points before the round to be paired (no virtual points), in scoring units.
    pub score: Score,
    /// The round in which the player entered the tournament: 1 for everyone on the list
    /// before round 1; `k > 1` for a late entry that joined in round `k`.
    pub entry_round: u32,
}

/// Everything the methods read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccelerationInput<'a> {
    /// All registered players (any order; TPNs unique).
    pub players: &'a [AcceleratedPlayer],
    /// Number of rounds declared beforehand (C.04.1 Art. 1).
    pub total_rounds: u32,
    /// The round to be paired (1-based).
    pub round: u32,
    /// The scoring system.
    pub points: PointValues,
}

/// Why virtual points cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum AccelerationError {
    #[error(
        "{method}: the scoring must give a win twice the points of a draw and a loss nothing (C.04.7 Art. 1.1); got win {win}, draw {draw}, loss {loss}"
    )]
    ScoringPremise {
        method: &'static str,
        win: Score,
        draw: Score,
        loss: Score,
    },
    #[error("round {round} is outside the tournament's rounds 1..={total_rounds}")]
    RoundOutOfRange { round: u32, total_rounds: u32 },
    #[error("pairing number {tpn} is zero or appears twice in the player list")]
    BadPairingNumber { tpn: Tpn },
    #[error("player {tpn}: entry round {entry_round} is zero")]
    BadEntryRound { tpn: Tpn, entry_round: u32 },
    #[error(
        "degressive acceleration: group {group} has {count} of the {total} players on the initial list; each group must hold at least 25% and at most 50% of them (seed 000, accéléré dégressif); choose other rating limits (now A >= {a_min}, C < {c_below})"
    )]
    DegressiveGroupSize {
        group: char,
        count: usize,
        total: usize,
        a_min: u32,
        c_below: u32,
    },
    #[error(
        "degressive acceleration: the limit of group A ({a_min}) must not be lower than the limit of group C ({c_below})"
    )]
    DegressiveLimits { a_min: u32, c_below: u32 },
}

impl AccelerationMethod {
    /// Short name used in messages and on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            AccelerationMethod::None => "none",
            AccelerationMethod::Baku => "baku",
            AccelerationMethod::Baku2016 => "baku-2016",
            AccelerationMethod::Haley(HaleyRemoval::AfterRoundTwo) => "haley",
            AccelerationMethod::Haley(HaleyRemoval::HalfAfterRoundTwo) => "haley-example-2",
            AccelerationMethod::Degressive(_) => "degressive",
        }
    }
}

/// Virtual points of every player for `input.round`, by TPN (zero entries included).
///
/// Errors: duplicated/zero TPN, round outside `1..=total_rounds`, scoring that is not
/// "win = 2 draws, loss = 0" (C.04.7 Art. 1.1), degressive groups out of the 25–50% band.
pub fn virtual_points(
    method: &AccelerationMethod,
    input: &AccelerationInput<'_>,
) -> Result<BTreeMap<Tpn, Score>, AccelerationError> {
    let mut seen = std::collections::BTreeSet::new();
    for p in input.players {
        if p.tpn == 0 || !seen.insert(p.tpn) {
            return Err(AccelerationError::BadPairingNumber { tpn: p.tpn });
        }
        if p.entry_round == 0 {
            return Err(AccelerationError::BadEntryRound {
                tpn: p.tpn,
                entry_round: 0,
            });
        }
    }
    if input.round == 0 || input.round > input.total_rounds {
        return Err(AccelerationError::RoundOutOfRange {
            round: input.round,
            total_rounds: input.total_rounds,
        });
    }
    if *method == AccelerationMethod::None {
        return Ok(input.players.iter().map(|p| (p.tpn, 0)).collect());
    }
    check_premise(method.name(), input.points)?;
    match method {
        AccelerationMethod::None => Ok(BTreeMap::new()),
        AccelerationMethod::Baku => Ok(baku::virtual_points(baku::BakuForm::C0407_2026, input)),
        AccelerationMethod::Baku2016 => Ok(baku::virtual_points(baku::BakuForm::C0405_2016, input)),
        AccelerationMethod::Haley(removal) => Ok(haley::virtual_points(*removal, input)),
        AccelerationMethod::Degressive(groups) => degressive::virtual_points(groups, input),
    }
}

/// C.04.7 Art. 1.1 (and the 1/½/0 of the seed methods): win = 2 × draw, loss = 0, so
/// that half the points of a win is exact.
fn check_premise(method: &'static str, p: PointValues) -> Result<(), AccelerationError> {
    if p.win == 0 || p.win != 2 * p.draw || p.loss != 0 {
        return Err(AccelerationError::ScoringPremise {
            method,
            win: p.win,
            draw: p.draw,
            loss: p.loss,
        });
    }
    Ok(())
}

/// Players on the list before round 1, in TPN order (the list the groups are made from).
pub(crate) fn initial_list<'a>(input: &AccelerationInput<'a>) -> Vec<&'a AcceleratedPlayer> {
    let mut v: Vec<&AcceleratedPlayer> = input
        .players
        .iter()
        .filter(|p| p.entry_round <= 1)
        .collect();
    v.sort_by_key(|p| p.tpn);
    v
}

/// Returns `state` with [`Player::acceleration`](crate::Player::acceleration) set for the
/// round to be paired (`state.rounds_played + 1`), every player taken as present from
/// round 1 (use [`virtual_points`] for late entries). `draw` is the points of a draw (the
/// state only knows the points of a win); a loss is taken as 0.
pub fn accelerate(
    state: &TournamentState,
    method: &AccelerationMethod,
    draw: Score,
) -> Result<TournamentState, AccelerationError> {
    let players: Vec<AcceleratedPlayer> = state
        .players
        .iter()
        .map(|p| AcceleratedPlayer {
            tpn: p.tpn,
            rating: p.rating,
            score: p.score,
            entry_round: 1,
        })
        .collect();
    let input = AccelerationInput {
        players: &players,
        total_rounds: state.total_rounds,
        round: state.rounds_played + 1,
        points: PointValues {
            win: state.points_for_win,
            draw,
            loss: 0,
        },
    };
    let vp = virtual_points(method, &input)?;
    let mut out = state.clone();
    for p in &mut out.players {
        p.acceleration = vp.get(&p.tpn).copied().unwrap_or(0);
    }
    Ok(out)
}
