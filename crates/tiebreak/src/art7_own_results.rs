//! C.07 Art. 7: tie-breaks based on the participant's own results (Type B): WIN (7.1),
//! WON (7.2), BPG (7.3), BWG (7.4), PS (7.5), REP (7.6), STD (7.7), TPN (7.8).
//! Round robins: Art. 15.2 (2026) keeps forfeit *losses* unplayed for these.

use crate::codes::{Kind, Modifier, TieBreak};
use crate::crosstable::{Colour, GameResult, Slot};
use crate::edition::Edition;
use crate::exact::Exact;
use crate::unplayed_rounds::{Class, Context};
use crate::working::{Env, Recorder, Source, TieBreakValue};

fn colour_of(slot: Slot) -> Option<Colour> {
    match slot {
        Slot::Game(_, c) => Some(c),
        Slot::ForfeitWin(c) | Slot::ForfeitLoss(c) => c,
        _ => None,
    }
}

fn is_win(slot: Slot) -> bool {
    matches!(slot, Slot::Game(GameResult::Win, _) | Slot::ForfeitWin(_))
}

/// Computes one Type-B tie-break for every participant.
pub(crate) fn compute(ctx: &Context, tb: &TieBreak, env: &Env) -> Vec<TieBreakValue> {
    let p = ctx.p;
    let upp = p.scoring.units_per_point;
    let one = Exact::integer(1);
    (0..p.n)
        .map(|i| {
            let mut rec = Recorder::new(env.working);
            let mut count = 0i64;
            let mut note = None;
            let value = match tb.kind {
                Kind::Wins => {
                    // 7.1: rounds with the points of a win, with or without playing.
                    // Seed: "parties gagnées" = games won, forfeit wins included, byes not.
                    for r in 0..p.rounds {
                        let k = p.at(i, r);
                        let counted = if ctx.edition == Edition::SeedC06 {
                            is_win(p.slots[k])
                        } else {
                            p.pts[k] >= p.scoring.win
                        };
                        if counted {
                            count += 1;
                            rec.push(Some(r), Source::OwnRound, one, false);
                        }
                    }
                    Some(Exact::integer(count))
                }
                Kind::GamesWon | Kind::BlackGames | Kind::BlackWins => {
                    for r in 0..p.rounds {
                        let k = p.at(i, r);
                        if !ctx.counts_as_game(k, Class::OwnResults, false) {
                            continue;
                        }
                        let s = p.slots[k];
                        let black = colour_of(s) == Some(Colour::Black);
                        let counted = match tb.kind {
                            Kind::GamesWon => is_win(s),
                            Kind::BlackGames => black,
                            _ => black && is_win(s),
                        };
                        if counted {
                            count += 1;
                            rec.push(Some(r), Source::OwnRound, one, false);
                        }
                    }
                    Some(Exact::integer(count))
                }
                Kind::ProgressiveScores => {
                    // 7.5: sum of cumulative scores; Cut-n drops rounds 1..n (14.1).
                    let skip = match tb.modifier {
                        Some(Modifier::Cut(n)) => n as usize,
                        _ => 0,
                    };
                    let mut cum = 0i64;
                    let mut sum = 0i64;
                    for r in 0..p.rounds {
                        cum += p.pts[p.at(i, r)];
                        let cut = r < skip;
                        if !cut {
                            sum += cum;
                        }
                        rec.push_with(Some(r), Source::OwnRound, || Exact::of(cum, upp), cut);
                    }
                    Some(Exact::of(sum, upp))
                }
                Kind::RoundsElectedToPlay => {
                    // 7.6: rounds − (HPB + ZPB + forfeit losses).
                    let mut not = 0i64;
                    for r in 0..p.rounds {
                        let k = p.at(i, r);
                        let s = p.slots[k];
                        let missed = s.is_requested_bye()
                            || (matches!(s, Slot::ForfeitLoss(_))
                                && !ctx.counts_as_game(k, Class::OwnResults, false));
                        if missed {
                            not += 1;
                        } else {
                            rec.push(Some(r), Source::OwnRound, one, false);
                        }
                    }
                    Some(Exact::integer(p.rounds as i64 - not))
                }
                Kind::StandardPoints => {
                    // 7.7: 1 if scored more than the scheduled opponent (or more than a
                    // draw without playing), ½ if equal (or a draw's points without playing).
                    let mut halves = 0i64;
                    for r in 0..p.rounds {
                        let k = p.at(i, r);
                        let own = p.pts[k];
                        let other = match p.opp[k] {
                            crate::crosstable::NO_OPP => p.scoring.draw,
                            j => p.pts[p.at(j, r)],
                        };
                        let h = match own.cmp(&other) {
                            std::cmp::Ordering::Greater => 2,
                            std::cmp::Ordering::Equal => 1,
                            std::cmp::Ordering::Less => 0,
                        };
                        halves += h;
                        rec.push_with(Some(r), Source::OwnRound, || Exact::of(h, 2), false);
                    }
                    Some(Exact::of(halves, 2))
                }
                Kind::PairingNumber => {
                    note = Some(if tb.reverse {
                        "higher TPN ranks first (TPN/R)".to_string()
                    } else {
                        "lower TPN ranks first".to_string()
                    });
                    let v = Exact::integer(p.tpn[i] as i64);
                    rec.push(None, Source::OwnData, v, false);
                    Some(v)
                }
                _ => None,
            };
            rec.finish(value, note)
        })
        .collect()
}
