//! Standings of a tournament record, pure: the record is read into the crosstable its TRF
//! export would give `arbiter standings --trf` ([`record_crosstable`], without writing the
//! export), and ranked by `tiebreak::standings` with the requested list and edition. Renderings: text, CSV,
//! JSON and TRF (the export with the rank column set from these standings).
use arbiter_proto::v1::{StandingRow, Tournament};
use arbiter_registry::roster::Roster;
use arbiter_registry::tournament::FieldError;
use arbiter_registry::trf_export::{self, ExportOptions};
use serde_json::json;
use tiebreak::{Crosstable, Edition, Options, Standings, TieBreak, TieResolution};

use crate::record_crosstable;

/// The tie-break list used when none is given (a common announcement for opens).
pub const DEFAULT_TIEBREAKS: &str = "BH/C1,BH,SB,DE";

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// The edition named in a request (default C.07 of 1 March 2026).
pub fn edition(name: &str) -> Result<Edition, FieldError> {
    match name.trim().to_ascii_lowercase().as_str() {
        "" | "c07-2026" => Ok(Edition::C07_2026),
        "c07-2024" => Ok(Edition::C07_2024),
        "seed" | "c06" => Ok(Edition::SeedC06),
        other => Err(err(
            "edition",
            format!("{other:?}: c07-2026 (default), c07-2024 or seed"),
        )),
    }
}

/// The tie-break list the tournament announced: record 202 of an imported TRF.
pub fn announced(roster: &Roster) -> Option<String> {
    let imported = roster.trf.as_ref()?;
    let text = imported.kept_lines.join("\n");
    let parsed = trf::parse(text.as_bytes()).ok()?;
    let list = parsed.doc.header().tie_breaks;
    (!list.is_empty()).then(|| list.join(","))
}

/// The tie-break list named in a request, else the tournament's setting, else the list an
/// imported file announced, else [`DEFAULT_TIEBREAKS`].
pub fn tiebreak_list(
    list: &str,
    edition: Edition,
    roster: &Roster,
) -> Result<Vec<TieBreak>, FieldError> {
    let announced = if roster.settings.tiebreaks.is_empty() {
        announced(roster)
    } else {
        Some(roster.settings.tiebreaks.clone())
    };
    let parse = |list: &str| {
        let codes: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        tiebreak::parse_list(&codes, edition).map_err(|e| err("tiebreaks", e.to_string()))
    };
    if !list.trim().is_empty() {
        return parse(list);
    }
    match announced {
        // An announced list this edition cannot compute (e.g. a team event's codes):
        // the default list, said in `Standings.explanation` by the caller.
        Some(a) => parse(&a).or_else(|_| parse(DEFAULT_TIEBREAKS)),
        None => parse(DEFAULT_TIEBREAKS),
    }
}

/// Why the announced list is not the one used, if so.
pub fn announced_list_note(list: &str, edition: Edition, roster: &Roster) -> Option<String> {
    if !list.trim().is_empty() {
        return None;
    }
    let a = if roster.settings.tiebreaks.is_empty() {
        announced(roster)?
    } else {
        roster.settings.tiebreaks.clone()
    };
    let codes: Vec<&str> = a
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    tiebreak::parse_list(&codes, edition).err().map(|e| {
        format!("note: the announced tie-breaks {a:?} cannot be computed here ({e}); {DEFAULT_TIEBREAKS} used\n")
    })
}

/// The last round whose every board has a result (the default "after round").
pub fn complete_rounds(roster: &Roster) -> u32 {
    let mut n = 0;
    for r in 1..=roster.paired_rounds {
        if roster.boards_without_result(r).is_empty() {
            n = r;
        } else {
            break;
        }
    }
    n
}

/// Standings of a record after `round` (0 = every complete round).
pub struct Computed {
    /// The standings.
    pub standings: Standings,
    /// The crosstable they were computed from (names, ratings).
    pub crosstable: Crosstable,
    /// After this round.
    pub after_round: u32,
}

/// Computes the standings.
pub fn compute(
    t: &Tournament,
    roster: &Roster,
    round: u32,
    list: &[TieBreak],
    edition: Edition,
    with_working: bool,
) -> Result<Computed, FieldError> {
    let complete = complete_rounds(roster);
    let after = if round == 0 { complete } else { round };
    if after > complete {
        return Err(err(
            "round",
            format!(
                "round {after} is not complete (rounds with every result: {complete}); boards without a result: {:?}",
                roster.boards_without_result(complete + 1)
            ),
        ));
    }
    let kind = if t.pairing_system.contains("round-robin") {
        tiebreak::EventKind::RoundRobin
    } else {
        tiebreak::EventKind::Swiss
    };
    // The record read straight into the crosstable `arbiter standings --trf` would read
    // from its TRF export (ADR results-003).
    let crosstable = record_crosstable::crosstable(t, roster, after, kind)?;
    let options = Options {
        ties: TieResolution::Shared,
        unrated_rating: None,
        allow_buchholz_in_round_robin: false,
        with_working,
    };
    let s = tiebreak::standings(&crosstable, edition, list, &options)
        .map_err(|e| err("tiebreaks", e.to_string()))?;
    Ok(Computed {
        standings: s,
        crosstable,
        after_round: after,
    })
}

impl Computed {
    /// The rows for the API: player ids from the record.
    pub fn rows(&self, roster: &Roster) -> Vec<StandingRow> {
        let players: std::collections::HashMap<u32, &tiebreak::Participant> =
            self.crosstable.players.iter().map(|p| (p.tpn, p)).collect();
        let mut at_rank: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for r in &self.standings.rows {
            *at_rank.entry(r.rank).or_default() += 1;
        }
        self.standings
            .rows
            .iter()
            .map(|r| {
                let p = players.get(&r.tpn).copied();
                let shared = at_rank.get(&r.rank).copied().unwrap_or(0) > 1;
                StandingRow {
                    rank: r.rank,
                    shared,
                    tpn: r.tpn,
                    player_id: usize::try_from(r.tpn)
                        .ok()
                        .and_then(|t| t.checked_sub(1))
                        .and_then(|i| roster.order.get(i))
                        .cloned()
                        .unwrap_or_default(),
                    name: p.and_then(|p| p.name.clone()).unwrap_or_default(),
                    rating: p.and_then(|p| p.rating).unwrap_or(0),
                    points: r.points.to_string(),
                    tiebreak_values: r
                        .values
                        .iter()
                        .map(|v| v.value.map_or_else(|| "-".to_string(), |x| x.to_string()))
                        .collect(),
                }
            })
            .collect()
    }

    /// Tie-break names as applied.
    pub fn names(&self) -> Vec<String> {
        self.standings
            .tie_breaks
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// A rendering: `text`, `csv`, `json` or `trf`.
    pub fn render(
        &self,
        t: &Tournament,
        roster: &Roster,
        format: &str,
    ) -> Result<String, FieldError> {
        let rows = self.rows(roster);
        let names = self.names();
        match format.trim().to_ascii_lowercase().as_str() {
            "" => Ok(String::new()),
            "text" => {
                let mut s = format!(
                    "{:<5} {:>4}  {:<30} {:>5} {:>5}",
                    "Rank", "TPN", "Name", "Rtg", "Pts"
                );
                for n in &names {
                    s.push_str(&format!(" {n:>7}"));
                }
                s.push('\n');
                for r in &rows {
                    s.push_str(&format!(
                        "{:<5} {:>4}  {:<30} {:>5} {:>5}",
                        format!("{}{}", r.rank, if r.shared { "=" } else { "" }),
                        r.tpn,
                        r.name,
                        if r.rating == 0 {
                            String::new()
                        } else {
                            r.rating.to_string()
                        },
                        r.points
                    ));
                    for v in &r.tiebreak_values {
                        s.push_str(&format!(" {v:>7}"));
                    }
                    s.push('\n');
                }
                Ok(s)
            }
            "csv" => {
                let mut s = String::from("rank,tpn,player_id,name,rating,points");
                for n in &names {
                    s.push(',');
                    s.push_str(&csv_field(n));
                }
                s.push('\n');
                for r in &rows {
                    s.push_str(&format!(
                        "{},{},{},{},{},{}",
                        r.rank,
                        r.tpn,
                        csv_field(&r.player_id),
                        csv_field(&r.name),
                        r.rating,
                        r.points
                    ));
                    for v in &r.tiebreak_values {
                        s.push(',');
                        s.push_str(v);
                    }
                    s.push('\n');
                }
                Ok(s)
            }
            "json" => {
                let rounds = self.round_cells();
                let rows: Vec<serde_json::Value> = rows
                    .iter()
                    .map(|r| {
                        json!({
                            "rank": r.rank, "shared": r.shared, "tpn": r.tpn,
                            "player_id": r.player_id, "name": r.name, "rating": r.rating,
                            "points": r.points, "tiebreaks": r.tiebreak_values,
                            "rounds": rounds.get(&r.tpn).cloned().unwrap_or_default(),
                        })
                    })
                    .collect();
                Ok(json!({
                    "after_round": self.after_round,
                    "edition": self.standings.edition.name(),
                    "tiebreaks": names,
                    "dropped": self.standings.dropped.iter().map(|d| json!({
                        "tie_break": d.tie_break.to_string(), "reason": d.reason,
                    })).collect::<Vec<_>>(),
                    "rows": rows,
                })
                .to_string())
            }
            "trf" => self.trf_with_ranks(t, roster),
            "crosstable" => Ok(self.crosstable_text(&rows, &names)),
            other => Err(err("format", format!("{other:?}: text, csv, json or trf"))),
        }
    }

    /// Each player's rounds (by pairing number) for the JSON document's crosstable:
    /// `{"round", "opponent" (TPN, 0 = none), "colour" ("w"/"b"/""), "result"}` with the
    /// result `1`, `½`, `0`, `+`, `-` (a game or a forfeit), `PAB`, `F`, `H`, `Z` (byes),
    /// `-` (absent, or not yet entered). The printable crosstable is rendered from these
    /// (`arbiter print crosstable`, crates/render).
    fn round_cells(&self) -> std::collections::HashMap<u32, Vec<serde_json::Value>> {
        use tiebreak::{Colour, GameResult, RoundEntry};
        let rounds = self.crosstable.rounds_played as usize;
        let colour = |c: Option<Colour>| match c {
            Some(Colour::White) => "w",
            Some(Colour::Black) => "b",
            None => "",
        };
        self.crosstable
            .players
            .iter()
            .map(|p| {
                let cells = (0..rounds)
                    .map(|r| {
                        let (opponent, c, result) = match p.entries.get(r) {
                            Some(RoundEntry::Played {
                                opponent,
                                colour: c,
                                result,
                            }) => (
                                *opponent,
                                colour(Some(*c)),
                                match result {
                                    GameResult::Win => "1",
                                    GameResult::Draw => "½",
                                    GameResult::Loss => "0",
                                },
                            ),
                            Some(RoundEntry::ForfeitWin {
                                opponent,
                                colour: c,
                            }) => (*opponent, colour(*c), "+"),
                            Some(RoundEntry::ForfeitLoss {
                                opponent,
                                colour: c,
                            }) => (*opponent, colour(*c), "-"),
                            Some(RoundEntry::PairingAllocatedBye) => (0, "", "PAB"),
                            Some(RoundEntry::FullPointBye) => (0, "", "F"),
                            Some(RoundEntry::HalfPointBye) => (0, "", "H"),
                            Some(RoundEntry::ZeroPointBye) => (0, "", "Z"),
                            _ => (0, "", "-"),
                        };
                        json!({"round": r + 1, "opponent": opponent, "colour": c, "result": result})
                    })
                    .collect();
                (p.tpn, cells)
            })
            .collect()
    }

    /// The crosstable in standing order: each round as opponent's pairing number, colour
    /// and result (`+`/`-` forfeits, `PAB`, `H`/`F`/`Z` byes, `-` absent), then the
    /// points and the tie-break values.
    fn crosstable_text(&self, rows: &[StandingRow], names: &[String]) -> String {
        use tiebreak::{Colour, GameResult, RoundEntry};
        let entries: std::collections::HashMap<u32, &tiebreak::Participant> =
            self.crosstable.players.iter().map(|p| (p.tpn, p)).collect();
        let rounds = self.crosstable.rounds_played as usize;
        let mut s = format!("{:<5} {:>4}  {:<30}", "Rank", "TPN", "Name");
        for r in 1..=rounds {
            s.push_str(&format!(" {:>6}", format!("R{r}")));
        }
        s.push_str(&format!(" {:>5}", "Pts"));
        for n in names {
            s.push_str(&format!(" {n:>7}"));
        }
        s.push('\n');
        for row in rows {
            s.push_str(&format!(
                "{:<5} {:>4}  {:<30}",
                format!("{}{}", row.rank, if row.shared { "=" } else { "" }),
                row.tpn,
                row.name
            ));
            let cells = entries
                .get(&row.tpn)
                .map(|p| p.entries.as_slice())
                .unwrap_or(&[]);
            for r in 0..rounds {
                let cell = match cells.get(r) {
                    Some(RoundEntry::Played {
                        opponent,
                        colour,
                        result,
                    }) => format!(
                        "{opponent}{}{}",
                        if *colour == Colour::White { 'w' } else { 'b' },
                        match result {
                            GameResult::Win => "1",
                            GameResult::Draw => "½",
                            GameResult::Loss => "0",
                        }
                    ),
                    Some(RoundEntry::ForfeitWin { opponent, .. }) => format!("{opponent}+"),
                    Some(RoundEntry::ForfeitLoss { opponent, .. }) => format!("{opponent}-"),
                    Some(RoundEntry::PairingAllocatedBye) => "PAB".into(),
                    Some(RoundEntry::FullPointBye) => "F".into(),
                    Some(RoundEntry::HalfPointBye) => "H".into(),
                    Some(RoundEntry::ZeroPointBye) => "Z".into(),
                    _ => "-".into(),
                };
                s.push_str(&format!(" {cell:>6}"));
            }
            s.push_str(&format!(" {:>5}", row.points));
            for v in &row.tiebreak_values {
                s.push_str(&format!(" {v:>7}"));
            }
            s.push('\n');
        }
        s
    }

    /// The record's TRF export after the standings' round, with the rank column (86–89) set
    /// from these standings.
    fn trf_with_ranks(&self, t: &Tournament, roster: &Roster) -> Result<String, FieldError> {
        let mut upto = roster.clone();
        upto.paired_rounds = self.after_round;
        std::sync::Arc::make_mut(&mut upto.rounds).retain(|r, _| *r <= self.after_round);
        let (mut doc, _) = trf_export::export_doc(
            t,
            &upto,
            &ExportOptions {
                round: 0,
                version: trf::TrfVersion::Trf26,
                engine_lines: false,
            },
        )?;
        let ranks: std::collections::HashMap<u32, u32> = self
            .standings
            .rows
            .iter()
            .map(|r| (r.tpn, r.rank))
            .collect();
        for line in &mut doc.lines {
            if let trf::Record::Player(p) = &mut line.record {
                let tpn = p.tpn().map(u32::from).unwrap_or(0);
                if let Some(rank) = ranks.get(&tpn) {
                    p.rank = trf::Field::Value(u16::try_from(*rank).unwrap_or(u16::MAX));
                }
            }
        }
        Ok(trf::write(&doc, trf::TrfVersion::Trf26))
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}
