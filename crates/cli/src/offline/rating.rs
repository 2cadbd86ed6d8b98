//! `arbiter rating calc`: the rating change of a rated player (B.02 §8.3) with the working.
use clap::{Args, Subcommand, ValueEnum};
use elo::k_factor_8_3_3::{BirthDate, KProfile, KRule};
use elo::rating_change_8_3::{
    EventGames, EventWorking, GameStatus, OpponentGame, PeriodWorking, event_change_with_k,
    period_change,
};
use elo::{Edition, GameScore, ListMonth, Rating, RatingKind, Rules};
use serde_json::json;

use super::usage;
use crate::{Cli, Failure, output};

#[derive(Subcommand)]
pub enum RatingCommand {
    /// Rating change of a rated player over one rating period, game by game (B.02 §8.3).
    Calc(CalcArgs),
    /// The rating service's commands (lists, submissions, periods, exports, reports).
    #[command(flatten)]
    Service(crate::rating_service::RatingCommand),
}

#[derive(Args)]
pub struct CalcArgs {
    /// The player's published rating at the start of the period.
    #[arg(long)]
    rating: Rating,
    /// Use this K (e.g. to reproduce a historic calculation) instead of determining it.
    #[arg(long, conflicts_with_all = ["games_before", "born", "ever_2400", "ever_2300"])]
    k: Option<u32>,
    /// Rated games completed before this period (B.02 §8.3.3: K = 40 until 30 games).
    #[arg(long)]
    games_before: Option<u32>,
    /// Year of birth (junior K = 40 until the end of the year of the 18th birthday).
    #[arg(long, value_name = "YYYY")]
    born: Option<i32>,
    /// A published rating of the player has reached 2400 before (K = 10 for ever).
    #[arg(long)]
    ever_2400: bool,
    /// A published rating of the player has reached 2300 before (ends the junior K = 40).
    #[arg(long)]
    ever_2300: bool,
    /// The games: OPPONENT_RATING:RESULT, comma-separated; RESULT is 1, 0.5 (or ½ or =), 0
    /// (or W, D, L); an unrated opponent is written "-" (the game is shown, not rated).
    #[arg(long)]
    games: String,
    /// Which list.
    #[arg(long, value_enum, default_value = "standard")]
    kind: KindArg,
    /// Rule edition (default: the rules in force in 2026).
    #[arg(long, value_enum, default_value = "fide2026")]
    edition: EditionArg,
    /// The rating period (list month) YYYY-MM; default: the current month.
    #[arg(long, value_name = "YYYY-MM")]
    period: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum KindArg {
    Standard,
    Rapid,
    Blitz,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum EditionArg {
    Fide2026,
    Fide2024,
    Fide2014,
}

pub fn run(cli: &Cli, cmd: &RatingCommand) -> Result<(), Failure> {
    match cmd {
        RatingCommand::Calc(a) => calc(cli, a),
        // Dispatched by main (it needs the async client).
        RatingCommand::Service(_) => Err(usage("this rating command talks to the server")),
    }
}

/// Parses `2319:L,2181:1,-:0.5`.
pub(crate) fn parse_games(text: &str) -> Result<Vec<OpponentGame>, String> {
    let mut out = Vec::new();
    for (i, item) in text.split(',').map(str::trim).enumerate() {
        if item.is_empty() {
            continue;
        }
        let n = i + 1;
        let (opp, res) = item.split_once(':').ok_or(format!(
            "game {n} {item:?}: expected OPPONENT_RATING:RESULT"
        ))?;
        let opponent_rating = match opp.trim() {
            "-" | "unrated" => None,
            r => Some(r.parse::<Rating>().map_err(|_| {
                format!("game {n} {item:?}: opponent rating {r:?} is not a whole number 0-65535")
            })?),
        };
        let score = match res.trim() {
            "1" | "W" | "w" | "1.0" => GameScore::Win,
            "0.5" | ".5" | "½" | "=" | "D" | "d" => GameScore::Draw,
            "0" | "L" | "l" | "0.0" => GameScore::Loss,
            r => {
                return Err(format!(
                    "game {n} {item:?}: result {r:?} is not 1, 0.5 or 0 (W, D, L)"
                ));
            }
        };
        out.push(OpponentGame {
            opponent_id: None,
            opponent_rating,
            score,
        });
    }
    if out.is_empty() {
        return Err("no game given".into());
    }
    Ok(out)
}

fn parse_period(text: Option<&str>) -> Result<ListMonth, String> {
    let (y, m) = match text {
        Some(t) => {
            let (y, m) = t.split_once('-').ok_or(format!("{t:?} is not YYYY-MM"))?;
            (
                y.parse::<i32>().map_err(|_| format!("{t:?}: year {y:?}"))?,
                m.parse::<u8>().map_err(|_| format!("{t:?}: month {m:?}"))?,
            )
        }
        None => {
            use chrono::Datelike as _;
            let today = chrono::Utc::now().date_naive();
            (today.year(), u8::try_from(today.month()).unwrap_or(1))
        }
    };
    ListMonth::new(y, m).map_err(|e| e.to_string())
}

fn k_rule_text(r: KRule) -> &'static str {
    match r {
        KRule::Reached2400 => "a published rating reached 2400",
        KRule::Junior => "junior under 2300",
        KRule::NewPlayer => "fewer than 30 rated games completed",
        KRule::Below2400 => "rated under 2400",
    }
}

fn calc(cli: &Cli, a: &CalcArgs) -> Result<(), Failure> {
    let games = parse_games(&a.games).map_err(|e| usage(format!("--games: {e}")))?;
    let rules = Rules::new(
        match a.edition {
            EditionArg::Fide2026 => Edition::Fide2026,
            EditionArg::Fide2024 => Edition::Fide2024,
            EditionArg::Fide2014 => Edition::Fide2014,
        },
        match a.kind {
            KindArg::Standard => RatingKind::Standard,
            KindArg::Rapid => RatingKind::Rapid,
            KindArg::Blitz => RatingKind::Blitz,
        },
    );
    let period = parse_period(a.period.as_deref()).map_err(|e| usage(format!("--period: {e}")))?;
    let events = [EventGames {
        event: "games".into(),
        games,
    }];
    let working: PeriodWorking = match (a.k, a.games_before) {
        (Some(k), _) => {
            if k == 0 {
                return Err(usage("--k: K must be positive"));
            }
            let w = event_change_with_k(rules, a.rating, k, "games", &events[0].games);
            let change = w.change.round_half_away_from_zero();
            PeriodWorking {
                rules,
                period,
                rating_before: a.rating,
                rated_games: w.rated_games,
                change_unrounded: w.change,
                change,
                rating_after: i64::from(a.rating) + change,
                events: vec![w],
            }
        }
        (None, Some(games_before)) => {
            let profile = KProfile {
                games_before_period: games_before,
                ever_published_2400: a.ever_2400,
                ever_published_2300: a.ever_2300,
                birth: a.born.map(|year| BirthDate {
                    year,
                    month_day: None,
                }),
            };
            period_change(rules, period, a.rating, &profile, &events)
        }
        (None, None) => {
            return Err(usage(
                "give --k K, or --games-before N (with --born YYYY for a junior) so that K is \
                 determined by B.02 §8.3.3",
            ));
        }
    };
    if cli.json {
        output::json(&json!({
            "rating_before": working.rating_before,
            "rated_games": working.rated_games,
            "change_unrounded": working.change_unrounded.to_string(),
            "change": working.change,
            "rating_after": working.rating_after,
            "working": working,
        }));
    } else {
        print_working(&working);
    }
    Ok(())
}

fn print_event(e: &EventWorking) {
    let rows: Vec<Vec<String>> = e
        .games
        .iter()
        .zip(1..)
        .map(|(g, n): (&elo::rating_change_8_3::GameLine, u32)| {
            let score = match g.score {
                GameScore::Win => "1",
                GameScore::Draw => "½",
                GameScore::Loss => "0",
            };
            let (d, pd) = match (g.status, g.difference, g.expected) {
                (GameStatus::Rated, Some(d), Some(pd)) => (
                    if d.capped {
                        format!("{} → {}", d.actual, d.used)
                    } else {
                        d.actual.to_string()
                    },
                    pd.to_string(),
                ),
                (GameStatus::NotRated(why), _, _) => (format!("not rated: {why:?}"), String::new()),
                _ => (String::new(), String::new()),
            };
            vec![
                n.to_string(),
                g.opponent_rating
                    .map_or("unrated".into(), |r| r.to_string()),
                d,
                pd,
                score.into(),
                g.delta.to_string(),
                g.k.to_string(),
                g.k_delta.to_string(),
            ]
        })
        .collect();
    output::table(&["#", "Opp", "D", "PD", "Score", "ΔR", "K", "K×ΔR"], &rows);
    match &e.k_working {
        Some(kd) => {
            out!("K = {} ({}", kd.k, k_rule_text(kd.rule));
            if let Some(n) = kd.capped_for_games {
                out!(", lowered from {} so that K × {n} ≤ 700", kd.base_k);
            }
            outln!(")");
        }
        None => outln!("K = {} (given)", e.k),
    }
    outln!(
        "rated games {}, score {}, expected {}, ΣΔR {}, Rc {}",
        e.rated_games,
        e.score,
        e.expected,
        e.sum_delta,
        e.average_opponent_rating
            .map_or("-".into(), |r| r.to_string())
    );
}

fn print_working(w: &PeriodWorking) {
    for e in &w.events {
        print_event(e);
    }
    outln!(
        "change K × ΣΔR = {} → {:+} (rounded, B.02 §8.3.4); rating {} → {}",
        w.change_unrounded,
        w.change,
        w.rating_before,
        w.rating_after
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_parse_with_every_result_spelling() {
        let g = parse_games("1798:W, 1801:0,1897:1,-:½").unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!(g[0].opponent_rating, Some(1798));
        assert_eq!(g[1].score, GameScore::Loss);
        assert_eq!(g[3].opponent_rating, None);
        assert_eq!(g[3].score, GameScore::Draw);
    }

    #[test]
    fn bad_games_name_the_game() {
        let e = parse_games("1798:W,abc:1").unwrap_err();
        assert!(e.starts_with("game 2"), "{e}");
        let e = parse_games("1798:X").unwrap_err();
        assert!(e.contains("result \"X\""), "{e}");
        assert!(parse_games("").is_err());
        assert!(parse_games("1798").is_err());
    }

    #[test]
    fn periods() {
        assert_eq!(
            parse_period(Some("2026-03")).unwrap(),
            ListMonth::new(2026, 3).unwrap()
        );
        assert!(parse_period(Some("2026-13")).is_err());
        assert!(parse_period(Some("March")).is_err());
    }
}
