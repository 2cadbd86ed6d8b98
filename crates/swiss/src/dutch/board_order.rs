//! Board order (C.04.2 Art. 3.6) and colour allocation of the final pairs (Art. 5.2).

use super::Engine;
use crate::colour::allocate;
use crate::model::*;

impl Engine {
    pub(super) fn finish(self) -> RoundPairing {
        let mut boards: Vec<(Board, (Score, Score, Tpn))> = self
            .pairs
            .iter()
            .map(|&(a, b)| {
                let (pa, pb) = (&self.ps[a], &self.ps[b]);
                let ca = allocate(&pa.col, &pb.col, pa.parity_number, self.initial);
                let board = if ca == Colour::White {
                    Board {
                        white: pa.tpn,
                        black: pb.tpn,
                    }
                } else {
                    Board {
                        white: pb.tpn,
                        black: pa.tpn,
                    }
                };
                (board, (pa.score, pa.score + pb.score, pa.tpn))
            })
            .collect();
        // C.04.2 Art. 3.6: score of the higher-ranked player, sum of scores, smaller TPN.
        boards.sort_by(|x, y| {
            y.1.0
                .cmp(&x.1.0)
                .then(y.1.1.cmp(&x.1.1))
                .then(x.1.2.cmp(&y.1.2))
        });
        RoundPairing {
            boards: boards.into_iter().map(|b| b.0).collect(),
            bye: self.bye.map(|b| self.ps[b].tpn),
            explanation: self.explanation,
        }
    }
}
