//! Game intake, pure: a TRF upload → the tournament's rated games
//! ([`ExternalTournamentSubmitted`]). Both intake sources (TRF files now, the results
//! service's events later) produce this one shape, and the period aggregate reads only it.
//!
//! Rated (B.02 §5 and the TRF result codes): a game played over the board (`1`, `=`, `0`)
//! between two players who both have a FIDE id. Not rated: forfeits (`+`, `-`), games of
//! less than one move (`W`, `D`, `L`), byes; they are counted in `skipped_games`. The
//! time-control kind comes from the request (the uploader says which list it is for).
//!
//! The results service (not built yet) will feed the same aggregate: a consumer of its
//! "tournament results final/corrected" events maps each tournament to this same message
//! (`source = "results"`, games with both FIDE ids, the kind from the tournament's time
//! control via `elo::rate_of_play_1`) and appends it to `rating-tournament-<id>`; the
//! projection and the period computation read only this shape, so nothing else changes.
use arbiter_proto::v1::{ExternalTournamentSubmitted, RatingGame, RatingListPlayer};
use elo::rating_list_7::first_list_for_event;
use elo::{CalendarDate, RatingKind};
use sha2::{Digest, Sha256};
use trf::{HeaderKind, ResultCode, Severity};

use crate::calendar::{FieldError, date_text, kind_number, month_text, parse_date};

/// What the uploader says about the file.
#[derive(Debug, Clone, Default)]
pub struct Submission<'a> {
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

/// Decides a submission: parses and validates the TRF, extracts the rated games.
pub fn decide_submission(s: &Submission<'_>) -> Result<ExternalTournamentSubmitted, FieldError> {
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
            ..Default::default()
        });
    }
    players.sort_by_key(|p| p.fide_id);
    players.dedup_by_key(|p| p.fide_id);

    let mut games = Vec::new();
    let mut skipped = 0u32;
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
            let (Some(&w), Some(&b)) = (ids.get(&rank), ids.get(&opp)) else {
                skipped += 1;
                continue;
            };
            let result = match r.result {
                ResultCode::Win => WHITE_WINS,
                ResultCode::Draw => DRAW,
                ResultCode::Loss => BLACK_WINS,
                _ => {
                    skipped += 1;
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
    Ok(ExternalTournamentSubmitted {
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
    })
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
        .unwrap();
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
}
