//! Tie-break values *with their working*, so an arbiter can explain a place: which
//! opponents contributed which values, which were cut, which dummy values were used.

use crate::exact::Exact;
use crate::unplayed_rounds::{Category, DummyCap};
use serde::{Deserialize, Serialize};

/// Where one contribution to a tie-break comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// An opponent (their adjusted score, rating, Buchholz, TPR, ...).
    Opponent { tpn: u32 },
    /// The Art. 16.4 dummy for one of the participant's own unplayed rounds. Uncapped, its
    /// score is the participant's own final score ([`crate::Row::points`]); `cap` names the
    /// 2026 cap when it lowered that score.
    Dummy {
        category: Category,
        cap: Option<DummyCap>,
    },
    /// The seed's virtual opponent `Ov = Sp + (1 − Sr) + 0.5 × (N − R)`.
    VirtualOpponent,
    /// The participant's own round (counts, progressive scores, STD).
    OwnRound,
    /// The participant's own data (TPN, rating).
    OwnData,
}

/// One value that went into a tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contribution {
    /// 1-based round, if the value belongs to a round.
    pub round: Option<u32>,
    pub source: Source,
    pub value: Exact,
    /// Removed by a Cut/Median modifier (Art. 14, 16.5).
    pub cut: bool,
}

/// The working of one tie-break value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Working {
    /// Empty when working was not requested ([`crate::Options::with_working`]).
    pub contributions: Vec<Contribution>,
    /// How the contributions were combined (e.g. "average 4501/3 rounded half up").
    pub note: Option<String>,
}

/// A tie-break value of one participant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TieBreakValue {
    /// `None` when the tie-break has no value for this participant (e.g. TPR without games,
    /// DE for a participant who was not tied); such values rank below every value.
    pub value: Option<Exact>,
    pub working: Working,
}

/// Collects contributions only when working is wanted.
pub(crate) struct Recorder {
    pub on: bool,
    pub items: Vec<Contribution>,
}

impl Recorder {
    pub(crate) fn new(on: bool) -> Recorder {
        Recorder {
            on,
            items: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, round: Option<usize>, source: Source, value: Exact, cut: bool) {
        self.push_with(round, source, || value, cut);
    }

    /// Like [`Recorder::push`], computing the value only when working is recorded.
    pub(crate) fn push_with(
        &mut self,
        round: Option<usize>,
        source: Source,
        value: impl FnOnce() -> Exact,
        cut: bool,
    ) {
        if self.on {
            let value = value();
            if self.items.capacity() == 0 {
                self.items.reserve_exact(12);
            }
            self.items.push(Contribution {
                round: round.map(|r| r as u32 + 1),
                source,
                value,
                cut,
            });
        }
    }

    pub(crate) fn finish(self, value: Option<Exact>, note: Option<String>) -> TieBreakValue {
        TieBreakValue {
            value,
            working: Working {
                contributions: self.items,
                note: if self.on { note } else { None },
            },
        }
    }
}

/// Per-call environment shared by the tie-break computations.
pub(crate) struct Env {
    /// Rating per participant index, unrated resolved by the announced handling.
    pub ratings: Vec<i64>,
    /// Whether to record contributions.
    pub working: bool,
}
