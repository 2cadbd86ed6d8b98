//! A round's result sheet, pure: many boards' results recorded by one command (issue 42,
//! ADR registry-005). Every board is decided as `RecordResult` decides one, against the
//! same record; a board given twice is refused at its second place; the first board that
//! cannot be recorded is named by its index and nothing is decided.
use arbiter_proto::v1::{ResultRecorded, Tournament};
use arbiter_registry::roster::Roster;
use arbiter_registry::tournament::FieldError;

use crate::result_entry::decide_record;

/// The events recording `(board, result)` for `round`, or the index of the first entry
/// that cannot be recorded and why.
pub fn decide_sheet(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    sheet: &[(u32, String)],
) -> Result<Vec<ResultRecorded>, (usize, FieldError)> {
    if sheet.is_empty() {
        return Err((
            0,
            FieldError {
                field: "results",
                message: "no results to record".into(),
            },
        ));
    }
    let mut out: Vec<ResultRecorded> = Vec::with_capacity(sheet.len());
    for (i, (board, result)) in sheet.iter().enumerate() {
        if let Some(j) = sheet[..i].iter().position(|(b, _)| b == board) {
            return Err((
                i,
                FieldError {
                    field: "board",
                    message: format!("board {board} is given twice (also entry {})", j + 1),
                },
            ));
        }
        out.push(decide_record(t, roster, round, *board, result).map_err(|e| (i, e))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result_entry::tests::{record, t};

    #[test]
    fn a_sheet_is_decided_whole_or_the_first_bad_board_is_named() {
        let r = record(1, 1, 0);
        let ok = decide_sheet(&t(), &r, 1, &[(2, "1/2".into()), (1, "1-0".into())]).unwrap();
        assert_eq!(
            ok.iter()
                .map(|e| (e.board, e.result.as_str()))
                .collect::<Vec<_>>(),
            [(2, "1/2-1/2"), (1, "1-0")]
        );
        let (i, e) =
            decide_sheet(&t(), &r, 1, &[(1, "1-0".into()), (3, "1-0".into())]).unwrap_err();
        assert_eq!((i, e.field), (1, "board"));
        let (i, e) =
            decide_sheet(&t(), &r, 1, &[(1, "1-0".into()), (1, "0-1".into())]).unwrap_err();
        assert_eq!(i, 1);
        assert!(e.message.contains("given twice"), "{}", e.message);
        let (i, e) = decide_sheet(&t(), &r, 1, &[(2, "9-9".into())]).unwrap_err();
        assert_eq!((i, e.field), (0, "result"));
        assert!(decide_sheet(&t(), &record(1, 0, 0), 1, &[(1, "1-0".into())]).is_err());
        assert!(decide_sheet(&t(), &r, 1, &[]).is_err());
    }
}
