//! C.07 Art. 12 (team matches): Board Count (12.1), Top Board Result (12.2), Bottom Board
//! Elimination (12.3). All three read the game points per board.
//!
//! * BC = Σ over the matches counted, Σ over boards, board number × GP on that board; the
//!   *lower* count ranks higher (a team that scored on the top boards).
//! * TBR compares the GP on board 1, then on board 2, and so on.
//! * BBE compares the GP without the bottom board, then without the two bottom boards, and
//!   so on (the GP of all boards is the secondary score, compared before).
//!
//! TBR and BBE order the tied teams by a list of values rather than by one number; they
//! split a tied group where the lists differ (ADR tiebreak-010).

use crate::exact::Exact;
use crate::team_crosstable::TeamPrepared;
use crate::working::{Recorder, Source, TieBreakValue};

/// Rounds of team `i` whose boards count: every match, or only those against `among`.
fn counted_rounds(tp: &TeamPrepared, i: usize, among: Option<&[usize]>) -> Vec<usize> {
    let p = &tp.mp;
    (0..p.rounds)
        .filter(|&r| {
            let k = p.at(i, r);
            !tp.board_points[k].is_empty() && among.is_none_or(|set| set.contains(&p.opp[k]))
        })
        .collect()
}

/// GP per board (board 1 first) of team `i`, summed over the counted matches, in units.
pub(crate) fn board_totals(tp: &TeamPrepared, i: usize, among: Option<&[usize]>) -> Vec<i64> {
    let mut totals = vec![0i64; tp.boards];
    for r in counted_rounds(tp, i, among) {
        for (b, v) in tp.board_points[tp.mp.at(i, r)].iter().enumerate() {
            totals[b] += v;
        }
    }
    totals
}

/// BC (12.1) of team `i`, in units, with one contribution per counted match.
pub(crate) fn board_count(
    tp: &TeamPrepared,
    i: usize,
    among: Option<&[usize]>,
    working: bool,
) -> TieBreakValue {
    let p = &tp.mp;
    let upp = p.scoring.units_per_point;
    let mut rec = Recorder::new(working);
    let mut sum = 0i64;
    for r in counted_rounds(tp, i, among) {
        let k = p.at(i, r);
        let v: i64 = tp.board_points[k]
            .iter()
            .enumerate()
            .map(|(b, x)| (b as i64 + 1) * x)
            .sum();
        sum += v;
        rec.push(
            Some(r),
            Source::Opponent {
                tpn: p.tpn[p.opp[k]],
            },
            Exact::of(v, upp),
            false,
        );
    }
    let note = "Σ board number × game points; lower ranks higher (Art. 12.1)".to_string();
    rec.finish(Some(Exact::of(sum, upp)), Some(note))
}

/// The list TBR (12.2) or BBE (12.3) compares, most significant first, in units. BBE starts
/// with the bottom board already eliminated (the GP of all boards is the secondary score).
pub(crate) fn board_key(totals: &[i64], bottom_elimination: bool) -> Vec<i64> {
    if !bottom_elimination {
        return totals.to_vec();
    }
    let mut key = Vec::with_capacity(totals.len());
    let mut sum: i64 = totals.iter().sum();
    for b in (1..totals.len()).rev() {
        sum -= totals[b];
        key.push(sum);
    }
    key
}

/// Splits `set` (team indices) by TBR or BBE over the matches counted, best first, and the
/// values shown (the first entry of the list where the group's lists differ).
pub(crate) fn apply(
    tp: &TeamPrepared,
    set: &[usize],
    bottom_elimination: bool,
    among: Option<&[usize]>,
    working: bool,
) -> (Vec<Vec<usize>>, Vec<(usize, TieBreakValue)>) {
    let upp = tp.mp.scoring.units_per_point;
    let keys: Vec<Vec<i64>> = set
        .iter()
        .map(|&i| board_key(&board_totals(tp, i, among), bottom_elimination))
        .collect();
    let len = keys.first().map_or(0, Vec::len);
    let deciding = (0..len)
        .find(|&x| keys.iter().any(|k| k[x] != keys[0][x]))
        .unwrap_or(len.saturating_sub(1));
    let mut order: Vec<usize> = (0..set.len()).collect();
    order.sort_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
    let mut subs: Vec<Vec<usize>> = Vec::new();
    for (x, &a) in order.iter().enumerate() {
        if x > 0 && keys[order[x - 1]] == keys[a] {
            if let Some(last) = subs.last_mut() {
                last.push(set[a]);
            }
        } else {
            subs.push(vec![set[a]]);
        }
    }
    let label: fn(usize) -> String = if bottom_elimination {
        |x| format!("without the bottom {}", x + 1)
    } else {
        |x| format!("board {}", x + 1)
    };
    let shown = set
        .iter()
        .zip(&keys)
        .map(|(&i, key)| {
            let value = key.get(deciding).map(|&v| Exact::of(v, upp));
            let note = working.then(|| {
                let parts: Vec<String> = key
                    .iter()
                    .enumerate()
                    .map(|(x, &v)| format!("{} {}", label(x), Exact::of(v, upp)))
                    .collect();
                format!(
                    "{}: {}; compared at \"{}\"",
                    if bottom_elimination { "BBE" } else { "TBR" },
                    parts.join(", "),
                    label(deciding)
                )
            });
            (i, Recorder::new(working).finish(value, note))
        })
        .collect();
    (subs, shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_12_3_bbe_drops_bottom_boards_one_by_one() {
        assert_eq!(board_key(&[10, 5, 0, 10], true), vec![15, 15, 10]);
        assert!(board_key(&[10], true).is_empty());
        assert_eq!(board_key(&[10, 5, 0, 10], false), vec![10, 5, 0, 10]);
        assert!(board_key(&[], true).is_empty());
    }
}
