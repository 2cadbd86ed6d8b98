//! C.07 Arts. 15–16: unplayed rounds. The five categories (16.2), the adjusted score seen by
//! opponents (16.3), the dummy for one's own unplayed rounds with the 2026 caps (16.4.1,
//! 16.4.2) or uncapped (2024), and the seed's virtual opponent (C.06 era).

use crate::crosstable::{EventKind, NO_OPP, Prepared, Slot};
use crate::edition::Edition;
use serde::{Deserialize, Serialize};

/// Art. 16.2 categories of an unplayed round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Category {
    /// 16.2.1: PAB or FPB.
    PabOrFpb,
    /// 16.2.2: forfeit win.
    ForfeitWin,
    /// 16.2.3: requested bye followed by at least one round that is not a VUR.
    RequestedByeThenPlayed,
    /// 16.2.4: forfeit loss.
    ForfeitLoss,
    /// 16.2.5: requested bye followed only by VURs, or in the last round (withdrawals).
    RequestedByeToTheEnd,
}

/// Which cap of Art. 16.4 limited a dummy's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DummyCap {
    /// 16.4.1: the scheduled opponent's adjusted score (forfeits).
    ScheduledOpponentAdjustedScore { opponent_tpn: u32 },
    /// 16.4.2: draw points × number of rounds.
    DrawTimesRounds,
}

/// Which class of tie-break asks whether a forfeit counts as a game (Art. 15.2 exceptions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Opponent-based (BH, SB, FB, AOB, KS, DE, Solkoff): Type A, C, BC.
    Opponents,
    /// Rating-based, Art. 10.
    Rating,
    /// Own results, Art. 7 (Type B).
    OwnResults,
}

/// Where a per-round value of an opponent-based tie-break comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RoundSource {
    Opponent(usize),
    /// Own unplayed round evaluated against the dummy (2024/2026).
    Dummy {
        category: Category,
        cap: Option<DummyCap>,
    },
    /// Own unplayed game evaluated against the seed's virtual opponent.
    Virtual,
}

/// The prepared event plus everything Arts. 15–16 derive from it.
pub(crate) struct Context<'a> {
    pub p: &'a Prepared,
    pub edition: Edition,
    /// Category per slot (only for unplayed rounds).
    pub category: Vec<Option<Category>>,
    /// Art. 16.3 adjusted score per player (seed: unplayed games counted as draws).
    pub adjusted: Vec<i64>,
}

impl<'a> Context<'a> {
    pub(crate) fn new(p: &'a Prepared, edition: Edition) -> Context<'a> {
        let mut category = vec![None; p.slots.len()];
        let mut adjusted = vec![0i64; p.n];
        for (i, adjusted_i) in adjusted.iter_mut().enumerate() {
            // Walk backwards so "followed by a non-VUR round" is known (16.2.3 vs 16.2.5).
            let mut later_non_vur = false;
            for r in (0..p.rounds).rev() {
                let k = p.at(i, r);
                let s = p.slots[k];
                category[k] = match s {
                    Slot::Game(..) => None,
                    Slot::Pab | Slot::Fpb => Some(Category::PabOrFpb),
                    Slot::ForfeitWin(_) => Some(Category::ForfeitWin),
                    Slot::ForfeitLoss(_) => Some(Category::ForfeitLoss),
                    Slot::Hpb | Slot::Zpb => Some(if later_non_vur {
                        Category::RequestedByeThenPlayed
                    } else {
                        Category::RequestedByeToTheEnd
                    }),
                };
                if !s.is_vur() {
                    later_non_vur = true;
                }
            }
            let mut adj = 0;
            for r in 0..p.rounds {
                let k = p.at(i, r);
                adj += match edition {
                    Edition::SeedC06 => match p.slots[k] {
                        Slot::Game(..) => p.pts[k],
                        _ => p.scoring.draw,
                    },
                    // Art. 15.2: in a round robin forfeits are the only unplayed rounds
                    // and Art. 16 is for Swiss events (15.3); a round without a game or a
                    // forfeit there is the rest round of an odd field, counted at the
                    // points awarded, not as a draw (ADR tiebreak-014).
                    _ if p.kind == EventKind::RoundRobin => p.pts[k],
                    _ => {
                        if category[k] == Some(Category::RequestedByeToTheEnd) {
                            p.scoring.draw
                        } else {
                            p.pts[k]
                        }
                    }
                };
            }
            *adjusted_i = adj;
        }
        Context {
            p,
            edition,
            category,
            adjusted,
        }
    }

    /// Whether slot `k` counts as a game against its (scheduled) opponent for this class
    /// of tie-break (Art. 15.2 for round robins, `/P`, Art. 6.1.1).
    pub(crate) fn counts_as_game(&self, k: usize, class: Class, forfeits_as_played: bool) -> bool {
        let slot = self.p.slots[k];
        match slot {
            Slot::Game(..) => true,
            Slot::ForfeitWin(_) | Slot::ForfeitLoss(_) => {
                if self.edition == Edition::SeedC06 {
                    return false;
                }
                let rr = self.p.kind == EventKind::RoundRobin;
                match class {
                    Class::Opponents => rr || forfeits_as_played,
                    // 2026 15.2: all forfeits remain unplayed for Art. 10.
                    Class::Rating => rr && self.edition == Edition::C07_2024,
                    // 2026 15.2: forfeit losses remain unplayed in Type-B tie-breaks.
                    Class::OwnResults => {
                        rr && (self.edition == Edition::C07_2024
                            || matches!(slot, Slot::ForfeitWin(_)))
                    }
                }
            }
            _ => false,
        }
    }

    /// The score that represents round `r` of participant `i` in BH/SB/FB (Art. 16),
    /// with its source, and whether the round is a VUR for the cut exception 16.5.
    pub(crate) fn round_score(
        &self,
        i: usize,
        r: usize,
        forfeits_as_played: bool,
    ) -> (i64, RoundSource, bool) {
        let p = self.p;
        let k = p.at(i, r);
        if self.counts_as_game(k, Class::Opponents, forfeits_as_played) {
            let j = p.opp[k];
            return (self.adjusted[j], RoundSource::Opponent(j), false);
        }
        let vur = p.slots[k].is_vur();
        let own = p.total[i];
        match self.edition {
            Edition::SeedC06 => {
                // Ov = Sp + (1 − Sr) + 0.5 × (N − R), in units.
                let start = p.at(i, 0);
                let sp: i64 = p.pts[start..k].iter().sum();
                let sr = p.pts[k];
                let remaining = (p.rounds - r - 1) as i64;
                let ov = sp + (p.scoring.win - sr) + p.scoring.draw * remaining;
                (ov, RoundSource::Virtual, vur)
            }
            Edition::C07_2024 => {
                let category = self.category[k].unwrap_or(Category::RequestedByeToTheEnd);
                (
                    own,
                    RoundSource::Dummy {
                        category,
                        cap: None,
                    },
                    vur,
                )
            }
            Edition::C07_2026 => {
                let category = self.category[k].unwrap_or(Category::RequestedByeToTheEnd);
                let (limit, cap) = match category {
                    Category::ForfeitWin | Category::ForfeitLoss if p.opp[k] != NO_OPP => {
                        let j = p.opp[k];
                        (
                            self.adjusted[j],
                            DummyCap::ScheduledOpponentAdjustedScore {
                                opponent_tpn: p.tpn[j],
                            },
                        )
                    }
                    _ => (p.scoring.draw * p.rounds as i64, DummyCap::DrawTimesRounds),
                };
                let value = own.min(limit);
                (
                    value,
                    RoundSource::Dummy {
                        category,
                        cap: (limit < own).then_some(cap),
                    },
                    vur,
                )
            }
        }
    }
}
