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

/// `RecordResult` confirming the result the board's clock reported.
pub fn decide_confirm_reported(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    board: u32,
    result: &str,
) -> Result<ResultRecorded, FieldError> {
    let Some(rep) = roster.record.reported.get(&(round, board)) else {
        return Err(err(
            "confirm_reported",
            format!("no clock reported a result for board {round}.{board}"),
        ));
    };
    if !result.trim().is_empty() {
        let given = parse_result(result)?;
        let reported = parse_result(&rep.result)?;
        if given.canonical != reported.canonical {
            return Err(err(
                "result",
                format!(
                    "{} differs from the reported {}; record it without confirm_reported",
                    given.canonical, reported.canonical
                ),
            ));
        }
    }
    let mut e = decide_record(t, roster, round, board, &rep.result)?;
    e.source = "clock".into();
    Ok(e)
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use arbiter_proto::v1::{PairingsPublished, PlayerAdded, PlayerData, RoundPaired};
    use arbiter_registry::roster::RosterEvent;

    pub(crate) fn t() -> Tournament {
        Tournament {
            tournament_id: "t".into(),
            rounds: 5,
            ..Tournament::default()
        }
    }

    /// Four players; rounds paired 1-2 3-4 (round 1), 1-3 2-4 (round 2)…
    pub(crate) fn record(paired: u32, published: u32, closed: u32) -> Roster {
        let mut r = Roster::default();
        for p in ["a", "b", "c", "d"] {
            r.apply(RosterEvent::PlayerAdded(PlayerAdded {
                player_id: p.into(),
                data: Some(PlayerData {
                    name: p.into(),
                    ..PlayerData::default()
                }),
                joined_round: 1,
                missed_rounds: String::new(),
            }));
        }
        let tables = [
            [("a", "b"), ("c", "d")],
            [("c", "a"), ("b", "d")],
            [("a", "d"), ("b", "c")],
        ];
        for round in 1..=paired {
            let boards = tables[(round as usize - 1) % 3]
                .iter()
                .enumerate()
                .map(|(i, (w, b))| PairedBoard {
                    board: i as u32 + 1,
                    white_id: (*w).into(),
                    black_id: (*b).into(),
                    white_tpn: 0,
                    black_tpn: 0,
                })
                .collect();
            r.apply(RosterEvent::RoundPaired(RoundPaired {
                tournament_id: "t".into(),
                round,
                boards,
                engine_made: true,
                ..RoundPaired::default()
            }));
            if round <= published {
                r.apply(RosterEvent::PairingsPublished(PairingsPublished {
                    tournament_id: "t".into(),
                    round,
                }));
            }
            if round <= closed {
                for board in 1..=2 {
                    let e = decide_record(&t(), &r, round, board, "1-0").unwrap();
                    r.apply(RosterEvent::ResultRecorded(e));
                }
                let c = decide_close(&t(), &r, round).unwrap();
                r.apply(RosterEvent::RoundClosed(c));
            }
        }
        r
    }

    fn correct<'a>(previous: &'a str, basis: &'a str) -> CorrectionRequest<'a> {
        CorrectionRequest {
            round: 1,
            board: 1,
            result: "0-1",
            previous,
            reason: "sheet",
            has_expected_version: false,
            basis,
        }
    }

    #[test]
    fn results_only_for_boards_of_a_published_round_and_once() {
        let r = record(1, 0, 0);
        assert!(
            decide_record(&t(), &r, 1, 1, "1-0")
                .unwrap_err()
                .message
                .contains("not published")
        );
        let mut r = record(1, 1, 0);
        assert_eq!(
            decide_record(&t(), &r, 1, 3, "1-0").unwrap_err().field,
            "board"
        );
        assert_eq!(
            decide_record(&t(), &r, 2, 1, "1-0").unwrap_err().field,
            "round"
        );
        let e = decide_record(&t(), &r, 1, 1, "1-0").unwrap();
        assert_eq!((e.white_code.as_str(), e.black_code.as_str()), ("1", "0"));
        r.apply(RosterEvent::ResultRecorded(e));
        let again = decide_record(&t(), &r, 1, 1, "0-1").unwrap_err();
        assert!(
            again.message.contains("a change is a correction"),
            "{}",
            again.message
        );
        assert!(
            decide_close(&t(), &r, 1)
                .unwrap_err()
                .message
                .contains("boards without a result: 2")
        );
    }

    /// C.04.2 D.8 (seed 000): the three cases of a player's claim.
    #[test]
    fn the_scope_of_a_claim_follows_the_next_round() {
        // Round 2 not paired, then paired, then published, then closed.
        for (paired, published, closed, scope) in [
            (1, 1, 1, "standings-and-next-pairing"),
            (2, 1, 1, "standings-and-next-pairing"),
            (2, 2, 1, "standings-and-later-pairings"),
            (2, 2, 2, "rating-only"),
            (3, 3, 2, "rating-only"),
        ] {
            let r = record(paired, published, closed);
            let e = decide_correct(&t(), &r, &correct("1-0", "claim")).unwrap();
            assert_eq!(
                e.applies_to, scope,
                "paired {paired} published {published} closed {closed}"
            );
            assert_eq!(e.previous_result, "1-0");
        }
        let r = record(3, 2, 2);
        let e = decide_correct(&t(), &r, &correct("1-0", "claim")).unwrap();
        assert_eq!(e.published_rounds_with_old_result, vec![2]);
        assert_eq!(e.unpublished_rounds_to_repair, vec![3]);
    }

    /// ADR results-001: a data-entry error is always fixed in the record.
    #[test]
    fn an_entry_error_after_the_next_round_ended_still_fixes_the_standings() {
        let mut r = record(2, 2, 2);
        let e = decide_correct(&t(), &r, &correct("1-0", "")).unwrap();
        assert_eq!(e.applies_to, "standings-and-later-pairings");
        assert_eq!(e.basis, "entry-error");
        r.apply(RosterEvent::ResultCorrected(e));
        let b = &r.record.boards[&(1, 1)];
        assert_eq!(
            (b.result.as_str(), b.rating_result.as_str()),
            ("0-1", "0-1")
        );
        // A claim after round 2 ended changes the rating result only.
        let mut r = record(2, 2, 2);
        let e = decide_correct(&t(), &r, &correct("1-0", "claim")).unwrap();
        r.apply(RosterEvent::ResultCorrected(e));
        let b = &r.record.boards[&(1, 1)];
        assert_eq!(
            (b.result.as_str(), b.rating_result.as_str()),
            ("1-0", "0-1")
        );
        assert!(
            r.rounds[&1]
                .iter()
                .any(|x| x.player_id == "a" && x.result == "1")
        );
    }

    #[test]
    fn a_correction_needs_a_reason_and_the_value_it_corrects() {
        let r = record(1, 1, 1);
        let mut c = correct("1-0", "");
        c.reason = " ";
        assert_eq!(
            decide_correct(&t(), &r, &c).unwrap_err().field,
            "meta.reason"
        );
        assert_eq!(
            decide_correct(&t(), &r, &correct("", ""))
                .unwrap_err()
                .field,
            "previous_result"
        );
        let stale = decide_correct(&t(), &r, &correct("1/2", "")).unwrap_err();
        assert!(
            stale.message.contains("changed meanwhile"),
            "{}",
            stale.message
        );
        let mut same = correct("1-0", "");
        same.result = "1-0";
        assert_eq!(decide_correct(&t(), &r, &same).unwrap_err().field, "result");
        assert_eq!(
            decide_correct(&t(), &r, &correct("1-0", "appeal"))
                .unwrap_err()
                .field,
            "basis"
        );
    }

    #[test]
    fn byes_only_for_unpaired_players() {
        let r = record(1, 1, 0);
        assert_eq!(
            decide_bye(&t(), &r, 1, "a", "half").unwrap_err().field,
            "player"
        );
        assert_eq!(
            decide_bye(&t(), &r, 1, "zz", "half").unwrap_err().field,
            "player"
        );
        assert_eq!(
            decide_bye(&t(), &r, 2, "a", "half").unwrap_err().field,
            "round"
        );
    }
}
