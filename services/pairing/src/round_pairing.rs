//! Deciding a round's pairing, pure: the engine input is the tournament's TRF as of the
//! previous round (the registry's export, with the engine lines `XXR XXZ XXP` and the
//! next round's requested byes), read by the same adapter as `arbiter-pairings`
//! (`pairings::trf_input`), paired by `swiss` (C.04.3 Dutch) or `roundrobin`
//! (Berger tables, C.05 Annex 1), the other Swiss systems or a knockout
//! (`pairings::other_systems`; docs/decisions/knockout-005-history-from-trf.md). Published pairings change only as C.04.2 art. 4 allows
//! (docs/decisions/pairing-001-published-pairings.md).
use std::collections::BTreeSet;

use arbiter_proto::v1::{
    PairedBoard, PairingDiscarded, PairingsPublished, PairingsUnpublished, RoundPaired, Tournament,
};
use arbiter_registry::roster::Roster;
use arbiter_registry::tournament::FieldError;
use arbiter_registry::trf_export::{self, ExportOptions};
use sha2::{Digest, Sha256};
use swiss::{Edition, EnginePath, Options};

use crate::team_round;

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// The pairing system a tournament declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// FIDE (Dutch) system, C.04.3.
    Dutch(Edition),
    /// Single round robin, Berger tables by pairing number.
    RoundRobin,
    /// Double round robin (FIDE's swap of the first cycle's last two rounds).
    DoubleRoundRobin,
    /// Lim system (C.04.4.3; seed 000).
    Lim,
    /// Italo-Swiss (seed 000).
    ItaloSwiss,
    /// FMJD draughts Swiss (seed 002).
    DraughtsSwiss,
    /// Knockout (seed 000 "Systèmes K.O."): seeds = pairing numbers, preliminary round to a
    /// power of two, matches of 2 games then 2 rapid, 2 blitz and an Armageddon game; one
    /// round per game (ADR knockout-005).
    Knockout,
    /// Team round robin (C.05 Annex 1 with teams; ADR pairing-005).
    TeamRoundRobin,
    /// FIDE Swiss Team Pairing System C.04.6 (2026; ADR pairing-005).
    SwissTeam,
}

impl System {
    /// The system and edition of tournament `t`.
    pub fn of(t: &Tournament) -> Result<System, FieldError> {
        let system = t.pairing_system.trim().to_ascii_lowercase();
        let edition = t.rule_edition.trim().to_ascii_lowercase();
        match system.as_str() {
            "" | "dutch" | "swiss" | "fide-dutch" => match edition.as_str() {
                "" | "dutch-2026" => Ok(System::Dutch(Edition::Dutch2026)),
                "dutch-2017" => Ok(System::Dutch(Edition::Dutch2017)),
                other => Err(err(
                    "rule_edition",
                    format!("{other:?} is not a Dutch edition (dutch-2026, dutch-2017)"),
                )),
            },
            "round-robin" => Ok(System::RoundRobin),
            "double-round-robin" => Ok(System::DoubleRoundRobin),
            "lim" => Ok(System::Lim),
            "italo-swiss" => Ok(System::ItaloSwiss),
            "draughts-swiss" => Ok(System::DraughtsSwiss),
            "knockout" => Ok(System::Knockout),
            "team-round-robin" => match edition.as_str() {
                "" | "c05-2026" => Ok(System::TeamRoundRobin),
                other => Err(err(
                    "rule_edition",
                    format!("{other:?} is not a team round robin edition (c05-2026)"),
                )),
            },
            "swiss-team" => match edition.as_str() {
                "" | "swiss-team-2026" => Ok(System::SwissTeam),
                other => Err(err(
                    "rule_edition",
                    format!(
                        "{other:?} is not a Swiss Team Pairing System edition (swiss-team-2026)"
                    ),
                )),
            },
            other => Err(err(
                "pairing_system",
                format!(
                    "{other:?} cannot be paired by the service (dutch, round-robin, double-round-robin, lim, italo-swiss, draughts-swiss, knockout, team-round-robin, swiss-team)"
                ),
            )),
        }
    }

    /// `(system, edition)` as stored in `RoundPaired`.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            System::Dutch(Edition::Dutch2026) => ("dutch", "dutch-2026"),
            System::Dutch(Edition::Dutch2017) => ("dutch", "dutch-2017"),
            System::RoundRobin => ("round-robin", "c05-annex1"),
            System::DoubleRoundRobin => ("double-round-robin", "c05-annex1"),
            System::Lim => ("lim", "c04.4.3"),
            System::ItaloSwiss => ("italo-swiss", "seed-000"),
            System::DraughtsSwiss => ("draughts-swiss", "fmjd-annex-v"),
            System::Knockout => ("knockout", "seed-000"),
            System::TeamRoundRobin => ("team-round-robin", "c05-2026"),
            System::SwissTeam => ("swiss-team", "swiss-team-2026"),
        }
    }
}

/// The announced number of rounds bounds the rounds paired: a round beyond it is refused,
/// and a tournament whose number of rounds is not set (0) is not paired — except a
/// knockout, whose bracket decides how many rounds (games) it takes (ADR pairing-002).
pub fn check_announced_rounds(t: &Tournament, round: u32) -> Result<(), FieldError> {
    let knockout = matches!(System::of(t), Ok(System::Knockout));
    if t.rounds == 0 {
        if knockout {
            return Ok(());
        }
        return Err(err(
            "round",
            format!(
                "the number of rounds is not set: announce it before pairing (arbiter tournament update {} --rounds N)",
                t.tournament_id
            ),
        ));
    }
    if round > t.rounds {
        return Err(err(
            "round",
            format!(
                "the tournament has {} round(s): round {round} is beyond the announced rounds (change the number of rounds first)",
                t.rounds
            ),
        ));
    }
    Ok(())
}

/// A reason is required for a command that withdraws a pairing (it is recorded with the
/// actor); free text, bounded.
fn required_reason(reason: &str, what: &str) -> Result<(), FieldError> {
    if reason.trim().is_empty() {
        return Err(err(
            "meta.reason",
            format!("{what} needs a reason (it is recorded with the actor)"),
        ));
    }
    arbiter_registry::tournament::check_reason(reason)
}

/// Only the last paired round can be re-paired.
fn check_last_paired(roster: &Roster, round: u32) -> Result<(), FieldError> {
    if round != roster.paired_rounds {
        return Err(err(
            "round",
            format!(
                "only the last paired round ({}) can be re-paired",
                roster.paired_rounds
            ),
        ));
    }
    Ok(())
}

/// Checks that `round` may be paired now (`repair`: re-paired) and that every earlier
/// round has its results.
pub fn check_round_to_pair(roster: &Roster, round: u32, repair: bool) -> Result<(), FieldError> {
    let next = roster.paired_rounds + 1;
    if repair {
        let Some(p) = roster.record.pairings.get(&round) else {
            return Err(err(
                "round",
                format!("round {round} has not been paired here"),
            ));
        };
        check_last_paired(roster, round)?;
        if p.published {
            return Err(err(
                "round",
                format!(
                    "round {round} is published: C.04.2 art. 4 keeps a published pairing (use SetPairings for an allowed change)"
                ),
            ));
        }
        if roster.round_has_results(round) {
            return Err(err("round", format!("round {round} already has results")));
        }
    } else if round != next {
        return Err(err(
            "round",
            format!("the next round to pair is {next}, not {round}"),
        ));
    }
    for r in 1..round {
        let missing = roster.boards_without_result(r);
        if !missing.is_empty() {
            return Err(err(
                "round",
                format!(
                    "round {r} has boards without a result ({}); record them before pairing round {round}",
                    missing
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if let Some(p) = roster.record.pairings.get(&r)
            && !p.published
        {
            return Err(err("round", format!("round {r} is not published yet")));
        }
    }
    Ok(())
}

/// The engine input: the tournament as TRF26 as of round `round - 1`, with engine lines.
pub fn engine_input(t: &Tournament, roster: &Roster, round: u32) -> Result<String, FieldError> {
    // C.04.2 3.1: adjourned games count as draws for pairing only (ADR results-002)
    let mut before = roster.for_pairing();
    before.paired_rounds = round.saturating_sub(1);
    std::sync::Arc::make_mut(&mut before.rounds).retain(|r, _| *r < round);
    let (text, _) = trf_export::export(
        t,
        &before,
        &ExportOptions {
            round: 0,
            version: trf::TrfVersion::Trf26,
            engine_lines: true,
        },
    )?;
    Ok(text)
}

fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Players who can be paired in `round` by the registry's entries (joined, not
/// withdrawn, no requested bye in the round).
fn available(roster: &Roster, round: u32) -> Vec<String> {
    roster
        .order
        .iter()
        .filter_map(|id| roster.entry(id))
        .filter(|e| {
            e.joined_round <= round
                && (e.withdrawn_from_round == 0 || e.withdrawn_from_round > round)
                && !e.byes.contains_key(&round)
        })
        .map(|e| e.player_id.clone())
        .collect()
}

fn absent(roster: &Roster, boards: &[PairedBoard], bye: &str) -> Vec<String> {
    let on: BTreeSet<&str> = boards
        .iter()
        .flat_map(|b| [b.white_id.as_str(), b.black_id.as_str()])
        .chain(std::iter::once(bye))
        .collect();
    roster
        .order
        .iter()
        .filter(|id| !on.contains(id.as_str()))
        .cloned()
        .collect()
}

/// A team round's unopposed players hold a board (a forfeit win): not absent.
fn without_unopposed(
    absent: Vec<String>,
    matches: &[arbiter_proto::v1::PairedMatch],
) -> Vec<String> {
    let on: BTreeSet<&str> = matches
        .iter()
        .flat_map(|m| &m.boards)
        .map(|b| b.unopposed_player_id.as_str())
        .filter(|id| !id.is_empty())
        .collect();
    absent
        .into_iter()
        .filter(|id| !on.contains(id.as_str()))
        .collect()
}

fn id_of(roster: &Roster, tpn: u32) -> Result<String, FieldError> {
    usize::try_from(tpn)
        .ok()
        .and_then(|t| t.checked_sub(1))
        .and_then(|i| roster.order.get(i))
        .cloned()
        .ok_or_else(|| {
            err(
                "round",
                format!("the engine paired unknown pairing number {tpn}"),
            )
        })
}

/// What the explanation of an engine-made Dutch pairing needs once the pairing is stored
/// (ADR pairing-004): the engine's state as it paired the round, and what it paired.
#[derive(Debug, Clone)]
pub struct ExplainJob {
    /// The round explained.
    pub round: u32,
    edition: Edition,
    state: swiss::TournamentState,
    boards: Vec<(u32, u32)>,
    bye: Option<u32>,
}

/// The explanation of the pairing `job` describes: the engine pairs the same state again,
/// recording its decisions (the fast path with `explain`, which pairs as it does without:
/// ADR pairing-003), and the pairing it explains must be the one stored. Ends soon after
/// `stop` is given.
pub fn explain(job: &ExplainJob, stop: &swiss::StopSignal) -> Result<String, String> {
    let p = swiss::pair_stoppable(
        &job.state,
        job.edition,
        &Options { explain: true },
        EnginePath::Fast,
        &mut |_| {},
        stop,
    )
    .map_err(|e| format!("round {}: {e}", job.round))?;
    let boards: Vec<(u32, u32)> = p.boards.iter().map(|b| (b.white, b.black)).collect();
    if boards != job.boards || p.bye != job.bye {
        return Err(format!(
            "round {}: the engine's explained pairing differs from the stored one; this is a fault of the engine, please report it with the tournament's export",
            job.round
        ));
    }
    Ok(explain_text(&p))
}

/// Pairs `round` with the tournament's system: the `RoundPaired` to append, and for an
/// engine-made Dutch pairing what its explanation needs (made once the pairing is stored:
/// ADR pairing-004; the other systems' explanations are in the `RoundPaired`). A Dutch
/// pairing ends soon after `stop` is given (the service's timeout, a client gone: ADR
/// pairing-003); the other systems pair in one step.
pub fn pair_round(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    repair: bool,
    stop: &swiss::StopSignal,
) -> Result<(RoundPaired, Option<ExplainJob>), FieldError> {
    if !repair {
        check_announced_rounds(t, round)?;
    }
    let system = System::of(t)?;
    // A published team round is re-paired board by board only: the published team pairing
    // stays, the boards follow the line-ups submitted since (ADR pairing-005).
    if repair
        && matches!(system, System::TeamRoundRobin | System::SwissTeam)
        && let Some(p) = roster.record.pairings.get(&round)
        && p.published
    {
        return reboard_team_round(roster, round, &p.event).map(|x| (x, None));
    }
    check_round_to_pair(roster, round, repair)?;
    let (system_name, edition_name) = system.names();
    let input = engine_input(t, roster, round)?;
    let mut job = None;
    let mut team = team_round::TeamPaired::default();
    let (boards, bye, explanation) = match system {
        System::Dutch(edition) => {
            let (paired, j) = dutch(roster, round, edition, &input, stop)?;
            job = Some(j);
            paired
        }
        System::RoundRobin | System::DoubleRoundRobin => round_robin(roster, round, system)?,
        System::Lim | System::ItaloSwiss | System::DraughtsSwiss => {
            other_swiss(roster, round, system, &input)?
        }
        System::Knockout => knockout_round(roster, round, &input)?,
        System::TeamRoundRobin | System::SwissTeam => {
            let kind = if system == System::SwissTeam {
                team_round::TeamSystem::Swiss
            } else {
                team_round::TeamSystem::RoundRobin
            };
            team = team_round::pair_team_round(roster, round, t.rounds, kind, &input)?;
            let boards = std::mem::take(&mut team.boards);
            let text = std::mem::take(&mut team.explanation);
            (boards, None, text)
        }
    };
    let bye_id = bye.clone().unwrap_or_default();
    let paired = RoundPaired {
        tournament_id: t.tournament_id.clone(),
        round,
        absent_player_ids: without_unopposed(absent(roster, &boards, &bye_id), &team.matches),
        boards,
        bye_player_id: bye_id,
        system: system_name.into(),
        edition: edition_name.into(),
        engine_version: format!("arbiter {}", env!("CARGO_PKG_VERSION")),
        input_sha256: sha256_hex(&input),
        explanation,
        engine_made: true,
        repaired: repair,
        after_publication: false,
        matches: team.matches,
        bye_team_id: team.bye_team_id,
    };
    Ok((paired, job))
}

/// `RepairRound` of a published team round: the same matches, the boards made again from
/// the line-ups in force (a captain's line-up after the team pairing was published), before
/// any result of the round.
fn reboard_team_round(
    roster: &Roster,
    round: u32,
    published: &RoundPaired,
) -> Result<RoundPaired, FieldError> {
    check_last_paired(roster, round)?;
    if roster.round_has_results(round) {
        return Err(err(
            "round",
            format!("round {round} already has results: its boards are fixed"),
        ));
    }
    let team = team_round::reboard(roster, round, published)?;
    Ok(RoundPaired {
        absent_player_ids: without_unopposed(absent(roster, &team.boards, ""), &team.matches),
        boards: team.boards,
        matches: team.matches,
        explanation: team.explanation,
        repaired: true,
        after_publication: true,
        ..published.clone()
    })
}

type Paired = (Vec<PairedBoard>, Option<String>, String);

/// The Dutch engine's state before `round`, read from the engine input.
fn dutch_state(
    roster: &Roster,
    round: u32,
    edition: Edition,
    input: &str,
) -> Result<swiss::TournamentState, FieldError> {
    let parsed = trf::parse(input.as_bytes())
        .map_err(|e| err("tournament_id", format!("engine input: {e}")))?;
    let state = pairings::trf_input::state_before(&parsed.doc, round as usize, edition)
        .map_err(|e| err("tournament_id", format!("engine input: {e}")))?;
    // A declared acceleration (C.04.7 Baku, or a seed method) gives the virtual points,
    // unless the imported file carries them itself (XXA/250).
    let accel = roster.settings.acceleration.trim();
    if accel.is_empty() || pairings::trf_input::has_acceleration_records(&parsed.doc) {
        Ok(state)
    } else {
        let method = pairings::acceleration_method(accel).map_err(|e| err("acceleration", e))?;
        pairings::accelerate(&parsed.doc, state, round as usize, Some(method))
            .map_err(|e| err("acceleration", e))
    }
}

/// What explaining the stored engine-made Dutch pairing `paired` needs, from the record
/// as it stood just before the pairing was written (`t`, `before`): made again when the
/// explanation was not written with the pairing (the server stopped first; ADR
/// pairing-004). Refused when that record no longer gives the input the pairing was made
/// from (its `input_sha256`).
pub fn explain_job_of(
    t: &Tournament,
    before: &Roster,
    paired: &RoundPaired,
) -> Result<ExplainJob, FieldError> {
    let round = paired.round;
    let System::Dutch(edition) = System::of(t)? else {
        return Err(err(
            "round",
            format!("round {round} was not paired by the Dutch engine"),
        ));
    };
    let input = engine_input(t, before, round)?;
    if sha256_hex(&input) != paired.input_sha256 {
        return Err(err(
            "round",
            format!(
                "round {round}: the record before the pairing no longer gives the engine input it was made from (SHA-256 {})",
                paired.input_sha256
            ),
        ));
    }
    let state = dutch_state(before, round, edition, &input)?;
    let mut boards = Vec::new();
    let mut bye = None;
    for b in &paired.boards {
        boards.push((b.white_tpn, b.black_tpn));
    }
    if !paired.bye_player_id.is_empty() {
        bye = Some(before.pairing_number(&paired.bye_player_id));
    }
    Ok(ExplainJob {
        round,
        edition,
        state,
        boards,
        bye,
    })
}

fn dutch(
    roster: &Roster,
    round: u32,
    edition: Edition,
    input: &str,
    stop: &swiss::StopSignal,
) -> Result<(Paired, ExplainJob), FieldError> {
    let state = dutch_state(roster, round, edition, input)?;
    // Paired as `arbiter-pairings -p` pairs; the explanation follows (ADR pairing-004).
    let options = Options { explain: false };
    let p = swiss::pair_stoppable(
        &state,
        edition,
        &options,
        EnginePath::Fast,
        &mut |_| {},
        stop,
    )
    .map_err(|e| err("round", format!("round {round}: {e}")))?;
    let mut boards = Vec::new();
    for (i, b) in p.boards.iter().enumerate() {
        boards.push(PairedBoard {
            board: u32::try_from(i + 1).unwrap_or(u32::MAX),
            white_id: id_of(roster, b.white)?,
            black_id: id_of(roster, b.black)?,
            white_tpn: b.white,
            black_tpn: b.black,
        });
    }
    let bye = p.bye.map(|t| id_of(roster, t)).transpose()?;
    let job = ExplainJob {
        round,
        edition,
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: p.bye,
        state,
    };
    Ok(((boards, bye, String::new()), job))
}

/// Lim, Italo-Swiss, draughts Swiss: the same engine input, read by the adapters
/// `arbiter pair --system …` uses (`pairings::other_systems`).
fn other_swiss(
    roster: &Roster,
    round: u32,
    system: System,
    input: &str,
) -> Result<Paired, FieldError> {
    use pairings::other_systems::{self as os, PairError};
    let parsed = trf::parse(input.as_bytes())
        .map_err(|e| err("tournament_id", format!("engine input: {e}")))?;
    let r = round as usize;
    let p = match system {
        System::Lim => os::lim::pair(&parsed.doc, r),
        System::ItaloSwiss => os::italoswiss::pair(&parsed.doc, r),
        _ => os::draughtsswiss::pair(&parsed.doc, r),
    }
    .map_err(|e| match e {
        PairError::NoPairing(m) => err(
            "round",
            format!("no pairing complies with the system's rules: {m}"),
        ),
        PairError::Invalid(m) => err("tournament_id", m),
    })?;
    let mut boards = Vec::new();
    for (i, (w, b)) in p.boards.iter().enumerate() {
        boards.push(PairedBoard {
            board: u32::try_from(i + 1).unwrap_or(u32::MAX),
            white_id: id_of(roster, *w)?,
            black_id: id_of(roster, *b)?,
            white_tpn: *w,
            black_tpn: *b,
        });
    }
    let bye = p.bye.map(|t| id_of(roster, t)).transpose()?;
    let (name, _) = system.names();
    Ok((
        boards,
        bye,
        format!("{name}: round {round} paired from the record's TRF"),
    ))
}

/// A knockout: the next game of every undecided match of the bracket round, or the first
/// game of the next bracket round, from the same engine input as `arbiter pair --system
/// knockout --trf --games N --tie-breaks LIST` with the tournament's settings
/// `knockout_games` / `knockout_tie_breaks` (the defaults when unset; ADR knockout-005).
/// Players still in without a game are absent from the round, not given a bye.
fn knockout_round(roster: &Roster, round: u32, input: &str) -> Result<Paired, FieldError> {
    use pairings::other_systems::PairError;
    use pairings::other_systems::knockout::{self as ko, KnockoutNext, KnockoutOptions};
    let parsed = trf::parse(input.as_bytes())
        .map_err(|e| err("tournament_id", format!("engine input: {e}")))?;
    let settings = &roster.settings;
    let games = match settings.knockout_games {
        0 => ko::DEFAULT_GAMES,
        g => g,
    };
    let tie_breaks_text = if settings.knockout_tie_breaks.is_empty() {
        ko::DEFAULT_TIE_BREAKS
    } else {
        settings.knockout_tie_breaks.as_str()
    };
    let tie_breaks =
        ko::parse_tie_breaks(tie_breaks_text).map_err(|m| err("knockout_tie_breaks", m))?;
    let options = KnockoutOptions {
        match_format: ko::match_format(games, tie_breaks),
        ..KnockoutOptions::default()
    };
    let next = ko::pair(&parsed.doc, round as usize, &options).map_err(|e| match e {
        PairError::NoPairing(m) => err("round", m),
        PairError::Invalid(m) => err("tournament_id", format!("engine input: {m}")),
    })?;
    let p = match next {
        KnockoutNext::Over {
            champion,
            final_round,
        } => {
            return Err(err(
                "round",
                format!(
                    "the knockout is over: pairing number {champion} ({}) won the final in round {final_round}; nothing left to pair",
                    id_of(roster, champion)?
                ),
            ));
        }
        KnockoutNext::Pair(p) => p,
    };
    let mut boards = Vec::new();
    let mut text = format!(
        "knockout (seed 000): round {round} is bracket round {} of {}{}; matches of {} games, then {}\n",
        p.bracket_round,
        p.bracket_rounds,
        if p.preliminary { " (preliminary)" } else { "" },
        games,
        tie_breaks_text
    );
    for (i, b) in p.boards.iter().enumerate() {
        let board = u32::try_from(i + 1).unwrap_or(u32::MAX);
        text.push_str(&format!(
            "  board {board}: match R{}.{} game {} ({})\n",
            b.bracket_round, b.match_number, b.game_in_match, b.stage
        ));
        boards.push(PairedBoard {
            board,
            white_id: id_of(roster, b.white)?,
            black_id: id_of(roster, b.black)?,
            white_tpn: b.white,
            black_tpn: b.black,
        });
    }
    if !p.exempt.is_empty() {
        let list: Vec<String> = p.exempt.iter().map(u32::to_string).collect();
        text.push_str(&format!("  exempt (no game): {}\n", list.join(", ")));
    }
    Ok((boards, None, text))
}

/// The engine's explanation as text, bracket by bracket.
pub fn explain_text(p: &swiss::RoundPairing) -> String {
    let mut s = String::new();
    for b in &p.explanation {
        s.push_str(&format!(
            "bracket score {}: players {:?}, moved down {:?}\n",
            b.score, b.players, b.moved_down
        ));
        for (x, y) in &b.pairs {
            s.push_str(&format!("  pair {x} - {y}\n"));
        }
        for d in &b.decisions {
            s.push_str(&format!(
                "  {}: {} rejected for {} ({})\n",
                d.subject, d.rejected, d.chosen, d.criterion
            ));
        }
        for (f, why) in &b.downfloaters {
            s.push_str(&format!("  floater {f}: {why}\n"));
        }
    }
    if let Some(b) = p.bye {
        s.push_str(&format!("pairing-allocated bye: {b}\n"));
    }
    s
}

fn round_robin(roster: &Roster, round: u32, system: System) -> Result<Paired, FieldError> {
    let players = available(roster, round);
    if players.len() != roster.entries.len() {
        return Err(err(
            "round",
            "a round robin pairs every entry in every round (withdrawals and byes are scored by the results service)",
        ));
    }
    let n = u32::try_from(roster.order.len()).unwrap_or(u32::MAX);
    let table = if system == System::DoubleRoundRobin {
        roundrobin::double_round_robin(n, roundrobin::SecondCycle::default())
    } else {
        roundrobin::berger_table(n)
    }
    .map_err(|e| err("round", e.to_string()))?;
    let r = table
        .into_iter()
        .find(|r| r.number == round)
        .ok_or_else(|| err("round", format!("the schedule has no round {round}")))?;
    let mut boards = Vec::new();
    for g in &r.games {
        boards.push(PairedBoard {
            board: g.board,
            white_id: id_of(roster, g.white)?,
            black_id: id_of(roster, g.black)?,
            white_tpn: g.white,
            black_tpn: g.black,
        });
    }
    let text = format!(
        "Berger table for {n} players (C.05 Annex 1), round {round}{}",
        r.bye
            .map(|b| format!("; pairing number {b} is free"))
            .unwrap_or_default()
    );
    Ok((boards, None, text))
}

/// A pairing set by hand: every player once, known, available; reason required.
pub fn decide_set_pairings(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    boards: &[PairedBoard],
    bye: &str,
    reason: &str,
) -> Result<RoundPaired, FieldError> {
    required_reason(reason, "a pairing set by hand")?;
    if matches!(
        System::of(t),
        Ok(System::TeamRoundRobin | System::SwissTeam)
    ) {
        return Err(err(
            "boards",
            "a team tournament's boards come from its team pairing and the line-ups: change a line-up (arbiter team lineup) and re-pair the round (ADR pairing-005)",
        ));
    }
    if boards.len() > roster.entries.len() {
        return Err(err(
            "boards",
            format!(
                "{} boards for {} players: at most one board per two players",
                boards.len(),
                roster.entries.len()
            ),
        ));
    }
    let existing = roster.record.pairings.get(&round);
    let after_publication = existing.is_some_and(|p| p.published);
    if existing.is_none() {
        check_announced_rounds(t, round)?;
        check_round_to_pair(roster, round, false)?;
    } else if roster.round_has_results(round) {
        return Err(err(
            "round",
            format!("round {round} already has results; correct them instead"),
        ));
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let resolve = |who: &str, field: &'static str| -> Result<String, FieldError> {
        roster
            .resolve(who)
            .map(|e| e.player_id.clone())
            .map_err(|e| err(field, e.message))
    };
    for (i, b) in boards.iter().enumerate() {
        let w = resolve(&b.white_id, "boards.white_id")?;
        let k = resolve(&b.black_id, "boards.black_id")?;
        for p in [&w, &k] {
            if !seen.insert(p.clone()) {
                return Err(err(
                    "boards",
                    format!("board {}: player {p} is paired twice", i + 1),
                ));
            }
        }
        out.push(PairedBoard {
            board: u32::try_from(i + 1).unwrap_or(u32::MAX),
            white_tpn: roster.pairing_number(&w),
            black_tpn: roster.pairing_number(&k),
            white_id: w,
            black_id: k,
        });
    }
    let bye_id = if bye.trim().is_empty() {
        String::new()
    } else {
        let b = resolve(bye, "bye_player_id")?;
        if !seen.insert(b.clone()) {
            return Err(err(
                "bye_player_id",
                format!("player {b} is also on a board"),
            ));
        }
        b
    };
    let (system, edition) = System::of(t).map(System::names).unwrap_or(("manual", ""));
    Ok(RoundPaired {
        tournament_id: t.tournament_id.clone(),
        round,
        absent_player_ids: absent(roster, &out, &bye_id),
        boards: out,
        bye_player_id: bye_id,
        system: system.into(),
        edition: edition.into(),
        engine_version: String::new(),
        input_sha256: String::new(),
        explanation: format!("set by hand: {}", reason.trim()),
        engine_made: false,
        repaired: existing.is_some(),
        after_publication,
        matches: Vec::new(),
        bye_team_id: String::new(),
    })
}

/// Publishing: the round is paired and not yet published.
pub fn decide_publish(
    t: &Tournament,
    roster: &Roster,
    round: u32,
) -> Result<PairingsPublished, FieldError> {
    match roster.record.pairings.get(&round) {
        None => Err(err("round", format!("round {round} has not been paired"))),
        Some(p) if p.published => Err(err("round", format!("round {round} is already published"))),
        Some(p) => {
            if p.event.engine_made && !p.event.input_sha256.is_empty() {
                let now = sha256_hex(&engine_input(t, roster, round)?);
                if now != p.event.input_sha256 {
                    return Err(err(
                        "round",
                        format!(
                            "round {round} was paired from an earlier state of the tournament (a correction, entry, withdrawal or bye since); re-pair it (RepairRound) before publishing"
                        ),
                    ));
                }
            }
            Ok(PairingsPublished {
                tournament_id: t.tournament_id.clone(),
                round,
            })
        }
    }
}

/// Discarding the unpublished pairing of the last paired round, before any result of it
/// (reason required): the round is no longer paired and can be paired again
/// (ADR pairing-002).
pub fn decide_discard(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    reason: &str,
) -> Result<PairingDiscarded, FieldError> {
    required_reason(reason, "discarding a pairing")?;
    let Some(p) = roster.record.pairings.get(&round) else {
        return Err(err(
            "round",
            format!("round {round} has not been paired here: nothing to discard"),
        ));
    };
    if p.published {
        return Err(err(
            "round",
            format!(
                "round {round} is published: unpublish it first (UnpublishPairings, before any result), then discard it"
            ),
        ));
    }
    if round != roster.paired_rounds {
        return Err(err(
            "round",
            format!(
                "only the last paired round ({}) can be discarded",
                roster.paired_rounds
            ),
        ));
    }
    if roster.round_has_results(round) {
        return Err(err("round", format!("round {round} already has results")));
    }
    Ok(PairingDiscarded {
        tournament_id: t.tournament_id.clone(),
        round,
    })
}

/// Withdrawing a published pairing from publication before any result of its round
/// (reason required): afterwards it can be re-paired, set, discarded or published again
/// (ADR pairing-002).
pub fn decide_unpublish(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    reason: &str,
) -> Result<PairingsUnpublished, FieldError> {
    required_reason(reason, "unpublishing a pairing")?;
    match roster.record.pairings.get(&round) {
        None => Err(err(
            "round",
            format!("round {round} has not been paired here"),
        )),
        Some(p) if !p.published => Err(err("round", format!("round {round} is not published"))),
        Some(_) if roster.round_has_results(round) => Err(err(
            "round",
            format!(
                "round {round} already has results: a published pairing with results stays (correct the results, or set the pairing by hand as C.04.2 art. 4 allows)"
            ),
        )),
        Some(_) if roster.record.pairings.contains_key(&(round + 1)) => Err(err(
            "round",
            format!("round {} is already paired", round + 1),
        )),
        Some(_) => Ok(PairingsUnpublished {
            tournament_id: t.tournament_id.clone(),
            round,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::{PlayerAdded, PlayerData, ResultRecorded};
    use arbiter_registry::roster::RosterEvent;

    fn tournament(rounds: u32, system: &str) -> Tournament {
        Tournament {
            tournament_id: "t".into(),
            rounds,
            pairing_system: system.into(),
            ..Default::default()
        }
    }

    fn roster(players: usize) -> Roster {
        let mut r = Roster::default();
        for i in 1..=players {
            r.apply(RosterEvent::PlayerAdded(PlayerAdded {
                player_id: format!("p{i}"),
                data: Some(PlayerData {
                    name: format!("Player, {i}"),
                    rating_standard: 2000 - i as u32,
                    ..Default::default()
                }),
                joined_round: 1,
                missed_rounds: "zero".into(),
            }));
        }
        r
    }

    fn paired(r: &mut Roster, round: u32) {
        r.apply(RosterEvent::RoundPaired(RoundPaired {
            tournament_id: "t".into(),
            round,
            boards: vec![PairedBoard {
                board: 1,
                white_id: "p1".into(),
                black_id: "p2".into(),
                white_tpn: 1,
                black_tpn: 2,
            }],
            ..Default::default()
        }));
    }

    fn published(r: &mut Roster, round: u32) {
        r.apply(RosterEvent::PairingsPublished(PairingsPublished {
            tournament_id: "t".into(),
            round,
        }));
    }

    fn result(r: &mut Roster, round: u32) {
        r.apply(RosterEvent::ResultRecorded(ResultRecorded {
            tournament_id: "t".into(),
            round,
            board: 1,
            white_id: "p1".into(),
            black_id: "p2".into(),
            result: "1-0".into(),
            white_code: "1".into(),
            black_code: "0".into(),
            ..Default::default()
        }));
    }

    #[test]
    fn no_round_is_paired_beyond_the_announced_rounds() {
        let mut r = roster(2);
        let t = tournament(1, "dutch");
        assert!(check_announced_rounds(&t, 1).is_ok());
        paired(&mut r, 1);
        published(&mut r, 1);
        result(&mut r, 1);
        let e = pair_round(&t, &r, 2, false, &swiss::StopSignal::new()).unwrap_err();
        assert_eq!(e.field, "round");
        assert!(e.message.contains("beyond the announced rounds"), "{e:?}");
        let e = decide_set_pairings(&t, &r, 2, &[], "", "by hand").unwrap_err();
        assert!(e.message.contains("beyond the announced rounds"), "{e:?}");
        let e = check_announced_rounds(&tournament(0, "dutch"), 1).unwrap_err();
        assert!(e.message.contains("number of rounds is not set"), "{e:?}");
        assert!(check_announced_rounds(&tournament(0, "knockout"), 3).is_ok());
    }

    #[test]
    fn an_unpublished_last_round_is_discarded_and_can_be_paired_again() {
        let t = tournament(5, "dutch");
        let mut r = roster(2);
        paired(&mut r, 1);
        assert_eq!(
            decide_discard(&t, &r, 1, " ").unwrap_err().field,
            "meta.reason"
        );
        let d = decide_discard(&t, &r, 1, "wrong entries").unwrap();
        r.apply(RosterEvent::PairingDiscarded(d));
        assert_eq!(r.paired_rounds, 0);
        assert!(r.record.pairings.is_empty());
        assert!(
            check_round_to_pair(&r, 1, false).is_ok(),
            "round 1 can be paired again"
        );
        // Published, not the last, with results: refused.
        paired(&mut r, 1);
        published(&mut r, 1);
        let e = decide_discard(&t, &r, 1, "x").unwrap_err();
        assert!(e.message.contains("unpublish it first"), "{e:?}");
        result(&mut r, 1);
        paired(&mut r, 2);
        let e = decide_discard(&t, &r, 1, "x").unwrap_err();
        assert!(e.message.contains("published"), "{e:?}");
        assert!(decide_discard(&t, &r, 2, "x").is_ok());
        let e = decide_discard(&t, &r, 3, "x").unwrap_err();
        assert!(e.message.contains("not been paired"), "{e:?}");
    }

    #[test]
    fn a_published_round_is_unpublished_only_before_its_results() {
        let t = tournament(5, "dutch");
        let mut r = roster(2);
        paired(&mut r, 1);
        assert!(
            decide_unpublish(&t, &r, 1, "x")
                .unwrap_err()
                .message
                .contains("not published")
        );
        published(&mut r, 1);
        assert_eq!(
            decide_unpublish(&t, &r, 1, "").unwrap_err().field,
            "meta.reason"
        );
        let e = decide_unpublish(&t, &r, 1, "\u{1b}[2J").unwrap_err();
        assert!(e.message.contains("U+001B"), "{e:?}");
        let u = decide_unpublish(&t, &r, 1, "wrong board order").unwrap();
        let mut after = r.clone();
        after.apply(RosterEvent::PairingsUnpublished(u));
        assert!(!after.record.pairings[&1].published);
        assert!(decide_discard(&t, &after, 1, "then discarded").is_ok());
        result(&mut r, 1);
        let e = decide_unpublish(&t, &r, 1, "x").unwrap_err();
        assert!(e.message.contains("already has results"), "{e:?}");
    }
}
