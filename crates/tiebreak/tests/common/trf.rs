//! A minimal TRF16 player-record reader for the tests (the product's TRF parser lives in
//! another crate). Reads TPN, rating, points, rank and the round blocks.

use tiebreak::*;

pub struct TrfPlayer {
    pub points_tenths: i64,
    pub rank: u32,
}

pub fn read(text: &str) -> (Crosstable, Vec<TrfPlayer>) {
    let mut players = Vec::new();
    let mut extra = Vec::new();
    let mut rounds = 0;
    for line in text.lines().filter(|l| l.starts_with("001")) {
        let field = |a: usize, b: usize| line.get(a..b.min(line.len())).unwrap_or("").trim();
        let tpn: u32 = field(4, 8).parse().unwrap();
        let rating: Option<u32> = field(48, 52).parse().ok().filter(|&r| r > 0);
        let pts: f64 = field(80, 84).parse().unwrap();
        let rank: u32 = field(85, 89).parse().unwrap_or(0);
        let body = line.get(91..).unwrap_or("");
        let mut entries = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let e = format!("{:<8}", body.get(k..(k + 8).min(body.len())).unwrap_or(""));
            k += 10;
            let opp: u32 = e[0..4].trim().parse().unwrap_or(0);
            let colour = match &e[5..6] {
                "w" => Some(Colour::White),
                "b" => Some(Colour::Black),
                _ => None,
            };
            let res = &e[7..8];
            let entry = if opp == 0 {
                match res {
                    "+" | "U" => RoundEntry::PairingAllocatedBye,
                    "F" => RoundEntry::FullPointBye,
                    "H" => RoundEntry::HalfPointBye,
                    "Z" => RoundEntry::ZeroPointBye,
                    _ => RoundEntry::Absent,
                }
            } else {
                let game = |result| RoundEntry::Played {
                    opponent: opp,
                    colour: colour.unwrap_or(Colour::White),
                    result,
                };
                match res {
                    "1" | "W" => game(GameResult::Win),
                    "=" | "D" => game(GameResult::Draw),
                    "0" | "L" => game(GameResult::Loss),
                    "+" => RoundEntry::ForfeitWin {
                        opponent: opp,
                        colour,
                    },
                    _ => RoundEntry::ForfeitLoss {
                        opponent: opp,
                        colour,
                    },
                }
            };
            entries.push(entry);
        }
        rounds = rounds.max(entries.len());
        players.push(Participant {
            tpn,
            rating,
            federation: None,
            name: Some(field(14, 47).to_string()),
            entries,
        });
        extra.push(TrfPlayer {
            points_tenths: (pts * 10.0).round() as i64,
            rank,
        });
    }
    // Trailing rounds missing from a short line: not paired.
    for p in &mut players {
        while p.entries.len() < rounds {
            p.entries.push(RoundEntry::Absent);
        }
    }
    (
        Crosstable {
            kind: EventKind::Swiss,
            rounds_played: rounds as u32,
            scoring: Scoring::classical(),
            players,
        },
        extra,
    )
}
