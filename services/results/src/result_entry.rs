//! Entering results, pure: commands validated against the tournament record and decided
//! into events. Results only for boards of a published round; a board that has a result
//! changes only by a correction, which needs a reason and the value being corrected;
//! the correction's scope follows C.04.2 art. 4 / seed 000 C.04.2 D.8
//! (`arbiter_registry::round_record::CorrectionScope`, docs/decisions/results-001).
use arbiter_proto::v1::{
    ByeRecorded, PairedBoard, ResultCorrected, ResultRecorded, RoundClosed, Tournament,
};
use arbiter_registry::roster::Roster;
use arbiter_registry::round_record::{CorrectionScope, bye_outcome_code, parse_result};
use arbiter_registry::tournament::FieldError;

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// The stream of one board's result.
pub fn board_stream(tournament_id: &str, round: u32, board: u32) -> String {
    format!("results-{tournament_id}-r{round}-b{board}")
}

/// The stream of an unpaired player's outcome in a round.
pub fn player_stream(tournament_id: &str, round: u32, tpn: u32) -> String {
    format!("results-{tournament_id}-r{round}-p{tpn}")
}

/// The stream of the tournament's round closings.
pub fn tournament_stream(tournament_id: &str) -> String {
    format!("results-{tournament_id}")
}

/// The board `round`.`board` of a published round.
pub fn paired_board(roster: &Roster, round: u32, board: u32) -> Result<PairedBoard, FieldError> {
    let Some(p) = roster.record.pairings.get(&round) else {
        return Err(err(
            "round",
            if round <= roster.paired_rounds {
                format!("round {round} was imported, not paired here; correct it by re-importing")
            } else {
                format!("round {round} has not been paired")
            },
        ));
    };
    if !p.published {
        return Err(err(
            "round",
            format!("round {round} is not published; results follow publication"),
        ));
    }
    p.event
        .boards
        .iter()
        .find(|b| b.board == board)
        .cloned()
        .ok_or_else(|| {
            err(
                "board",
                format!(
                    "round {round} has boards 1–{}, not {board}",
                    p.event.boards.len()
                ),
            )
        })
}

/// `RecordResult`: the board has no result yet.
pub fn decide_record(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    board: u32,
    result: &str,
) -> Result<ResultRecorded, FieldError> {
    let b = paired_board(roster, round, board)?;
    if let Some(st) = roster.record.boards.get(&(round, board)) {
        return Err(err(
            "board",
            format!(
                "board {round}.{board} already has the result {}; a change is a correction (CorrectResult, with a reason)",
                st.result
            ),
        ));
    }
    let r = parse_result(result)?;
    Ok(ResultRecorded {
        tournament_id: t.tournament_id.clone(),
        round,
        board,
        white_id: b.white_id,
        black_id: b.black_id,
        result: r.canonical,
        white_code: r.white.to_string(),
        black_code: r.black.to_string(),
        source: "arbiter".into(),
    })
}

/// A correction as asked for.
#[derive(Debug, Clone, Copy)]
pub struct CorrectionRequest<'a> {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// New result.
    pub result: &'a str,
    /// The result being corrected, as the arbiter saw it ("" with an expected version).
    pub previous: &'a str,
    /// Why.
    pub reason: &'a str,
    /// The client gave `meta.expected_version`.
    pub has_expected_version: bool,
    /// `entry-error` (default) or `claim`.
    pub basis: &'a str,
}

/// `CorrectResult`: reason, the value being corrected, a different new value.
pub fn decide_correct(
    t: &Tournament,
    roster: &Roster,
    c: &CorrectionRequest<'_>,
) -> Result<ResultCorrected, FieldError> {
    let CorrectionRequest {
        round,
        board,
        result,
        previous,
        reason,
        has_expected_version,
        basis,
    } = *c;
    let basis = match basis.trim().to_ascii_lowercase().as_str() {
        "" | "entry-error" => "entry-error",
        "claim" => "claim",
        other => {
            return Err(err(
                "basis",
                format!(
                    "{other:?}: entry-error (default: the result sheet differs) or claim (a player's report)"
                ),
            ));
        }
    };
    if reason.trim().is_empty() {
        return Err(err(
            "meta.reason",
            "a correction needs a reason (it is kept in the audit trail)",
        ));
    }
    let b = paired_board(roster, round, board)?;
    let Some(st) = roster.record.boards.get(&(round, board)) else {
        return Err(err(
            "board",
            format!("board {round}.{board} has no result to correct; record it (RecordResult)"),
        ));
    };
    let current = &st.rating_result;
    if previous.trim().is_empty() {
        if !has_expected_version {
            return Err(err(
                "previous_result",
                format!(
                    "say which result you are correcting (board {round}.{board} now has {current}), or give meta.expected_version"
                ),
            ));
        }
    } else {
        let p = parse_result(previous).map_err(|e| err("previous_result", e.message))?;
        if &p.canonical != current {
            return Err(err(
                "previous_result",
                format!(
                    "board {round}.{board} has {current}, not {}: it was changed meanwhile; read it again",
                    p.canonical
                ),
            ));
        }
    }
    let r = parse_result(result)?;
    if &r.canonical == current {
        return Err(err(
            "result",
            format!("board {round}.{board} already has {current}"),
        ));
    }
    let mut scope = roster.correction_scope(round);
    if basis == "entry-error" && scope == CorrectionScope::RatingOnly {
        // The record differs from the signed result sheet: D.8's claim deadlines do
        // not apply; the record is fixed, published pairings are kept.
        scope = CorrectionScope::StandingsAndLaterPairings;
    }
    let (published, unpublished) = roster.later_pairings(round);
    Ok(ResultCorrected {
        tournament_id: t.tournament_id.clone(),
        round,
        board,
        white_id: b.white_id,
        black_id: b.black_id,
        previous_result: current.clone(),
        result: r.canonical,
        white_code: r.white.to_string(),
        black_code: r.black.to_string(),
        applies_to: scope.as_str().into(),
        published_rounds_with_old_result: published,
        unpublished_rounds_to_repair: unpublished,
        basis: basis.into(),
    })
}

/// `RecordBye`: an unpaired player of a paired round.
pub fn decide_bye(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    player: &str,
    kind: &str,
) -> Result<(ByeRecorded, u32), FieldError> {
    let Some(p) = roster.record.pairings.get(&round) else {
        return Err(err(
            "round",
            format!("round {round} has not been paired here"),
        ));
    };
    let e = roster.resolve(player)?;
    let id = e.player_id.clone();
    if p.event
        .boards
        .iter()
        .any(|b| b.white_id == id || b.black_id == id)
    {
        return Err(err(
            "player",
            format!("player {player} plays on a board in round {round}; record the board's result"),
        ));
    }
    let (kind, code) = bye_outcome_code(kind)?;
    if kind == "pab" && p.event.bye_player_id != id {
        return Err(err(
            "kind",
            format!("the pairing-allocated bye of round {round} went to another player"),
        ));
    }
    let previous = roster
        .record
        .byes
        .get(&(round, id.clone()))
        .map(|b| b.kind.clone())
        .unwrap_or_default();
    if previous == kind {
        return Err(err(
            "kind",
            format!("player {player} already has {kind} in round {round}"),
        ));
    }
    Ok((
        ByeRecorded {
            tournament_id: t.tournament_id.clone(),
            round,
            player_id: id.clone(),
            kind: kind.into(),
            code: code.to_string(),
            previous_kind: previous,
        },
        roster.pairing_number(&id),
    ))
}

/// `CloseRound`: published, every board has a result, not closed yet.
pub fn decide_close(
    t: &Tournament,
    roster: &Roster,
    round: u32,
) -> Result<RoundClosed, FieldError> {
    let Some(p) = roster.record.pairings.get(&round) else {
        return Err(err(
            "round",
            format!("round {round} has not been paired here"),
        ));
    };
    if !p.published {
        return Err(err("round", format!("round {round} is not published")));
    }
    if roster.record.closed.contains(&round) {
        return Err(err("round", format!("round {round} is already closed")));
    }
    let missing = roster.boards_without_result(round);
    if !missing.is_empty() {
        return Err(err(
            "round",
            format!(
                "round {round}: boards without a result: {}",
                missing
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(RoundClosed {
        tournament_id: t.tournament_id.clone(),
        round,
    })
}
