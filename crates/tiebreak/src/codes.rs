//! Tie-break codes: the MTB26 individual acronyms (C.07 Art. 5 table), the seed's C.06-era
//! list and the draughts Solkoff (seed 002), parsed from strings.
//!
//! Grammar (MTB26, case-insensitive): `ACRONYM[/variant…]` with `/Cn` cut-n, `/Mn` median-n
//! (Art. 14), `/P` forfeits as played, `/F` use Fore Buchholz (AOB), `/R` reverse order
//! (TPN, RTNG), `/L±n` Koya limit in half points (Art. 14.5).
//! Team events (issue 43): `ACRONYM[:MP|:GP]` picks the team score an individual code is
//! computed on (DE, PS, STD, BH, AOB, FB, SB, KS, SOLKOFF; none = the primary score), and
//! the team codes MPvGP, EMMSB, EMGSB, EGMSB, EGGSB (`/C1 /C2 /P`), EDE, EDEBT, EDEBB, EDET,
//! EDEB (`/P`), SSSC (`/F /P /Kx`), BC, TBR, BBE; seed only: `MPGP` (MP + GP). Team codes
//! and selectors are refused by the individual [`crate::standings()`] (ADR tiebreak-010).
//! Extra codes outside MTB26 (accepted only in the editions that define them):
//! `BHSUM` (seed: sum of the opponents' Buchholz), `TPR/350` (seed: TPR with the 350-point
//! rule), `SOLKOFF` (seed 002, with `/C1` "tronqué" and `/M1` "médian"). Aliases: `GE` = REP
//! (name before Aug 2024), `AROC` = ARO/C1.

use crate::edition::Edition;
use crate::error::Error;
pub use crate::team_crosstable::PointType;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The tie-break itself, without modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// DE, Art. 6.
    DirectEncounter,
    /// WIN, Art. 7.1.
    Wins,
    /// WON, Art. 7.2.
    GamesWon,
    /// BPG, Art. 7.3.
    BlackGames,
    /// BWG, Art. 7.4.
    BlackWins,
    /// PS, Art. 7.5.
    ProgressiveScores,
    /// REP (formerly GE), Art. 7.6.
    RoundsElectedToPlay,
    /// STD, Art. 7.7 (2026).
    StandardPoints,
    /// TPN, Art. 7.8 (2026).
    PairingNumber,
    /// BH, Art. 8.1.
    Buchholz,
    /// AOB, Art. 8.2.
    AverageOpponentsBuchholz,
    /// FB, Art. 8.3.
    ForeBuchholz,
    /// SB, Art. 9.1.
    SonnebornBerger,
    /// KS, Art. 9.2.
    Koya,
    /// ARO, Art. 10.1.
    AverageRatingOfOpponents,
    /// TPR, Art. 10.2.
    PerformanceRating,
    /// PTP, Art. 10.3.
    PerfectPerformance,
    /// APRO, Art. 10.4.
    AverageOpponentsPerformance,
    /// APPO, Art. 10.5.
    AverageOpponentsPerfectPerformance,
    /// RTNG, Art. 10.6 (2026).
    Rating,
    /// Seed 4(a5) "Somme Buchholz": sum of the opponents' Buchholz.
    SumOfBuchholz,
    /// Seed 002 (draughts): Solkoff, the sum of the final scores of the opponents met.
    Solkoff,
    /// Team, MPvGP, Art. 13.1: the score that is not the primary one.
    MatchOrGamePoints,
    /// Team, EMMSB / EMGSB / EGMSB / EGGSB, Art. 13.2: Σ opponent's `opponent` score ×
    /// `scored` points scored against that opponent.
    ExtendedSonnebornBerger {
        opponent: PointType,
        scored: PointType,
    },
    /// Team, EDE and its chains, Art. 13.3.
    ExtendedDirectEncounter(EdeChain),
    /// Team, SSSC, Art. 13.4: secondary score + BH(primary) / normaliser.
    ScoreStrengthCombination,
    /// Team, BC, Art. 12.1: Σ board number × GP on that board (lower is better).
    BoardCount,
    /// Team, TBR, Art. 12.2: the results on board 1, then board 2, ...
    TopBoardResult,
    /// Team, BBE, Art. 12.3: GP without the bottom board, then without the two bottom, ...
    BottomBoardElimination,
    /// Seed (3 c) "points de matches et de parties combinés": MP + GP.
    CombinedPoints,
}

/// What EDE (Art. 13.3) applies after the mini-standings on MP and GP, when exactly two teams
/// are still tied (2026 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdeChain {
    /// EDE: primary and secondary score in the matches among the tied teams.
    Plain,
    /// EDEBT = EDE + BC + TBR.
    BoardCountTopBoard,
    /// EDEBB = EDE + BC + BBE.
    BoardCountBottomBoard,
    /// EDET = EDE + TBR.
    TopBoard,
    /// EDEB = EDE + BBE.
    BottomBoard,
}

/// Art. 14 modifiers on sums of values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Modifier {
    /// Cut-n (14.1, 14.2): drop the n least significant values.
    Cut(u8),
    /// Median-n (14.3, 14.4): drop the n least, then the n most significant values.
    Median(u8),
}

/// One entry of the tie-break list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TieBreak {
    pub kind: Kind,
    pub modifier: Option<Modifier>,
    /// `/P`: forfeits count as games against the scheduled opponent (DE, BH, FB, SB).
    pub forfeits_as_played: bool,
    /// `/F` on AOB: average the opponents' Fore Buchholz.
    pub fore: bool,
    /// `/R` on TPN and RTNG: reverse order.
    pub reverse: bool,
    /// `/L±n` on KS: Koya threshold moved by n half points (Art. 14.5).
    pub koya_limit: i32,
    /// Seed 5(c1): TPR with the 350-point rule.
    pub rule_350: bool,
    /// `:MP` / `:GP`: which team score the tie-break is computed on (teams only; `None` =
    /// the primary score).
    #[serde(default)]
    pub points: Option<PointType>,
    /// `/Kx` on SSSC: the normaliser (Art. 13.4); `None` = the default (ADR tiebreak-010).
    #[serde(default)]
    pub normaliser: Option<u32>,
}

impl TieBreak {
    /// A plain tie-break of this kind.
    pub fn plain(kind: Kind) -> TieBreak {
        TieBreak {
            kind,
            modifier: None,
            forfeits_as_played: false,
            fore: false,
            reverse: false,
            koya_limit: 0,
            rule_350: false,
            points: None,
            normaliser: None,
        }
    }

    /// The same tie-break on the given team score (`:MP` / `:GP`).
    pub fn on(mut self, points: PointType) -> TieBreak {
        self.points = Some(points);
        self
    }

    /// The same tie-break with a modifier.
    pub fn with(mut self, m: Modifier) -> TieBreak {
        self.modifier = Some(m);
        self
    }

    /// Parse one code; `position` (1-based) is only used in error messages.
    pub fn parse_at(code: &str, position: usize) -> Result<TieBreak, Error> {
        let upper = code.trim().to_ascii_uppercase();
        let unknown = || Error::UnknownCode {
            code: code.to_string(),
            position,
        };
        let invalid = |reason: &str| Error::InvalidModifier {
            code: code.to_string(),
            position,
            reason: reason.to_string(),
        };
        let mut parts = upper.split('/');
        let full_head = parts.next().unwrap_or("");
        let (head, selector) = match full_head.split_once(':') {
            None => (full_head, None),
            Some((h, "MP")) => (h, Some(PointType::Match)),
            Some((h, "GP")) => (h, Some(PointType::Game)),
            Some(_) => return Err(invalid("the point selector must be :MP or :GP")),
        };
        let esb = |opponent, scored| Kind::ExtendedSonnebornBerger { opponent, scored };
        use PointType::{Game as G, Match as M};
        let (kind, mut tb) = match head {
            "AROC" => (
                Kind::AverageRatingOfOpponents,
                TieBreak::plain(Kind::AverageRatingOfOpponents).with(Modifier::Cut(1)),
            ),
            "GE" => (
                Kind::RoundsElectedToPlay,
                TieBreak::plain(Kind::RoundsElectedToPlay),
            ),
            _ => {
                let k = match head {
                    "DE" => Kind::DirectEncounter,
                    "WIN" => Kind::Wins,
                    "WON" => Kind::GamesWon,
                    "BPG" => Kind::BlackGames,
                    "BWG" => Kind::BlackWins,
                    "PS" => Kind::ProgressiveScores,
                    "REP" => Kind::RoundsElectedToPlay,
                    "STD" => Kind::StandardPoints,
                    "TPN" => Kind::PairingNumber,
                    "BH" => Kind::Buchholz,
                    "AOB" => Kind::AverageOpponentsBuchholz,
                    "FB" => Kind::ForeBuchholz,
                    "SB" => Kind::SonnebornBerger,
                    "KS" => Kind::Koya,
                    "ARO" => Kind::AverageRatingOfOpponents,
                    "TPR" => Kind::PerformanceRating,
                    "PTP" => Kind::PerfectPerformance,
                    "APRO" => Kind::AverageOpponentsPerformance,
                    "APPO" => Kind::AverageOpponentsPerfectPerformance,
                    "RTNG" => Kind::Rating,
                    "BHSUM" => Kind::SumOfBuchholz,
                    "SOLKOFF" => Kind::Solkoff,
                    "MPVGP" => Kind::MatchOrGamePoints,
                    "EMMSB" => esb(M, M),
                    "EMGSB" => esb(M, G),
                    "EGMSB" => esb(G, M),
                    "EGGSB" => esb(G, G),
                    "EDE" => Kind::ExtendedDirectEncounter(EdeChain::Plain),
                    "EDEBT" => Kind::ExtendedDirectEncounter(EdeChain::BoardCountTopBoard),
                    "EDEBB" => Kind::ExtendedDirectEncounter(EdeChain::BoardCountBottomBoard),
                    "EDET" => Kind::ExtendedDirectEncounter(EdeChain::TopBoard),
                    "EDEB" => Kind::ExtendedDirectEncounter(EdeChain::BottomBoard),
                    "SSSC" => Kind::ScoreStrengthCombination,
                    "BC" => Kind::BoardCount,
                    "TBR" => Kind::TopBoardResult,
                    "BBE" => Kind::BottomBoardElimination,
                    "MPGP" => Kind::CombinedPoints,
                    _ => return Err(unknown()),
                };
                (k, TieBreak::plain(k))
            }
        };
        if selector.is_some() {
            if !tb.takes_point_selector() {
                return Err(invalid(
                    "this tie-break takes no :MP/:GP selector (it counts rounds, uses ratings \
                     or has its own point types)",
                ));
            }
            tb.points = selector;
        }
        for part in parts.by_ref() {
            let allowed_cut = matches!(
                kind,
                Kind::ExtendedSonnebornBerger { .. }
                    | Kind::Buchholz
                    | Kind::ForeBuchholz
                    | Kind::SonnebornBerger
                    | Kind::AverageRatingOfOpponents
                    | Kind::ProgressiveScores
                    | Kind::Solkoff
            );
            let allowed_median = matches!(
                kind,
                Kind::Buchholz
                    | Kind::ForeBuchholz
                    | Kind::AverageRatingOfOpponents
                    | Kind::Solkoff
            );
            let number = |s: &str| s.parse::<u8>().ok().filter(|n| (1..=9).contains(n));
            if let Some(n) = part.strip_prefix('C').and_then(number) {
                if !allowed_cut {
                    return Err(invalid("this tie-break takes no Cut modifier"));
                }
                if tb.modifier.is_some() {
                    return Err(invalid("only one Cut/Median modifier allowed"));
                }
                tb.modifier = Some(Modifier::Cut(n));
            } else if let Some(n) = part.strip_prefix('M').and_then(number) {
                if !allowed_median {
                    return Err(invalid("this tie-break takes no Median modifier"));
                }
                if tb.modifier.is_some() {
                    return Err(invalid("only one Cut/Median modifier allowed"));
                }
                tb.modifier = Some(Modifier::Median(n));
            } else if part == "P" {
                if !matches!(
                    kind,
                    Kind::DirectEncounter
                        | Kind::Buchholz
                        | Kind::ForeBuchholz
                        | Kind::SonnebornBerger
                        | Kind::ExtendedSonnebornBerger { .. }
                        | Kind::ExtendedDirectEncounter(_)
                        | Kind::ScoreStrengthCombination
                ) {
                    return Err(invalid(
                        "/P applies to DE, BH, FB, SB, ESB, EDE and SSSC only",
                    ));
                }
                tb.forfeits_as_played = true;
            } else if part == "F" {
                if !matches!(
                    kind,
                    Kind::AverageOpponentsBuchholz | Kind::ScoreStrengthCombination
                ) {
                    return Err(invalid("/F applies to AOB and SSSC only"));
                }
                tb.fore = true;
            } else if part == "R" {
                if !matches!(kind, Kind::PairingNumber | Kind::Rating) {
                    return Err(invalid("/R applies to TPN and RTNG only"));
                }
                tb.reverse = true;
            } else if let Some(rest) = part.strip_prefix('L') {
                if kind != Kind::Koya {
                    return Err(invalid("/L applies to KS only"));
                }
                let n: i32 = rest
                    .parse()
                    .map_err(|_| invalid("Koya limit must be /L followed by ±n half points"))?;
                if n.abs() > 1000 {
                    return Err(invalid("Koya limit out of range"));
                }
                tb.koya_limit = n;
            } else if let Some(rest) = part.strip_prefix('K') {
                if kind != Kind::ScoreStrengthCombination {
                    return Err(invalid("/K applies to SSSC only"));
                }
                let k: u32 = rest
                    .parse()
                    .ok()
                    .filter(|k| (1..=10_000).contains(k))
                    .ok_or_else(|| invalid("the SSSC normaliser must be /K followed by 1-10000"))?;
                tb.normaliser = Some(k);
            } else if part == "350" {
                if kind != Kind::PerformanceRating {
                    return Err(invalid("/350 applies to TPR only"));
                }
                tb.rule_350 = true;
            } else {
                return Err(invalid(&format!("unknown modifier /{part}")));
            }
        }
        Ok(tb)
    }

    /// Whether this tie-break exists in the given edition.
    pub fn exists_in(&self, edition: Edition) -> bool {
        use Kind::*;
        match edition {
            Edition::C07_2026 | Edition::C07_2024 => {
                if matches!(self.kind, SumOfBuchholz | CombinedPoints) || self.rule_350 {
                    return false;
                }
                // The EDE chains were named in 2026 (reference §2.3).
                if edition == Edition::C07_2024
                    && matches!(self.kind, ExtendedDirectEncounter(c) if c != EdeChain::Plain)
                {
                    return false;
                }
                if edition == Edition::C07_2024
                    && matches!(self.kind, StandardPoints | PairingNumber | Rating)
                {
                    return false;
                }
                true
            }
            Edition::SeedC06 => {
                if self.forfeits_as_played {
                    return false;
                }
                match self.kind {
                    DirectEncounter | Wins | BlackGames | Koya | Solkoff | PerformanceRating => {
                        true
                    }
                    ProgressiveScores | AverageRatingOfOpponents => {
                        !matches!(self.modifier, Some(Modifier::Median(_)))
                    }
                    Buchholz => !matches!(
                        self.modifier,
                        Some(Modifier::Cut(n)) | Some(Modifier::Median(n)) if n > 2
                    ),
                    // Seed 3 (a)-(c): MP or GP as a tie-break, and MP + GP.
                    SumOfBuchholz | CombinedPoints | MatchOrGamePoints => true,
                    SonnebornBerger => self.modifier.is_none(),
                    _ => false,
                }
            }
        }
    }

    /// Whether `:MP` / `:GP` may be given (scores, not counts, ratings or team codes with
    /// their own point types).
    pub fn takes_point_selector(&self) -> bool {
        matches!(
            self.kind,
            Kind::DirectEncounter
                | Kind::ProgressiveScores
                | Kind::StandardPoints
                | Kind::Buchholz
                | Kind::AverageOpponentsBuchholz
                | Kind::ForeBuchholz
                | Kind::SonnebornBerger
                | Kind::Koya
                | Kind::SumOfBuchholz
                | Kind::Solkoff
        )
    }

    /// Team tie-breaks of Arts. 12–13 (and the seed's MP+GP): not for individual events.
    pub fn is_team_only(&self) -> bool {
        self.points.is_some()
            || matches!(
                self.kind,
                Kind::MatchOrGamePoints
                    | Kind::ExtendedSonnebornBerger { .. }
                    | Kind::ExtendedDirectEncounter(_)
                    | Kind::ScoreStrengthCombination
                    | Kind::BoardCount
                    | Kind::TopBoardResult
                    | Kind::BottomBoardElimination
                    | Kind::CombinedPoints
            )
    }

    /// Rating-based (Art. 10): dropped when unrated players are present unless handling
    /// was announced.
    pub fn is_rating_based(&self) -> bool {
        matches!(
            self.kind,
            Kind::AverageRatingOfOpponents
                | Kind::PerformanceRating
                | Kind::PerfectPerformance
                | Kind::AverageOpponentsPerformance
                | Kind::AverageOpponentsPerfectPerformance
                | Kind::Rating
        )
    }

    /// Whether a *lower* value ranks higher (TPN ascending; RTNG/R).
    pub fn lower_is_better(&self) -> bool {
        match self.kind {
            Kind::PairingNumber => !self.reverse,
            Kind::Rating => self.reverse,
            Kind::BoardCount => true,
            _ => false,
        }
    }

    /// Whether the C.07 (2026) Art. 8 note bans it in round robins (BH, AOB, FB).
    pub fn is_buchholz_family(&self) -> bool {
        matches!(
            self.kind,
            Kind::Buchholz | Kind::AverageOpponentsBuchholz | Kind::ForeBuchholz
        )
    }
}

impl fmt::Display for TieBreak {
    /// The canonical code (MTB26 spelling where one exists).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = match self.kind {
            Kind::DirectEncounter => "DE",
            Kind::Wins => "WIN",
            Kind::GamesWon => "WON",
            Kind::BlackGames => "BPG",
            Kind::BlackWins => "BWG",
            Kind::ProgressiveScores => "PS",
            Kind::RoundsElectedToPlay => "REP",
            Kind::StandardPoints => "STD",
            Kind::PairingNumber => "TPN",
            Kind::Buchholz => "BH",
            Kind::AverageOpponentsBuchholz => "AOB",
            Kind::ForeBuchholz => "FB",
            Kind::SonnebornBerger => "SB",
            Kind::Koya => "KS",
            Kind::AverageRatingOfOpponents => "ARO",
            Kind::PerformanceRating => "TPR",
            Kind::PerfectPerformance => "PTP",
            Kind::AverageOpponentsPerformance => "APRO",
            Kind::AverageOpponentsPerfectPerformance => "APPO",
            Kind::Rating => "RTNG",
            Kind::SumOfBuchholz => "BHSUM",
            Kind::Solkoff => "SOLKOFF",
            Kind::MatchOrGamePoints => "MPvGP",
            Kind::ExtendedSonnebornBerger { opponent, scored } => match (opponent, scored) {
                (PointType::Match, PointType::Match) => "EMMSB",
                (PointType::Match, PointType::Game) => "EMGSB",
                (PointType::Game, PointType::Match) => "EGMSB",
                (PointType::Game, PointType::Game) => "EGGSB",
            },
            Kind::ExtendedDirectEncounter(c) => match c {
                EdeChain::Plain => "EDE",
                EdeChain::BoardCountTopBoard => "EDEBT",
                EdeChain::BoardCountBottomBoard => "EDEBB",
                EdeChain::TopBoard => "EDET",
                EdeChain::BottomBoard => "EDEB",
            },
            Kind::ScoreStrengthCombination => "SSSC",
            Kind::BoardCount => "BC",
            Kind::TopBoardResult => "TBR",
            Kind::BottomBoardElimination => "BBE",
            Kind::CombinedPoints => "MPGP",
        };
        f.write_str(head)?;
        if let Some(pt) = self.points {
            write!(f, ":{}", pt.code())?;
        }
        match self.modifier {
            Some(Modifier::Cut(n)) => write!(f, "/C{n}")?,
            Some(Modifier::Median(n)) => write!(f, "/M{n}")?,
            None => {}
        }
        if self.fore {
            f.write_str("/F")?;
        }
        if self.reverse {
            f.write_str("/R")?;
        }
        if self.koya_limit != 0 {
            write!(f, "/L{}", self.koya_limit)?;
        }
        if let Some(k) = self.normaliser {
            write!(f, "/K{k}")?;
        }
        if self.rule_350 {
            f.write_str("/350")?;
        }
        if self.forfeits_as_played {
            f.write_str("/P")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for TieBreak {
    type Err = Error;

    /// Parses one code (position 1 in error messages); see [`parse_list`] for lists.
    fn from_str(code: &str) -> Result<TieBreak, Error> {
        TieBreak::parse_at(code, 1)
    }
}

/// Parse an ordered tie-break list (e.g. the codes of TRF record 202 split on commas)
/// and check that every code exists in `edition`.
pub fn parse_list<S: AsRef<str>>(codes: &[S], edition: Edition) -> Result<Vec<TieBreak>, Error> {
    codes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let tb = TieBreak::parse_at(c.as_ref(), i + 1)?;
            if !tb.exists_in(edition) {
                return Err(Error::NotInEdition {
                    code: tb.to_string(),
                    position: i + 1,
                    edition: edition.name().to_string(),
                });
            }
            Ok(tb)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every individual code that MTB26 says an endorsed program must implement.
    pub const MTB26_INDIVIDUAL: &[&str] = &[
        "DE", "DE/P", "BPG", "BWG", "REP", "STD", "SB", "SB/C1", "SB/C2", "SB/P", "SB/C1/P",
        "SB/C2/P", "ARO", "ARO/C1", "ARO/C2", "ARO/M1", "ARO/M2", "TPR", "PTP", "APRO", "APPO",
        "RTNG", "RTNG/R", "WIN", "WON", "PS", "PS/C1", "PS/C2", "TPN", "TPN/R", "BH", "BH/C1",
        "BH/C2", "BH/M1", "BH/M2", "BH/P", "BH/C1/P", "BH/C2/P", "BH/M1/P", "BH/M2/P", "FB",
        "FB/C1", "FB/C2", "FB/M1", "FB/M2", "FB/P", "FB/C1/P", "FB/C2/P", "FB/M1/P", "FB/M2/P",
        "AOB", "AOB/F", "KS", "KS/L2", "KS/L-1",
    ];

    #[test]
    fn mtb26_codes_all_parse_and_round_trip() {
        let list = parse_list(MTB26_INDIVIDUAL, Edition::C07_2026).unwrap();
        for (tb, code) in list.iter().zip(MTB26_INDIVIDUAL) {
            assert_eq!(&tb.to_string(), code);
        }
    }

    #[test]
    fn from_str_parses_one_code() {
        let tb: TieBreak = "fb/m1/p".parse().unwrap();
        assert_eq!(tb.to_string(), "FB/M1/P");
        assert!("NOPE".parse::<TieBreak>().is_err());
    }

    #[test]
    fn lower_case_and_aliases() {
        assert_eq!(
            TieBreak::parse_at("bh/c1", 1).unwrap(),
            TieBreak::plain(Kind::Buchholz).with(Modifier::Cut(1))
        );
        assert_eq!(TieBreak::parse_at("GE", 1).unwrap().to_string(), "REP");
        assert_eq!(TieBreak::parse_at("AROC", 1).unwrap().to_string(), "ARO/C1");
    }

    #[test]
    fn unknown_code_names_code_and_position() {
        let e = parse_list(&["BH", "SB", "XYZ"], Edition::C07_2026).unwrap_err();
        assert_eq!(
            e,
            Error::UnknownCode {
                code: "XYZ".into(),
                position: 3
            }
        );
        assert!(e.to_string().contains("XYZ") && e.to_string().contains('3'));
        let e = parse_list(&["WIN/C1"], Edition::C07_2026).unwrap_err();
        assert!(matches!(e, Error::InvalidModifier { position: 1, .. }));
        // Point selectors parse (team events); a wrong one, or one on a count, does not.
        assert_eq!(
            parse_list(&["bh:mp/c1"], Edition::C07_2026).unwrap()[0].to_string(),
            "BH:MP/C1"
        );
        for bad in ["BH:XP", "TPN:MP", "WIN:GP", "EGGSB:MP", "ARO:GP"] {
            let e = parse_list(&[bad], Edition::C07_2026).unwrap_err();
            assert!(matches!(e, Error::InvalidModifier { .. }), "{bad}");
        }
    }

    #[test]
    fn editions_gate_codes() {
        // STD, TPN, RTNG are new in 2026.
        for c in ["STD", "TPN", "RTNG/R"] {
            assert!(matches!(
                parse_list(&[c], Edition::C07_2024),
                Err(Error::NotInEdition { .. })
            ));
        }
        // The seed list has no AOB / FB / PTP and no /P, but has BHSUM and TPR/350.
        for c in ["AOB", "FB", "PTP", "BH/P", "REP", "SB/C1"] {
            assert!(parse_list(&[c], Edition::SeedC06).is_err(), "{c}");
        }
        let seed = [
            "DE", "WIN", "BPG", "PS", "PS/C3", "KS", "KS/L-2", "BH", "BH/M1", "BH/M2", "BH/C1",
            "BH/C2", "BHSUM", "SB", "ARO", "ARO/C2", "TPR", "TPR/350", "SOLKOFF",
        ];
        parse_list(&seed, Edition::SeedC06).unwrap();
        assert!(parse_list(&["BHSUM"], Edition::C07_2026).is_err());
        assert!(parse_list(&["TPR/350"], Edition::C07_2026).is_err());
        parse_list(&["SOLKOFF", "SOLKOFF/M1", "SOLKOFF/C1"], Edition::C07_2026).unwrap();
    }
}
