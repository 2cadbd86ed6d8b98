//! `arbiter pair --system knockout --trf FILE [--games N] [--tie-breaks LIST] [--format F]`:
//! the next TRF round of a knockout in progress (`pairings::other_systems::knockout`; ADR
//! `docs/decisions/knockout-005-history-from-trf.md`). Each TRF round is one game of every
//! match still undecided; players still in without a game are listed as exempt (they are
//! not a pairing-allocated bye and score nothing).
//!
//! Exit codes as the Swiss systems (`pair_trf`): 0 paired; 1 nothing left to pair (the final
//! is decided: the champion is named) or a match level after every stage; 3 the TRF (or the
//! knockout it describes) is invalid, with the line and column.
use std::path::Path;

use knockout::BracketFormat;
use pairings::other_systems::knockout::{self as ko, KnockoutNext, KnockoutOptions};
use serde_json::json;

use super::pair_trf::{invalid, load, no_pairing, prefix};
use crate::{Cli, Failure, output};

/// Pairs the next round of the knockout in `path` and prints it.
pub fn run(
    cli: &Cli,
    path: &Path,
    bracket: BracketFormat,
    games: u32,
    tie_breaks: Vec<knockout::match_play::Stage>,
) -> Result<(), Failure> {
    let doc = load(path)?;
    let round = pairings::trf_input::round_to_pair(&doc);
    let options = KnockoutOptions {
        bracket,
        match_format: ko::match_format(games, tie_breaks),
    };
    let next = ko::pair(&doc, round, &options).map_err(|e| {
        prefix(
            path,
            match e {
                pairings::other_systems::PairError::Invalid(m) => invalid(m),
                pairings::other_systems::PairError::NoPairing(m) => no_pairing(m),
            },
        )
    })?;
    let p = match next {
        KnockoutNext::Over {
            champion,
            final_round,
        } => {
            return Err(no_pairing(format!(
                "{}: the knockout is over: pairing number {champion} won the final (decided in round {final_round}); nothing left to pair",
                path.display()
            )));
        }
        KnockoutNext::Pair(p) => p,
    };
    if cli.json {
        output::json(&json!({
            "system": "knockout",
            "round": p.round,
            "bracket_round": p.bracket_round,
            "bracket_rounds": p.bracket_rounds,
            "preliminary": p.preliminary,
            "games": p.boards.iter().zip(1..).map(|(b, n): (&ko::KnockoutBoard, u32)| json!({
                "board": n,
                "white": b.white,
                "black": b.black,
                "match": format!("R{}.{}", b.bracket_round, b.match_number),
                "game_in_match": b.game_in_match,
                "stage": b.stage,
            })).collect::<Vec<_>>(),
            "bye": null,
            "exempt": p.exempt,
        }));
        return Ok(());
    }
    outln!(
        "Round {} (knockout, seed 000; bracket round {} of {}{})",
        p.round,
        p.bracket_round,
        p.bracket_rounds,
        if p.preliminary { ", preliminary" } else { "" }
    );
    let rows: Vec<Vec<String>> = p
        .boards
        .iter()
        .zip(1..)
        .map(|(b, n): (&ko::KnockoutBoard, u32)| {
            vec![
                n.to_string(),
                b.white.to_string(),
                b.black.to_string(),
                format!("R{}.{}", b.bracket_round, b.match_number),
                format!("{} ({})", b.game_in_match, b.stage),
            ]
        })
        .collect();
    output::table(&["Board", "White", "Black", "Match", "Game"], &rows);
    if !p.exempt.is_empty() {
        let list: Vec<String> = p.exempt.iter().map(u32::to_string).collect();
        outln!("exempt (no game this round): {}", list.join(", "));
    }
    Ok(())
}
