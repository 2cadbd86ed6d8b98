//! Play-off schemes for 2 to 11+ players tied for first place. Seed 000, "Système de départage",
//! 6. "Playoff", (k): "Ce qui suit est un exemple où le temps pour les playoffs est limité."
//!
//! [`first_place_playoff`] turns the tied players into the first playoff event of the seed's
//! scheme; [`after_round_robin`] says what follows a playoff round robin that left players
//! tied; [`after_sections`] what the section winners play. Together they generate every playoff
//! event of the seed's paragraphs 1–10.
//!
//! | tied | seed paragraph | first event |
//! |---|---|---|
//! | 2 | 1 | 2-game blitz mini-match 3 min + 3 s (1 a), then Armageddon 5 v 4 min, draw = Black wins (1 b) |
//! | 3 | 2 | round robin of blitz games (2 a); pairing numbers: best tie-break = 1, second = 3 |
//! | 4 | 3 | knockout 1 v 4, 2 v 3: mini-matches as 1 (a) if time permits, else Armageddon |
//! | 5 | 4 | round robin of blitz games, pairing numbers 1, 4, 2, 5, 3 in tie-break order |
//! | 6 | 5 | two sections {1, 4, 5} and {2, 3, 6} playing as 2; winners play 1 (b) |
//! | 7 | 6 | round robin of Armageddon games, pairing numbers 1, 5, 2, 6, 3, 7, 4 |
//! | 8 | 7 | knockout 1 v 8, 2 v 7, 3 v 6, 4 v 5, games as 1 (b) |
//! | 9 | 8 | sections A {1, 5, 9}, B {2, 6, 7}, C {3, 4, 8} as 2 (b) |
//! | 10 | 9 | two sections as 4; winners play 1 (b) |
//! | 11+ | 10 | ranks 9 and below eliminated (share a prize fraction); the 8 others as 7 |
//!
//! The tied players are given best tie-break first ([`PlayoffOrder::TieBreak`]), or the order is
//! drawn by lot ("Alternative : les numéros d'appariement seront choisis par tirage au sort")
//! with a recorded seed ([`PlayoffOrder::Lot`]). Colours outside Berger tables are drawn by lot
//! (paragraph (j)); that drawing belongs to the caller (see [`TwoPlayerFormat::match_format`]).
//! Gaps in the seed are decided in ADR `docs/decisions/knockout-004-playoff-schemes.md`.

use roundrobin::{DrawSeed, berger_table, draw_pairing_numbers};
use serde::{Deserialize, Serialize};

use crate::KnockoutError;
use crate::match_play::{MatchFormat, Side};
use crate::seeding::bracket_order;

/// The kind of game of a playoff round robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayoffGame {
    /// 1 (a): "3 minutes pour tous les coups avec un incrément de 3 secondes à chaque coup à
    /// partir du premier".
    Blitz3Plus3,
    /// 1 (b): Armageddon, White 5 minutes, Black 4, a draw is a win for Black.
    Armageddon,
}

/// How two players settle a playoff pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TwoPlayerFormat {
    /// 1 (a) then, if level, 1 (b).
    MiniMatchThenArmageddon,
    /// 1 (b) only.
    ArmageddonOnly,
}

impl TwoPlayerFormat {
    /// The match format for [`crate::match_play::KnockoutMatch`], with colours drawn by lot by
    /// the caller (paragraph (j)).
    #[must_use]
    pub fn match_format(self, first_white: Side, armageddon_white: Side) -> MatchFormat {
        let full = MatchFormat::seed_000_playoff_two_players(first_white, armageddon_white);
        match self {
            TwoPlayerFormat::MiniMatchThenArmageddon => full,
            TwoPlayerFormat::ArmageddonOnly => MatchFormat {
                stages: full.stages.into_iter().skip(1).collect(),
                first_white: armageddon_white,
            },
        }
    }
}

/// Which round-robin step of the seed's schemes a round robin is (it decides what follows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoundRobinScheme {
    /// 2 (a): three players, blitz games.
    ThreeBlitz,
    /// 2 (b): three players, Armageddon games.
    ThreeArmageddon,
    /// 4: five players, blitz games.
    FiveBlitz,
    /// 6: seven players, Armageddon games.
    SevenArmageddon,
}

impl RoundRobinScheme {
    fn players(self) -> usize {
        match self {
            RoundRobinScheme::ThreeBlitz | RoundRobinScheme::ThreeArmageddon => 3,
            RoundRobinScheme::FiveBlitz => 5,
            RoundRobinScheme::SevenArmageddon => 7,
        }
    }
    fn game(self) -> PlayoffGame {
        match self {
            RoundRobinScheme::ThreeBlitz | RoundRobinScheme::FiveBlitz => PlayoffGame::Blitz3Plus3,
            RoundRobinScheme::ThreeArmageddon | RoundRobinScheme::SevenArmageddon => {
                PlayoffGame::Armageddon
            }
        }
    }
    /// Pairing number given to the tie-break ranks 1, 2, 3, …: 2: "Le numéro d'appariement 1
    /// sera le joueur avec le meilleur départage … Le numéro 3 … deuxième meilleur"; 4: "1, 4,
    /// 2, 5, 3"; 6: "1, 5, 2, 6, 3, 7, 4".
    fn pairing_number_by_rank(self) -> &'static [usize] {
        match self {
            RoundRobinScheme::ThreeBlitz | RoundRobinScheme::ThreeArmageddon => &[1, 3, 2],
            RoundRobinScheme::FiveBlitz => &[1, 4, 2, 5, 3],
            RoundRobinScheme::SevenArmageddon => &[1, 5, 2, 6, 3, 7, 4],
        }
    }
}

/// One round of a playoff round robin, with the players in place of pairing numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffRound<P> {
    /// `(white, black)` in board order (Berger table, C.05 Annex 1).
    pub games: Vec<(P, P)>,
    /// The player without a game (odd number).
    pub bye: Option<P>,
}

/// What the section winners play (paragraphs 5, 8, 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SectionWinners {
    /// Two winners play 1 (b) (paragraphs 5 and 9: "Les deux vainqueurs … comme en 1 (b)").
    ArmageddonFinal,
    /// Three winners play a round robin as 2 (b) (paragraph 8: not stated; ADR knockout-004).
    ThreeArmageddonRoundRobin,
}

/// A playoff event to be played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayoffEvent<P> {
    /// Two players (paragraph 1).
    TwoPlayers {
        /// The players, better tie-break (or lot) first.
        players: [P; 2],
        /// How they play.
        format: TwoPlayerFormat,
    },
    /// A round robin of one game against each opponent, by the Berger tables.
    RoundRobin {
        /// Which step of the seed's schemes this is.
        scheme: RoundRobinScheme,
        /// `by_pairing_number[k]` holds pairing number `k + 1`.
        by_pairing_number: Vec<P>,
        /// The kind of game.
        game: PlayoffGame,
        /// The rounds of the Berger table with the players.
        rounds: Vec<PlayoffRound<P>>,
    },
    /// A knockout (paragraphs 3 and 7).
    Knockout {
        /// First-round pairings in bracket order (1 v 4, 2 v 3 / 1 v 8, 4 v 5, 2 v 7, 3 v 6);
        /// winners of consecutive pairings meet next.
        first_round: Vec<(P, P)>,
        /// How every knockout pairing is played.
        format: TwoPlayerFormat,
    },
    /// Parallel sections whose winners then meet (paragraphs 5, 8, 9).
    Sections {
        /// One event per section.
        sections: Vec<PlayoffEvent<P>>,
        /// What the section winners play, see [`after_sections`].
        winners: SectionWinners,
    },
}

/// The playoff decided for a tie for first place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffPlan<P> {
    /// The seed's paragraph number (1–10) applied.
    pub paragraph: u8,
    /// The players in the rank order used (tie-break order, or the order drawn by lot).
    pub ranking: Vec<P>,
    /// The seed of the drawing of lots when the order was drawn.
    pub lot: Option<DrawSeed>,
    /// Paragraph 10: players ranked 9th or lower, who share a prize fraction and do not play.
    pub eliminated: Vec<P>,
    /// The first event.
    pub event: PlayoffEvent<P>,
}

/// How the order of the tied players is obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayoffOrder {
    /// The players are given in tie-break order, best first.
    TieBreak,
    /// The order is drawn by lot from this recorded seed (roundrobin's drawing of lots).
    Lot(DrawSeed),
}

/// Options the seed leaves to the organisers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayoffOptions {
    /// How the order of the tied players is obtained.
    pub order: PlayoffOrder,
    /// Paragraph 3: "Si le temps le permet, il y aura deux matches … comme en 1 (a). Sinon,
    /// Armageddon sera utilisé."
    pub four_players_time_permits_mini_matches: bool,
    /// Paragraph 12: "Si les parties originales se terminent très tard, le playoff peut aller
    /// directement à l'Armageddon" (two players).
    pub two_players_direct_armageddon: bool,
}

impl Default for PlayoffOptions {
    fn default() -> Self {
        PlayoffOptions {
            order: PlayoffOrder::TieBreak,
            four_players_time_permits_mini_matches: true,
            two_players_direct_armageddon: false,
        }
    }
}

/// What comes after a playoff step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NextStep<P> {
    /// First place is decided.
    Winner(P),
    /// Play this event.
    Play(PlayoffEvent<P>),
    /// 2 (c), 4 (α), 6: "le vainqueur sera celui qui a reçu le point en jouant le moins de
    /// coups" — decided from the game records, outside this crate.
    FewestMoves(Vec<P>),
}

/// Largest number of tied players accepted.
pub const MAX_TIED: usize = 10_000;

fn round_robin<P: Clone>(
    scheme: RoundRobinScheme,
    ranked: &[P],
) -> Result<PlayoffEvent<P>, KnockoutError> {
    let n = scheme.players();
    if ranked.len() != n {
        return Err(KnockoutError::PlayerCountOutOfRange {
            what: "this playoff round robin",
            got: ranked.len(),
            min: n,
            max: n,
        });
    }
    let mut slots: Vec<Option<P>> = vec![None; n];
    for (player, &number) in ranked.iter().zip(scheme.pairing_number_by_rank()) {
        if let Some(slot) = slots.get_mut(number - 1) {
            *slot = Some(player.clone());
        }
    }
    let by_pairing_number: Vec<P> = slots.into_iter().flatten().collect();
    let get = |k: u32| -> Option<P> {
        let index = usize::try_from(k).ok()?.checked_sub(1)?;
        by_pairing_number.get(index).cloned()
    };
    let table = berger_table(u32::try_from(n).unwrap_or(0)).map_err(|e| {
        KnockoutError::InvalidMatchFormat(format!("Berger table for the playoff: {e}"))
    })?;
    let rounds = table
        .iter()
        .map(|r| PlayoffRound {
            games: r
                .games
                .iter()
                .filter_map(|g| Some((get(g.white)?, get(g.black)?)))
                .collect(),
            bye: r.bye.and_then(get),
        })
        .collect();
    Ok(PlayoffEvent::RoundRobin {
        scheme,
        game: scheme.game(),
        by_pairing_number,
        rounds,
    })
}

fn knockout<P: Clone>(
    ranked: &[P],
    format: TwoPlayerFormat,
) -> Result<PlayoffEvent<P>, KnockoutError> {
    let order = bracket_order(ranked.len())?;
    let at = |seed: u32| {
        usize::try_from(seed)
            .ok()
            .and_then(|s| ranked.get(s.checked_sub(1)?))
            .cloned()
    };
    let first_round = order
        .chunks(2)
        .filter_map(|c| Some((at(*c.first()?)?, at(*c.get(1)?)?)))
        .collect();
    Ok(PlayoffEvent::Knockout {
        first_round,
        format,
    })
}

fn pick<P: Clone>(ranked: &[P], ranks: &[usize]) -> Vec<P> {
    ranks
        .iter()
        .filter_map(|&r| ranked.get(r - 1).cloned())
        .collect()
}

/// The first playoff event for `tied` players tied for first place (seed 000, 6. "Playoff" (k)).
///
/// # Errors
/// [`KnockoutError::PlayerCountOutOfRange`] for fewer than 2 or more than [`MAX_TIED`] players.
pub fn first_place_playoff<P: Clone>(
    tied: &[P],
    options: PlayoffOptions,
) -> Result<PlayoffPlan<P>, KnockoutError> {
    if !(2..=MAX_TIED).contains(&tied.len()) {
        return Err(KnockoutError::PlayerCountOutOfRange {
            what: "a first-place playoff",
            got: tied.len(),
            min: 2,
            max: MAX_TIED,
        });
    }
    let (ranking, lot) = match options.order {
        PlayoffOrder::TieBreak => (tied.to_vec(), None),
        PlayoffOrder::Lot(seed) => (
            draw_pairing_numbers(tied, seed).by_pairing_number,
            Some(seed),
        ),
    };
    let r = &ranking;
    let mut eliminated = Vec::new();
    let (paragraph, event) = match r.len() {
        2 => {
            let format = if options.two_players_direct_armageddon {
                TwoPlayerFormat::ArmageddonOnly
            } else {
                TwoPlayerFormat::MiniMatchThenArmageddon
            };
            (1, two_players(r, format)?)
        }
        3 => (2, round_robin(RoundRobinScheme::ThreeBlitz, r)?),
        4 => {
            let format = if options.four_players_time_permits_mini_matches {
                TwoPlayerFormat::MiniMatchThenArmageddon
            } else {
                TwoPlayerFormat::ArmageddonOnly
            };
            (3, knockout(r, format)?)
        }
        5 => (4, round_robin(RoundRobinScheme::FiveBlitz, r)?),
        6 => (
            5,
            PlayoffEvent::Sections {
                sections: vec![
                    round_robin(RoundRobinScheme::ThreeBlitz, &pick(r, &[1, 4, 5]))?,
                    round_robin(RoundRobinScheme::ThreeBlitz, &pick(r, &[2, 3, 6]))?,
                ],
                winners: SectionWinners::ArmageddonFinal,
            },
        ),
        7 => (6, round_robin(RoundRobinScheme::SevenArmageddon, r)?),
        8 => (7, knockout(r, TwoPlayerFormat::ArmageddonOnly)?),
        9 => (
            8,
            PlayoffEvent::Sections {
                sections: vec![
                    round_robin(RoundRobinScheme::ThreeArmageddon, &pick(r, &[1, 5, 9]))?,
                    round_robin(RoundRobinScheme::ThreeArmageddon, &pick(r, &[2, 6, 7]))?,
                    round_robin(RoundRobinScheme::ThreeArmageddon, &pick(r, &[3, 4, 8]))?,
                ],
                winners: SectionWinners::ThreeArmageddonRoundRobin,
            },
        ),
        10 => (
            9,
            PlayoffEvent::Sections {
                sections: vec![
                    round_robin(RoundRobinScheme::FiveBlitz, &pick(r, &[1, 4, 5, 8, 9]))?,
                    round_robin(RoundRobinScheme::FiveBlitz, &pick(r, &[2, 3, 6, 7, 10]))?,
                ],
                winners: SectionWinners::ArmageddonFinal,
            },
        ),
        _ => {
            eliminated = r.iter().skip(8).cloned().collect();
            let top_eight: Vec<P> = r.iter().take(8).cloned().collect();
            (10, knockout(&top_eight, TwoPlayerFormat::ArmageddonOnly)?)
        }
    };
    Ok(PlayoffPlan {
        paragraph,
        ranking,
        lot,
        eliminated,
        event,
    })
}

fn two_players<P: Clone>(
    r: &[P],
    format: TwoPlayerFormat,
) -> Result<PlayoffEvent<P>, KnockoutError> {
    match r {
        [a, b] => Ok(PlayoffEvent::TwoPlayers {
            players: [a.clone(), b.clone()],
            format,
        }),
        _ => Err(KnockoutError::PlayerCountOutOfRange {
            what: "a two-player playoff",
            got: r.len(),
            min: 2,
            max: 2,
        }),
    }
}

/// What follows a playoff round robin of `scheme` after which `still_tied` (in the original
/// tie-break order) share first place.
///
/// - 2 (a), three tied → 2 (b); two tied ("Si deux joueurs éliminent le troisième") → 1 (b).
/// - 2 (b), three tied → 2 (c) fewest moves; two tied → 1 (b).
/// - 4: (α) five tied → fewest moves; (β) four → as 3 in Armageddon; (χ) three → as 2; (δ) two → 1 (b).
/// - 6: a tie for first → fewest moves.
///
/// # Errors
/// [`KnockoutError::PlayerCountOutOfRange`] when `still_tied` is empty or larger than the
/// round robin.
pub fn after_round_robin<P: Clone>(
    scheme: RoundRobinScheme,
    still_tied: &[P],
) -> Result<NextStep<P>, KnockoutError> {
    let n = still_tied.len();
    if n == 0 || n > scheme.players() {
        return Err(KnockoutError::PlayerCountOutOfRange {
            what: "players still tied after a playoff round robin",
            got: n,
            min: 1,
            max: scheme.players(),
        });
    }
    if let [winner] = still_tied {
        return Ok(NextStep::Winner(winner.clone()));
    }
    Ok(match (scheme, n) {
        (RoundRobinScheme::SevenArmageddon, _)
        | (RoundRobinScheme::ThreeArmageddon, 3)
        | (RoundRobinScheme::FiveBlitz, 5) => NextStep::FewestMoves(still_tied.to_vec()),
        (RoundRobinScheme::ThreeBlitz, 3) => {
            NextStep::Play(round_robin(RoundRobinScheme::ThreeArmageddon, still_tied)?)
        }
        (RoundRobinScheme::FiveBlitz, 4) => {
            NextStep::Play(knockout(still_tied, TwoPlayerFormat::ArmageddonOnly)?)
        }
        (RoundRobinScheme::FiveBlitz, 3) => {
            NextStep::Play(round_robin(RoundRobinScheme::ThreeBlitz, still_tied)?)
        }
        _ => NextStep::Play(two_players(still_tied, TwoPlayerFormat::ArmageddonOnly)?),
    })
}

/// What the section winners play, `winners` in their original tie-break order.
///
/// # Errors
/// [`KnockoutError::PlayerCountOutOfRange`] if the number of winners does not fit.
pub fn after_sections<P: Clone>(
    winners_play: SectionWinners,
    winners: &[P],
) -> Result<PlayoffEvent<P>, KnockoutError> {
    match winners_play {
        SectionWinners::ArmageddonFinal => two_players(winners, TwoPlayerFormat::ArmageddonOnly),
        SectionWinners::ThreeArmageddonRoundRobin => {
            round_robin(RoundRobinScheme::ThreeArmageddon, winners)
        }
    }
}
