//! Knockout brackets for any number of players. Seed 000, "Systèmes K.O.":
//!
//! > Il nécessite un nombre de joueurs qui soit une puissance de 2 (2, 4, 8, 16, 32, ...). Si ce
//! > nombre n'est pas atteint, un tour supplémentaire éliminatoire est nécessaire de manière que,
//! > après ce tour, le nombre de joueurs soit une puissance de 2.
//! > Ex. : 47 joueurs : (47 − 32) × 2 = 30. 17 joueurs sont dispensés du 1er tour et 15 joueurs
//! > sont désignés par ce premier tour.
//! > On peut aussi procéder de la sorte : 47 joueurs 23 parties 1 bye; 24 joueurs 12 parties;
//! > 12 → 6; 6 → 3; 3 joueurs 1 partie 1 bye; finale 2 joueurs 1 partie.
//!
//! Three formats ([`BracketFormat`]):
//! - [`BracketFormat::PreliminaryRound`] — the seed's first system: with `P` the largest power of
//!   two `≤ N`, the `(N − P) × 2` lowest seeds play a preliminary round (`2P − N + 1` against
//!   `N`, …), the `2P − N` best seeds are exempt, and the main bracket of `P` is seeded normally
//!   with each qualifier taking the place of the higher seed of its preliminary match.
//! - [`BracketFormat::ByesBySeeding`] — a bracket of the next power of two where the best seeds
//!   meet "bye" slots. It produces the same games as the preliminary round (tested); only the
//!   presentation differs (one bracket, byes shown in round 1).
//! - [`BracketFormat::ByeInEachOddRound`] — the seed's second system: every round with an odd
//!   number of players gives one bye (to the best-seeded player still in, ADR knockout-001),
//!   the others are paired best against worst.
//!
//! Entrants are seeds `1..=N` (1 = best); who is seed 1 (rating order, drawing of lots) is the
//! caller's decision.

use serde::{Deserialize, Serialize};

use crate::KnockoutError;
use crate::seeding::{MAX_BRACKET_SIZE, bracket_order};

/// How a field that is not a power of two is reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum BracketFormat {
    /// Seed 000, first system: a preliminary round brings the field to a power of two.
    #[default]
    PreliminaryRound,
    /// One bracket of the next power of two, the best seeds receiving first-round byes.
    ByesBySeeding,
    /// Seed 000, second system: one bye in every round that has an odd number of players.
    ByeInEachOddRound,
}

/// Who occupies one side of a match: a seeded player, or the winner of an earlier match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Entrant {
    /// The player with this seed (1 = best).
    Seed(u32),
    /// The winner of match `index` (0-based, in that round's order) of round `round` (1-based).
    WinnerOf {
        /// Round number, 1-based.
        round: u32,
        /// Match index in that round, 0-based.
        index: u32,
    },
}

/// One match of a knockout round; `a` is the side with the better nominal seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BracketMatch {
    /// Better nominally seeded side.
    pub a: Entrant,
    /// Other side.
    pub b: Entrant,
}

/// One round of a knockout bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutRound {
    /// Round number, 1-based (round 1 is the preliminary round when there is one).
    pub number: u32,
    /// `true` for the seed's "tour supplémentaire éliminatoire".
    pub preliminary: bool,
    /// Number of players taking part in this round (in a match or with a bye).
    pub players: u32,
    /// The matches, in bracket order.
    pub matches: Vec<BracketMatch>,
    /// Entrants who go through to the next round without playing this one.
    pub byes: Vec<Entrant>,
}

/// A whole knockout bracket, from the first round to the final.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    /// Number of players.
    pub players: u32,
    /// The format used.
    pub format: BracketFormat,
    /// The rounds, the last one being the final.
    pub rounds: Vec<KnockoutRound>,
}

/// A side in the making, with the nominal seed used to order it (the best seed that can be there).
#[derive(Debug, Clone, Copy)]
struct Slot {
    entrant: Entrant,
    nominal: u32,
}

fn winners_of(round: u32, matches: &[(Slot, Slot)]) -> Vec<Slot> {
    matches
        .iter()
        .zip(0u32..)
        .map(|((a, b), index)| Slot {
            entrant: Entrant::WinnerOf { round, index },
            nominal: a.nominal.min(b.nominal),
        })
        .collect()
}

fn to_round(
    number: u32,
    preliminary: bool,
    matches: &[(Slot, Slot)],
    byes: &[Slot],
) -> KnockoutRound {
    let players = u32::try_from(matches.len() * 2 + byes.len()).unwrap_or(u32::MAX);
    KnockoutRound {
        number,
        preliminary,
        players,
        matches: matches
            .iter()
            .map(|(a, b)| BracketMatch {
                a: a.entrant,
                b: b.entrant,
            })
            .collect(),
        byes: byes.iter().map(|s| s.entrant).collect(),
    }
}

/// Pairs the slots in bracket positions `[s0 s1 s2 s3 …]` as `s0–s1, s2–s3, …` round after round
/// until one remains, appending rounds from `first_number`.
fn play_out_bracket(mut positions: Vec<Slot>, first_number: u32, rounds: &mut Vec<KnockoutRound>) {
    let mut number = first_number;
    while positions.len() > 1 {
        let matches: Vec<(Slot, Slot)> = positions
            .chunks(2)
            .filter_map(|c| Some((*c.first()?, *c.get(1)?)))
            .collect();
        rounds.push(to_round(number, false, &matches, &[]));
        positions = winners_of(number, &matches);
        number += 1;
    }
}

/// Builds the bracket for `players` seeds in the given format.
///
/// # Errors
/// [`KnockoutError::PlayerCountOutOfRange`] unless `2 <= players <= 65536`.
pub fn bracket(players: u32, format: BracketFormat) -> Result<Bracket, KnockoutError> {
    let n = usize::try_from(players).unwrap_or(usize::MAX);
    if !(2..=MAX_BRACKET_SIZE).contains(&n) {
        return Err(KnockoutError::PlayerCountOutOfRange {
            what: "a knockout",
            got: n,
            min: 2,
            max: MAX_BRACKET_SIZE,
        });
    }
    let seed = |s: u32| Slot {
        entrant: Entrant::Seed(s),
        nominal: s,
    };
    let mut rounds = Vec::new();
    match format {
        BracketFormat::PreliminaryRound => {
            let p = if n.is_power_of_two() {
                n
            } else {
                n.next_power_of_two() / 2
            };
            let p32 = u32::try_from(p).unwrap_or(u32::MAX);
            let exempt = 2 * p32 - players;
            let mut next_number = 1;
            let mut qualifier_of = Vec::new();
            if players > p32 {
                // Seeds exempt+1 ..= players play: exempt+1 v players, exempt+2 v players-1, …
                let matches: Vec<(Slot, Slot)> = (0..players - p32)
                    .map(|k| (seed(exempt + 1 + k), seed(players - k)))
                    .collect();
                let byes: Vec<Slot> = (1..=exempt).map(seed).collect();
                rounds.push(to_round(1, true, &matches, &byes));
                qualifier_of = winners_of(1, &matches);
                next_number = 2;
            }
            let positions = bracket_order(p)?
                .into_iter()
                .map(|s| {
                    if s <= exempt || players == p32 {
                        seed(s)
                    } else {
                        let k = usize::try_from(s - exempt - 1).unwrap_or(usize::MAX);
                        qualifier_of.get(k).copied().unwrap_or_else(|| seed(s))
                    }
                })
                .collect();
            play_out_bracket(positions, next_number, &mut rounds);
        }
        BracketFormat::ByesBySeeding => {
            let size = n.next_power_of_two();
            let order = bracket_order(size)?;
            let mut matches = Vec::new();
            let mut byes = Vec::new();
            let mut next_positions = Vec::new();
            for pair in order.chunks(2) {
                let (Some(&s), Some(&t)) = (pair.first(), pair.get(1)) else {
                    continue;
                };
                if t > players {
                    byes.push(seed(s));
                    next_positions.push(seed(s));
                } else {
                    let index = u32::try_from(matches.len()).unwrap_or(u32::MAX);
                    matches.push((seed(s), seed(t)));
                    next_positions.push(Slot {
                        entrant: Entrant::WinnerOf { round: 1, index },
                        nominal: s,
                    });
                }
            }
            rounds.push(to_round(1, false, &matches, &byes));
            if next_positions.len() > 1 {
                play_out_bracket(next_positions, 2, &mut rounds);
            }
        }
        BracketFormat::ByeInEachOddRound => {
            let mut field: Vec<Slot> = (1..=players).map(seed).collect();
            let mut number = 1;
            while field.len() > 1 {
                field.sort_by_key(|s| s.nominal);
                let byes: Vec<Slot> = if field.len() % 2 == 1 {
                    vec![field.remove(0)]
                } else {
                    vec![]
                };
                let half = field.len() / 2;
                let matches: Vec<(Slot, Slot)> = (0..half)
                    .filter_map(|i| Some((*field.get(i)?, *field.get(field.len() - 1 - i)?)))
                    .collect();
                rounds.push(to_round(number, false, &matches, &byes));
                field = byes;
                field.extend(winners_of(number, &matches));
                number += 1;
            }
        }
    }
    Ok(Bracket {
        players,
        format,
        rounds,
    })
}

/// A bracket being played: the winners recorded so far, resolving who meets whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BracketProgress {
    bracket: Bracket,
    /// Winner's seed per `(round, index)`.
    winners: std::collections::BTreeMap<(u32, u32), u32>,
}

impl BracketProgress {
    /// A bracket with no result yet.
    #[must_use]
    pub fn new(bracket: Bracket) -> Self {
        BracketProgress {
            bracket,
            winners: std::collections::BTreeMap::new(),
        }
    }

    /// The bracket.
    #[must_use]
    pub fn bracket(&self) -> &Bracket {
        &self.bracket
    }

    /// The seed occupying `entrant`, once known.
    #[must_use]
    pub fn resolve(&self, entrant: Entrant) -> Option<u32> {
        match entrant {
            Entrant::Seed(s) => Some(s),
            Entrant::WinnerOf { round, index } => self.winners.get(&(round, index)).copied(),
        }
    }

    /// Seeds of both sides of match `index` of round `round`, when known.
    #[must_use]
    pub fn sides(&self, round: u32, index: u32) -> Option<(Option<u32>, Option<u32>)> {
        let m = self.find(round, index)?;
        Some((self.resolve(m.a), self.resolve(m.b)))
    }

    fn find(&self, round: u32, index: u32) -> Option<BracketMatch> {
        let r = self
            .bracket
            .rounds
            .get(usize::try_from(round).ok()?.checked_sub(1)?)?;
        r.matches.get(usize::try_from(index).ok()?).copied()
    }

    /// Records that `winner` (side `a` or `b` of the bracket match) won match `index` of round
    /// `round` (e.g. from [`crate::match_play::KnockoutMatch`]'s decision).
    ///
    /// # Errors
    /// [`KnockoutError::BracketResult`] if the match does not exist, one side is not known yet,
    /// or a winner was already recorded.
    pub fn record_winner(
        &mut self,
        round: u32,
        index: u32,
        winner: crate::match_play::Side,
    ) -> Result<u32, KnockoutError> {
        let err = |problem| KnockoutError::BracketResult {
            round,
            index,
            problem,
        };
        let m = self
            .find(round, index)
            .ok_or_else(|| err("no such match"))?;
        if self.winners.contains_key(&(round, index)) {
            return Err(err("winner already recorded"));
        }
        let (Some(a), Some(b)) = (self.resolve(m.a), self.resolve(m.b)) else {
            return Err(err("an earlier match feeding this one is not decided yet"));
        };
        let seed = match winner {
            crate::match_play::Side::A => a,
            crate::match_play::Side::B => b,
        };
        self.winners.insert((round, index), seed);
        Ok(seed)
    }

    /// The winner of the final, once recorded.
    #[must_use]
    pub fn champion(&self) -> Option<u32> {
        let last = self.bracket.rounds.last()?;
        self.winners.get(&(last.number, 0)).copied()
    }
}
