//! The input model: a crosstable independent of any file format (TRF is parsed elsewhere).
//!
//! One [`RoundEntry`] per participant per round says what happened in that round, with enough
//! detail to classify every unplayed round into the C.07 (2026) Art. 16.2 categories.

use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Piece colour of a participant in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Result of a game played over the board, from the participant's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// The opponent's result.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// What one participant did in one round.
///
/// C.07 Art. 16.1/16.2 vocabulary: PAB = pairing-allocated bye, FPB = full-point bye,
/// HPB = half-point bye, ZPB = zero-point bye; HPB and ZPB are *requested byes*;
/// "every round after a withdrawal is a ZPB".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoundEntry {
    /// A game played over the board.
    Played {
        opponent: u32,
        colour: Colour,
        result: GameResult,
    },
    /// Paired, the opponent did not play: won by forfeit (Art. 16.2.2).
    ForfeitWin {
        opponent: u32,
        colour: Option<Colour>,
    },
    /// Paired, did not play: lost by forfeit (Art. 16.2.4). A double forfeit is two
    /// `ForfeitLoss` entries pointing at each other.
    ForfeitLoss {
        opponent: u32,
        colour: Option<Colour>,
    },
    /// Pairing-allocated bye (Art. 16.2.1).
    PairingAllocatedBye,
    /// Full-point bye granted on request where the regulations allow it (Art. 16.2.1).
    FullPointBye,
    /// Requested half-point bye (Art. 16.1).
    HalfPointBye,
    /// Requested zero-point bye (Art. 16.1).
    ZeroPointBye,
    /// Not paired and not excused (scored as a zero-point bye; treated as a ZPB, see ADR
    /// tiebreak-004).
    Absent,
    /// A late entrant's round before entry (scored and treated as a ZPB, ADR tiebreak-004).
    NotYetEntered,
    /// A round after withdrawal: a ZPB by Art. 16.1.
    Withdrawn,
}

/// The points awarded for each kind of round, as integers in a unit chosen by the organiser
/// (`units_per_point` units = one displayed point). E.g. tenths: win 10, draw 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scoring {
    /// How many units make one displayed point (e.g. 10 for tenths, 1 for 3/1/0).
    pub units_per_point: i64,
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
    pub forfeit_win: i64,
    pub forfeit_loss: i64,
    pub pairing_allocated_bye: i64,
    pub full_point_bye: i64,
    pub half_point_bye: i64,
    pub zero_point_bye: i64,
}

impl Scoring {
    /// The classical 1 / ½ / 0 scoring in tenths (PAB = FPB = 1, HPB = ½).
    pub fn classical() -> Scoring {
        Scoring {
            units_per_point: 10,
            win: 10,
            draw: 5,
            loss: 0,
            forfeit_win: 10,
            forfeit_loss: 0,
            pairing_allocated_bye: 10,
            full_point_bye: 10,
            half_point_bye: 5,
            zero_point_bye: 0,
        }
    }

    /// 3 / 1 / 0 ("football") scoring in whole points (PAB = FPB = 3, HPB = 1).
    pub fn three_one_zero() -> Scoring {
        Scoring {
            units_per_point: 1,
            win: 3,
            draw: 1,
            loss: 0,
            forfeit_win: 3,
            forfeit_loss: 0,
            pairing_allocated_bye: 3,
            full_point_bye: 3,
            half_point_bye: 1,
            zero_point_bye: 0,
        }
    }

    /// Points awarded for one round entry.
    pub fn points(&self, entry: &RoundEntry) -> i64 {
        match entry {
            RoundEntry::Played { result, .. } => match result {
                GameResult::Win => self.win,
                GameResult::Draw => self.draw,
                GameResult::Loss => self.loss,
            },
            RoundEntry::ForfeitWin { .. } => self.forfeit_win,
            RoundEntry::ForfeitLoss { .. } => self.forfeit_loss,
            RoundEntry::PairingAllocatedBye => self.pairing_allocated_bye,
            RoundEntry::FullPointBye => self.full_point_bye,
            RoundEntry::HalfPointBye => self.half_point_bye,
            RoundEntry::ZeroPointBye
            | RoundEntry::Absent
            | RoundEntry::NotYetEntered
            | RoundEntry::Withdrawn => self.zero_point_bye,
        }
    }
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::classical()
    }
}

/// Whether pairings are pre-determined (C.07 Art. 15.2) or made round by round (15.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum EventKind {
    #[default]
    Swiss,
    /// Round robin or any event with pre-determined pairings (Art. 15.2).
    RoundRobin,
}

/// One participant and their round-by-round record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// Tournament pairing number (final TPN), unique in the event.
    pub tpn: u32,
    /// The rating used for rating-based tie-breaks (the *first* rating of the event,
    /// Art. 10 preamble, 2026); `None` = unrated.
    pub rating: Option<u32>,
    pub federation: Option<String>,
    pub name: Option<String>,
    /// Exactly `rounds_played` entries, round 1 first.
    pub entries: Vec<RoundEntry>,
}

/// A crosstable: everything the tie-breaks need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crosstable {
    pub kind: EventKind,
    /// Rounds covered by the standings (every participant has this many entries).
    pub rounds_played: u32,
    pub scoring: Scoring,
    pub players: Vec<Participant>,
}

/// Internal round kind, after merging the ZPB-like entries (Art. 16.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Game(GameResult, Colour),
    ForfeitWin(Option<Colour>),
    ForfeitLoss(Option<Colour>),
    Pab,
    Fpb,
    Hpb,
    /// ZPB, absent, not yet entered, withdrawn.
    Zpb,
}

impl Slot {
    /// Voluntary unplayed round (Art. 16.1): a requested bye or a forfeit loss.
    pub(crate) fn is_vur(self) -> bool {
        matches!(self, Slot::Hpb | Slot::Zpb | Slot::ForfeitLoss(_))
    }

    pub(crate) fn is_requested_bye(self) -> bool {
        matches!(self, Slot::Hpb | Slot::Zpb)
    }
}

/// The crosstable validated and flattened into index-based vectors.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    pub kind: EventKind,
    pub rounds: usize,
    pub scoring: Scoring,
    pub n: usize,
    pub tpn: Vec<u32>,
    pub rating: Vec<Option<u32>>,
    /// `n * rounds`, row-major by player.
    pub slots: Vec<Slot>,
    /// Opponent index per slot, `usize::MAX` for none.
    pub opp: Vec<usize>,
    /// Points per slot, in units.
    pub pts: Vec<i64>,
    /// Final (actual) score per player, in units.
    pub total: Vec<i64>,
}

pub(crate) const NO_OPP: usize = usize::MAX;

impl Prepared {
    pub(crate) fn at(&self, i: usize, r: usize) -> usize {
        i * self.rounds + r
    }

    /// Validates the crosstable: unique TPNs, entry counts, opponents that exist and agree.
    pub(crate) fn new(ct: &Crosstable) -> Result<Prepared, Error> {
        let rounds = ct.rounds_played as usize;
        let n = ct.players.len();
        if ct.scoring.units_per_point <= 0 {
            return Err(Error::InvalidScoring(
                "units_per_point must be positive".into(),
            ));
        }
        if ct.scoring.win <= 0 || ct.scoring.draw < 0 || ct.scoring.draw > ct.scoring.win {
            return Err(Error::InvalidScoring(
                "need win > 0 and 0 <= draw <= win".into(),
            ));
        }
        let mut index: HashMap<u32, usize> = HashMap::with_capacity(n);
        for (i, p) in ct.players.iter().enumerate() {
            if index.insert(p.tpn, i).is_some() {
                return Err(Error::DuplicateTpn(p.tpn));
            }
            if p.entries.len() != rounds {
                return Err(Error::WrongRoundCount {
                    tpn: p.tpn,
                    expected: rounds,
                    found: p.entries.len(),
                });
            }
        }
        let mut slots = Vec::with_capacity(n * rounds);
        let mut opp = Vec::with_capacity(n * rounds);
        let mut pts = Vec::with_capacity(n * rounds);
        let mut total = vec![0i64; n];
        for (i, p) in ct.players.iter().enumerate() {
            for (r, e) in p.entries.iter().enumerate() {
                let find = |o: u32| -> Result<usize, Error> {
                    let j = *index.get(&o).ok_or(Error::UnknownOpponent {
                        tpn: p.tpn,
                        round: r as u32 + 1,
                        opponent: o,
                    })?;
                    if j == i {
                        return Err(Error::InconsistentPairing {
                            tpn: p.tpn,
                            round: r as u32 + 1,
                            detail: "paired against themself".into(),
                        });
                    }
                    Ok(j)
                };
                let (slot, o) = match *e {
                    RoundEntry::Played {
                        opponent,
                        colour,
                        result,
                    } => (Slot::Game(result, colour), find(opponent)?),
                    RoundEntry::ForfeitWin { opponent, colour } => {
                        (Slot::ForfeitWin(colour), find(opponent)?)
                    }
                    RoundEntry::ForfeitLoss { opponent, colour } => {
                        (Slot::ForfeitLoss(colour), find(opponent)?)
                    }
                    RoundEntry::PairingAllocatedBye => (Slot::Pab, NO_OPP),
                    RoundEntry::FullPointBye => (Slot::Fpb, NO_OPP),
                    RoundEntry::HalfPointBye => (Slot::Hpb, NO_OPP),
                    RoundEntry::ZeroPointBye
                    | RoundEntry::Absent
                    | RoundEntry::NotYetEntered
                    | RoundEntry::Withdrawn => (Slot::Zpb, NO_OPP),
                };
                let pt = ct.scoring.points(e);
                slots.push(slot);
                opp.push(o);
                pts.push(pt);
                total[i] += pt;
            }
        }
        let prepared = Prepared {
            kind: ct.kind,
            rounds,
            scoring: ct.scoring,
            n,
            tpn: ct.players.iter().map(|p| p.tpn).collect(),
            rating: ct.players.iter().map(|p| p.rating).collect(),
            slots,
            opp,
            pts,
            total,
        };
        prepared.check_symmetry()?;
        Ok(prepared)
    }

    fn check_symmetry(&self) -> Result<(), Error> {
        for i in 0..self.n {
            for r in 0..self.rounds {
                let k = self.at(i, r);
                let j = self.opp[k];
                if j == NO_OPP {
                    continue;
                }
                let back = self.at(j, r);
                let bad = |detail: &str| Error::InconsistentPairing {
                    tpn: self.tpn[i],
                    round: r as u32 + 1,
                    detail: format!("{detail} (opponent {})", self.tpn[j]),
                };
                if self.opp[back] != i {
                    return Err(bad("opponent's entry does not point back"));
                }
                let ok = match (self.slots[k], self.slots[back]) {
                    // Unequal scores awarded by the arbiter (Laws 12.9: 1-½, ½-0, 0-0) are
                    // valid; two wins are not (ADR tiebreak-008).
                    (Slot::Game(a, ca), Slot::Game(b, cb)) => {
                        ca != cb && !(a == GameResult::Win && b == GameResult::Win)
                    }
                    (Slot::ForfeitWin(_), Slot::ForfeitLoss(_)) => true,
                    (Slot::ForfeitLoss(_), Slot::ForfeitWin(_)) => true,
                    (Slot::ForfeitLoss(_), Slot::ForfeitLoss(_)) => true,
                    _ => false,
                };
                if !ok {
                    return Err(bad("results or colours of the two entries disagree"));
                }
            }
        }
        Ok(())
    }

    /// Recompute totals after slots/points were changed (Fore Buchholz).
    pub(crate) fn recompute_totals(&mut self) {
        for i in 0..self.n {
            let s = i * self.rounds;
            self.total[i] = self.pts[s..s + self.rounds].iter().sum();
        }
    }

    /// The event as it would stand "if all paired games of the final round had ended in
    /// draws" (Art. 8.3, Fore Buchholz). Forfeits of the final round are paired games and
    /// also become draws; byes keep their points (ADR tiebreak-003).
    pub(crate) fn with_final_round_drawn(&self) -> Prepared {
        let mut p = self.clone();
        if p.rounds == 0 {
            return p;
        }
        let r = p.rounds - 1;
        for i in 0..p.n {
            let k = p.at(i, r);
            let j = p.opp[k];
            if j == NO_OPP {
                continue;
            }
            let colour = match p.slots[k] {
                Slot::Game(_, c) => c,
                Slot::ForfeitWin(c) | Slot::ForfeitLoss(c) => {
                    // colours of forfeits may be unknown; give the lower index White
                    c.unwrap_or(if i < j { Colour::White } else { Colour::Black })
                }
                _ => continue,
            };
            p.slots[k] = Slot::Game(GameResult::Draw, colour);
            p.pts[k] = p.scoring.draw;
        }
        p.recompute_totals();
        p
    }
}
