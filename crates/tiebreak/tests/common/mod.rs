//! Test helpers: build crosstables from a compact round notation.
//!
//! Each round is a `;`-separated list of:
//! * `a-b 1-0` / `a-b 0-1` / `a-b =`: a game, `a` White, `b` Black;
//! * `a-b +-` (a wins by forfeit) / `a-b -+` (b wins by forfeit) / `a-b --` (double forfeit),
//!   colours as scheduled;
//! * `a PAB` / `a FPB` / `a HPB` / `a ZPB` / `a WD` / `a ABS` / `a NYE`.
#![allow(dead_code)]

pub mod trf;

use std::collections::BTreeMap;
use tiebreak::*;

pub fn event(kind: EventKind, players: &[(u32, Option<u32>)], rounds: &[&str]) -> Crosstable {
    event_with(kind, Scoring::classical(), players, rounds)
}

pub fn event_with(
    kind: EventKind,
    scoring: Scoring,
    players: &[(u32, Option<u32>)],
    rounds: &[&str],
) -> Crosstable {
    let mut entries: BTreeMap<u32, Vec<RoundEntry>> =
        players.iter().map(|&(t, _)| (t, Vec::new())).collect();
    for (r, line) in rounds.iter().enumerate() {
        for item in line.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let (who, what) = item.split_once(' ').expect(item);
            if let Some((a, b)) = who.split_once('-') {
                let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
                use Colour::*;
                use GameResult::*;
                let played = |o, colour, result| RoundEntry::Played {
                    opponent: o,
                    colour,
                    result,
                };
                let (ea, eb) = match what {
                    "1-0" => (played(b, White, Win), played(a, Black, Loss)),
                    "0-1" => (played(b, White, Loss), played(a, Black, Win)),
                    "=" => (played(b, White, Draw), played(a, Black, Draw)),
                    "+-" => (
                        RoundEntry::ForfeitWin {
                            opponent: b,
                            colour: Some(White),
                        },
                        RoundEntry::ForfeitLoss {
                            opponent: a,
                            colour: Some(Black),
                        },
                    ),
                    "-+" => (
                        RoundEntry::ForfeitLoss {
                            opponent: b,
                            colour: Some(White),
                        },
                        RoundEntry::ForfeitWin {
                            opponent: a,
                            colour: Some(Black),
                        },
                    ),
                    "--" => (
                        RoundEntry::ForfeitLoss {
                            opponent: b,
                            colour: Some(White),
                        },
                        RoundEntry::ForfeitLoss {
                            opponent: a,
                            colour: Some(Black),
                        },
                    ),
                    _ => panic!("bad result {item}"),
                };
                entries.get_mut(&a).unwrap().push(ea);
                entries.get_mut(&b).unwrap().push(eb);
            } else {
                let t: u32 = who.parse().unwrap();
                let e = match what {
                    "PAB" => RoundEntry::PairingAllocatedBye,
                    "FPB" => RoundEntry::FullPointBye,
                    "HPB" => RoundEntry::HalfPointBye,
                    "ZPB" => RoundEntry::ZeroPointBye,
                    "WD" => RoundEntry::Withdrawn,
                    "ABS" => RoundEntry::Absent,
                    "NYE" => RoundEntry::NotYetEntered,
                    _ => panic!("bad bye {item}"),
                };
                entries.get_mut(&t).unwrap().push(e);
            }
        }
        for (t, e) in &entries {
            assert_eq!(e.len(), r + 1, "player {t} missing in round {}", r + 1);
        }
    }
    Crosstable {
        kind,
        rounds_played: rounds.len() as u32,
        scoring,
        players: players
            .iter()
            .map(|&(tpn, rating)| Participant {
                tpn,
                rating,
                federation: None,
                name: None,
                entries: entries[&tpn].clone(),
            })
            .collect(),
    }
}

pub fn run(ct: &Crosstable, edition: Edition, codes: &[&str]) -> Standings {
    let list = parse_list(codes, edition).unwrap();
    standings(ct, edition, &list, &Options::default()).unwrap()
}

/// Value of tie-break column `col` for participant `tpn`, displayed exactly.
pub fn val(s: &Standings, tpn: u32, col: usize) -> String {
    let row = s.rows.iter().find(|r| r.tpn == tpn).unwrap();
    match row.values[col].value {
        Some(v) => v.to_string(),
        None => "-".into(),
    }
}

/// The values of column `col` for the participants 1..=n in TPN order.
pub fn column(s: &Standings, col: usize, tpns: &[u32]) -> Vec<String> {
    tpns.iter().map(|&t| val(s, t, col)).collect()
}

pub fn order(s: &Standings) -> Vec<u32> {
    s.rows.iter().map(|r| r.tpn).collect()
}

pub fn ranks(s: &Standings) -> Vec<(u32, u32)> {
    s.rows.iter().map(|r| (r.tpn, r.rank)).collect()
}
