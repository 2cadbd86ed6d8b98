//! The tournament record → the crosstable of its standings, without a TRF document in
//! between (issue 41 item 2, ADR results-003).
//!
//! The crosstable is exactly the one `tiebreak::trf_crosstable::from_trf` reads from the
//! registry's TRF export of the record (`trf_export::export_doc`): each round of each entry is
//! the block the export would write ([`trf_export::round_block`]: the paired block, a
//! withdrawn player's zero-point bye, a late entrant's missed round, or blank), turned into a
//! [`RoundEntry`] by the same function the file adapter uses
//! ([`trf_crosstable::round_entry`]), scored with the scoring the export declares
//! ([`trf_export::scoring_system`]). What is skipped is the rest of the export: the player
//! records with their names, dates and points columns, the rank sort, the header lines and the
//! document's walk. The test `record_crosstable_equals_the_export_read_back` compares both on
//! every record shape the tests know.
//!
//! Unlike a TRF file, the record's pairing numbers are not capped at 9,999.
use std::collections::HashMap;

use arbiter_proto::v1::Tournament;
use arbiter_registry::roster::Roster;
use arbiter_registry::tournament::FieldError;
use arbiter_registry::trf_export;
use tiebreak::trf_crosstable::{self, BlockField};
use tiebreak::{Crosstable, EventKind, Participant, RoundEntry};

fn err(message: String) -> FieldError {
    FieldError {
        field: "tournament_id",
        message,
    }
}

/// The crosstable of the record over its first `rounds` rounds (each must be paired).
pub fn crosstable(
    t: &Tournament,
    roster: &Roster,
    rounds: u32,
    kind: EventKind,
) -> Result<Crosstable, FieldError> {
    if rounds > roster.paired_rounds {
        return Err(FieldError {
            field: "round",
            message: format!(
                "round {rounds} has not been paired (rounds paired: {})",
                roster.paired_rounds
            ),
        });
    }
    let scoring = trf_crosstable::scoring_of(&trf_export::scoring_system(t, roster))
        .map_err(|e| err(format!("the tournament's scoring: {e}")))?;
    let index = trf_export::block_index(roster);
    // Pairing number = position in `order` + 1; entries without a record are left out, as
    // the export leaves them out.
    let listed: Vec<(u16, &arbiter_registry::roster::Entry)> = roster
        .order
        .iter()
        .enumerate()
        .filter_map(|(i, id)| {
            let e = roster.entry(id)?;
            Some((u16::try_from(i + 1).ok()?, e))
        })
        .collect();
    if roster.order.len() > usize::from(u16::MAX) {
        return Err(err(format!(
            "{} entries: the crosstable holds at most {} pairing numbers",
            roster.order.len(),
            u16::MAX
        )));
    }
    let rounds = rounds as usize;
    // Every block first: a game's colour may come from the opponent's block.
    let blocks: Vec<Vec<trf::RoundResult>> = listed
        .iter()
        .map(|(_, e)| {
            (1..=rounds)
                .map(|r| trf_export::round_block(roster, &index, e, r as u32))
                .collect()
        })
        .collect();
    let at: HashMap<u16, usize> = listed
        .iter()
        .enumerate()
        .map(|(i, (tpn, _))| (*tpn, i))
        .collect();
    let colour_of = |o: u16, r: usize| -> Option<tiebreak::Colour> {
        match blocks.get(*at.get(&o)?)?.get(r - 1)?.colour {
            trf::Colour::White => Some(tiebreak::Colour::White),
            trf::Colour::Black => Some(tiebreak::Colour::Black),
            _ => None,
        }
    };
    let mut players = Vec::with_capacity(listed.len());
    for (i, (tpn, e)) in listed.iter().enumerate() {
        let mut entries: Vec<RoundEntry> = Vec::with_capacity(rounds);
        for (r0, block) in blocks[i].iter().enumerate() {
            let r = r0 + 1;
            let entry = trf_crosstable::round_entry(
                *tpn,
                r,
                block,
                &scoring,
                |o| at.contains_key(&o),
                |o| colour_of(o, r),
            )
            .map_err(|(field, message)| {
                let part = match field {
                    BlockField::Opponent => "opponent",
                    BlockField::Colour => "colour",
                    BlockField::Result => "result",
                };
                err(format!(
                    "the record of player {tpn} ({}), round {r}, {part}: {message}",
                    e.data.name
                ))
            })?;
            entries.push(entry);
        }
        let rating = roster.rules.rating.of(&e.data);
        players.push(Participant {
            tpn: u32::from(*tpn),
            // As the export's rating field (4 digits, 0 = unrated) reads back.
            rating: u16::try_from(rating).ok().filter(|&r| r > 0).map(u32::from),
            federation: Some(e.data.federation.clone()).filter(|f| !f.is_empty()),
            name: Some(e.data.name.clone()).filter(|n| !n.is_empty()),
            entries,
        });
    }
    Ok(Crosstable {
        kind,
        rounds_played: u32::try_from(rounds).unwrap_or(u32::MAX),
        scoring,
        players,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_registry::trf_export::ExportOptions;
    use arbiter_registry::trf_import::plan_import;
    use tiebreak::trf_crosstable::{AdapterOptions, UnpairedRounds, from_trf};

    /// The crosstable `from_trf` reads from the record's export after `rounds` rounds: what
    /// the results service computed standings from before this adapter.
    fn through_the_export(
        t: &Tournament,
        roster: &Roster,
        rounds: u32,
        kind: EventKind,
    ) -> Result<Crosstable, String> {
        let mut upto = roster.clone();
        upto.paired_rounds = rounds;
        std::sync::Arc::make_mut(&mut upto.rounds).retain(|r, _| *r <= rounds);
        let (doc, _) = trf_export::export_doc(
            t,
            &upto,
            &ExportOptions {
                round: 0,
                version: trf::TrfVersion::Trf26,
                engine_lines: false,
            },
        )
        .map_err(|e| e.message)?;
        from_trf(
            &doc,
            &AdapterOptions {
                kind,
                rounds: Some(rounds as usize),
                unpaired: UnpairedRounds::Zero,
            },
        )
        .map(|c| c.crosstable)
        .map_err(|e| e.to_string())
    }

    fn import(bytes: &[u8]) -> Option<(Tournament, Roster)> {
        let mut n = 0;
        let plan = plan_import(bytes, "", &mut || {
            n += 1;
            format!("p{n}")
        })
        .ok()?;
        let mut roster = Roster::default();
        for e in plan.events {
            roster.apply(e);
        }
        let t = Tournament {
            name: plan.draft.name,
            rounds: plan.draft.rounds,
            ..Default::default()
        };
        Some((t, roster))
    }

    /// Every TRF file the repository's tests hold (those that import).
    fn records() -> Vec<(String, Tournament, Roster)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dirs = [
            "crates/trf/tests/data/trf",
            "crates/trf/tests/data/pairing",
            "crates/tiebreak/tests/data",
            "crates/pairings-cli/tests/data/dutch-2026",
            "crates/pairings-cli/tests/data/dutch-2017",
            "crates/pairings-cli/tests/data/acceleration",
            "crates/pairings-cli/tests/data/dutch-2026-3-1-0",
            "tests/data",
        ];
        let mut out = Vec::new();
        for d in dirs {
            let mut files: Vec<_> = std::fs::read_dir(root.join(d))
                .unwrap_or_else(|e| panic!("{d}: {e}"))
                .filter_map(|f| f.ok().map(|f| f.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "trf"))
                .collect();
            files.sort();
            for f in files {
                let bytes = std::fs::read(&f).unwrap();
                if let Some((t, r)) = import(&bytes) {
                    out.push((
                        format!("{d}/{}", f.file_name().unwrap().to_string_lossy()),
                        t,
                        r,
                    ));
                }
            }
        }
        out
    }

    fn same(name: &str, t: &Tournament, roster: &Roster) -> usize {
        let mut compared = 0;
        for kind in [EventKind::Swiss, EventKind::RoundRobin] {
            for rounds in 0..=roster.paired_rounds {
                let direct = crosstable(t, roster, rounds, kind);
                let read_back = through_the_export(t, roster, rounds, kind);
                match (direct, read_back) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b, "{name}, {rounds} rounds");
                        compared += 1;
                    }
                    (Err(_), Err(_)) => {}
                    (a, b) => panic!(
                        "{name}, {rounds} rounds: direct {:?} but through the export {:?}",
                        a.map(|c| c.players.len()),
                        b.map(|c| c.players.len())
                    ),
                }
            }
        }
        compared
    }

    #[test]
    fn record_crosstable_equals_the_export_read_back() {
        let records = records();
        assert!(records.len() >= 20, "only {} records", records.len());
        let mut compared = 0;
        for (name, t, roster) in &records {
            compared += same(name, t, roster);
            // The same record after a withdrawal and a half-point bye in the rounds to come
            // (the export writes the withdrawn player's zero-point byes; not in the rounds
            // paired, so the crosstable must not change), and with a late entrant.
            let mut changed = roster.clone();
            let total = t.rounds.max(roster.paired_rounds + 2);
            let next = roster.paired_rounds + 1;
            if let Some(first) = roster.order.first().cloned()
                && let Ok(events) =
                    arbiter_registry::roster::decide_withdraw(&changed, total, &first, next)
            {
                for e in events {
                    changed.apply(e);
                }
            }
            if let Some(second) = roster.order.get(1).cloned()
                && let Ok(events) =
                    arbiter_registry::roster::decide_bye(&changed, total, &second, next, "half")
            {
                for e in events {
                    changed.apply(e);
                }
            }
            compared += same(&format!("{name} (changed)"), t, &changed);
        }
        eprintln!("{} records, {compared} crosstables compared", records.len());
        assert!(compared >= 100, "only {compared} crosstables compared");
    }
}
