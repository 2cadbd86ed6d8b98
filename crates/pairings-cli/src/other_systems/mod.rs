//! The other Swiss systems of the seeds, paired from a TRF: the state each pure crate
//! (`lim`, `italoswiss`, `draughtsswiss`, `knockout`) needs is built from [`crate::trf_input`]'s reading
//! of the file, so `arbiter pair` and the pairing service pair from the same reading.
use trf::TrfDocument;

pub mod draughtsswiss;
pub mod italoswiss;
pub mod knockout;
pub mod lim;

/// One round: boards (pairing numbers, White first) in board order, and the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairedRound {
    /// The round paired.
    pub round: usize,
    /// Boards in board order.
    pub boards: Vec<(u32, u32)>,
    /// The player who gets the bye.
    pub bye: Option<u32>,
    /// Facts shown with the boards (edition, acceleration, …).
    pub notes: Vec<(&'static str, String)>,
}

/// Why a round could not be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairError {
    /// The file (or the state it describes) is not valid for the system.
    Invalid(String),
    /// No pairing satisfies the system's absolute rules.
    NoPairing(String),
}

impl std::fmt::Display for PairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairError::Invalid(m) | PairError::NoPairing(m) => f.write_str(m),
        }
    }
}

pub(crate) fn invalid(message: impl Into<String>) -> PairError {
    PairError::Invalid(message.into())
}

pub(crate) fn no_pairing(message: impl Into<String>) -> PairError {
    PairError::NoPairing(message.into())
}

/// The 1/½/0 scoring the Lim, Italo-Swiss and draughts crates count in (half-points, or
/// 2/1/0): the file's scoring must be win 1, draw ½, loss 0. Returns the tenths per
/// half-point (5).
pub fn require_one_half_zero(doc: &TrfDocument, system: &str) -> Result<u32, PairError> {
    let s = crate::trf_input::scoring(doc);
    if s.win != 10 || s.draw != 5 || s.loss != 0 {
        return Err(invalid(format!(
            "the {system} system scores 1/½/0; the file's scoring (162/XXS/BB*) gives win {}, draw {}, loss {}",
            tenths(s.win),
            tenths(s.draw),
            tenths(s.loss)
        )));
    }
    Ok(5)
}

fn tenths(v: u32) -> String {
    format!("{}.{}", v / 10, v % 10)
}
