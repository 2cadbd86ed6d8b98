//! Validation: what a rating officer or a pairing engine must be told about a document.
//!
//! [`validate`] is separate from [`crate::parse()`]: parsing keeps everything, validation judges
//! it. Every finding names the line (the document keeps one [`crate::Line`] per input line, so
//! `lines[i]` is line `i + 1`), the column of the field (TRF26 layout), and the record code.
//!
//! Checks:
//! * unreadable fields: letters in a number column (rating, FIDE id, points, rank, ids,
//!   rounds), unknown result codes, unknown colours, unknown `162`/`XXS` symbols, `152`
//!   other than `W`/`B`, `240` bye types other than `F H Z`, `299` types;
//! * player records: missing or duplicate starting rank; a round block past column 9999;
//!   a colour on a bye; a bye code with an opponent; a game result without an opponent;
//! * pairings: opponent out of range or the player himself; asymmetric pairings (A met B in
//!   round r but B's block names someone else, the same colour, or a result that does not
//!   mirror A's); two pairing-allocated byes (`U`) in one round;
//! * points column ≠ sum of the results under the declared scoring system
//!   ([`crate::ScoringSystem::from_document`]);
//! * `142` vs `XXR` (and `152` vs `XXC`) disagreeing; more round blocks than rounds;
//! * references to unknown players in `240 260 299 XXZ XXP XXA` and NRS records
//!   (individual events only);
//! * informational: TRF26 date formats (`042`, `052`, birth dates), titles, `062` against the
//!   number of players, `212` starting with `PTS`, `172` present when NRS records exist.

use std::collections::{HashMap, HashSet};

use crate::document::TrfDocument;
use crate::engine_extensions::XxcOption;
use crate::field::Field;
use crate::finding::{Finding, Severity};
use crate::header::InitialColour;
use crate::pairing_data;
use crate::player::layout;
use crate::player::{Colour, Opponent, PlayerRecord, ResultCode};
use crate::record::{Record, render_record};
use crate::score::Score;
use crate::scoring::{ScoringSystem, is_162_symbol, is_xxs_code};

struct Out {
    findings: Vec<Finding>,
}

impl Out {
    fn push(
        &mut self,
        severity: Severity,
        line: usize,
        column: usize,
        code: &str,
        message: String,
    ) {
        self.findings
            .push(Finding::new(severity, line, column, code, message));
    }

    fn field<T>(&mut self, line: usize, column: usize, code: &str, what: &str, f: &Field<T>) {
        if let Field::Invalid(text) = f {
            let kind = if text.chars().any(char::is_alphabetic) {
                "letters in"
            } else {
                "unreadable text in"
            };
            self.push(
                Severity::Error,
                line,
                column,
                code,
                format!("{kind} the {what} column: '{text}'"),
            );
        }
    }
}

/// Column of the `k`-th (0-based) blank-separated token after the record code, 1-based.
fn token_column(text: &str, k: usize) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let mut idx = 3.min(chars.len());
    let mut seen = 0;
    while idx < chars.len() {
        while idx < chars.len() && chars[idx].is_whitespace() {
            idx += 1;
        }
        if idx >= chars.len() {
            break;
        }
        if seen == k {
            return idx + 1;
        }
        seen += 1;
        while idx < chars.len() && !chars[idx].is_whitespace() {
            idx += 1;
        }
    }
    5
}

/// Validates a document; see the module documentation for the list of checks.
pub fn validate(doc: &TrfDocument) -> Vec<Finding> {
    let mut out = Out {
        findings: Vec::new(),
    };
    let team_event = doc.records().any(|r| {
        matches!(
            r,
            Record::Team013(_) | Record::Team(_) | Record::Lineup(_) | Record::TeamBye(_)
        )
    });

    // Players by starting rank (first occurrence), with their line numbers.
    let mut by_rank: HashMap<u16, (usize, &PlayerRecord)> = HashMap::new();
    for (i, line) in doc.lines.iter().enumerate() {
        if let Record::Player(p) = &line.record
            && let Some(n) = p.tpn()
        {
            if let Some((first, _)) = by_rank.get(&n) {
                out.push(
                    Severity::Error,
                    i + 1,
                    layout::START_RANK.0,
                    "001",
                    format!("duplicate starting rank {n} (first used on line {first})"),
                );
            } else {
                by_rank.insert(n, (i + 1, p));
            }
        }
    }
    let known: HashSet<u16> = by_rank.keys().copied().collect();
    let has_players = !known.is_empty();
    let check_ref = |out: &mut Out, line: usize, col: usize, code: &str, id: u16| {
        if has_players && !team_event && !known.contains(&id) {
            out.push(
                Severity::Warning,
                line,
                col,
                code,
                format!("player {id} has no 001 record"),
            );
        }
    };

    let scoring = ScoringSystem::from_document(doc);
    let has_299 = doc
        .records()
        .any(|r| matches!(r, Record::AbnormalPoints(_)));
    let mut pab_seen: HashMap<usize, usize> = HashMap::new();

    for (i, line) in doc.lines.iter().enumerate() {
        let ln = i + 1;
        let code = line.record.code();
        let text = || {
            line.verbatim
                .clone()
                .unwrap_or_else(|| render_record(&line.record))
        };
        match &line.record {
            Record::Player(p) => {
                check_player_fields(&mut out, ln, "001", p);
                check_rounds(&mut out, ln, p, &by_rank, &mut pab_seen);
                check_points(&mut out, ln, p, &scoring, has_299);
            }
            Record::NationalRating { federation, player } => {
                check_player_fields(&mut out, ln, federation, player);
                if let Some(n) = player.tpn() {
                    check_ref(&mut out, ln, layout::START_RANK.0, federation, n);
                }
            }
            Record::NumberOfRounds(f) | Record::XxRounds(f) => {
                out.field(ln, 5, &code, "number of rounds", f);
                if f.is_empty() {
                    out.push(
                        Severity::Error,
                        ln,
                        5,
                        &code,
                        "the number of rounds is missing".into(),
                    );
                }
            }
            Record::InitialColour(f) => {
                if let Field::Invalid(t) = f {
                    out.push(
                        Severity::Error,
                        ln,
                        5,
                        &code,
                        format!("initial colour must be W or B, not '{t}'"),
                    );
                }
            }
            Record::ScoringSystem(s) => {
                for (k, e) in s.entries.iter().enumerate() {
                    let col = 6 + 9 * k;
                    if !(is_162_symbol(e.symbol) || e.symbol == ' ' && e.points.is_empty()) {
                        out.push(
                            Severity::Error,
                            ln,
                            col,
                            &code,
                            format!(
                                "unknown scoring symbol '{}' (expected W D L A P X)",
                                e.symbol
                            ),
                        );
                    }
                    out.field(ln, col + 1, &code, "points", &e.points);
                    if e.symbol != ' ' && e.points.is_empty() {
                        out.push(
                            Severity::Error,
                            ln,
                            col + 1,
                            &code,
                            format!("no points for symbol '{}'", e.symbol),
                        );
                    }
                }
            }
            Record::XxScoring(items) => {
                for (k, item) in items.iter().enumerate() {
                    let col = token_column(&text(), k);
                    if !is_xxs_code(&item.code) {
                        out.push(
                            Severity::Error,
                            ln,
                            col,
                            &code,
                            format!("unknown XXS code '{}'", item.code),
                        );
                    }
                    match &item.value {
                        Field::Empty => out.push(
                            Severity::Error,
                            ln,
                            col,
                            &code,
                            format!("XXS item '{}' has no value", item.code),
                        ),
                        f => out.field(ln, col, &code, "XXS value", f),
                    }
                }
            }
            Record::BbPoints { value, .. } => {
                out.field(ln, 5, &code, "points", value);
                if value.is_empty() {
                    out.push(
                        Severity::Error,
                        ln,
                        5,
                        &code,
                        "the points value is missing".into(),
                    );
                }
            }
            Record::XxColour(opts) => {
                for (k, o) in opts.iter().enumerate() {
                    if let XxcOption::Other(t) = o {
                        out.push(
                            Severity::Warning,
                            ln,
                            token_column(&text(), k),
                            &code,
                            format!("unknown XXC option '{t}' (expected rank, white1, black1)"),
                        );
                    }
                }
            }
            Record::XxAbsent(ids) | Record::XxProhibited(ids) => {
                for (k, id) in ids.iter().enumerate() {
                    let col = token_column(&text(), k);
                    out.field(ln, col, &code, "player id", id);
                    if let Some(n) = id.get() {
                        check_ref(&mut out, ln, col, &code, n);
                    }
                }
                if matches!(line.record, Record::XxProhibited(_)) && ids.len() < 2 {
                    out.push(
                        Severity::Warning,
                        ln,
                        5,
                        &code,
                        "XXP needs at least two players".into(),
                    );
                }
            }
            Record::XxAcceleration(a) => {
                out.field(ln, 5, &code, "player id", &a.player);
                if let Some(n) = a.player.get() {
                    check_ref(&mut out, ln, 5, &code, n);
                }
                for (k, p) in a.points.iter().enumerate() {
                    out.field(
                        ln,
                        10 + 5 * k,
                        &code,
                        &format!("round {} acceleration", k + 1),
                        p,
                    );
                }
            }
            Record::Bye(b) => {
                if b.bye_kind().is_none() {
                    out.push(
                        Severity::Error,
                        ln,
                        5,
                        &code,
                        format!("bye type must be F, H or Z, not '{}'", b.kind),
                    );
                }
                out.field(ln, 7, &code, "round", &b.round);
                if b.round.is_empty() {
                    out.push(Severity::Error, ln, 7, &code, "the round is missing".into());
                }
                check_ids(&mut out, ln, 11, &code, &b.players, &check_ref);
            }
            Record::Acceleration(a) => {
                out.field(ln, 5, &code, "fictitious match points", &a.match_points);
                out.field(ln, 10, &code, "fictitious points", &a.points);
                out.field(ln, 15, &code, "first round", &a.first_round);
                out.field(ln, 19, &code, "last round", &a.last_round);
                out.field(ln, 23, &code, "first player", &a.first_player);
                out.field(ln, 28, &code, "last player", &a.last_player);
                if let (Some(f), Some(l)) = (a.first_round.get(), a.last_round.get())
                    && f > l
                {
                    out.push(
                        Severity::Error,
                        ln,
                        15,
                        &code,
                        format!("first round {f} is after last round {l}"),
                    );
                }
                if let (Some(f), Some(l)) = (a.first_player.get(), a.last_player.get())
                    && f > l
                {
                    out.push(
                        Severity::Error,
                        ln,
                        23,
                        &code,
                        format!("first id {f} is after last id {l}"),
                    );
                }
                if !team_event
                    && a.points.get().is_none_or(|p| p == Score::ZERO)
                    && a.match_points.get().is_none()
                {
                    out.push(
                        Severity::Warning,
                        ln,
                        10,
                        &code,
                        "individual events need non-zero fictitious points in columns 10-13".into(),
                    );
                }
            }
            Record::ProhibitedPairing(p) => {
                out.field(ln, 5, &code, "first round", &p.first_round);
                out.field(ln, 9, &code, "last round", &p.last_round);
                check_ids(&mut out, ln, 13, &code, &p.players, &check_ref);
                if p.players.len() < 2 {
                    out.push(
                        Severity::Warning,
                        ln,
                        13,
                        &code,
                        "a prohibited pairing needs at least two ids".into(),
                    );
                }
            }
            Record::AbnormalPoints(a) => {
                if !"WDLFHZ+- ".contains(a.kind.to_ascii_uppercase()) {
                    out.push(
                        Severity::Error,
                        ln,
                        5,
                        &code,
                        format!("unknown abnormal-points type '{}'", a.kind),
                    );
                }
                out.field(ln, 8, &code, "match points", &a.match_points);
                out.field(ln, 14, &code, "points", &a.points);
                out.field(ln, 20, &code, "round", &a.round);
                check_ids(&mut out, ln, 24, &code, &a.players, &check_ref);
            }
            Record::Team013(t) => check_ids(&mut out, ln, 37, &code, &t.members, &check_ref),
            Record::Team(t) => {
                out.field(ln, 5, &code, "team number", &t.number);
                out.field(ln, 55, &code, "match points", &t.match_points);
                out.field(ln, 62, &code, "game points", &t.game_points);
                out.field(ln, 69, &code, "rank", &t.rank);
                check_ids(&mut out, ln, 74, &code, &t.members, &check_ref);
            }
            Record::TeamBye(t) => {
                out.field(ln, 5, &code, "match points", &t.match_points);
                out.field(ln, 10, &code, "game points", &t.game_points);
                for (k, f) in t.teams.iter().enumerate() {
                    out.field(ln, 15 + 4 * k, &code, "team number", f);
                }
            }
            Record::ForfeitedMatch(f) => {
                if !matches!(f.kind.as_str(), "+-" | "-+" | "--") {
                    out.push(
                        Severity::Error,
                        ln,
                        5,
                        &code,
                        format!("forfeit type must be +-, -+ or --, not '{}'", f.kind),
                    );
                }
                out.field(ln, 8, &code, "round", &f.round);
                out.field(ln, 12, &code, "white team", &f.white_team);
                out.field(ln, 16, &code, "black team", &f.black_team);
            }
            Record::Lineup(l) => {
                out.field(ln, 5, &code, "round", &l.round);
                out.field(ln, 9, &code, "team", &l.team);
                out.field(ln, 13, &code, "opponent team", &l.opponent);
                for (k, f) in l.players.iter().enumerate() {
                    out.field(ln, 17 + 5 * k, &code, "player id", f);
                }
            }
            Record::Empty
            | Record::Comment(_)
            | Record::Header(_)
            | Record::StartingRankMethod(_)
            | Record::Other(_) => {}
        }
    }

    check_dialects(&mut out, doc);
    check_header(&mut out, doc);
    out.findings
}

fn check_ids(
    out: &mut Out,
    ln: usize,
    start: usize,
    code: &str,
    ids: &[Field<u16>],
    check_ref: &dyn Fn(&mut Out, usize, usize, &str, u16),
) {
    for (k, id) in ids.iter().enumerate() {
        let col = start + 5 * k;
        out.field(ln, col, code, "id", id);
        if let Some(n) = id.get()
            && n != 0
        {
            check_ref(out, ln, col, code, n);
        }
    }
}

/// Titles of the player record (columns 11–13).
const TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];

/// `YYYY/MM/DD` with digits (`00` allowed for an unknown month or day, as real files do).
fn is_trf_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'/'
        && b[7] == b'/'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// TRF26 header formats: `042`/`052` dates `YYYY/MM/DD`; `062` against the `001` count;
/// `212` starting with `PTS`; `172` present when NRS records exist.
fn check_header(out: &mut Out, doc: &TrfDocument) {
    use crate::header::HeaderKind;
    let players = doc.players().count();
    let first_nrs = doc
        .lines
        .iter()
        .position(|l| matches!(l.record, Record::NationalRating { .. }));
    let has_172 = doc
        .records()
        .any(|r| matches!(r, Record::StartingRankMethod(_)));
    if let Some(i) = first_nrs
        && !has_172
    {
        out.push(
            Severity::Info,
            i + 1,
            1,
            &doc.lines[i].record.code(),
            "NRS records are present but no 172 record says how starting ranks were formed".into(),
        );
    }
    for (i, l) in doc.lines.iter().enumerate() {
        let Record::Header(h) = &l.record else {
            continue;
        };
        let v = h.value.trim();
        match h.kind {
            HeaderKind::StartDate | HeaderKind::EndDate if !v.is_empty() && !is_trf_date(v) => out
                .push(
                    Severity::Info,
                    i + 1,
                    5,
                    h.kind.code(),
                    format!("date '{v}' is not in the TRF26 format YYYY/MM/DD"),
                ),
            HeaderKind::StandingsTieBreaks => {
                let codes = h.tie_break_codes();
                if codes
                    .first()
                    .is_some_and(|c| !c.eq_ignore_ascii_case("PTS"))
                {
                    out.push(
                        Severity::Info,
                        i + 1,
                        5,
                        "212",
                        "212 (tie-breaks defining the standings) should start with PTS".into(),
                    );
                }
            }
            HeaderKind::NumberOfPlayers => {
                if let Ok(n) = v.parse::<usize>()
                    && players > 0
                    && n != players
                {
                    out.push(
                        Severity::Info,
                        i + 1,
                        5,
                        "062",
                        format!("062 says {n} players but the file has {players} player records"),
                    );
                }
            }
            _ => {}
        }
    }
}

fn check_player_fields(out: &mut Out, ln: usize, code: &str, p: &PlayerRecord) {
    use layout::*;
    match &p.start_rank {
        Field::Empty => out.push(
            Severity::Error,
            ln,
            START_RANK.0,
            code,
            "the starting rank (columns 5-8) is missing".into(),
        ),
        Field::Value(0) => out.push(
            Severity::Error,
            ln,
            START_RANK.0,
            code,
            "the starting rank must be 1-9999, not 0".into(),
        ),
        f => out.field(ln, START_RANK.0, code, "starting rank", f),
    }
    if code == "001"
        && !p.title.is_empty()
        && !TITLES.contains(&p.title.to_ascii_uppercase().as_str())
    {
        out.push(
            Severity::Info,
            ln,
            TITLE.0,
            code,
            format!(
                "title '{}' is not one of GM IM WGM FM WIM CM WFM WCM",
                p.title
            ),
        );
    }
    if code == "001" && !p.birth_date.trim().is_empty() && !is_trf_date(&p.birth_date) {
        out.push(
            Severity::Info,
            ln,
            BIRTH_DATE.0,
            code,
            format!(
                "birth date '{}' is not in the format YYYY/MM/DD",
                p.birth_date
            ),
        );
    }
    if let Some(s) = p.sex
        && !matches!(s, 'm' | 'w' | 'M' | 'W' | 'f' | 'F')
    {
        out.push(
            Severity::Warning,
            ln,
            SEX,
            code,
            format!("sex must be m or w, not '{s}'"),
        );
    }
    out.field(ln, RATING.0, code, "rating", &p.rating);
    if code == "001" {
        // NRS records hold a national number there, which may contain letters.
        out.field(ln, FIDE_ID.0, code, "FIDE id", &p.fide_id);
    }
    out.field(ln, POINTS.0, code, "points", &p.points);
    out.field(ln, RANK.0, code, "rank", &p.rank);
}

fn check_rounds(
    out: &mut Out,
    ln: usize,
    p: &PlayerRecord,
    by_rank: &HashMap<u16, (usize, &PlayerRecord)>,
    pab_seen: &mut HashMap<usize, usize>,
) {
    use layout::*;
    let me = p.tpn();
    for (i, r) in p.rounds.iter().enumerate() {
        let round = i + 1;
        let (oc, cc, rc) = (opponent_col(round), colour_col(round), result_col(round));
        if rc > MAX_COLUMN {
            out.push(
                Severity::Error,
                ln,
                opponent_col(round),
                "001",
                format!(
                    "round {round} block lies past column {MAX_COLUMN} ({} rounds on the line)",
                    p.rounds.len()
                ),
            );
            break;
        }
        if r.is_blank() {
            continue;
        }
        match &r.opponent {
            Opponent::Invalid(t) => out.push(
                Severity::Error,
                ln,
                oc,
                "001",
                format!("round {round}: unreadable opponent '{t}'"),
            ),
            Opponent::Player(n) => {
                if Some(*n) == me {
                    out.push(
                        Severity::Error,
                        ln,
                        oc,
                        "001",
                        format!("round {round}: the player is paired with himself"),
                    );
                } else if !by_rank.contains_key(n) {
                    out.push(
                        Severity::Error,
                        ln,
                        oc,
                        "001",
                        format!(
                            "round {round}: opponent {n} is out of range (no such starting rank)"
                        ),
                    );
                }
            }
            Opponent::Zero | Opponent::Blank => {}
        }
        if let Colour::Invalid(c) = r.colour {
            out.push(
                Severity::Error,
                ln,
                cc,
                "001",
                format!("round {round}: colour must be w, b or -, not '{c}'"),
            );
        }
        if let ResultCode::Unknown(c) = r.result {
            out.push(
                Severity::Error,
                ln,
                rc,
                "001",
                format!("round {round}: unknown result code '{c}' (expected 1 0 = + - W D L H F U Z or blank)"),
            );
        }
        let bye_code = matches!(
            r.result,
            ResultCode::HalfPointBye
                | ResultCode::FullPointBye
                | ResultCode::PairingAllocatedBye
                | ResultCode::ZeroPointBye
        );
        if bye_code && r.colour.is_colour() {
            out.push(
                Severity::Warning,
                ln,
                cc,
                "001",
                format!(
                    "round {round}: a bye ('{}') has a colour",
                    r.result.to_char()
                ),
            );
        }
        if bye_code && matches!(r.opponent, Opponent::Player(_)) {
            out.push(
                Severity::Warning,
                ln,
                rc,
                "001",
                format!(
                    "round {round}: bye code '{}' with an opponent",
                    r.result.to_char()
                ),
            );
        }
        let game_code = matches!(
            r.result,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::UnratedWin
                | ResultCode::UnratedDraw
                | ResultCode::UnratedLoss
        );
        if game_code && r.opponent.start_rank().is_none() {
            out.push(
                Severity::Warning,
                ln,
                rc,
                "001",
                format!(
                    "round {round}: game result '{}' without an opponent (a bye should use H, F, U or Z)",
                    r.result.to_char()
                ),
            );
        }
        if r.result == ResultCode::PairingAllocatedBye {
            if let Some(first) = pab_seen.get(&round) {
                out.push(
                    Severity::Error,
                    ln,
                    rc,
                    "001",
                    format!("round {round}: a second pairing-allocated bye (the first is on line {first})"),
                );
            } else {
                pab_seen.insert(round, ln);
            }
        }
        // Symmetry with the opponent's block.
        if let (Some(a), Some(b)) = (me, r.opponent.start_rank())
            && let Some((other_ln, other)) = by_rank.get(&b)
            && a != b
        {
            let back = other.round(round);
            let points_back = back.and_then(|x| x.opponent.start_rank()) == Some(a);
            if !points_back {
                let named = match back.map(|x| &x.opponent) {
                    None | Some(Opponent::Blank) => "nobody".to_string(),
                    Some(Opponent::Zero) => "0000".to_string(),
                    Some(Opponent::Player(n)) => format!("player {n}"),
                    Some(Opponent::Invalid(t)) => format!("'{t}'"),
                };
                out.push(
                    Severity::Error,
                    ln,
                    oc,
                    "001",
                    format!("round {round}: asymmetric pairing: {a} played {b}, but line {other_ln} (player {b}) names {named}"),
                );
            } else if a < b
                && let Some(back) = back
            {
                let colours_ok = match (r.colour, back.colour) {
                    (Colour::White, c) => c == Colour::Black,
                    (Colour::Black, c) => c == Colour::White,
                    (_, c) => !c.is_colour(),
                };
                if !colours_ok {
                    out.push(
                        Severity::Error,
                        ln,
                        cc,
                        "001",
                        format!(
                            "round {round}: asymmetric colours: {a} has '{}', {b} (line {other_ln}) has '{}'",
                            r.colour.to_char(),
                            back.colour.to_char()
                        ),
                    );
                }
                let results_ok = match r.result {
                    ResultCode::ForfeitLoss => matches!(
                        back.result,
                        ResultCode::ForfeitWin | ResultCode::ForfeitLoss
                    ),
                    ResultCode::Blank => back.result == ResultCode::Blank,
                    ResultCode::Unknown(_) => true,
                    x => match x.mirror() {
                        Some(m) => back.result == m,
                        None => true,
                    },
                };
                if !results_ok && !matches!(back.result, ResultCode::Unknown(_)) {
                    out.push(
                        Severity::Error,
                        ln,
                        rc,
                        "001",
                        format!(
                            "round {round}: asymmetric results: {a} has '{}', {b} (line {other_ln}) has '{}'",
                            r.result.to_char(),
                            back.result.to_char()
                        ),
                    );
                }
            }
        }
    }
}

fn check_points(
    out: &mut Out,
    ln: usize,
    p: &PlayerRecord,
    scoring: &ScoringSystem,
    has_299: bool,
) {
    let Some(stated) = p.points.get() else { return };
    let Some(sum) = scoring.total(&p.rounds) else {
        return;
    };
    if stated != sum {
        let (severity, note) = if has_299 {
            (
                Severity::Info,
                " (the file has 299 abnormal-points records, which may explain it)",
            )
        } else {
            (Severity::Warning, "")
        };
        out.push(
            severity,
            ln,
            layout::POINTS.0,
            "001",
            format!("the points column says {stated} but the results add up to {sum}{note}"),
        );
    }
}

fn check_dialects(out: &mut Out, doc: &TrfDocument) {
    let find = |pred: &dyn Fn(&Record) -> Option<u16>| {
        doc.lines
            .iter()
            .enumerate()
            .find_map(|(i, l)| pred(&l.record).map(|v| (i + 1, v)))
    };
    let r142 = find(&|r| match r {
        Record::NumberOfRounds(Field::Value(n)) => Some(*n),
        _ => None,
    });
    let xxr = find(&|r| match r {
        Record::XxRounds(Field::Value(n)) => Some(*n),
        _ => None,
    });
    if let (Some((l1, a)), Some((l2, b))) = (r142, xxr)
        && a != b
    {
        out.push(
            Severity::Warning,
            l2,
            5,
            "XXR",
            format!("XXR says {b} rounds but 142 (line {l1}) says {a}; 142 is used"),
        );
    }
    if let Some(total) = pairing_data::total_rounds(doc) {
        for (i, l) in doc.lines.iter().enumerate() {
            if let Record::Player(p) = &l.record {
                let last = p
                    .rounds
                    .iter()
                    .rposition(|r| !r.is_blank())
                    .map_or(0, |x| x + 1);
                if last > usize::from(total) {
                    out.push(
                        Severity::Warning,
                        i + 1,
                        layout::opponent_col(usize::from(total) + 1),
                        "001",
                        format!("{last} round blocks, but the tournament has {total} rounds"),
                    );
                }
            }
        }
    }
    let c152 = doc
        .lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| match &l.record {
            Record::InitialColour(Field::Value(c)) => Some((i + 1, *c)),
            _ => None,
        });
    if let Some((l1, c)) = c152 {
        for (i, l) in doc.lines.iter().enumerate() {
            if let Record::XxColour(opts) = &l.record {
                let xc = opts.iter().rev().find_map(|o| match o {
                    XxcOption::White1 => Some(InitialColour::White),
                    XxcOption::Black1 => Some(InitialColour::Black),
                    _ => None,
                });
                if xc.is_some_and(|x| x != c) {
                    out.push(
                        Severity::Warning,
                        i + 1,
                        5,
                        "XXC",
                        format!("XXC disagrees with 152 (line {l1}, {c}); 152 is used"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<Finding> {
        validate(&crate::parse(text.as_bytes()).expect("parse").doc)
    }

    const P1: &str = "001    1      A                                 2100                             1.0    1     2 w 1";
    const P2: &str = "001    2      B                                 2000                             0.0    2     1 b 0";

    #[test]
    fn a_consistent_pair_has_no_findings() {
        assert_eq!(findings(&format!("012 x\n{P1}\n{P2}\n")), vec![]);
    }

    #[test]
    fn letters_in_the_rating_column() {
        let p2 = P2.replace("2000", "20x0");
        let f = findings(&format!("012 x\n{P1}\n{p2}\n"));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            (f[0].line, f[0].column, f[0].severity),
            (3, 49, Severity::Error)
        );
        assert!(f[0].message.contains("letters in the rating"));
    }

    #[test]
    fn unknown_result_code_points_at_its_column() {
        let p2 = format!("{}Q", &P2[..P2.len() - 1]);
        let f = findings(&format!("012 x\n{P1}\n{p2}\n"));
        assert!(
            f.iter().any(|x| x.line == 3
                && x.column == 99
                && x.message.contains("unknown result code 'Q'")),
            "{f:?}"
        );
    }

    #[test]
    fn asymmetric_colour_and_result() {
        let p2 = P2.replace("1 b 0", "1 w 1");
        let f = findings(&format!("012 x\n{P1}\n{p2}\n"));
        assert!(
            f.iter()
                .any(|x| x.column == 97 && x.message.contains("asymmetric colours")),
            "{f:?}"
        );
        assert!(
            f.iter()
                .any(|x| x.column == 99 && x.message.contains("asymmetric results")),
            "{f:?}"
        );
    }

    #[test]
    fn opponent_out_of_range_and_asymmetric_pairing() {
        let p2 = P2.replace("     1 b 0", "     7 b 0");
        let f = findings(&format!("012 x\n{P1}\n{p2}\n"));
        assert!(
            f.iter()
                .any(|x| x.line == 3 && x.column == 92 && x.message.contains("out of range")),
            "{f:?}"
        );
        assert!(
            f.iter()
                .any(|x| x.line == 2 && x.message.contains("asymmetric pairing")),
            "{f:?}"
        );
    }

    #[test]
    fn points_column_checked_against_the_scoring_system() {
        let f = findings(&format!("012 x\n162  W 3.0    D 1.0\n{P1}\n{P2}\n"));
        assert!(
            f.iter().any(|x| x.line == 3
                && x.column == 81
                && x.message.contains("says 1.0 but the results add up to 3.0")),
            "{f:?}"
        );
    }

    #[test]
    fn two_pabs_in_a_round_and_a_colour_on_a_bye() {
        let text = "012 x\n\
001    1      A                                                                  1.0    1  0000 - U\n\
001    2      B                                                                  1.0    2  0000 w U\n";
        let f = findings(text);
        assert!(
            f.iter().any(|x| x.line == 3
                && x.column == 99
                && x.message.contains("second pairing-allocated bye")),
            "{f:?}"
        );
        assert!(
            f.iter()
                .any(|x| x.line == 3 && x.column == 97 && x.message.contains("has a colour")),
            "{f:?}"
        );
    }

    #[test]
    fn duplicate_start_rank() {
        let f = findings(&format!(
            "012 x\n{P1}\n{P2}\n{}\n",
            P2.replace("     1 b 0", "")
        ));
        assert!(
            f.iter().any(|x| x.line == 4
                && x.column == 5
                && x.message.contains("duplicate starting rank 2")),
            "{f:?}"
        );
    }

    #[test]
    fn round_block_past_column_9999() {
        let mut line = String::from("001    1      A");
        while line.chars().count() < 89 {
            line.push(' ');
        }
        for _ in 0..992 {
            line.push_str("  0000 - Z");
        }
        let f = findings(&format!("012 x\n{line}\n"));
        assert!(
            f.iter()
                .any(|x| x.message.contains("past column 9999") && x.column == 10002),
            "{f:?}"
        );
    }

    #[test]
    fn header_and_player_formats_are_informational() {
        let f = findings(&format!("012 x\n042 10.09.13\n062 3\n{P1}\n{P2}\n"));
        assert!(f.iter().any(|x| x.line == 2
            && x.severity == Severity::Info
            && x.message.contains("YYYY/MM/DD")));
        assert!(f.iter().any(|x| x.line == 3 && x.message.contains("062 says 3 players but the file has 2")));
        let odd = "001    1 m XX A                                                                      0.0    1";
        let f = findings(&format!("012 x\n{odd}\n"));
        assert!(
            f.iter()
                .any(|x| x.column == 11 && x.message.contains("title 'XX'")),
            "{f:?}"
        );
        let date = format!("{:<69}{}", "001    1      A", "1975.  .");
        let f = findings(&format!("012 x\n{date}\n"));
        assert!(
            f.iter()
                .any(|x| x.column == 70 && x.message.contains("birth date")),
            "{f:?}"
        );
    }

    #[test]
    fn nrs_without_172_and_212_without_pts() {
        let f = findings("012 x\n212 BH,SB\nBEL    1      A\n");
        assert!(
            f.iter().any(|x| x.line == 2 && x.message.contains("PTS")),
            "{f:?}"
        );
        assert!(
            f.iter()
                .any(|x| x.line == 3 && x.record == "BEL" && x.message.contains("172")),
            "{f:?}"
        );
        let f = findings("012 x\n212 PTS,BH\n172 BEL NIDOF\nBEL    1      A\n");
        assert!(
            !f.iter()
                .any(|x| x.message.contains("PTS") || x.message.contains("172")),
            "{f:?}"
        );
    }

    #[test]
    fn dialect_disagreements() {
        let f = findings("012 x\n142 7\nXXR 9\n152 W\nXXC black1\n");
        assert!(
            f.iter()
                .any(|x| x.record == "XXR" && x.message.contains("142"))
        );
        assert!(
            f.iter()
                .any(|x| x.record == "XXC" && x.message.contains("152"))
        );
    }
}
