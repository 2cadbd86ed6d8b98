//! Bulk entry, pure: many players added by one command, all or nothing (issue 42, ADR
//! registry-005). Every player is checked as `player add` checks one — in file order, each
//! against the entries before it (a FIDE ID twice in the batch is refused at its second
//! place) — and the events are one `PlayerAdded` per player plus at most one
//! `PairingNumbersAssigned` for the whole batch.
use arbiter_proto::v1::PlayerData;

use crate::roster::{Roster, RosterEvent, decide_add_player};
use crate::tournament::FieldError;

/// A player of the batch that cannot be entered: its index and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkError {
    /// Index in the request's `players` (0-based).
    pub index: usize,
    /// The field at fault (as `player add` names it) and what is wrong.
    pub error: FieldError,
}

/// The events that enter `players` (id, data) into `roster`, or the first player that
/// cannot be entered. An empty batch is refused.
pub fn decide_add_players(
    roster: &Roster,
    total_rounds: u32,
    players: Vec<(String, PlayerData)>,
    missed_rounds: &str,
) -> Result<Vec<RosterEvent>, BulkError> {
    if players.is_empty() {
        return Err(BulkError {
            index: 0,
            error: FieldError {
                field: "players",
                message: "no players to add".into(),
            },
        });
    }
    let mut next = roster.clone();
    let mut added = Vec::with_capacity(players.len());
    for (index, (id, data)) in players.into_iter().enumerate() {
        let events = decide_add_player(&next, total_rounds, &id, data, missed_rounds)
            .map_err(|error| BulkError { index, error })?;
        // Only the entry; the numbers are derived once, after the whole batch.
        for e in events {
            if let RosterEvent::PlayerAdded(_) = &e {
                next.apply(e.clone());
                added.push(e);
            }
        }
    }
    if let Some(renumber) = roster.renumber_after(&added) {
        added.push(renumber);
    }
    Ok(added)
}

/// Warnings about entries that are valid but will trouble the rating officer: players
/// without a FIDE ID (their games are not rated, ADR rating-001).
pub fn entry_warnings<'a>(players: impl IntoIterator<Item = &'a PlayerData>) -> Vec<String> {
    players
        .into_iter()
        .filter(|d| d.fide_id == 0)
        .map(|d| {
            format!(
                "{} has no FIDE ID: their games will not be rated (add it with `arbiter player correct … --fide-id N`)",
                d.name.trim()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, rating: u32, fide_id: u64) -> PlayerData {
        PlayerData {
            name: name.into(),
            rating_standard: rating,
            fide_id,
            ..Default::default()
        }
    }

    fn batch(v: Vec<PlayerData>) -> Vec<(String, PlayerData)> {
        v.into_iter()
            .enumerate()
            .map(|(i, d)| (format!("p{i}"), d))
            .collect()
    }

    #[test]
    fn a_batch_is_one_entry_per_player_and_one_numbering() {
        let events = decide_add_players(
            &Roster::default(),
            7,
            batch(vec![
                p("C, C", 1800, 3),
                p("A, A", 2200, 1),
                p("B, B", 2000, 2),
            ]),
            "",
        )
        .unwrap();
        assert_eq!(events.len(), 4, "{events:?}");
        let mut roster = Roster::default();
        for e in events {
            roster.apply(e);
        }
        let order: Vec<&str> = roster
            .order
            .iter()
            .map(|id| roster.entry(id).unwrap().data.name.as_str())
            .collect();
        assert_eq!(order, ["A, A", "B, B", "C, C"]);
    }

    #[test]
    fn the_first_bad_player_is_named_by_its_index_and_nothing_is_decided() {
        let e = decide_add_players(
            &Roster::default(),
            7,
            batch(vec![p("A, A", 2200, 1), p("", 2000, 2), p("C, C", 1800, 3)]),
            "",
        )
        .unwrap_err();
        assert_eq!(e.index, 1);
        assert_eq!(e.error.field, "data.name");
        // A FIDE ID twice in the batch: refused at its second place.
        let e = decide_add_players(
            &Roster::default(),
            7,
            batch(vec![p("A, A", 2200, 1), p("B, B", 2000, 1)]),
            "",
        )
        .unwrap_err();
        assert_eq!((e.index, e.error.field), (1, "data.fide_id"));
        assert!(e.error.message.contains("\"A, A\""), "{}", e.error.message);
        assert!(decide_add_players(&Roster::default(), 7, Vec::new(), "").is_err());
    }

    #[test]
    fn players_without_a_fide_id_are_warned_about() {
        let w = entry_warnings(&[p("A, A", 2200, 1), p("B, B", 0, 0)]);
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with("B, B has no FIDE ID"), "{w:?}");
        assert!(w[0].contains("arbiter player correct"), "{w:?}");
    }
}
