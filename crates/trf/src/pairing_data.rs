//! What a pairing engine (and the registry) needs from a TRF, whatever the dialect: total
//! rounds (`142`/`XXR`), initial colour (`152`/`XXC`), accelerations (`250`/`XXA`), forbidden
//! pairings (`260`/`XXP`), byes known in advance (`240`, `0000 - H/F/Z` blocks, `XXZ`), and
//! the scoring system ([`crate::ScoringSystem::from_document`]).
//!
//! When both dialects give a value, the FIDE record wins (`142` over `XXR`, `152` over `XXC`);
//! [`crate::validate()`] reports a disagreement (ADR trf-002).

use crate::document::TrfDocument;
use crate::engine_extensions::XxcOption;
use crate::field::Field;
use crate::header::InitialColour;
use crate::pairing_records::ByeKind;
use crate::player::{Colour, Opponent, ResultCode};
use crate::record::Record;
use crate::score::Score;

/// Total number of rounds: the first readable `142`, else the first readable `XXR`.
pub fn total_rounds(doc: &TrfDocument) -> Option<u16> {
    let from = |want_142: bool| {
        doc.records().find_map(|r| match r {
            Record::NumberOfRounds(Field::Value(n)) if want_142 => Some(*n),
            Record::XxRounds(Field::Value(n)) if !want_142 => Some(*n),
            _ => None,
        })
    };
    from(true).or_else(|| from(false))
}

/// Round-1 colour of the top player: the first readable `152`, else the last `white1`/`black1`
/// of the `XXC` records (they are cumulative). `None` = not declared (infer it from round 1).
pub fn initial_colour(doc: &TrfDocument) -> Option<InitialColour> {
    let from_152 = doc.records().find_map(|r| match r {
        Record::InitialColour(Field::Value(c)) => Some(*c),
        _ => None,
    });
    from_152.or_else(|| {
        doc.records()
            .filter_map(|r| match r {
                Record::XxColour(opts) => Some(opts),
                _ => None,
            })
            .flatten()
            .filter_map(|o| match o {
                XxcOption::White1 => Some(InitialColour::White),
                XxcOption::Black1 => Some(InitialColour::Black),
                _ => None,
            })
            .last()
    })
}

/// `XXC rank`: pair by position in the file instead of by starting rank.
pub fn pairs_by_file_position(doc: &TrfDocument) -> bool {
    doc.records()
        .any(|r| matches!(r, Record::XxColour(o) if o.contains(&XxcOption::Rank)))
}

/// Where a derived fact came from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Source {
    /// A TRF26 record (`240`, `250`, `260`).
    Trf26,
    /// A round block of a `001` record.
    PlayerRecord,
    /// A JaVaFo extension (`XXA`, `XXP`, `XXZ`).
    JaVaFo,
}

/// Fictitious points given to a range of players over a range of rounds (`250`), or to one
/// player in one round (`XXA`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Acceleration {
    /// First and last round (inclusive).
    pub rounds: (u16, u16),
    /// First and last player / team id (inclusive).
    pub players: (u16, u16),
    /// Fictitious (game) points.
    pub points: Score,
    /// Fictitious match points (team events), if given.
    pub match_points: Option<Score>,
    /// `250` or `XXA`.
    pub source: Source,
}

impl Acceleration {
    /// True if it applies to `player` in `round`.
    pub fn applies(&self, player: u16, round: u16) -> bool {
        (self.rounds.0..=self.rounds.1).contains(&round)
            && (self.players.0..=self.players.1).contains(&player)
    }
}

/// Every readable acceleration, `250` records then `XXA` entries, in file order. Records with
/// an unreadable round or id are skipped (validation reports them).
pub fn accelerations(doc: &TrfDocument) -> Vec<Acceleration> {
    let mut out = Vec::new();
    for r in doc.records() {
        if let Record::Acceleration(a) = r
            && let (Some(fr), Some(fp)) = (a.first_round.get(), a.first_player.get())
        {
            out.push(Acceleration {
                rounds: (fr, a.last_round.get().unwrap_or(fr)),
                players: (fp, a.last_player.get().unwrap_or(fp)),
                points: a.points.get().unwrap_or(Score::ZERO),
                match_points: a.match_points.get(),
                source: Source::Trf26,
            });
        }
    }
    for r in doc.records() {
        if let Record::XxAcceleration(a) = r
            && let Some(player) = a.player.get()
        {
            for (i, p) in a.points.iter().enumerate() {
                let (Some(points), Ok(round)) = (p.get(), u16::try_from(i + 1)) else {
                    continue;
                };
                out.push(Acceleration {
                    rounds: (round, round),
                    players: (player, player),
                    points,
                    match_points: None,
                    source: Source::JaVaFo,
                });
            }
        }
    }
    out
}

/// Total fictitious points of `player` in `round` (sum over the applicable accelerations).
pub fn acceleration_points(accelerations: &[Acceleration], player: u16, round: u16) -> Score {
    accelerations
        .iter()
        .filter(|a| a.applies(player, round))
        .map(|a| a.points)
        .sum()
}

/// Players (or teams) none of whom may meet another, in a range of rounds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ForbiddenPairing {
    /// First and last round (inclusive); `None` = every round (`XXP`).
    pub rounds: Option<(u16, u16)>,
    /// The ids.
    pub players: Vec<u16>,
    /// `260` or `XXP`.
    pub source: Source,
}

impl ForbiddenPairing {
    /// True if `a` and `b` may not meet in `round`.
    pub fn forbids(&self, a: u16, b: u16, round: u16) -> bool {
        let in_rounds = self.rounds.is_none_or(|(f, l)| (f..=l).contains(&round));
        a != b && in_rounds && self.players.contains(&a) && self.players.contains(&b)
    }
}

/// Every forbidden-pairing group: `260` records then `XXP` records, in file order (unreadable
/// ids are skipped).
pub fn forbidden_pairings(doc: &TrfDocument) -> Vec<ForbiddenPairing> {
    let mut out = Vec::new();
    for r in doc.records() {
        if let Record::ProhibitedPairing(p) = r {
            let first = p.first_round.get().unwrap_or(1);
            let last = p.last_round.get().unwrap_or(first);
            out.push(ForbiddenPairing {
                rounds: Some((first, last)),
                players: p.players.iter().filter_map(Field::get).collect(),
                source: Source::Trf26,
            });
        }
    }
    for r in doc.records() {
        if let Record::XxProhibited(ids) = r {
            out.push(ForbiddenPairing {
                rounds: None,
                players: ids.iter().filter_map(Field::get).collect(),
                source: Source::JaVaFo,
            });
        }
    }
    out
}

/// A bye known before pairing a round.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct KnownBye {
    /// Round.
    pub round: u16,
    /// Player (or team) id.
    pub player: u16,
    /// Full, half or zero.
    pub kind: ByeKind,
    /// `240`, a `0000 - H/F/Z` round block, or `XXZ` (zero-point, for the next round).
    pub source: Source,
}

/// The round a partial TRF is waiting to pair: one after the last round in which some player
/// has a scheduled opponent (1 if none).
pub fn next_round(doc: &TrfDocument) -> u16 {
    let last = doc
        .players()
        .flat_map(|p| {
            p.rounds
                .iter()
                .enumerate()
                .filter(|(_, r)| matches!(r.opponent, Opponent::Player(_)))
                .map(|(i, _)| i + 1)
        })
        .max()
        .unwrap_or(0);
    u16::try_from(last + 1).unwrap_or(u16::MAX)
}

/// Byes known in advance: `240` records, round blocks without an opponent whose code is `H`,
/// `F` or `Z`, and `XXZ` ids (zero-point byes in [`next_round`]). Sorted by round, player and
/// source, duplicates removed.
pub fn known_byes(doc: &TrfDocument) -> Vec<KnownBye> {
    let mut out = Vec::new();
    for r in doc.records() {
        if let Record::Bye(b) = r
            && let (Some(kind), Some(round)) = (b.bye_kind(), b.round.get())
        {
            for p in b.players.iter().filter_map(Field::get) {
                out.push(KnownBye {
                    round,
                    player: p,
                    kind,
                    source: Source::Trf26,
                });
            }
        }
    }
    for p in doc.players() {
        let Some(tpn) = p.tpn() else { continue };
        for (i, block) in p.rounds.iter().enumerate() {
            let kind = match block.result {
                ResultCode::HalfPointBye => ByeKind::Half,
                ResultCode::FullPointBye => ByeKind::Full,
                ResultCode::ZeroPointBye => ByeKind::Zero,
                _ => continue,
            };
            let no_opponent = matches!(block.opponent, Opponent::Zero | Opponent::Blank);
            let no_colour = matches!(block.colour, Colour::None | Colour::Blank);
            if let (true, true, Ok(round)) = (no_opponent, no_colour, u16::try_from(i + 1)) {
                out.push(KnownBye {
                    round,
                    player: tpn,
                    kind,
                    source: Source::PlayerRecord,
                });
            }
        }
    }
    let next = next_round(doc);
    for r in doc.records() {
        if let Record::XxAbsent(ids) = r {
            for p in ids.iter().filter_map(Field::get) {
                out.push(KnownBye {
                    round: next,
                    player: p,
                    kind: ByeKind::Zero,
                    source: Source::JaVaFo,
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> TrfDocument {
        crate::parse(text.as_bytes()).expect("parse").doc
    }

    #[test]
    fn rounds_and_colour_prefer_trf26_records() {
        let d = doc("012 x\nXXR 9\n142 7\nXXC white1\n152 B\n");
        assert_eq!(total_rounds(&d), Some(7));
        assert_eq!(initial_colour(&d), Some(InitialColour::Black));
        let d = doc("012 x\nXXR 9\nXXC rank black1\n");
        assert_eq!(total_rounds(&d), Some(9));
        assert_eq!(initial_colour(&d), Some(InitialColour::Black));
        assert!(pairs_by_file_position(&d));
        assert_eq!(initial_colour(&doc("012 x\n")), None);
    }

    #[test]
    fn accelerations_from_250_and_xxa() {
        // TRF26 sample (Grandmommy's Cup) `250  2.0        1   1    1    2` puts 2.0 in 5–8.
        let d = doc("012 x\n250       1.0   1   2    1   25\nXXA    3  1.0  0.5\n");
        let acc = accelerations(&d);
        assert_eq!(acceleration_points(&acc, 10, 2), Score::ONE);
        assert_eq!(acceleration_points(&acc, 30, 2), Score::ZERO);
        assert_eq!(acceleration_points(&acc, 3, 1), Score::from_tenths(20));
        assert_eq!(acceleration_points(&acc, 3, 2), Score::from_tenths(15));
        assert_eq!(acceleration_points(&acc, 3, 3), Score::ZERO);
    }

    #[test]
    fn forbidden_pairings_from_260_and_xxp() {
        let d = doc("012 x\n260   1   2    1   11   16\nXXP 4 5\n");
        let f = forbidden_pairings(&d);
        assert!(f.iter().any(|g| g.forbids(1, 16, 2)));
        assert!(!f.iter().any(|g| g.forbids(1, 16, 3)));
        assert!(f.iter().any(|g| g.forbids(5, 4, 99)));
        assert!(!f.iter().any(|g| g.forbids(4, 4, 1)));
    }

    #[test]
    fn known_byes_from_all_three_sources() {
        let text = "012 x\n\
001    1      A                                                                  1.0    1     2 w 1  0000 - H\n\
001    2      B                                                                  0.0    2     1 b 0\n\
001    3      C                                                                  0.0    3  0000 - Z\n\
240 F   2    2\n\
XXZ 3\n";
        let d = doc(text);
        assert_eq!(next_round(&d), 2);
        let byes = known_byes(&d);
        assert_eq!(
            byes,
            vec![
                KnownBye {
                    round: 1,
                    player: 3,
                    kind: ByeKind::Zero,
                    source: Source::PlayerRecord
                },
                KnownBye {
                    round: 2,
                    player: 1,
                    kind: ByeKind::Half,
                    source: Source::PlayerRecord
                },
                KnownBye {
                    round: 2,
                    player: 2,
                    kind: ByeKind::Full,
                    source: Source::Trf26
                },
                KnownBye {
                    round: 2,
                    player: 3,
                    kind: ByeKind::Zero,
                    source: Source::JaVaFo
                },
            ]
        );
    }
}
