//! The scoring system of an event: points per result code, from record `162` (TRF26),
//! bbpPairings' `BBW BBD BBL BBZ BBF BBU` and JaVaFo's `XXS`, over the defaults 1 / ½ / 0.
//!
//! Precedence (ADR trf-002): defaults, then every `162` in file order, then every `BB?` in
//! file order, then every `XXS` item in file order (the most expressive dialect last; within
//! `XXS` the last value wins, as JaVaFo specifies).

use crate::document::TrfDocument;
use crate::engine_extensions::BbPointKind;
use crate::player::{Colour, ResultCode, RoundResult};
use crate::record::Record;
use crate::score::Score;

/// Points for every kind of result. Colour-dependent values exist because `XXS` can set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ScoringSystem {
    /// Win with White (`1`, `W`).
    pub white_win: Score,
    /// Win with Black.
    pub black_win: Score,
    /// Draw with White (`=`, `D`).
    pub white_draw: Score,
    /// Draw with Black.
    pub black_draw: Score,
    /// Played loss with White (`0`, `L`).
    pub white_loss: Score,
    /// Played loss with Black.
    pub black_loss: Score,
    /// Forfeit win (`+`).
    pub forfeit_win: Score,
    /// Forfeit loss (`-`).
    pub forfeit_loss: Score,
    /// Full-point bye (`F`).
    pub full_point_bye: Score,
    /// Half-point bye (`H`).
    pub half_point_bye: Score,
    /// Zero-point bye (`Z`, blank).
    pub zero_point_bye: Score,
    /// Pairing-allocated bye (`U`).
    pub pairing_allocated_bye: Score,
    /// Unknown result, e.g. adjourned (`162` symbol `X`; no result code of `001` uses it).
    pub unknown: Score,
}

impl Default for ScoringSystem {
    fn default() -> Self {
        ScoringSystem::fide_default()
    }
}

impl ScoringSystem {
    /// FIDE defaults: win, forfeit win, FPB and PAB 1; draw and HPB ½; everything else 0.
    pub const fn fide_default() -> ScoringSystem {
        ScoringSystem {
            white_win: Score::ONE,
            black_win: Score::ONE,
            white_draw: Score::HALF,
            black_draw: Score::HALF,
            white_loss: Score::ZERO,
            black_loss: Score::ZERO,
            forfeit_win: Score::ONE,
            forfeit_loss: Score::ZERO,
            full_point_bye: Score::ONE,
            half_point_bye: Score::HALF,
            zero_point_bye: Score::ZERO,
            pairing_allocated_bye: Score::ONE,
            unknown: Score::HALF,
        }
    }

    /// Win 3, draw 1, loss 0 (byes and forfeits follow: FPB and PAB 3, HPB 1).
    pub const fn three_one_zero() -> ScoringSystem {
        let three = Score::from_points(3);
        let one = Score::ONE;
        ScoringSystem {
            white_win: three,
            black_win: three,
            white_draw: one,
            black_draw: one,
            white_loss: Score::ZERO,
            black_loss: Score::ZERO,
            forfeit_win: three,
            forfeit_loss: Score::ZERO,
            full_point_bye: three,
            half_point_bye: one,
            zero_point_bye: Score::ZERO,
            pairing_allocated_bye: three,
            unknown: one,
        }
    }

    /// Points for one round block, or `None` for an unknown result code. The colour picks the
    /// White or Black value of a game (no colour counts as White).
    pub fn points_for(&self, round: &RoundResult) -> Option<Score> {
        let black = round.colour == Colour::Black;
        let pick = |w: Score, b: Score| if black { b } else { w };
        Some(match round.result {
            ResultCode::Win | ResultCode::UnratedWin => pick(self.white_win, self.black_win),
            ResultCode::Draw | ResultCode::UnratedDraw => pick(self.white_draw, self.black_draw),
            ResultCode::Loss | ResultCode::UnratedLoss => pick(self.white_loss, self.black_loss),
            ResultCode::ForfeitWin => self.forfeit_win,
            ResultCode::ForfeitLoss => self.forfeit_loss,
            ResultCode::FullPointBye => self.full_point_bye,
            ResultCode::HalfPointBye => self.half_point_bye,
            ResultCode::ZeroPointBye | ResultCode::Blank => self.zero_point_bye,
            ResultCode::PairingAllocatedBye => self.pairing_allocated_bye,
            ResultCode::Unknown(_) => return None,
        })
    }

    /// The sum of [`ScoringSystem::points_for`] over rounds; `None` if any code is unknown.
    pub fn total(&self, rounds: &[RoundResult]) -> Option<Score> {
        rounds.iter().map(|r| self.points_for(r)).sum()
    }

    /// Applies one `162` symbol (`W D L A P X`); returns false for an unknown symbol.
    fn apply_162(
        &mut self,
        symbol: char,
        v: Score,
        explicit_p: &mut bool,
        explicit_x: &mut bool,
    ) -> bool {
        match symbol.to_ascii_uppercase() {
            'W' => {
                self.white_win = v;
                self.black_win = v;
                self.forfeit_win = v;
                self.full_point_bye = v;
                if !*explicit_p {
                    self.pairing_allocated_bye = v;
                }
            }
            'D' => {
                self.white_draw = v;
                self.black_draw = v;
                self.half_point_bye = v;
            }
            'L' => {
                self.white_loss = v;
                self.black_loss = v;
            }
            'A' => {
                self.zero_point_bye = v;
                self.forfeit_loss = v;
            }
            'P' => {
                self.pairing_allocated_bye = v;
                *explicit_p = true;
            }
            'X' => {
                self.unknown = v;
                *explicit_x = true;
            }
            _ => return false,
        }
        true
    }

    /// Applies one `XXS` code; returns false for an unknown code.
    pub fn apply_xxs(&mut self, code: &str, v: Score) -> bool {
        match code {
            "WW" => self.white_win = v,
            "BW" => self.black_win = v,
            "WD" => self.white_draw = v,
            "BD" => self.black_draw = v,
            "WL" => self.white_loss = v,
            "BL" => self.black_loss = v,
            "ZPB" => self.zero_point_bye = v,
            "HPB" => self.half_point_bye = v,
            "FPB" => self.full_point_bye = v,
            "PAB" => self.pairing_allocated_bye = v,
            "FW" => self.forfeit_win = v,
            "FL" => self.forfeit_loss = v,
            "W" => {
                self.white_win = v;
                self.black_win = v;
                self.forfeit_win = v;
                self.full_point_bye = v;
            }
            "D" => {
                self.white_draw = v;
                self.black_draw = v;
                self.half_point_bye = v;
            }
            _ => return false,
        }
        true
    }

    /// Applies one bbpPairings `BB?` value.
    pub fn apply_bb(&mut self, kind: BbPointKind, v: Score, explicit_u: &mut bool) {
        match kind {
            BbPointKind::Win => {
                self.white_win = v;
                self.black_win = v;
                self.forfeit_win = v;
                self.full_point_bye = v;
                if !*explicit_u {
                    self.pairing_allocated_bye = v;
                }
            }
            BbPointKind::Draw => {
                self.white_draw = v;
                self.black_draw = v;
                self.half_point_bye = v;
            }
            BbPointKind::Loss => {
                self.white_loss = v;
                self.black_loss = v;
            }
            BbPointKind::ZeroPointBye => self.zero_point_bye = v,
            BbPointKind::ForfeitLoss => self.forfeit_loss = v,
            BbPointKind::PairingAllocatedBye => {
                self.pairing_allocated_bye = v;
                *explicit_u = true;
            }
        }
    }

    /// The scoring system a document declares (see the module docs for precedence). Unreadable
    /// values and unknown symbols are skipped here and reported by [`crate::validate()`].
    pub fn from_document(doc: &TrfDocument) -> ScoringSystem {
        let mut s = ScoringSystem::fide_default();
        let (mut explicit_p, mut explicit_x, mut explicit_u) = (false, false, false);
        for r in doc.records() {
            if let Record::ScoringSystem(rec) = r {
                for e in &rec.entries {
                    if let Some(v) = e.points.get() {
                        s.apply_162(e.symbol, v, &mut explicit_p, &mut explicit_x);
                    }
                }
            }
        }
        for r in doc.records() {
            if let Record::BbPoints { kind, value } = r
                && let Some(v) = value.get()
            {
                s.apply_bb(*kind, v, &mut explicit_u);
            }
        }
        for r in doc.records() {
            if let Record::XxScoring(items) = r {
                for item in items {
                    if let Some(v) = item.value.get() {
                        s.apply_xxs(&item.code, v);
                    }
                }
            }
        }
        if !explicit_x {
            // TRF26 tag 162: X (unknown result) is "same as D" unless given.
            s.unknown = s.white_draw;
        }
        s
    }
}

/// True if `symbol` is a `162` symbol.
pub fn is_162_symbol(symbol: char) -> bool {
    matches!(
        symbol.to_ascii_uppercase(),
        'W' | 'D' | 'L' | 'A' | 'P' | 'X'
    )
}

/// True if `code` is an `XXS` code.
pub fn is_xxs_code(code: &str) -> bool {
    matches!(
        code,
        "WW" | "BW"
            | "WD"
            | "BD"
            | "WL"
            | "BL"
            | "ZPB"
            | "HPB"
            | "FPB"
            | "PAB"
            | "FW"
            | "FL"
            | "W"
            | "D"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> TrfDocument {
        crate::parse(text.as_bytes()).expect("parse").doc
    }

    #[test]
    fn defaults_are_one_half_zero() {
        let s = ScoringSystem::from_document(&doc("012 x\n"));
        assert_eq!(s, ScoringSystem::fide_default());
    }

    #[test]
    fn record_162_three_one_zero_makes_pab_follow_the_win() {
        // Pairing corpus dutch-2026-3-1-0: `162  W 3.0    D 1.0`; TRF26 tag 162: P = W by default.
        let s = ScoringSystem::from_document(&doc("012 x\n162  W 3.0    D 1.0\n"));
        assert_eq!(s, ScoringSystem::three_one_zero());
    }

    #[test]
    fn record_162_explicit_pab_and_absence() {
        let s =
            ScoringSystem::from_document(&doc("012 x\n162  W 3.0    D 1.0    P 1.0    A 0.5\n"));
        assert_eq!(s.pairing_allocated_bye, Score::ONE);
        assert_eq!(s.forfeit_loss, Score::HALF);
        assert_eq!(s.zero_point_bye, Score::HALF);
        assert_eq!(s.white_win, Score::from_points(3));
    }

    #[test]
    fn xxs_javafo_examples() {
        // JaVaFo AUM: 3/1/0 with PAB = win.
        let s = ScoringSystem::from_document(&doc("012 x\nXXS PAB=3 D=1 W=3\n"));
        assert_eq!(s, ScoringSystem::three_one_zero());
        // JaVaFo AUM: 3/2/1/0.
        let s =
            ScoringSystem::from_document(&doc("012 x\nXXS FL=0 W=3 D=2 PAB=2 WL=1 BL=1 ZPB=1\n"));
        assert_eq!(s.white_loss, Score::ONE);
        assert_eq!(s.black_loss, Score::ONE);
        assert_eq!(s.forfeit_loss, Score::ZERO);
        assert_eq!(s.pairing_allocated_bye, Score::from_points(2));
        assert_eq!(s.half_point_bye, Score::from_points(2));
        assert_eq!(s.zero_point_bye, Score::ONE);
    }

    #[test]
    fn bbp_values_and_bbu_default() {
        let s = ScoringSystem::from_document(&doc("012 x\nBBW  3.0\nBBD  1.0\n"));
        assert_eq!(s.pairing_allocated_bye, Score::from_points(3));
        let s = ScoringSystem::from_document(&doc("012 x\nBBU  1.0\nBBW  3.0\n"));
        assert_eq!(s.pairing_allocated_bye, Score::ONE);
    }

    #[test]
    fn xxs_overrides_162() {
        let s = ScoringSystem::from_document(&doc("012 x\nXXS W=2\n162  W 3.0\n"));
        assert_eq!(s.white_win, Score::from_points(2));
        assert_eq!(s.pairing_allocated_bye, Score::from_points(3));
    }
}
