//! `arbiter pair --system knockout --trf FILE` and the pairing service's `knockout` system:
//! the next TRF round of a knockout in progress (seed 000, "Systèmes K.O."), rebuilt from the
//! file's history with the pure crate `knockout` (ADR
//! `docs/decisions/knockout-005-history-from-trf.md`).
//!
//! Model: the pairing number (TPN) is the seed; the bracket is `knockout::bracket(N, format)`
//! (default: the seed's preliminary round to reach a power of two); every match is a
//! [`MatchFormat`] (default: 2 standard games, then 2 rapid, 2 blitz and an Armageddon game);
//! every TRF round is one game of every match still undecided. A round of the bracket starts
//! in the TRF round after its last match was decided. The colours of the first game of each
//! stage are read from the file (fixed by the regulations or drawn by lot); inside a stage
//! they must alternate. A forfeit (`+`/`-`) ends the match (ADR knockout-002).
use std::collections::BTreeMap;

use knockout::match_play::{
    GameResult, KnockoutMatch, MatchFormat, MatchStatus, RateOfPlay, Side, Stage, StageRule,
};
use knockout::{BracketFormat, BracketProgress};
use trf::{Colour, Opponent, Record, ResultCode, TrfDocument};

use super::{PairError, PairedRound, invalid, no_pairing};

/// Regular games per match when the event does not say (`--games`).
pub const DEFAULT_GAMES: u32 = knockout::match_play::DEFAULT_GAMES;

/// The tie-break stages used when the event does not say (`--tie-breaks`): 2 rapid games,
/// then 2 blitz games, then one Armageddon game (always decisive: a draw is a win for
/// Black, seed 000 "Playoff" 1 (b)).
pub const DEFAULT_TIE_BREAKS: &str = knockout::match_play::DEFAULT_TIE_BREAKS;

/// How the knockout is played: the bracket format and the format of every match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutOptions {
    /// How a field that is not a power of two is reduced.
    pub bracket: BracketFormat,
    /// Every match: regular games, then the tie-break stages.
    pub match_format: MatchFormat,
}

impl Default for KnockoutOptions {
    fn default() -> Self {
        KnockoutOptions {
            bracket: BracketFormat::PreliminaryRound,
            match_format: match_format(DEFAULT_GAMES, default_tie_breaks()),
        }
    }
}

/// [`DEFAULT_TIE_BREAKS`] as stages.
pub fn default_tie_breaks() -> Vec<Stage> {
    parse_tie_breaks(DEFAULT_TIE_BREAKS).unwrap_or_default()
}

/// A match of `games` standard games (the better seed White in game 1 unless the file says
/// otherwise), then `tie_breaks`.
pub fn match_format(games: u32, tie_breaks: Vec<Stage>) -> MatchFormat {
    MatchFormat::games_then(games, RateOfPlay::Standard, Side::A, tie_breaks)
}

/// Parses a list of tie-break stages: `none`, or comma-separated `rapid:N`, `blitz:N`,
/// `armageddon`, `sudden-death:N` (e.g. `rapid:2,blitz:2,armageddon`). The one parser of
/// the CLI, the registry's settings and the pairing service: [`knockout::match_play::parse_tie_breaks`].
pub use knockout::match_play::parse_tie_breaks;

/// One board of the round paired: one game of one match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutBoard {
    /// White's pairing number.
    pub white: u32,
    /// Black's pairing number.
    pub black: u32,
    /// Round of the bracket (1-based; round 1 is the preliminary round when there is one).
    pub bracket_round: u32,
    /// Match number in that bracket round (1-based, bracket order).
    pub match_number: u32,
    /// Game number within the match (1-based).
    pub game_in_match: u32,
    /// Stage: `standard`, `rapid`, `blitz`, `armageddon` or `sudden-death`.
    pub stage: &'static str,
}

/// The next TRF round of a knockout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutPairing {
    /// The TRF round paired.
    pub round: usize,
    /// The bracket round being played.
    pub bracket_round: u32,
    /// Rounds of the bracket in all.
    pub bracket_rounds: u32,
    /// True when the bracket round is the seed's preliminary round.
    pub preliminary: bool,
    /// Boards, ordered by the better pairing number of each match.
    pub boards: Vec<KnockoutBoard>,
    /// Players still in the knockout who have no game in this TRF round: exempt from the
    /// bracket round (preliminary round, byes) or waiting after winning their match.
    pub exempt: Vec<u32>,
}

impl KnockoutPairing {
    /// As the other systems' round: boards only (an exempt player is not a pairing-allocated
    /// bye: he scores nothing and is simply not paired).
    pub fn to_paired_round(&self) -> PairedRound {
        PairedRound {
            round: self.round,
            boards: self.boards.iter().map(|b| (b.white, b.black)).collect(),
            bye: None,
            notes: vec![],
        }
    }
}

/// What the history leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KnockoutNext {
    /// The next TRF round.
    Pair(KnockoutPairing),
    /// The final is decided: nothing left to pair.
    Over {
        /// Pairing number of the winner of the final.
        champion: u32,
        /// TRF round in which the final was decided.
        final_round: usize,
    },
}

/// A match of the current bracket round, sides ordered by pairing number (`A` = better seed).
struct LiveMatch {
    index: u32,
    a: u32,
    b: u32,
    /// The bracket's side `a` is our `b` (an upset earlier in the bracket).
    swapped: bool,
    format: MatchFormat,
    results: Vec<GameResult>,
    state: KnockoutMatch,
}

impl LiveMatch {
    fn seed_of(&self, side: Side) -> u32 {
        match side {
            Side::A => self.a,
            Side::B => self.b,
        }
    }

    /// Replays the games played after a change of the format's colours.
    fn rebuild(&mut self) -> Result<(), String> {
        let mut m = KnockoutMatch::new(self.format.clone()).map_err(|e| e.to_string())?;
        for r in &self.results {
            m.record(*r).map_err(|e| e.to_string())?;
        }
        self.state = m;
        Ok(())
    }
}

/// One round block of a player record, with where it is in the file.
struct Block {
    opponent: u32,
    colour: Colour,
    result: ResultCode,
    line: usize,
    column: usize,
}

fn stage_name(format: &MatchFormat, stage: usize) -> &'static str {
    match format.stages.get(stage) {
        Some(s) => match (s.rule, &s.rate) {
            (StageRule::Armageddon, _) => "armageddon",
            (StageRule::SuddenDeath(_), _) => "sudden-death",
            (StageRule::Games(_), RateOfPlay::Rapid(_)) => "rapid",
            (StageRule::Games(_), RateOfPlay::Blitz(_)) => "blitz",
            (StageRule::Games(_), RateOfPlay::Standard) => "standard",
        },
        None => "standard",
    }
}

/// Starts the matches of bracket round `k` (0-based); every side must be known.
fn start_round(
    progress: &BracketProgress,
    k: usize,
    format: &MatchFormat,
) -> Result<Vec<LiveMatch>, PairError> {
    let Some(r) = progress.bracket().rounds.get(k) else {
        return Ok(vec![]);
    };
    let mut out = Vec::new();
    for index in 0..u32::try_from(r.matches.len()).unwrap_or(u32::MAX) {
        let Some((Some(x), Some(y))) = progress.sides(r.number, index) else {
            return Err(invalid(format!(
                "bracket round {}, match {}: a side is not known",
                r.number,
                index + 1
            )));
        };
        let state = KnockoutMatch::new(format.clone()).map_err(|e| invalid(e.to_string()))?;
        out.push(LiveMatch {
            index,
            a: x.min(y),
            b: x.max(y),
            swapped: x > y,
            format: format.clone(),
            results: vec![],
            state,
        });
    }
    Ok(out)
}

/// Players still in the knockout after bracket round `k` started (byes of the round and
/// both sides of its matches).
fn in_round(progress: &BracketProgress, k: usize, live: &[LiveMatch]) -> Vec<u32> {
    let mut v: Vec<u32> = progress
        .bracket()
        .rounds
        .get(k)
        .map(|r| r.byes.iter().filter_map(|e| progress.resolve(*e)).collect())
        .unwrap_or_default();
    for m in live {
        match m.state.status() {
            MatchStatus::Decided { winner, .. } => v.push(m.seed_of(winner)),
            _ => v.extend([m.a, m.b]),
        }
    }
    v.sort_unstable();
    v
}

/// The next TRF round `round` of the knockout recorded in `doc` (rounds `< round` are the
/// history).
pub fn pair(
    doc: &TrfDocument,
    round: usize,
    options: &KnockoutOptions,
) -> Result<KnockoutNext, PairError> {
    // Player records: pairing numbers 1..=N, each with its line.
    let mut lines: BTreeMap<u32, (usize, &trf::PlayerRecord)> = BTreeMap::new();
    for (i, l) in doc.lines.iter().enumerate() {
        if let Record::Player(p) = &l.record {
            let Some(t) = p.tpn().filter(|t| *t > 0) else {
                return Err(invalid(format!(
                    "line {}, columns 5-8: player record '{}' has no pairing number",
                    i + 1,
                    p.name
                )));
            };
            if lines.insert(u32::from(t), (i + 1, p)).is_some() {
                return Err(invalid(format!(
                    "line {}, columns 5-8: pairing number {t} is used twice",
                    i + 1
                )));
            }
        }
    }
    let n = u32::try_from(lines.len()).unwrap_or(u32::MAX);
    if let Some((&t, (line, _))) = lines.iter().find(|(t, _)| **t > n) {
        return Err(invalid(format!(
            "line {line}, columns 5-8: pairing number {t} with {n} players; a knockout is seeded by pairing numbers 1..={n}"
        )));
    }
    let bracket =
        knockout::bracket(n, options.bracket).map_err(|e| invalid(format!("players: {e}")))?;
    let bracket_rounds = u32::try_from(bracket.rounds.len()).unwrap_or(u32::MAX);
    let mut progress = BracketProgress::new(bracket);
    let mut k = 0usize;
    let mut live = start_round(&progress, k, &options.match_format)?;
    let mut final_round = 0usize;
    for r in 1..round {
        let mut blocks: BTreeMap<u32, Block> = BTreeMap::new();
        for (&t, (line, p)) in &lines {
            let Some(rr) = p.round(r) else { continue };
            if let Opponent::Player(o) = rr.opponent {
                blocks.insert(
                    t,
                    Block {
                        opponent: u32::from(o),
                        colour: rr.colour,
                        result: rr.result,
                        line: *line,
                        column: trf::player::layout::opponent_col(r),
                    },
                );
            }
        }
        let at = |b: &Block| format!("line {}, column {}: round {r}", b.line, b.column);
        // Every game of the round belongs to a match in progress.
        let opponent_in_match: BTreeMap<u32, u32> = live
            .iter()
            .filter(|m| matches!(m.state.status(), MatchStatus::InProgress(_)))
            .flat_map(|m| [(m.a, m.b), (m.b, m.a)])
            .collect();
        for (t, b) in &blocks {
            match opponent_in_match.get(t) {
                Some(&o) if o == b.opponent => {}
                Some(&o) => {
                    return Err(invalid(format!(
                        "{}: pairing number {t} plays {}, but its match is against {o}",
                        at(b),
                        b.opponent,
                    )));
                }
                None if live.is_empty() => {
                    return Err(invalid(format!(
                        "{}: pairing number {t} has a game, but the knockout was over after round {final_round}",
                        at(b)
                    )));
                }
                None => {
                    return Err(invalid(format!(
                        "{}: pairing number {t} has a game, but is not in a match still undecided in bracket round {}",
                        at(b),
                        k + 1
                    )));
                }
            }
        }
        for m in &mut live {
            let MatchStatus::InProgress(game) = m.state.status() else {
                continue;
            };
            let (Some(ba), Some(bb)) = (blocks.get(&m.a), blocks.get(&m.b)) else {
                let line = lines.get(&m.a).map_or(0, |l| l.0);
                return Err(invalid(format!(
                    "line {line}, column {}: round {r}: game {} of the match {}–{} (bracket round {}) was not played; record it (a forfeit `+`/`-` ends the match)",
                    trf::player::layout::opponent_col(r),
                    game.game_in_match,
                    m.a,
                    m.b,
                    k + 1
                )));
            };
            // Forfeits end the match (ADR knockout-002).
            let forfeit =
                |c: ResultCode| matches!(c, ResultCode::ForfeitWin | ResultCode::ForfeitLoss);
            if forfeit(ba.result) || forfeit(bb.result) {
                let loser = match (ba.result, bb.result) {
                    (ResultCode::ForfeitWin, ResultCode::ForfeitLoss) => Side::B,
                    (ResultCode::ForfeitLoss, ResultCode::ForfeitWin) => Side::A,
                    (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss) => {
                        return Err(invalid(format!(
                            "{}: double forfeit in the match {}–{}: a knockout needs a winner (record who goes through as `+`)",
                            at(ba),
                            m.a,
                            m.b
                        )));
                    }
                    _ => {
                        return Err(invalid(format!(
                            "{}: results {} and {} of the match {}–{} do not match",
                            at(ba),
                            ba.result.to_char(),
                            bb.result.to_char(),
                            m.a,
                            m.b
                        )));
                    }
                };
                m.state
                    .forfeit(loser)
                    .map_err(|e| invalid(format!("{}: {e}", at(ba))))?;
                continue;
            }
            let a_white = match (ba.colour, bb.colour) {
                (Colour::White, Colour::Black) => true,
                (Colour::Black, Colour::White) => false,
                _ => {
                    return Err(invalid(format!(
                        "{}: colours {} and {} of the game {}–{}: one White, one Black",
                        at(ba),
                        ba.colour.to_char(),
                        bb.colour.to_char(),
                        m.a,
                        m.b
                    )));
                }
            };
            let white = if a_white { Side::A } else { Side::B };
            let a_points = match ba.result {
                ResultCode::Win | ResultCode::UnratedWin => 2,
                ResultCode::Draw | ResultCode::UnratedDraw => 1,
                ResultCode::Loss | ResultCode::UnratedLoss => 0,
                other => {
                    return Err(invalid(format!(
                        "{}: result {:?} is not a game result (1 = 0 + - W D L)",
                        at(ba),
                        other.to_char()
                    )));
                }
            };
            if ba.result.mirror() != Some(bb.result) {
                return Err(invalid(format!(
                    "{}: results {} and {} of the game {}–{} do not match",
                    at(bb),
                    ba.result.to_char(),
                    bb.result.to_char(),
                    m.a,
                    m.b
                )));
            }
            let result = match (a_points, white) {
                (1, _) => GameResult::Draw,
                (2, Side::A) | (0, Side::B) => GameResult::WhiteWins,
                _ => GameResult::BlackWins,
            };
            if game.white != white {
                if game.game_in_stage == 1 {
                    // The first game of a stage: colours fixed by the regulations or drawn.
                    if let Some(s) = m.format.stages.get_mut(game.stage) {
                        s.first_white = Some(white);
                    }
                    m.rebuild()
                        .map_err(|e| invalid(format!("{}: {e}", at(ba))))?;
                } else {
                    return Err(invalid(format!(
                        "{}: pairing number {} has {} in game {} of the match {}–{}, but colours alternate within a stage: {} has White",
                        at(ba),
                        m.a,
                        if a_white { "White" } else { "Black" },
                        game.game_in_match,
                        m.a,
                        m.b,
                        m.seed_of(game.white)
                    )));
                }
            }
            m.state
                .record(result)
                .map_err(|e| invalid(format!("{}: {e}", at(ba))))?;
            m.results.push(result);
        }
        // A bracket round is over when all its matches are decided.
        let all_decided = !live.is_empty()
            && live
                .iter()
                .all(|m| matches!(m.state.status(), MatchStatus::Decided { .. }));
        if all_decided {
            let number = u32::try_from(k + 1).unwrap_or(u32::MAX);
            for m in &live {
                if let MatchStatus::Decided { winner, .. } = m.state.status() {
                    let bracket_side = if m.swapped { winner.other() } else { winner };
                    progress
                        .record_winner(number, m.index, bracket_side)
                        .map_err(|e| invalid(format!("round {r}: {e}")))?;
                }
            }
            k += 1;
            live = start_round(&progress, k, &options.match_format)?;
            if live.is_empty() {
                final_round = r;
            }
        }
    }
    if live.is_empty() {
        let champion = progress
            .champion()
            .ok_or_else(|| invalid("the bracket has no final"))?;
        return Ok(KnockoutNext::Over {
            champion,
            final_round,
        });
    }
    let number = u32::try_from(k + 1).unwrap_or(u32::MAX);
    let mut boards = Vec::new();
    for m in &live {
        match m.state.status() {
            MatchStatus::InProgress(g) => {
                let (white, black) = match g.white {
                    Side::A => (m.a, m.b),
                    Side::B => (m.b, m.a),
                };
                boards.push(KnockoutBoard {
                    white,
                    black,
                    bracket_round: number,
                    match_number: m.index + 1,
                    game_in_match: g.game_in_match,
                    stage: stage_name(&m.format, g.stage),
                });
            }
            MatchStatus::TieBreaksExhausted => {
                return Err(no_pairing(format!(
                    "round {round}: the match {}–{} (bracket round {number}) is level after every configured stage: its winner is drawn by lot, which a TRF cannot record; pair the next round by hand or configure more tie-break games",
                    m.a, m.b
                )));
            }
            MatchStatus::Decided { .. } => {}
        }
    }
    boards.sort_by_key(|b| b.white.min(b.black));
    let playing: std::collections::BTreeSet<u32> =
        boards.iter().flat_map(|b| [b.white, b.black]).collect();
    let exempt = in_round(&progress, k, &live)
        .into_iter()
        .filter(|t| !playing.contains(t))
        .collect();
    let preliminary = progress
        .bracket()
        .rounds
        .get(k)
        .is_some_and(|r| r.preliminary);
    Ok(KnockoutNext::Pair(KnockoutPairing {
        round,
        bracket_round: number,
        bracket_rounds,
        preliminary,
        boards,
        exempt,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use trf::{PlayerRecord, RoundResult};

    /// A field of `n` players with no game yet.
    fn field(n: u16) -> Vec<PlayerRecord> {
        (1..=n)
            .map(|t| PlayerRecord::new(t, format!("Player {t}")))
            .collect()
    }

    /// Records a game of round `r`: `white` scored `result` (`1`, `=`, `0`, `+`, `-`).
    fn game(ps: &mut [PlayerRecord], r: usize, white: u16, black: u16, result: char) {
        let w = ResultCode::parse(result);
        let b = match w {
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
            other => other.mirror().unwrap_or(other),
        };
        ps[usize::from(white) - 1].set_round(r, RoundResult::game(black, Colour::White, w));
        ps[usize::from(black) - 1].set_round(r, RoundResult::game(white, Colour::Black, b));
    }

    fn doc(ps: &[PlayerRecord]) -> TrfDocument {
        let mut d = TrfDocument::new();
        for p in ps {
            d.push(Record::Player(p.clone()));
        }
        d
    }

    fn next(ps: &[PlayerRecord], round: usize) -> KnockoutNext {
        pair(&doc(ps), round, &KnockoutOptions::default()).unwrap()
    }

    fn boards(n: &KnockoutNext) -> Vec<(u32, u32)> {
        match n {
            KnockoutNext::Pair(p) => p.boards.iter().map(|b| (b.white, b.black)).collect(),
            KnockoutNext::Over { .. } => panic!("knockout over: {n:?}"),
        }
    }

    #[test]
    fn four_players_round_1_is_1_v_4_and_2_v_3_the_better_seed_white() {
        let ps = field(4);
        let n = next(&ps, 1);
        assert_eq!(boards(&n), [(1, 4), (2, 3)]);
        let KnockoutNext::Pair(p) = n else { panic!() };
        assert_eq!((p.bracket_round, p.bracket_rounds), (1, 2));
        assert!(p.exempt.is_empty());
        assert!(p.boards.iter().all(|b| b.stage == "standard"));
    }

    #[test]
    fn colours_alternate_in_the_second_game_of_the_match() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '=');
        game(&mut ps, 1, 2, 3, '=');
        assert_eq!(boards(&next(&ps, 2)), [(4, 1), (3, 2)]);
    }

    /// Issue 8 acceptance: "a 2-game match tied 1–1 goes to the configured tie-break games";
    /// the decided match waits, then the final is paired between the winners.
    #[test]
    fn a_match_tied_1_1_goes_to_tie_breaks_then_the_final_is_paired_between_the_winners() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '1');
        game(&mut ps, 1, 2, 3, '1');
        game(&mut ps, 2, 4, 1, '='); // 1–4: 1½–½
        game(&mut ps, 2, 3, 2, '1'); // 2–3: 1–1
        let n = next(&ps, 3);
        assert_eq!(boards(&n), [(2, 3)], "only the tied match's tie-break game");
        let KnockoutNext::Pair(p) = &n else { panic!() };
        assert_eq!(p.boards[0].stage, "rapid");
        assert_eq!(p.boards[0].game_in_match, 3);
        assert_eq!(p.exempt, [1], "the winner of 1–4 waits");
        // Rapid game 1 drawn, rapid game 2 won by 3 (with White: alternation goes on).
        game(&mut ps, 3, 2, 3, '=');
        assert_eq!(boards(&next(&ps, 4)), [(3, 2)]);
        game(&mut ps, 4, 3, 2, '1');
        let f = next(&ps, 5);
        assert_eq!(boards(&f), [(1, 3)], "final: 1 v 3, the better seed White");
        let KnockoutNext::Pair(p) = &f else { panic!() };
        assert_eq!((p.bracket_round, p.boards[0].stage), (2, "standard"));
        game(&mut ps, 5, 1, 3, '0');
        game(&mut ps, 6, 3, 1, '1');
        assert_eq!(
            next(&ps, 7),
            KnockoutNext::Over {
                champion: 3,
                final_round: 6
            }
        );
    }

    #[test]
    fn the_tied_match_reaches_blitz_and_armageddon_where_a_draw_wins_for_black() {
        let mut ps = field(2);
        let mut r = 0;
        let mut play = |ps: &mut Vec<PlayerRecord>, result: char| -> KnockoutNext {
            r += 1;
            let KnockoutNext::Pair(p) = next(ps, r) else {
                panic!("over at {r}")
            };
            let b = &p.boards[0];
            let (w, k) = (
                u16::try_from(b.white).unwrap(),
                u16::try_from(b.black).unwrap(),
            );
            game(ps, r, w, k, result);
            next(ps, r + 1)
        };
        for _ in 0..6 {
            play(&mut ps, '=');
        }
        let KnockoutNext::Pair(p) = next(&ps, 7) else {
            panic!()
        };
        assert_eq!(p.boards[0].stage, "armageddon");
        let black = p.boards[0].black;
        let over = play(&mut ps, '=');
        assert_eq!(
            over,
            KnockoutNext::Over {
                champion: black,
                final_round: 7
            }
        );
    }

    /// Seed 000, "Systèmes K.O.": "47 joueurs : (47 − 32) × 2 = 30. 17 joueurs sont dispensés
    /// du 1er tour et 15 joueurs sont désignés par ce premier tour."
    #[test]
    fn seed_000_47_players_preliminary_round_15_matches_17_exempt() {
        let n = next(&field(47), 1);
        let KnockoutNext::Pair(p) = n else { panic!() };
        assert!(p.preliminary);
        assert_eq!(p.boards.len(), 15);
        assert_eq!(p.exempt, (1..=17).collect::<Vec<_>>());
        assert_eq!((p.boards[0].white, p.boards[0].black), (18, 47));
        assert_eq!((p.boards[14].white, p.boards[14].black), (32, 33));
        assert_eq!(p.bracket_rounds, 6);
    }

    #[test]
    fn after_the_preliminary_round_the_qualifiers_meet_the_exempt_players() {
        let mut ps = field(5);
        // Preliminary round: 4–5 (3 exempt), won by 5 in two games.
        game(&mut ps, 1, 4, 5, '0');
        game(&mut ps, 2, 5, 4, '1');
        let n = next(&ps, 3);
        // Main bracket of 4: 1 v (winner 4–5), 2 v 3; 1 White against 5.
        assert_eq!(boards(&n), [(1, 5), (2, 3)]);
    }

    #[test]
    fn a_forfeit_ends_the_match() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '-');
        game(&mut ps, 1, 2, 3, '1');
        let n = next(&ps, 2);
        assert_eq!(boards(&n), [(3, 2)]);
        let KnockoutNext::Pair(p) = n else { panic!() };
        assert_eq!(p.exempt, [4]);
    }

    #[test]
    fn colours_of_a_stage_s_first_game_are_read_from_the_file_then_alternate() {
        let mut ps = field(2);
        game(&mut ps, 1, 2, 1, '='); // colours drawn: 2 White in game 1
        assert_eq!(boards(&next(&ps, 2)), [(1, 2)]);
        game(&mut ps, 2, 2, 1, '='); // game 2 must give White to 1
        let e = pair(&doc(&ps), 3, &KnockoutOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains("colours alternate within a stage"),
            "{e}"
        );
        assert!(e.to_string().contains("line 1, column 102: round 2"), "{e}");
    }

    #[test]
    fn a_game_outside_the_bracket_or_a_missing_game_is_an_error_naming_the_line() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 2, '1');
        game(&mut ps, 1, 3, 4, '1');
        let e = pair(&doc(&ps), 2, &KnockoutOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains("line 1, column 92: round 1")
                && e.to_string().contains("its match is against 4"),
            "{e}"
        );
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '1');
        let e = pair(&doc(&ps), 2, &KnockoutOptions::default()).unwrap_err();
        assert!(e.to_string().contains("was not played"), "{e}");
        assert!(matches!(e, PairError::Invalid(_)));
    }

    #[test]
    fn one_game_matches_without_tie_breaks_and_the_tie_break_parser() {
        let options = KnockoutOptions {
            bracket: BracketFormat::PreliminaryRound,
            match_format: match_format(1, parse_tie_breaks("none").unwrap()),
        };
        let mut ps = field(2);
        game(&mut ps, 1, 1, 2, '=');
        let e = pair(&doc(&ps), 2, &options).unwrap_err();
        assert!(matches!(e, PairError::NoPairing(_)), "{e}");
        assert!(e.to_string().contains("drawn by lot"), "{e}");
        assert_eq!(parse_tie_breaks(DEFAULT_TIE_BREAKS).unwrap().len(), 3);
        assert!(parse_tie_breaks("rapid").is_err());
        assert!(parse_tie_breaks("rapid:0").is_err());
        assert!(parse_tie_breaks("armageddon:1").is_err());
        assert!(parse_tie_breaks("bullet:2").is_err());
    }

    /// Every field size and bracket format is played to its final from the file alone:
    /// each TRF round pairs every player still in at most once, and the knockout ends.
    #[test]
    fn every_field_and_format_is_played_to_a_champion() {
        for bracket in [
            BracketFormat::PreliminaryRound,
            BracketFormat::ByesBySeeding,
            BracketFormat::ByeInEachOddRound,
        ] {
            for n in 2..=19u16 {
                let options = KnockoutOptions {
                    bracket,
                    ..KnockoutOptions::default()
                };
                let mut ps = field(n);
                let mut r = 1;
                let champion = loop {
                    match pair(&doc(&ps), r, &options).unwrap() {
                        KnockoutNext::Over {
                            champion,
                            final_round,
                        } => {
                            assert_eq!(final_round, r - 1);
                            break champion;
                        }
                        KnockoutNext::Pair(p) => {
                            let mut seen = std::collections::BTreeSet::new();
                            for b in &p.boards {
                                assert!(seen.insert(b.white) && seen.insert(b.black));
                                let result = ['1', '=', '0'][(r + b.white as usize) % 3];
                                let w = u16::try_from(b.white).unwrap();
                                let k = u16::try_from(b.black).unwrap();
                                game(&mut ps, r, w, k, result);
                            }
                            assert!(p.exempt.iter().all(|t| !seen.contains(t)));
                        }
                    }
                    r += 1;
                    assert!(r < 200, "{bracket:?} {n}: no end");
                };
                assert!((1..=u32::from(n)).contains(&champion));
            }
        }
    }

    #[test]
    fn pairing_numbers_must_be_1_to_n() {
        let mut ps = field(3);
        ps[2] = PlayerRecord::new(7, "Seven");
        let e = pair(&doc(&ps), 1, &KnockoutOptions::default()).unwrap_err();
        assert!(e.to_string().contains("line 3, columns 5-8"), "{e}");
    }
}
