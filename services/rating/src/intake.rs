//! Game intake, pure: a TRF upload → the tournament's rated games
//! ([`ExternalTournamentSubmitted`]). Both intake sources (TRF files now, the results
//! service's events later) produce this one shape, and the period aggregate reads only it.
//!
//! Rated (B.02 §5 and the TRF result codes): a game played over the board (`1`, `=`, `0`)
//! between two players who both have a FIDE id. Not rated: forfeits (`+`, `-`), games of
//! less than one move (`W`, `D`, `L`), byes; they are counted in `skipped_games`. The
//! list comes from the request (the uploader says which list it is for).
//!
//! Checked against the file, with notes saying what was not rated and why:
//! - rate of play (B.02 §1, R&B §1): the time control the file states (`222`, else `122`)
//!   must be ratable and of the requested list, or the submission is refused naming the
//!   record and line; in standard play each game must reach the minimum for the ratings
//!   (the file's `001` ratings); a file stating none, or an unreadable `122`, is accepted
//!   with a note;
//! - the players' ratings in the file are kept on the submission's list entry of each
//!   player (`players[i].<list>.rating`, 0 = unrated when the event was played) for
//!   §8.2.4 ([`crate::compute::late_rated`]); a file with no rating at all keeps none;
//! - matches (B.02 §6): games after the match was decided, and the whole match when a
//!   player is unrated, are not rated ([`match_rules`]).
//!
//! The results service (not built yet) will feed the same aggregate: a consumer of its
//! "tournament results final/corrected" events maps each tournament to this same message
//! (`source = "results"`, games with both FIDE ids, the kind from the tournament's time
//! control via `elo::rate_of_play_1`) and appends it to `rating-tournament-<id>`; the
//! projection and the period computation read only this shape, so nothing else changes.
use arbiter_proto::v1::{
    ExternalTournamentSubmitted, RatingGame, RatingListEntry, RatingListPlayer,
};
use elo::rate_of_play_1::{
    NotRatedRateOfPlay, RatingClassification, TimeControl, TimeControlPeriod, classify_rate_of_play,
};
use elo::rating_list_7::first_list_for_event;
use elo::{CalendarDate, RatingKind};
use sha2::{Digest, Sha256};
use trf::{HeaderKind, ResultCode, Severity};

use crate::calendar::{
    FieldError, date_text, kind_name, kind_number, month_text, parse_date, previous,
};

/// What the uploader says about the file.
#[derive(Debug, Clone, Default)]
pub struct Submission<'a> {
    /// B.02 §6: the event is a match (also assumed when the file has exactly two players).
    pub match_event: bool,
    /// Games scheduled in the match; 0 = from the file (`142`, else `XXR`).
    pub match_games: u32,
    /// The TRF bytes.
    pub trf: &'a [u8],
    /// Which list.
    pub kind: Option<RatingKind>,
    /// Given id, or empty (derived from the name and end date).
    pub tournament_id: &'a str,
    /// Given end date, or empty (from the 052 record).
    pub end_date: &'a str,
    /// §7.1.3 official FIDE event.
    pub official_fide_event: bool,
}

/// Result code of a game from White's side (as in [`RatingGame::result`]).
pub const WHITE_WINS: u32 = 1;
/// Draw.
pub const DRAW: u32 = 2;
/// Black wins.
pub const BLACK_WINS: u32 = 3;

/// Longest accepted tournament id.
pub const MAX_ID_LEN: usize = 100;

/// Checks a tournament id: 1–100 characters of `A-Z a-z 0-9 . _ -`.
pub fn check_id(id: &str) -> Result<(), FieldError> {
    if id.is_empty() || id.len() > MAX_ID_LEN {
        return Err(FieldError::new(
            "tournament_id",
            format!("must be 1 to {MAX_ID_LEN} characters"),
        ));
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(FieldError::new(
            "tournament_id",
            format!("{c:?} not allowed (letters, digits, '.', '_', '-')"),
        ));
    }
    Ok(())
}

fn derived_id(name: &str, end: CalendarDate) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let mut s: String = s.trim_end_matches('-').chars().take(80).collect();
    if s.is_empty() {
        s.push_str("tournament");
    }
    format!("{s}-{}", date_text(end))
}

fn clean(text: &str, max: usize) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(max)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// A decided submission: the event to append and what the intake did not rate, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The rated games and the players.
    pub event: ExternalTournamentSubmitted,
    /// Human-readable notes (games skipped and why, rate of play).
    pub notes: Vec<String>,
    /// Every game not rated, with its reason (ADR rating-001).
    pub skipped: Vec<SkippedGame>,
}

/// A game of the file that is not rated, and why, in the officer's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedGame {
    /// Round (1-based).
    pub round: u32,
    /// White's (or, without colours, the lower start rank's) name, start rank in brackets.
    pub white: String,
    /// The other player.
    pub black: String,
    /// The TRF codes of the two sides, e.g. `+-`, `1-0`.
    pub result: String,
    /// Why it is not rated.
    pub reason: String,
}

/// `Name (12)`: a player of the file as the officer reads it.
fn who(p: &trf::PlayerRecord) -> String {
    format!(
        "{} ({})",
        clean(&p.name, 60),
        p.start_rank.get().map_or(0, u32::from)
    )
}

/// Why a game with this code is not rated (B.02 §5 and the TRF result codes).
fn unrated_code_reason(code: ResultCode) -> &'static str {
    match code {
        ResultCode::ForfeitWin | ResultCode::ForfeitLoss => "forfeit: not rated (B.02 §5)",
        ResultCode::UnratedWin | ResultCode::UnratedDraw | ResultCode::UnratedLoss => {
            "lasted less than one move: not rated"
        }
        _ => "no result played over the board",
    }
}

/// Decides a submission: parses and validates the TRF, extracts the rated games.
pub fn decide_submission(s: &Submission<'_>) -> Result<Decided, FieldError> {
    let kind = s
        .kind
        .ok_or_else(|| FieldError::new("kind", "say which list: standard, rapid or blitz"))?;
    let parsed =
        trf::parse_and_validate(s.trf).map_err(|e| FieldError::new("trf", e.to_string()))?;
    if let Some(f) = parsed
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error)
    {
        return Err(FieldError::new(
            format!("trf line {}", f.line),
            f.message.clone(),
        ));
    }
    let doc = &parsed.doc;
    let name = clean(
        doc.header_value(HeaderKind::TournamentName).unwrap_or(""),
        100,
    );
    let end = if !s.end_date.trim().is_empty() {
        parse_date("end_date", s.end_date)?
    } else {
        let text = doc.header().end_date.unwrap_or_default();
        if text.trim().is_empty() {
            return Err(FieldError::new(
                "end_date",
                "the TRF has no 052 end date; give one (YYYY-MM-DD)",
            ));
        }
        parse_date("trf 052 end date", &text)?
    };
    let id = if s.tournament_id.trim().is_empty() {
        derived_id(&name, end)
    } else {
        s.tournament_id.trim().to_owned()
    };
    check_id(&id)?;

    // start rank → FIDE id, and the players' published data
    let mut ids = std::collections::BTreeMap::new();
    let mut players = Vec::new();
    for p in doc.players() {
        let (Some(rank), Some(fide)) = (p.start_rank.get(), p.fide_id.get()) else {
            continue;
        };
        let Ok(fide) = u32::try_from(fide) else {
            continue;
        };
        if fide == 0 {
            continue;
        }
        ids.insert(rank, fide);
        let title = ratinglist::Title::from_code(&p.title);
        let birth_year = p
            .birth_date
            .get(..4)
            .and_then(|y| y.parse::<u32>().ok())
            .filter(|y| (1850..=2200).contains(y))
            .unwrap_or(0);
        let fed = p.federation.trim();
        players.push(RatingListPlayer {
            fide_id: fide,
            name: clean(&p.name, 60),
            federation: if fed.len() == 3 && fed.chars().all(|c| c.is_ascii_alphabetic()) {
                fed.to_ascii_uppercase()
            } else {
                String::new()
            },
            sex: match p.sex {
                Some('m' | 'M') => "M".into(),
                Some('w' | 'W' | 'f' | 'F') => "F".into(),
                _ => String::new(),
            },
            title: title
                .filter(|t| !t.is_women_title())
                .map(|t| t.code().to_owned())
                .unwrap_or_default(),
            women_title: title
                .filter(|t| t.is_women_title())
                .map(|t| t.code().to_owned())
                .unwrap_or_default(),
            birth_year,
            // the file's rating on the submission's list (§8.2.4: 0 = unrated when played);
            // kept only when the file carries ratings at all (below)
            standard: Some(RatingListEntry {
                rating: p.rating.get().unwrap_or(0) as u32,
                ..Default::default()
            }),
            ..Default::default()
        });
    }
    let file_has_ratings = players
        .iter()
        .any(|p| p.standard.as_ref().is_some_and(|e| e.rating > 0));
    for p in players.iter_mut() {
        let e = p.standard.take().filter(|_| file_has_ratings);
        match kind {
            RatingKind::Standard => p.standard = e,
            RatingKind::Rapid => p.rapid = e,
            RatingKind::Blitz => p.blitz = e,
        }
    }
    players.sort_by_key(|p| p.fide_id);
    players.dedup_by_key(|p| p.fide_id);

    let mut games = Vec::new();
    let mut skipped = 0u32;
    let mut skipped_list: Vec<SkippedGame> = Vec::new();
    let by_rank: std::collections::BTreeMap<u16, &trf::PlayerRecord> = doc
        .players()
        .filter_map(|p| Some((p.start_rank.get()?, p)))
        .collect();
    let opponent_code = |opp: u16, round: usize| {
        by_rank
            .get(&opp)
            .and_then(|o| o.rounds.get(round))
            .map_or(' ', |r| r.result.to_char())
    };
    // Players without a FIDE ID: warned about once, their games listed below.
    let no_id: Vec<String> = doc
        .players()
        .filter(|p| p.fide_id.get().unwrap_or(0) == 0)
        .map(who)
        .collect();
    for p in doc.players() {
        let Some(rank) = p.start_rank.get() else {
            continue;
        };
        for (i, r) in p.rounds.iter().enumerate() {
            let Some(opp) = r.opponent.start_rank() else {
                continue; // bye or not paired: no game
            };
            // each game once: from White's side (or, without colours, the lower rank's)
            let from_here = match r.colour {
                trf::Colour::White => true,
                trf::Colour::Black => false,
                _ => rank < opp,
            };
            if !from_here {
                continue;
            }
            let other = by_rank.get(&opp).copied();
            let skip = |reason: String| SkippedGame {
                round: (i + 1) as u32,
                white: who(p),
                black: other.map_or_else(|| format!("({opp})"), who),
                result: format!("{}-{}", r.result.to_char(), opponent_code(opp, i)),
                reason,
            };
            let (Some(&w), Some(&b)) = (ids.get(&rank), ids.get(&opp)) else {
                skipped += 1;
                let missing: Vec<String> = [(rank, Some(p)), (opp, other)]
                    .into_iter()
                    .filter(|(k, _)| !ids.contains_key(k))
                    .map(|(k, x)| x.map_or_else(|| format!("({k})"), who))
                    .collect();
                skipped_list.push(skip(format!(
                    "no FIDE ID: {} (a game is rated only between two players with FIDE IDs)",
                    missing.join(", ")
                )));
                continue;
            };
            let result = match r.result {
                ResultCode::Win => WHITE_WINS,
                ResultCode::Draw => DRAW,
                ResultCode::Loss => BLACK_WINS,
                code => {
                    skipped += 1;
                    skipped_list.push(skip(unrated_code_reason(code).to_owned()));
                    continue;
                }
            };
            if w == b {
                return Err(FieldError::new(
                    format!("trf player {rank}"),
                    format!("round {} paired with the same FIDE id {w}", i + 1),
                ));
            }
            games.push(RatingGame {
                white: w,
                black: b,
                result,
                round: (i + 1) as u32,
            });
        }
    }
    games.sort_by_key(|g| (g.round, g.white, g.black));
    let period = first_list_for_event(end, s.official_fide_event);
    let edition = elo::Edition::in_force_on(kind, previous(period).list_date());
    let (control, mut notes) = rate_of_play(doc, kind, edition)?;
    if let Some((tw, tb)) = control
        && kind == RatingKind::Standard
    {
        // §1.1: the minimum depends on the ratings (2024: of the two players; 2014: of the
        // tournament's players)
        let rating: std::collections::BTreeMap<u32, u16> = doc
            .players()
            .filter_map(|p| {
                let fide = u32::try_from(p.fide_id.get()?).ok()?;
                Some((fide, p.rating.get().unwrap_or(0)))
            })
            .collect();
        let top = rating.values().copied().max().unwrap_or(0);
        let mut below = 0u32;
        let mut required = 0u32;
        let mut dropped_games = Vec::new();
        games.retain(|g| {
            let highest = match edition {
                elo::Edition::Fide2014 => top,
                _ => rating
                    .get(&g.white)
                    .copied()
                    .unwrap_or(0)
                    .max(rating.get(&g.black).copied().unwrap_or(0)),
            };
            match classify_rate_of_play(edition, &tw, &tb, (highest > 0).then_some(highest)) {
                Ok(RatingClassification::Standard) => true,
                Ok(RatingClassification::NotRated(NotRatedRateOfPlay::BelowStandardMinimum {
                    required_minutes,
                })) => {
                    below += 1;
                    required = required.max(required_minutes);
                    dropped_games.push((*g, required_minutes));
                    false
                }
                _ => true,
            }
        });
        for (g, minutes) in dropped_games {
            skipped_list.push(rated_game_skipped(
                &by_rank,
                &g,
                format!("rate of play below the {minutes} min for 60 moves B.02 §1.1 requires for these ratings"),
            ));
        }
        if below > 0 {
            skipped = skipped.saturating_add(below);
            notes.push(format!(
                "{below} game(s) not rated: {} min for 60 moves is less than the {required} min B.02 §1.1 requires for the players' ratings",
                tw.seconds_for_60_moves()
                    .unwrap_or(0)
                    .min(tb.seconds_for_60_moves().unwrap_or(0))
                    / 60
            ));
        }
    }
    if let Some(m) = match_rules(doc, s)? {
        let before = games.len();
        for g in games.iter().filter(|g| !m.rated_rounds.contains(&g.round)) {
            skipped_list.push(rated_game_skipped(
                &by_rank,
                g,
                "match game not rated (B.02 §6: played after the match was decided, or an unrated player)".into(),
            ));
        }
        games.retain(|g| m.rated_rounds.contains(&g.round));
        let dropped = (before - games.len()) as u32;
        skipped = skipped.saturating_add(dropped);
        notes.extend(m.notes);
    }
    if !no_id.is_empty() {
        notes.insert(
            0,
            format!(
                "{} player(s) without a FIDE ID, whose games are not rated: {}",
                no_id.len(),
                no_id.join(", ")
            ),
        );
    }
    skipped_list.sort_by(|a, b| (a.round, &a.white).cmp(&(b.round, &b.white)));
    Ok(Decided {
        notes,
        skipped: skipped_list,
        event: ExternalTournamentSubmitted {
            tournament_id: id,
            name,
            end_date: date_text(end),
            kind: kind_number(kind),
            period: month_text(period),
            games,
            players,
            skipped_games: skipped,
            source: "trf".into(),
            file_sha256: hex::encode(Sha256::digest(s.trf)),
        },
    })
}

/// A game the rated list held, dropped by a later rule: named from the file's players.
fn rated_game_skipped(
    by_rank: &std::collections::BTreeMap<u16, &trf::PlayerRecord>,
    g: &RatingGame,
    reason: String,
) -> SkippedGame {
    let by_id = |id: u32| {
        by_rank
            .values()
            .find(|p| p.fide_id.get() == Some(u64::from(id)))
            .map_or_else(|| format!("FIDE ID {id}"), |p| who(p))
    };
    SkippedGame {
        round: g.round,
        white: by_id(g.white),
        black: by_id(g.black),
        result: match g.result {
            WHITE_WINS => "1-0".into(),
            BLACK_WINS => "0-1".into(),
            _ => "=-=".into(),
        },
        reason,
    }
}

/// Clock time control → the Elo crate's (seconds). A last period with a move count
/// (repeating, ADR clock-001) is taken as the rest of the game: the 60-move time then
/// counts it once, which can only understate the time.
fn elo_control(p: &clock::time_control::PlayerControl) -> TimeControl {
    let n = p.periods().len();
    TimeControl {
        periods: p
            .periods()
            .iter()
            .enumerate()
            .map(|(i, q)| TimeControlPeriod {
                moves: if i + 1 == n { None } else { q.moves },
                base_seconds: u32::try_from(q.time / 1000).unwrap_or(u32::MAX),
                increment_seconds: u32::try_from(q.bonus.amount() / 1000).unwrap_or(u32::MAX),
            })
            .collect(),
    }
}

/// Record 122 is free text. Read, in order: text with units (`90 min + 30 sec`,
/// `90'+30"`); a bare `A+B` or `A`, taken as minutes + seconds as players write it
/// (`90+30`, `15+10`, `3+2`) unless A is 300 or more (then seconds, as in record 222:
/// `5400+30`); else the 222 grammar (`40/7200:1800+30`). `None`: unreadable.
fn read_122(text: &str) -> Option<clock::time_control::TimeControl> {
    use clock::time_control::TimeControl as Clock;
    if let Some(tc) = Clock::parse_free_text(text) {
        return Some(tc);
    }
    let t = text.trim();
    let (a, b) = t.split_once('+').unwrap_or((t, "0"));
    let (a, b) = (a.trim(), b.trim());
    let digits = |x: &str| !x.is_empty() && x.len() <= 6 && x.chars().all(|c| c.is_ascii_digit());
    if digits(a) && digits(b) {
        let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
        let base = if a >= 300 { a * 1000 } else { a * 60_000 };
        return Clock::fischer(base, b * 1000).ok();
    }
    Clock::parse_trf222(t).ok()
}

/// The list a tournament's time control (PGN or TRF notation) is rated on, if readable
/// and ratable (B.02 §1, R&B §1).
/// Where a tournament run here goes for rating when its last round closes (what the
/// rating service's intake of the results does, ADR rating-001): the list (from its time
/// control) and the period (`YYYY-MM`, from its end date), or why it is not submitted by
/// itself, in words that name the command that fixes it.
pub fn automatic_submission(
    tournament_id: &str,
    time_control: &str,
    end_date: &str,
) -> Result<(RatingKind, String), String> {
    let Some(kind) = kind_of_time_control(time_control, elo::Edition::default()) else {
        return Err(format!(
            "not submitted for rating by itself: the time control {time_control:?} does not say which list (set it with `arbiter tournament update {tournament_id} --time-control 40/5400:1800+30`, or submit it with `arbiter rating submit-tournament {tournament_id} --kind standard`)"
        ));
    };
    let end = parse_date("end_date", end_date).map_err(|_| {
        format!(
            "not submitted for rating by itself: the tournament has no end date (set it with `arbiter tournament update {tournament_id} --end YYYY-MM-DD`)"
        )
    })?;
    Ok((kind, month_text(first_list_for_event(end, false))))
}

pub fn kind_of_time_control(text: &str, edition: elo::Edition) -> Option<RatingKind> {
    let tc = read_122(text)?;
    let (w, b) = (elo_control(&tc.white), elo_control(&tc.black));
    match classify_rate_of_play(edition, &w, &b, None).ok()? {
        RatingClassification::Standard => Some(RatingKind::Standard),
        RatingClassification::Rapid => Some(RatingKind::Rapid),
        RatingClassification::Blitz => Some(RatingKind::Blitz),
        RatingClassification::NotRated(_) => None,
    }
}

/// White's and Black's time controls.
type Controls = (TimeControl, TimeControl);

/// B.02 §1 and R&B §1: the rate of play the file states (`222`, else `122`) must be ratable
/// and of the requested list. Returns the time control (None when the file states none or
/// `122` cannot be read: accepted, with a note) and the notes.
fn rate_of_play(
    doc: &trf::TrfDocument,
    kind: RatingKind,
    edition: elo::Edition,
) -> Result<(Option<Controls>, Vec<String>), FieldError> {
    let find = |k: HeaderKind| {
        doc.lines
            .iter()
            .enumerate()
            .find_map(|(i, l)| match &l.record {
                trf::Record::Header(h) if h.kind == k && !h.value.trim().is_empty() => {
                    Some((i + 1, h.value.trim().to_owned()))
                }
                _ => None,
            })
    };
    let (record, line, text, parsed) = if let Some((line, text)) =
        find(HeaderKind::EncodedTimeControl)
    {
        let tc = clock::time_control::TimeControl::parse_trf222(&text)
            .map_err(|e| FieldError::new(format!("trf line {line}"), format!("record 222: {e}")))?;
        ("222", line, text, tc)
    } else if let Some((line, text)) = find(HeaderKind::TimeControl) {
        match read_122(&text) {
            Some(tc) => ("122", line, text, tc),
            None => {
                return Ok((
                    None,
                    vec![format!(
                        "record 122 (line {line}) {text:?} could not be read: the rate of play was not checked against the {} list",
                        kind_name(kind)
                    )],
                ));
            }
        }
    } else {
        return Ok((
            None,
            vec![format!(
                "the file states no time control (record 122 or 222): the rate of play was not checked against the {} list",
                kind_name(kind)
            )],
        ));
    };
    let (w, b) = (elo_control(&parsed.white), elo_control(&parsed.black));
    let class = classify_rate_of_play(edition, &w, &b, None).map_err(|e| {
        FieldError::new(format!("trf line {line}"), format!("record {record}: {e}"))
    })?;
    let file_kind = match class {
        RatingClassification::Standard => RatingKind::Standard,
        RatingClassification::Rapid => RatingKind::Rapid,
        RatingClassification::Blitz => RatingKind::Blitz,
        RatingClassification::NotRated(why) => {
            let why = match why {
                NotRatedRateOfPlay::TooFast => "3 minutes or less per player".to_owned(),
                NotRatedRateOfPlay::UnequalTimes => {
                    "the players have different times (R&B §1.2)".to_owned()
                }
                NotRatedRateOfPlay::BelowStandardMinimum { required_minutes } => format!(
                    "at least 60 but less than {required_minutes} minutes for 60 moves (B.02 §1.1)"
                ),
                NotRatedRateOfPlay::FirstControlMoves { moves } => {
                    format!("a first control of {moves} moves (B.02 §1.2: at least 30; 2014: 40)")
                }
            };
            return Err(FieldError::new(
                format!("trf line {line}"),
                format!("record {record} {text:?}: this rate of play is not rated: {why}"),
            ));
        }
    };
    if file_kind != kind {
        return Err(FieldError::new(
            "kind",
            format!(
                "record {record} (trf line {line}) {text:?} is a {} rate of play; the submission is for the {} list",
                kind_name(file_kind),
                kind_name(kind)
            ),
        ));
    }
    Ok((Some((w, b)), Vec::new()))
}

/// What B.02 §6 leaves of a match.
struct MatchOutcome {
    /// Rounds whose game may be rated.
    rated_rounds: std::collections::BTreeSet<u32>,
    notes: Vec<String>,
}

/// B.02 §6 (2014 seed 6.5–6.6; 2024 §5–6): in a match, games played after the match was
/// decided are not rated, and a match with an unrated player is not rated at all.
///
/// A match is an event declared as one, or a file with exactly two players. Its length is the
/// request's `match_games`, else the file's `142` (or `XXR`); a declared match must have one,
/// a two-player file without one has every played game rated, with a note. The match is decided after the
/// first round at which one player has more than half of the scheduled games' points
/// (forfeits count for the score; byes do not). A player is unrated when the file's `001`
/// rating column is empty (the file states the ratings at the start of the event).
/// `None`: not a match.
fn match_rules(
    doc: &trf::TrfDocument,
    s: &Submission<'_>,
) -> Result<Option<MatchOutcome>, FieldError> {
    let players: Vec<&trf::PlayerRecord> = doc
        .players()
        .filter(|p| p.start_rank.get().is_some())
        .collect();
    if players.len() != 2 {
        if s.match_event {
            return Err(FieldError::new(
                "match_event",
                format!(
                    "a match is between two players; the file has {} 001 record(s)",
                    players.len()
                ),
            ));
        }
        return Ok(None);
    }
    let scheduled = if s.match_games > 0 {
        Some(s.match_games)
    } else {
        trf::total_rounds(doc).filter(|n| *n > 0).map(|n| n as u32)
    };
    if scheduled.is_none() && s.match_event {
        return Err(FieldError::new(
            "match_games",
            "a match: give the number of scheduled games (TRF 142 or XXR record, or the request's match_games)",
        ));
    }
    let (a, b) = (players[0], players[1]);
    let name = |p: &trf::PlayerRecord| p.name.trim().to_owned();
    let mut rated_rounds = std::collections::BTreeSet::new();
    let mut notes = Vec::new();
    let unrated: Vec<String> = [a, b]
        .iter()
        .filter(|p| p.rating.get().is_none_or(|r| r == 0))
        .map(|p| name(p))
        .collect();
    if !unrated.is_empty() {
        notes.push(format!(
            "a match with an unrated player ({}) is not rated (B.02 §6): no game rated",
            unrated.join(", ")
        ));
        return Ok(Some(MatchOutcome {
            rated_rounds,
            notes,
        }));
    }
    let Some(scheduled) = scheduled else {
        notes.push(
            "two players: a match (B.02 §6), but the number of scheduled games is unknown (no 142 or XXR record, no match_games): every played game is rated".to_owned(),
        );
        rated_rounds.extend((1..=a.rounds.len() as u32).collect::<Vec<_>>());
        return Ok(Some(MatchOutcome {
            rated_rounds,
            notes,
        }));
    };
    // half points of a and b, round by round, from a's line
    let (mut ha, mut hb) = (0u32, 0u32);
    let mut decided: Option<(u32, u32, u32)> = None;
    let mut after = Vec::new();
    for (i, r) in a.rounds.iter().enumerate() {
        let round = (i + 1) as u32;
        if r.opponent.start_rank() != b.start_rank.get() || r.opponent.start_rank().is_none() {
            continue;
        }
        if decided.is_some() {
            if matches!(
                r.result,
                ResultCode::Win | ResultCode::Draw | ResultCode::Loss
            ) {
                after.push(round);
            }
            continue;
        }
        rated_rounds.insert(round);
        let (da, db) = match r.result {
            ResultCode::Win | ResultCode::ForfeitWin | ResultCode::UnratedWin => (2, 0),
            ResultCode::Draw | ResultCode::UnratedDraw => (1, 1),
            ResultCode::Loss | ResultCode::ForfeitLoss | ResultCode::UnratedLoss => (0, 2),
            _ => (0, 0),
        };
        ha += da;
        hb += db;
        if ha > scheduled || hb > scheduled {
            decided = Some((round, ha, hb));
        }
    }
    if let Some((round, ha, hb)) = decided
        && !after.is_empty()
    {
        let list: Vec<String> = after.iter().map(u32::to_string).collect();
        notes.push(format!(
            "match of {scheduled} games decided after round {round} ({} {}–{} {}): game(s) of round(s) {} not rated (B.02 §6)",
            name(a),
            ha as f64 / 2.0,
            hb as f64 / 2.0,
            name(b),
            list.join(", ")
        ));
    }
    Ok(Some(MatchOutcome {
        rated_rounds,
        notes,
    }))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One `001` line in the TRF columns.
    #[allow(clippy::too_many_arguments)]
    pub fn player_line(
        rank: u16,
        sex: char,
        title: &str,
        name: &str,
        rating: u16,
        fed: &str,
        id: u32,
        birth: &str,
        points: &str,
        rounds: &[(u16, char, char)],
    ) -> String {
        let mut s = format!(
            "001 {rank:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {id:>11} {birth:<10} {points:>4} {rank:>4}"
        );
        for (opp, colour, result) in rounds {
            let opp = if *opp == 0 {
                "0000".to_owned()
            } else {
                format!("{opp:>4}")
            };
            s.push_str(&format!("  {opp} {colour} {result}"));
        }
        s
    }

    /// A three-player TRF: 1–2 (1-0), 3–1 (½), 2–3 forfeit.
    pub fn sample() -> String {
        [
            "012 Autumn Open".to_owned(),
            "052 2026/09/20".to_owned(),
            player_line(
                1,
                'm',
                "",
                "Alpha, Ann",
                2000,
                "IRL",
                1000001,
                "1990/01/01",
                "2.0",
                &[(2, 'w', '1'), (3, 'b', '='), (0, '-', 'H')],
            ),
            player_line(
                2,
                'm',
                "",
                "Beta, Bob",
                1800,
                "IRL",
                1000002,
                "2010/01/01",
                "1.5",
                &[(1, 'b', '0'), (0, '-', 'H'), (3, 'w', '+')],
            ),
            player_line(
                3,
                'w',
                "wg",
                "Gamma, Gia",
                1900,
                "FRA",
                1000003,
                "1980/01/01",
                "1.0",
                &[(0, '-', 'H'), (1, 'w', '='), (2, 'b', '-')],
            ),
        ]
        .join("\n")
    }

    #[test]
    fn played_games_only_from_whites_side() {
        let text = sample();
        let t = decide_submission(&Submission {
            trf: text.as_bytes(),
            kind: Some(RatingKind::Standard),
            ..Default::default()
        })
        .unwrap()
        .event;
        assert_eq!(t.tournament_id, "autumn-open-2026-09-20");
        assert_eq!(t.end_date, "2026-09-20");
        assert_eq!(t.period, "2026-10", "ends before the 28 Sept closing date");
        assert_eq!(
            t.games,
            vec![
                RatingGame {
                    white: 1000001,
                    black: 1000002,
                    result: WHITE_WINS,
                    round: 1
                },
                RatingGame {
                    white: 1000003,
                    black: 1000001,
                    result: DRAW,
                    round: 2
                },
            ]
        );
        assert_eq!(t.skipped_games, 1, "the forfeit");
        assert_eq!(t.players.len(), 3);
        assert_eq!(t.players[2].women_title, "WGM");
        assert_eq!(t.players[1].birth_year, 2010);
    }

    /// Every skipped game is listed with its reason; players without a FIDE ID are named
    /// in a note (ADR rating-001).
    #[test]
    fn every_skipped_game_is_listed_with_its_reason() {
        let d = decide_submission(&Submission {
            trf: sample().as_bytes(),
            kind: Some(RatingKind::Standard),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(d.skipped.len() as u32, d.event.skipped_games);
        let g = &d.skipped[0];
        assert_eq!(g.round, 3);
        assert_eq!(g.white, "Beta, Bob (2)");
        assert_eq!(g.black, "Gamma, Gia (3)");
        assert_eq!(g.result, "+--");
        assert!(g.reason.starts_with("forfeit"), "{g:?}");
        assert!(!d.notes.iter().any(|n| n.contains("without a FIDE ID")));

        // Gamma without a FIDE ID: the draw of round 2 is listed, and she is named.
        let text = sample().replace("    1000003 ", "            ");
        let d = decide_submission(&Submission {
            trf: text.as_bytes(),
            kind: Some(RatingKind::Standard),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(d.event.skipped_games, 2);
        assert_eq!(d.skipped.len(), 2);
        let draw = d.skipped.iter().find(|g| g.round == 2).unwrap();
        assert_eq!(draw.white, "Gamma, Gia (3)");
        assert_eq!(draw.result, "=-=");
        assert!(
            draw.reason.starts_with("no FIDE ID: Gamma, Gia (3)"),
            "{draw:?}"
        );
        assert!(
            d.notes[0].starts_with(
                "1 player(s) without a FIDE ID, whose games are not rated: Gamma, Gia (3)"
            ),
            "{:?}",
            d.notes
        );
    }

    #[test]
    fn refusals_name_the_field() {
        let text = sample();
        let no_kind = decide_submission(&Submission {
            trf: text.as_bytes(),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(no_kind.field, "kind");
        let bad_id = decide_submission(&Submission {
            trf: text.as_bytes(),
            kind: Some(RatingKind::Rapid),
            tournament_id: "a b",
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(bad_id.field, "tournament_id");
        let bad_date = decide_submission(&Submission {
            trf: text.as_bytes(),
            kind: Some(RatingKind::Rapid),
            end_date: "yesterday",
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(bad_date.field, "end_date");
        let asym = text.replace("2 b -", "2 b =");
        let e = decide_submission(&Submission {
            trf: asym.as_bytes(),
            kind: Some(RatingKind::Rapid),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.field.starts_with("trf line"), "{e}");
        assert!(
            decide_submission(&Submission {
                trf: b"",
                kind: Some(RatingKind::Rapid),
                ..Default::default()
            })
            .is_err()
        );
    }

    /// A two-player match file: `results` from player 1's side, one per round.
    fn match_file(games: Option<u16>, results: &[char], rating2: u16) -> String {
        let flip = |c: char| match c {
            '1' => '0',
            '0' => '1',
            '+' => '-',
            '-' => '+',
            c => c,
        };
        let r1: Vec<(u16, char, char)> = results
            .iter()
            .enumerate()
            .map(|(i, &c)| (2, if i % 2 == 0 { 'w' } else { 'b' }, c))
            .collect();
        let r2: Vec<(u16, char, char)> = results
            .iter()
            .enumerate()
            .map(|(i, &c)| (1, if i % 2 == 0 { 'b' } else { 'w' }, flip(c)))
            .collect();
        let mut lines = vec![
            "012 Cork Match".to_owned(),
            "052 2026/09/20".to_owned(),
            "222 5400+30".to_owned(),
        ];
        if let Some(n) = games {
            lines.push(format!("XXR {n}"));
        }
        lines.push(player_line(
            1,
            'm',
            "",
            "Alpha, Ann",
            2000,
            "IRL",
            1000001,
            "1990/01/01",
            "0.0",
            &r1,
        ));
        let mut p2 = player_line(
            2,
            'm',
            "",
            "Beta, Bob",
            1800,
            "IRL",
            1000002,
            "1990/01/01",
            "0.0",
            &r2,
        );
        if rating2 == 0 {
            p2.replace_range(48..52, "    ");
        }
        lines.push(p2);
        lines.join("\n")
    }

    fn submit_match(text: &str, s: Submission<'_>) -> Result<Decided, FieldError> {
        decide_submission(&Submission {
            trf: text.as_bytes(),
            kind: Some(RatingKind::Standard),
            ..s
        })
    }

    #[test]
    fn match_games_after_the_decision_are_not_rated() {
        // 6 games scheduled: 1, 1, =, 1 → 3.5 of 6 > 3 after round 4: rounds 5 and 6 unrated
        let text = match_file(Some(6), &['1', '1', '=', '1', '0', '='], 1800);
        let d = submit_match(&text, Submission::default()).unwrap();
        let rounds: Vec<u32> = d.event.games.iter().map(|g| g.round).collect();
        assert_eq!(rounds, vec![1, 2, 3, 4]);
        assert_eq!(d.event.skipped_games, 2);
        assert_eq!(d.notes.len(), 1, "{:?}", d.notes);
        assert!(
            d.notes[0].contains("decided after round 4")
                && d.notes[0].contains("3.5–0.5")
                && d.notes[0].contains("round(s) 5, 6"),
            "{:?}",
            d.notes
        );
        // 8 scheduled (the request wins over XXR): 3.5 is not more than 4: all rated
        let d = submit_match(
            &text,
            Submission {
                match_games: 8,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(d.event.games.len(), 6);
        assert!(d.notes.is_empty());
        // a forfeit counts for the match score, is not rated itself: + 1 1 → 3 of 4 > 2
        let text = match_file(Some(4), &['+', '1', '1', '0'], 1800);
        let d = submit_match(&text, Submission::default()).unwrap();
        let rounds: Vec<u32> = d.event.games.iter().map(|g| g.round).collect();
        assert_eq!(rounds, vec![2, 3]);
        assert_eq!(d.event.skipped_games, 2, "the forfeit and round 4");
    }

    #[test]
    fn match_with_an_unrated_player_is_not_rated() {
        let text = match_file(Some(4), &['1', '=', '0', '='], 0);
        let d = submit_match(&text, Submission::default()).unwrap();
        assert!(d.event.games.is_empty());
        assert_eq!(d.event.skipped_games, 4);
        assert!(
            d.notes[0].contains("unrated player (Beta, Bob)"),
            "{:?}",
            d.notes
        );
    }

    #[test]
    fn match_needs_its_length_and_two_players() {
        // a two-player file of unknown length: every game rated, with a note
        let text = match_file(None, &['1', '1', '1'], 1800);
        let d = submit_match(&text, Submission::default()).unwrap();
        assert_eq!(d.event.games.len(), 3);
        assert!(
            d.notes[0].contains("scheduled games is unknown"),
            "{:?}",
            d.notes
        );
        // declared as a match: its length is needed
        let e = submit_match(
            &text,
            Submission {
                match_event: true,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.field, "match_games");
        let text = match_file(None, &['1', '='], 1800);
        let d = submit_match(
            &text,
            Submission {
                match_games: 2,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(
            d.event.games.len(),
            2,
            "1.5 of 2 is decided only after round 2"
        );
        let three = sample();
        let e = submit_match(
            &three,
            Submission {
                match_event: true,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.field, "match_event");
        assert!(e.message.contains("3 001 record"), "{e}");
    }

    /// The sample with a time-control record as line 3.
    fn with_control(record: &str) -> String {
        let text = sample();
        let (head, rest) = text.split_at(text.find("001").unwrap());
        format!("{head}{record}\n{rest}")
    }

    fn submit_kind(text: &str, kind: RatingKind) -> Result<Decided, FieldError> {
        decide_submission(&Submission {
            trf: text.as_bytes(),
            kind: Some(kind),
            ..Default::default()
        })
    }

    #[test]
    fn rate_of_play_must_match_the_list() {
        // 15 min + 10 s: 15 + 60 × 10 s = 25 min for 60 moves: rapid
        let rapid = with_control("222 900+10");
        let e = submit_kind(&rapid, RatingKind::Standard).unwrap_err();
        assert_eq!(e.field, "kind");
        assert!(
            e.message.contains("record 222 (trf line 3)") && e.message.contains("rapid rate"),
            "{e}"
        );
        let d = submit_kind(&rapid, RatingKind::Rapid).unwrap();
        assert_eq!(d.event.games.len(), 2);
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        // Armageddon: different times are not rated (R&B §1.2)
        let e = submit_kind(&with_control("222 W300-B240"), RatingKind::Blitz).unwrap_err();
        assert_eq!(e.field, "trf line 3");
        assert!(e.message.contains("different times"), "{e}");
        // a first control of 20 moves (§1.2: at least 30)
        let e =
            submit_kind(&with_control("222 20/5400:1800+30"), RatingKind::Standard).unwrap_err();
        assert!(e.message.contains("first control of 20 moves"), "{e}");
        // 122 free text: 90 min + 30 s = 120 min for 60 moves, enough for everyone
        let d = submit_kind(&with_control("122 90 min + 30 sec"), RatingKind::Standard).unwrap();
        assert_eq!(d.event.games.len(), 2);
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        let e = submit_kind(&with_control("122 90'+30\""), RatingKind::Blitz).unwrap_err();
        assert!(e.message.contains("record 122 (trf line 3)"), "{e}");
        // bare numbers in 122: minutes + seconds, unless the base is 300 or more (seconds)
        for (text, kind) in [
            ("122 90+30", RatingKind::Standard),
            ("122 15+10", RatingKind::Rapid),
            ("122 3+2", RatingKind::Blitz),
            ("122 5400+30", RatingKind::Standard),
            ("122 40/7200:1800+30", RatingKind::Standard),
            ("122 90 min + 30 sec", RatingKind::Standard),
        ] {
            let d =
                submit_kind(&with_control(text), kind).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(d.notes.is_empty(), "{text}: {:?}", d.notes);
        }
    }

    #[test]
    fn standard_minimum_per_game_and_unknown_controls() {
        // 60 min flat: standard range, but both played games have a player rated ≥ 1800,
        // who needs 90 minutes (B.02 §1.1, 2024)
        let d = submit_kind(&with_control("222 3600"), RatingKind::Standard).unwrap();
        assert!(d.event.games.is_empty());
        assert_eq!(d.event.skipped_games, 3, "the forfeit and the two games");
        assert!(
            d.notes[0].starts_with("2 game(s) not rated: 60 min")
                && d.notes[0].contains("the 90 min"),
            "{:?}",
            d.notes
        );
        // 122 unreadable: accepted, with a note; none at all: accepted, with a note
        let d = submit_kind(
            &with_control("122 classical, see rules"),
            RatingKind::Standard,
        )
        .unwrap();
        assert_eq!(d.event.games.len(), 2);
        assert!(d.notes[0].contains("could not be read"), "{:?}", d.notes);
        let d = submit_kind(&sample(), RatingKind::Standard).unwrap();
        assert!(
            d.notes[0].contains("states no time control"),
            "{:?}",
            d.notes
        );
        // a malformed 222 is refused with its line
        let e = submit_kind(&with_control("222 90 minutes"), RatingKind::Standard).unwrap_err();
        assert_eq!(e.field, "trf line 3");
    }
}
