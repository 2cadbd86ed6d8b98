//! TRF import, pure: a TRF16/TRF26 file becomes the events of a new tournament — its
//! players, their pairing numbers, every paired round (pairings and results), the byes
//! announced for rounds not yet paired and the prohibited pairings. The records the
//! registry does not model (headers, scoring, engine options, team records…) are kept
//! verbatim for export.
//!
//! A file is refused (with findings naming line:column, sorted by line) when it has any
//! error finding — its own checker's (`trf::validate`: asymmetric pairings, a player
//! paired with himself, an opponent out of range, unreadable numbers, unknown codes…) or
//! the import's (no player, a player without a readable or with a duplicate pairing
//! number, more than 9,999 players, a name that is empty, too long or holds a control
//! character). A line whose columns are shifted is reported first, as the root cause, and
//! the findings that follow from it are folded into it ([`fold_shifted_lines`]).
//! Warnings (points column ≠ results, …) do not refuse the file; they are returned.
//! [`check_duplicate`]: the same file, or a tournament of the same name and dates, is
//! imported again only on request (`as_new`).
use std::collections::{BTreeMap, BTreeSet};

use arbiter_proto::v1::{
    ByeRequested, PairingNumbersAssigned, PairingProhibited, PlayerAdded, PlayerData, RoundBlock,
    RoundImported, TrfImported,
};
use trf::player::layout;
use trf::{
    ByeKind, Colour, Finding, HeaderKind, Opponent, Record, ResultCode, Severity, TrfDocument,
};

use crate::roster::{RosterEvent, normalise_title};
use crate::tournament::Draft;

/// What an import will write.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportPlan {
    /// The tournament (validated by the caller with `decide_create`).
    pub draft: Draft,
    /// The roster events, in order.
    pub events: Vec<RosterEvent>,
    /// Faults of the file that did not prevent the import (warnings and notes).
    pub findings: Vec<Finding>,
    /// SHA-256 of the file (hex).
    pub sha256: String,
}

/// What identifies a tournament already here, for [`check_duplicate`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExistingTournament {
    /// Its id.
    pub tournament_id: String,
    /// Name, start and end date (ISO).
    pub name: String,
    /// YYYY-MM-DD or empty.
    pub start_date: String,
    /// YYYY-MM-DD or empty.
    pub end_date: String,
    /// SHA-256 of the file it was imported from (empty: not imported).
    pub sha256: String,
}

/// Refuses an import that repeats one already here — the same file (content hash), or a
/// tournament of the same name (ignoring case and surrounding blanks) and the same dates
/// (a start date must be known on both) — unless `as_new`. The refusal names the
/// existing tournament.
pub fn check_duplicate(
    existing: &[ExistingTournament],
    name: &str,
    start_date: &str,
    end_date: &str,
    sha256: &str,
    as_new: bool,
) -> Result<(), crate::tournament::FieldError> {
    if as_new {
        return Ok(());
    }
    let key = |n: &str| n.trim().to_lowercase();
    let refuse = |t: &ExistingTournament, what: String| crate::tournament::FieldError {
        field: "trf",
        message: format!(
            "{what} is already tournament {}; nothing was written (import it again as a new tournament with as_new / --as-new)",
            t.tournament_id
        ),
    };
    if let Some(t) = existing
        .iter()
        .find(|t| !sha256.is_empty() && t.sha256 == sha256)
    {
        return Err(refuse(t, format!("this file (SHA-256 {sha256})")));
    }
    if !start_date.is_empty()
        && let Some(t) = existing.iter().find(|t| {
            key(&t.name) == key(name) && t.start_date == start_date && t.end_date == end_date
        })
    {
        return Err(refuse(
            t,
            format!(
                "a tournament named {:?} from {start_date} to {end_date}",
                name.trim()
            ),
        ));
    }
    Ok(())
}

/// Marks the shifted-column cause of a cascade: the reader's note that a line leaves the
/// TRF column layout (`trf::parse`).
const SHIFTED: &str = "does not follow the canonical column layout";

/// Folds the findings that follow from a line whose columns are shifted into one finding
/// for that line, reported first: every other finding on the line, and those on other
/// lines that name it (`line N`) or name its player (by pairing number, or, when the
/// line's own number is unreadable, opponents out of range / not in the file). The rest
/// follow, sorted by line and column. `errors` are the refusing findings, `notes` every
/// finding of the file (where the reader's note is).
pub fn fold_shifted_lines(
    mut errors: Vec<Finding>,
    notes: &[Finding],
    tpn_of_line: &dyn Fn(usize) -> Option<u16>,
) -> Vec<Finding> {
    errors.sort_by_key(|f| (f.line, f.column));
    let mut roots: Vec<(usize, usize)> = notes
        .iter()
        .filter(|f| f.message.contains(SHIFTED) && f.line > 0)
        .map(|f| (f.line, f.column))
        .collect();
    roots.sort_unstable();
    roots.dedup_by_key(|r| r.0);
    // Only a shifted line that some error comes from is a root cause.
    let mut out = Vec::new();
    for (line, column) in roots {
        let tpn = tpn_of_line(line);
        let follows = |f: &Finding| {
            if f.line == line {
                return true;
            }
            let m = &f.message;
            if m.contains(&format!("line {line} ")) || m.contains(&format!("line {line})")) {
                return true;
            }
            match tpn {
                Some(n) => {
                    m.contains(&format!("(player {n})")) || m.contains(&format!("opponent {n} "))
                }
                None => m.contains("out of range") || m.contains("is not a player of this file"),
            }
        };
        let (cascade, rest): (Vec<Finding>, Vec<Finding>) = errors.into_iter().partition(follows);
        errors = rest;
        if cascade.is_empty() {
            continue;
        }
        let others = cascade.len();
        let lines: std::collections::BTreeSet<usize> = cascade.iter().map(|f| f.line).collect();
        out.push(error(
            line,
            column,
            "001",
            format!(
                "the columns of this line are shifted from column {column} on (it does not follow the TRF layout) (and {others} finding(s) on line(s) {} that follow from it, first: {})",
                lines
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                cascade[0]
            ),
        ));
    }
    out.extend(errors);
    out
}

fn error(line: usize, column: usize, record: &str, message: String) -> Finding {
    Finding::new(Severity::Error, line, column, record, message)
}

/// One line as written back (its canonical or original text, without line end).
fn line_text(line: &trf::Line) -> String {
    let doc = TrfDocument {
        lines: vec![line.clone()],
    };
    trf::write_with(
        &doc,
        &trf::WriteOptions {
            version: trf::TrfVersion::Trf26,
            line_ending: trf::LineEnding::Lf,
        },
    )
    .trim_end_matches('\n')
    .to_owned()
}

/// A TRF date (`YYYY/MM/DD`, `YYYY-MM-DD`, `YY/MM/DD`, `DD.MM.YYYY`) as ISO 8601, if readable.
fn iso_date(text: &str) -> String {
    let t = text.trim();
    let parts: Vec<&str> = t.split(['/', '-', '.']).collect();
    let (y, m, d) = match parts.as_slice() {
        [y, m, d] if y.len() == 4 => ((*y).to_owned(), *m, *d),
        [d, m, y] if y.len() == 4 => ((*y).to_owned(), *m, *d),
        // Two-digit years only in TRF's own YY/MM/DD (dotted dates are ambiguous).
        [y, m, d] if y.len() == 2 && t.contains('/') => (format!("20{y}"), *m, *d),
        _ => return String::new(),
    };
    let iso = format!("{y}-{m:0>2}-{d:0>2}");
    if chrono::NaiveDate::parse_from_str(&iso, "%Y-%m-%d").is_ok() {
        iso
    } else {
        String::new()
    }
}

fn system_of(doc: &TrfDocument) -> String {
    let text = [
        HeaderKind::EncodedTournamentType,
        HeaderKind::TournamentType,
    ]
    .iter()
    .filter_map(|k| doc.header_value(*k))
    .collect::<Vec<_>>()
    .join(" ")
    .to_ascii_uppercase();
    if text.contains("DOUBLE") && (text.contains("ROUND") || text.contains("RR")) {
        "double-round-robin"
    } else if text.contains("ROUND ROBIN") || text.contains("ROUND-ROBIN") || text.contains("_RR") {
        "round-robin"
    } else {
        "dutch"
    }
    .to_owned()
}

/// Is a round block a bye announced in advance (no opponent, no colour, `H F Z`)?
fn announced_bye(b: &trf::RoundResult) -> Option<ByeKind> {
    let no_opp = matches!(b.opponent, Opponent::Zero | Opponent::Blank);
    let no_col = matches!(b.colour, Colour::None | Colour::Blank);
    let kind = match b.result {
        ResultCode::HalfPointBye => ByeKind::Half,
        ResultCode::FullPointBye => ByeKind::Full,
        ResultCode::ZeroPointBye => ByeKind::Zero,
        _ => return None,
    };
    (no_opp && no_col).then_some(kind)
}

fn kind_name(k: ByeKind) -> &'static str {
    match k {
        ByeKind::Full => "full",
        ByeKind::Half => "half",
        ByeKind::Zero => "zero",
    }
}

/// (pairing number, round) → `H`/`F` for unpaired rounds whose bye only the points column
/// shows, each reported as a warning finding on the player's line.
fn byes_from_points_column(
    doc: &TrfDocument,
    by_tpn: &BTreeMap<u16, (usize, &trf::PlayerRecord)>,
    findings: &mut Vec<Finding>,
) -> BTreeMap<(u16, usize), char> {
    use tiebreak::trf_crosstable::{self, AdapterOptions, UnpairedRounds};
    let mut out = BTreeMap::new();
    let Ok(ct) = trf_crosstable::from_trf(
        doc,
        &AdapterOptions {
            kind: trf_crosstable::event_kind(doc),
            rounds: None,
            unpaired: UnpairedRounds::FromPoints,
        },
    ) else {
        return out;
    };
    for p in &ct.crosstable.players {
        let Ok(tpn) = u16::try_from(p.tpn) else {
            continue;
        };
        let Some((line, rec)) = by_tpn.get(&tpn) else {
            continue;
        };
        for (i, e) in p.entries.iter().enumerate() {
            let code = match e {
                tiebreak::RoundEntry::FullPointBye => 'F',
                tiebreak::RoundEntry::HalfPointBye => 'H',
                _ => continue,
            };
            let r = i + 1;
            let written = rec.round(r).map(|b| b.result.to_char()).unwrap_or(' ');
            if matches!(written, ' ' | '-') {
                out.insert((tpn, r), code);
                findings.push(Finding::new(
                    Severity::Warning,
                    *line,
                    92 + 10 * (r - 1),
                    "001",
                    format!(
                        "round {r}: unpaired without a result code; read as a {} bye from the points column",
                        if code == 'F' { "full-point" } else { "half-point" }
                    ),
                ));
            }
        }
    }
    out
}

/// Plans the import of `input`. `new_id` gives each player its id. `Err` holds the
/// findings that make the file unusable (nothing is to be imported).
/// The file with its players only (`tournament import --players-only`, ADR registry-005):
/// each `001` record's round blocks, points and rank cleared, and the records about rounds
/// played (`240`, `299`, `XXZ`, team byes, forfeits and line-ups) blanked; every other line
/// stays where it was, so the line numbers of a finding are the file's own.
pub fn players_only(input: &[u8]) -> Result<Vec<u8>, Vec<Finding>> {
    let parsed = trf::parse(input).map_err(|e| vec![error(0, 0, "", e.to_string())])?;
    let mut doc = parsed.doc;
    for line in &mut doc.lines {
        match &mut line.record {
            Record::Player(p) => {
                p.rounds.clear();
                p.points = trf::Field::Empty;
                p.rank = trf::Field::Empty;
                line.verbatim = None;
            }
            Record::Bye(_)
            | Record::AbnormalPoints(_)
            | Record::XxAbsent(_)
            | Record::TeamBye(_)
            | Record::ForfeitedMatch(_)
            | Record::Lineup(_) => {
                line.record = Record::Empty;
                line.verbatim = None;
            }
            _ => {}
        }
    }
    Ok(trf::write(&doc, trf::TrfVersion::Trf26).into_bytes())
}

pub fn plan_import(
    input: &[u8],
    name: &str,
    new_id: &mut dyn FnMut() -> String,
) -> Result<ImportPlan, Vec<Finding>> {
    let parsed = trf::parse(input).map_err(|e| vec![error(0, 0, "", e.to_string())])?;
    let doc = parsed.doc;
    let mut findings = parsed.findings;
    findings.extend(trf::validate(&doc));
    let mut blocking = Vec::new();
    let mut player_records = 0usize;

    // Players by pairing number, with their line numbers.
    let mut by_tpn: BTreeMap<u16, (usize, &trf::PlayerRecord)> = BTreeMap::new();
    for (i, line) in doc.lines.iter().enumerate() {
        let Record::Player(p) = &line.record else {
            continue;
        };
        let n = i + 1;
        player_records += 1;
        if player_records > arbiter_service_kit::limits::MAX_PLAYERS {
            // The reason, alone: the rest of the file is not looked at.
            return Err(vec![error(
                n,
                layout::START_RANK.0,
                "001",
                format!(
                    "player record {player_records}: a tournament holds at most {} players (the TRF's pairing numbers have four digits, columns 5-8)",
                    arbiter_service_kit::limits::MAX_PLAYERS
                ),
            )]);
        }
        let Some(tpn) = p.tpn() else {
            blocking.push(error(
                n,
                layout::START_RANK.0,
                "001",
                "no readable starting rank (pairing number)".into(),
            ));
            continue;
        };
        if let Some((first, _)) = by_tpn.get(&tpn) {
            blocking.push(error(
                n,
                layout::START_RANK.0,
                "001",
                format!("starting rank {tpn} is also on line {first}"),
            ));
            continue;
        }
        if p.rating.is_invalid() {
            blocking.push(error(
                n,
                layout::RATING.0,
                "001",
                format!(
                    "rating {:?} is not a number",
                    p.rating.invalid_text().unwrap_or("")
                ),
            ));
        }
        if p.fide_id.is_invalid() {
            blocking.push(error(
                n,
                layout::FIDE_ID.0,
                "001",
                format!(
                    "FIDE ID {:?} is not a number",
                    p.fide_id.invalid_text().unwrap_or("")
                ),
            ));
        }
        if let Some((pos, c)) = arbiter_service_kit::limits::first_control(&p.name) {
            blocking.push(error(
                n,
                layout::NAME.0 + pos - 1,
                "001",
                format!(
                    "the name holds control character U+{:04X} (character {pos} of the name): control characters are not allowed",
                    u32::from(c)
                ),
            ));
        } else if p.name.chars().count() > arbiter_service_kit::limits::MAX_PLAYER_NAME_CHARS
            || p.name.trim().is_empty()
        {
            blocking.push(error(
                n,
                layout::NAME.0,
                "001",
                format!(
                    "the name must be 1-{} characters",
                    arbiter_service_kit::limits::MAX_PLAYER_NAME_CHARS
                ),
            ));
        }
        by_tpn.insert(tpn, (n, p));
    }
    // Records kept verbatim are exported as they are: none may carry a control character
    // (player names are checked above, with their column).
    for (i, line) in doc.lines.iter().enumerate() {
        if matches!(line.record, Record::Player(_)) {
            continue;
        }
        let text = line_text(line);
        if let Some((pos, c)) = arbiter_service_kit::limits::first_control(&text) {
            blocking.push(error(
                i + 1,
                pos,
                "",
                format!(
                    "control character U+{:04X}: control characters are not allowed",
                    u32::from(c)
                ),
            ));
        }
    }
    if by_tpn.is_empty() && blocking.is_empty() {
        blocking.push(error(
            0,
            0,
            "",
            "no 001 player record: nothing to import".into(),
        ));
    }
    for (n, p) in by_tpn.values() {
        for (i, b) in p.rounds.iter().enumerate() {
            let r = i + 1;
            match &b.opponent {
                Opponent::Player(o) if !by_tpn.contains_key(o) => blocking.push(error(
                    *n,
                    layout::opponent_col(r),
                    "001",
                    format!("round {r}: opponent {o} is not a player of this file"),
                )),
                Opponent::Invalid(t) => blocking.push(error(
                    *n,
                    layout::opponent_col(r),
                    "001",
                    format!("round {r}: opponent {t:?} is not a starting rank"),
                )),
                _ => {}
            }
            if let Colour::Invalid(c) = b.colour {
                blocking.push(error(
                    *n,
                    layout::colour_col(r),
                    "001",
                    format!("round {r}: colour {c:?} is not w, b or -"),
                ));
            }
            if let ResultCode::Unknown(c) = b.result {
                blocking.push(error(
                    *n,
                    layout::result_col(r),
                    "001",
                    format!("round {r}: result code {c:?} is not a TRF result"),
                ));
            }
        }
    }
    // Every error finding refuses the file (the checker's, then the import's own; one
    // per line and column).
    let mut seen = BTreeSet::new();
    let errors: Vec<Finding> = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .cloned()
        .chain(blocking)
        .filter(|f| seen.insert((f.line, f.column)))
        .collect();
    if !errors.is_empty() {
        let tpn_of_line = |line: usize| match doc.lines.get(line.wrapping_sub(1)) {
            Some(trf::Line {
                record: Record::Player(p),
                ..
            }) => p.tpn(),
            _ => None,
        };
        return Err(fold_shifted_lines(errors, &findings, &tpn_of_line));
    }

    // Rounds paired: the last round in which some block is more than an announced bye.
    let paired = by_tpn
        .values()
        .filter_map(|(_, p)| {
            p.rounds
                .iter()
                .rposition(|b| !b.is_blank() && announced_bye(b).is_none())
                .map(|i| i + 1)
        })
        .max()
        .unwrap_or(0);
    let paired_u32 = u32::try_from(paired).unwrap_or(u32::MAX);

    let ids: BTreeMap<u16, String> = by_tpn.keys().map(|t| (*t, new_id())).collect();
    let id_of = |tpn: u16| ids.get(&tpn).cloned().unwrap_or_default();

    // Records kept verbatim; the players go where the first 001 was.
    let mut kept = Vec::new();
    let mut players_at = None;
    for line in &doc.lines {
        match &line.record {
            Record::Player(_) => {
                players_at.get_or_insert(kept.len());
            }
            Record::Bye(_) | Record::XxAbsent(_) | Record::ProhibitedPairing(_) => {}
            Record::XxProhibited(_) => {}
            _ => kept.push(line_text(line)),
        }
    }
    let players_at = players_at.unwrap_or(kept.len());
    let total = trf::total_rounds(&doc).map_or(0, u32::from);
    let full_allowed = by_tpn.values().any(|(_, p)| {
        p.rounds
            .iter()
            .any(|b| b.result == ResultCode::FullPointBye)
    }) || trf::known_byes(&doc)
        .iter()
        .any(|b| b.kind == ByeKind::Full);

    use sha2::Digest as _;
    let sha256 = hex::encode(sha2::Sha256::digest(input));
    let mut events = vec![RosterEvent::TrfImported(TrfImported {
        kept_lines: kept,
        paired_rounds: paired_u32,
        total_rounds: total,
        full_point_byes_allowed: full_allowed,
        players_at: u32::try_from(players_at).unwrap_or(0),
        sha256: sha256.clone(),
    })];
    for (tpn, (_, p)) in &by_tpn {
        // Unknown titles are kept as written (upper case).
        let title = normalise_title(&p.title).unwrap_or_else(|_| p.title.to_ascii_uppercase());
        events.push(RosterEvent::PlayerAdded(PlayerAdded {
            player_id: id_of(*tpn),
            data: Some(PlayerData {
                fide_id: p.fide_id.get().unwrap_or(0),
                name: p.name.trim().to_owned(),
                sex: p.sex.map(|c| c.to_string()).unwrap_or_default(),
                title,
                federation: p.federation.trim().to_owned(),
                birth_date: p.birth_date.clone(),
                rating_standard: p.rating.get().map_or(0, u32::from),
                ..Default::default()
            }),
            joined_round: 1,
            missed_rounds: "zero".into(),
        }));
    }
    events.push(RosterEvent::PairingNumbersAssigned(
        PairingNumbersAssigned {
            player_ids: by_tpn.keys().map(|t| id_of(*t)).collect(),
            basis: "TRF import".into(),
        },
    ));
    // A team file's teams and rosters (310, else 013; ADR registry-008).
    events.extend(crate::trf_teams::import_events(&doc, &id_of, new_id));
    // Byes some programs count only in the points column (an unpaired round without a
    // result code): read from the points column as the standings adapter does, and
    // written as explicit H/F blocks so the record's points equal the file's.
    let inferred = byes_from_points_column(&doc, &by_tpn, &mut findings);
    for r in 1..=paired {
        let blocks = by_tpn
            .iter()
            .filter_map(|(tpn, (_, p))| {
                if let Some(code) = inferred.get(&(*tpn, r)) {
                    return Some(RoundBlock {
                        player_id: id_of(*tpn),
                        opponent_id: String::new(),
                        opponent_blank: false,
                        colour: "-".into(),
                        result: code.to_string(),
                    });
                }
                let b = p.round(r).filter(|b| !b.is_blank())?;
                Some(RoundBlock {
                    player_id: id_of(*tpn),
                    opponent_id: b.opponent.start_rank().map(id_of).unwrap_or_default(),
                    opponent_blank: b.opponent == Opponent::Blank,
                    colour: b.colour.to_char().to_string(),
                    result: b.result.to_char().to_string(),
                })
            })
            .collect();
        events.push(RosterEvent::RoundImported(RoundImported {
            round: u32::try_from(r).unwrap_or(0),
            blocks,
        }));
    }
    // Byes announced for rounds not yet paired (240, 0000 - H/F/Z blocks, XXZ).
    let mut byes: BTreeSet<(u16, u16, ByeKind)> = BTreeSet::new();
    for b in trf::known_byes(&doc) {
        if usize::from(b.round) > paired && ids.contains_key(&b.player) {
            byes.insert((b.player, b.round, b.kind));
        } else if usize::from(b.round) > paired {
            findings.push(Finding::new(
                Severity::Warning,
                0,
                0,
                "240",
                format!(
                    "bye of player {} in round {}: no such player; ignored",
                    b.player, b.round
                ),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (player, round, kind) in byes {
        // One bye per player and round: the first kind (full before half before zero).
        if seen.insert((player, round)) {
            events.push(RosterEvent::ByeRequested(ByeRequested {
                player_id: id_of(player),
                round: u32::from(round),
                kind: kind_name(kind).into(),
            }));
        }
    }
    for f in trf::forbidden_pairings(&doc) {
        let players: Vec<String> = f
            .players
            .iter()
            .filter(|p| ids.contains_key(p))
            .map(|p| id_of(*p))
            .collect();
        if players.len() >= 2 {
            let (first, last) = f
                .rounds
                .map_or((0, 0), |(a, b)| (u32::from(a), u32::from(b)));
            events.push(RosterEvent::PairingProhibited(PairingProhibited {
                player_ids: players,
                first_round: first,
                last_round: last,
            }));
        }
    }

    let h = doc.header();
    let file_name = h.name.clone().unwrap_or_default();
    let draft = Draft {
        name: if name.trim().is_empty() {
            if file_name.trim().is_empty() {
                "Imported tournament".into()
            } else {
                file_name.chars().take(200).collect()
            }
        } else {
            name.trim().to_owned()
        },
        place: h.city.clone().unwrap_or_default(),
        federation: h
            .federation
            .clone()
            .filter(|f| f.len() == 3 && f.chars().all(|c| c.is_ascii_uppercase()))
            .unwrap_or_default(),
        start_date: h.start_date.as_deref().map(iso_date).unwrap_or_default(),
        end_date: h.end_date.as_deref().map(iso_date).unwrap_or_default(),
        // Unknown total (no 142/XXR): undecided, the arbiter sets it.
        rounds: total,
        time_control: String::new(),
        pairing_system: crate::trf_teams::team_system(&doc)
            .map_or_else(|| system_of(&doc), str::to_owned),
        rule_edition: String::new(),
        chief_arbiter: h.chief_arbiter.clone().unwrap_or_default(),
        deputy_arbiters: h.deputy_chief_arbiters.clone(),
    };
    findings.sort_by_key(|f| (f.line, f.column));
    Ok(ImportPlan {
        draft,
        events,
        findings,
        sha256,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--players-only`: the players and the header, no rounds, points, ranks or byes;
    /// every line where it was.
    #[test]
    fn players_only_keeps_the_players_and_drops_the_rounds() {
        let text = "012 T\n\
001    1      A, A                              2100                             1.5    1     2 w 1  0000 - H\n\
001    2      B, B                              2000                             0.0    2     1 b 0  0000 - Z\n\
240 H   2    1\n\
XXR 5\n";
        let only = players_only(text.as_bytes()).unwrap();
        let doc = trf::parse(&only).unwrap().doc;
        assert_eq!(doc.lines.len(), 5, "{}", String::from_utf8_lossy(&only));
        for p in doc.players() {
            assert!(p.rounds.iter().all(trf::RoundResult::is_blank), "{p:?}");
            assert_eq!(p.points, trf::Field::Empty);
        }
        assert!(matches!(doc.lines[3].record, Record::Empty));
        let plan = plan_import(&only, "", &mut ids()).unwrap();
        assert_eq!(plan.draft.rounds, 5);
        let mut roster = crate::roster::Roster::default();
        for e in plan.events {
            roster.apply(e);
        }
        assert_eq!(roster.entries.len(), 2);
        assert_eq!(roster.paired_rounds, 0);
    }

    fn ids() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("p{n}")
        }
    }

    const SMALL: &str = "012 Small Open\n\
001    1      Doe, John                         2100                             1.0    1     2 w 1  0000 - H\n\
001    2      Roe, Jane                         2000                             0.0    2     1 b 0\n\
XXR 3\n";

    #[test]
    fn history_players_and_announced_byes() {
        let plan = plan_import(SMALL.as_bytes(), "", &mut ids()).unwrap();
        assert_eq!(plan.draft.name, "Small Open");
        assert_eq!(plan.draft.rounds, 3);
        let no_total = SMALL.replace("XXR 3\n", "");
        let plan2 = plan_import(no_total.as_bytes(), "", &mut ids()).unwrap();
        assert_eq!(
            plan2.draft.rounds, 0,
            "undecided when the file does not say"
        );
        let rounds: Vec<_> = plan
            .events
            .iter()
            .filter_map(|e| match e {
                RosterEvent::RoundImported(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(rounds.len(), 1, "round 2 holds only an announced bye");
        assert_eq!(rounds[0].blocks[0].opponent_id, "p2");
        assert!(plan.events.iter().any(|e| matches!(e,
            RosterEvent::ByeRequested(b) if b.player_id == "p1" && b.round == 2 && b.kind == "half")));
    }

    #[test]
    fn unusable_files_are_refused_with_line_and_column() {
        let bad = SMALL.replace("     2 w 1", "     7 w 1");
        let f = plan_import(bad.as_bytes(), "", &mut ids()).unwrap_err();
        assert_eq!((f[0].line, f[0].column), (2, 92), "{f:?}");
        let bad = SMALL.replace("2000", "20x0");
        let f = plan_import(bad.as_bytes(), "", &mut ids()).unwrap_err();
        assert_eq!((f[0].line, f[0].column), (3, 49), "{f:?}");
        let bad = SMALL.replace("2 w 1", "2 w Q");
        let f = plan_import(bad.as_bytes(), "", &mut ids()).unwrap_err();
        assert_eq!((f[0].line, f[0].column), (2, 99), "{f:?}");
        assert!(plan_import(b"012 Only a header\n", "", &mut ids()).is_err());
        assert!(plan_import(b"", "", &mut ids()).is_err());
    }

    #[test]
    fn faults_that_keep_the_data_usable_are_reported() {
        let faulty = SMALL.replace(" 1.0    1", " 3.0    1");
        let plan = plan_import(faulty.as_bytes(), "", &mut ids()).unwrap();
        assert!(
            plan.findings.iter().any(|f| f.line == 2),
            "{:?}",
            plan.findings
        );
    }

    #[test]
    fn every_real_fixture_imports() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates/trf/tests/data");
        let mut n = 0;
        for sub in ["trf", "pairing"] {
            for f in std::fs::read_dir(format!("{dir}/{sub}")).unwrap() {
                let path = f.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                if let Err(e) = plan_import(&bytes, "", &mut ids()) {
                    panic!("{}: {e:?}", path.display());
                }
                n += 1;
            }
        }
        assert!(n >= 15);
    }

    fn fixture(rel: &str) -> Vec<u8> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates/trf/tests/data");
        std::fs::read(format!("{dir}/{rel}")).unwrap()
    }

    #[test]
    fn every_error_finding_refuses_the_file_sorted_by_line() {
        for name in [
            "asymmetric-pairing.trf",
            "paired-with-himself.trf",
            "opponent-out-of-range.trf",
            "letters-in-rating.trf",
            "unknown-result-code.trf",
            "shifted-columns.trf",
            "duplicate-starting-rank.trf",
        ] {
            let f =
                plan_import(&fixture(&format!("errors/{name}")), "", &mut ids()).expect_err(name);
            assert!(
                f.iter().all(|x| x.severity == Severity::Error),
                "{name}: {f:?}"
            );
            if name != "shifted-columns.trf" {
                let lines: Vec<usize> = f.iter().map(|x| x.line).collect();
                let mut sorted = lines.clone();
                sorted.sort_unstable();
                assert_eq!(lines, sorted, "{name}");
            }
        }
        let f =
            plan_import(&fixture("errors/paired-with-himself.trf"), "", &mut ids()).unwrap_err();
        assert_eq!((f[0].line, f[0].column), (3, 102), "{f:?}");
        assert!(f[0].message.contains("paired with himself"), "{f:?}");
    }

    #[test]
    fn a_shifted_line_is_reported_first_with_its_cascade_folded() {
        let f = plan_import(&fixture("errors/shifted-columns.trf"), "", &mut ids()).unwrap_err();
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!((f[0].line, f[0].column), (4, 9), "{f:?}");
        assert!(
            f[0].message.contains("shifted") && f[0].message.contains("that follow from it"),
            "{f:?}"
        );
        // Seven players met player 3: their out-of-range opponents are part of the cascade.
        assert!(
            f[0].message.contains("on line(s) 2, 3, 4, 5, 6, 9, 11"),
            "{f:?}"
        );
        // An unrelated error elsewhere is listed after the root cause.
        let text = String::from_utf8(fixture("errors/shifted-columns.trf")).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let i = lines.iter().rposition(|l| l.starts_with("001")).unwrap();
        lines[i].replace_range(48..52, "2X00");
        let f = plan_import(lines.join("\n").as_bytes(), "", &mut ids()).unwrap_err();
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].line, 4);
        assert!(f[1].message.contains("rating"), "{f:?}");
    }

    #[test]
    fn a_warning_only_file_imports_with_its_warnings() {
        let plan = plan_import(
            &fixture("trf/icu-bunratty-challengers-2011.trf"),
            "",
            &mut ids(),
        )
        .unwrap();
        assert!(
            plan.findings
                .iter()
                .any(|f| f.severity == Severity::Warning)
        );
        assert!(plan.findings.iter().all(|f| f.severity != Severity::Error));
        assert_eq!(plan.sha256.len(), 64);
    }

    #[test]
    fn more_than_9999_players_are_refused_with_the_trf_reason() {
        let mut text = String::from("012 Huge Open\n");
        for tpn in 1..=10_000u32 {
            let name = format!("Player, {tpn}");
            // The 10,000th does not fit the four columns: written as the TRF would need.
            text.push_str(&format!("001 {tpn:>4}      {name:<33} 1500\n"));
        }
        let f = plan_import(text.as_bytes(), "", &mut ids()).unwrap_err();
        let refusal = f
            .iter()
            .find(|x| x.message.contains("at most 9999 players"))
            .unwrap_or_else(|| panic!("{:?}", &f[..f.len().min(3)]));
        assert_eq!(refusal.line, 10_001);
        assert!(refusal.message.contains("four digits"), "{refusal:?}");
        // 9,999 import.
        let cut: String = text
            .lines()
            .take(10_000)
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(plan_import(cut.as_bytes(), "", &mut ids()).is_ok());
    }

    #[test]
    fn a_control_character_in_a_player_name_is_refused_at_its_column() {
        let bad = SMALL.replace("Doe, John", "Doe,\u{1b}John");
        let f = plan_import(bad.as_bytes(), "", &mut ids()).unwrap_err();
        assert_eq!((f[0].line, f[0].column), (2, 19), "{f:?}");
        assert!(f[0].message.contains("U+001B"), "{f:?}");
    }

    #[test]
    fn a_control_character_in_a_kept_record_is_refused_at_its_column() {
        let bad = SMALL.replace("012 Small Open", "012 Small\u{1b}]0;x\u{7} Open");
        let f = plan_import(bad.as_bytes(), "", &mut ids()).unwrap_err();
        assert_eq!((f[0].line, f[0].column), (1, 10), "{f:?}");
        assert!(f[0].message.contains("U+001B"), "{f:?}");
    }

    #[test]
    fn the_same_file_or_tournament_again_needs_as_new() {
        let here = vec![ExistingTournament {
            tournament_id: "t1".into(),
            name: "Bunratty Masters".into(),
            start_date: "2011-02-18".into(),
            end_date: "2011-02-20".into(),
            sha256: "abc".into(),
        }];
        let e = check_duplicate(&here, "Other", "", "", "abc", false).unwrap_err();
        assert!(
            e.message.contains("already tournament t1") && e.message.contains("SHA-256"),
            "{e:?}"
        );
        let e = check_duplicate(
            &here,
            " bunratty masters",
            "2011-02-18",
            "2011-02-20",
            "def",
            false,
        )
        .unwrap_err();
        assert!(
            e.message.contains("already tournament t1") && e.message.contains("--as-new"),
            "{e:?}"
        );
        assert!(
            check_duplicate(
                &here,
                "Bunratty Masters",
                "2011-02-18",
                "2011-02-20",
                "abc",
                true
            )
            .is_ok()
        );
        assert!(
            check_duplicate(
                &here,
                "Bunratty Masters",
                "2012-02-17",
                "2012-02-19",
                "def",
                false
            )
            .is_ok()
        );
        // Without dates the name alone does not make a duplicate.
        let undated = vec![ExistingTournament {
            name: "Imported tournament".into(),
            ..here[0].clone()
        }];
        let mut u = undated.clone();
        u[0].start_date.clear();
        u[0].end_date.clear();
        assert!(check_duplicate(&u, "Imported tournament", "", "", "def", false).is_ok());
    }

    #[test]
    fn dates() {
        assert_eq!(iso_date("2011/04/22"), "2011-04-22");
        assert_eq!(iso_date("22.04.2011"), "2011-04-22");
        assert_eq!(iso_date("11/04/22"), "2011-04-22");
        assert_eq!(iso_date("2011/02/30"), "");
        assert_eq!(iso_date("soon"), "");
        assert_eq!(
            iso_date("10.09.13"),
            "",
            "DD.MM.YY or YY.MM.DD: not guessed"
        );
    }
}
