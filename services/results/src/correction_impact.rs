//! What a correction changes, pure: the standings before and after (rank moves and
//! tie-break values of every player whose line changed), the published pairings that
//! were made with the old result, the unpublished ones to re-pair, and the rated games
//! whose score changes.
use arbiter_proto::v1::{CorrectionImpact, RankMove, RatingResultChange, Tournament};
use arbiter_registry::roster::Roster;
use arbiter_registry::round_record::parse_result;
use arbiter_registry::tournament::FieldError;
use tiebreak::{Edition, TieBreak};

use std::sync::Arc;

use crate::standings_projection::{self, Computed};

/// A correction of one board: `before` → `after`.
pub struct Correction<'a> {
    /// Round.
    pub round: u32,
    /// White, black.
    pub players: (&'a str, &'a str),
    /// Result before (canonical).
    pub before: &'a str,
    /// Result after (canonical).
    pub after: &'a str,
    /// `applies_to` of the correction.
    pub applies_to: &'a str,
    /// Later published / unpublished rounds at the time.
    pub published: Vec<u32>,
    /// Later unpublished rounds.
    pub unpublished: Vec<u32>,
}

/// Which record a table of [`impact_with`] is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

/// Compares the standings of `before` and `after` (records of the same tournament).
pub fn impact(
    t: &Tournament,
    before: &Roster,
    after: &Roster,
    c: &Correction<'_>,
    list: &[TieBreak],
    edition: Edition,
) -> Result<CorrectionImpact, FieldError> {
    impact_with(before, after, c, |_, roster, round| {
        standings_projection::compute(t, roster, round, list, edition, false).map(Arc::new)
    })
}

/// [`impact`] with the standings after `round` of each record given by `table` (the
/// service keeps the last ones computed, `standings_cache`).
pub fn impact_with(
    before: &Roster,
    after: &Roster,
    c: &Correction<'_>,
    mut table: impl FnMut(Side, &Roster, u32) -> Result<Arc<Computed>, FieldError>,
) -> Result<CorrectionImpact, FieldError> {
    let round = standings_projection::complete_rounds(after)
        .min(standings_projection::complete_rounds(before));
    let mut moves = Vec::new();
    if round >= c.round {
        let sb = table(Side::Before, before, round)?;
        let sa = table(Side::After, after, round)?;
        let rb = sb.rows(before);
        let ra = sa.rows(after);
        let before: std::collections::HashMap<u32, &arbiter_proto::v1::StandingRow> =
            rb.iter().map(|b| (b.tpn, b)).collect();
        for a in &ra {
            let Some(b) = before.get(&a.tpn).copied() else {
                continue;
            };
            if a.rank != b.rank || a.points != b.points || a.tiebreak_values != b.tiebreak_values {
                moves.push(RankMove {
                    player_id: a.player_id.clone(),
                    tpn: a.tpn,
                    name: a.name.clone(),
                    rank_before: b.rank,
                    rank_after: a.rank,
                    points_before: b.points.clone(),
                    points_after: a.points.clone(),
                    tiebreaks_before: b.tiebreak_values.clone(),
                    tiebreaks_after: a.tiebreak_values.clone(),
                });
            }
        }
        moves.sort_by_key(|m| (m.rank_after, m.tpn));
    }
    let mut rating = Vec::new();
    if let (Ok(b), Ok(a)) = (parse_result(c.before), parse_result(c.after)) {
        for (white, me, opp) in [
            (true, c.players.0, c.players.1),
            (false, c.players.1, c.players.0),
        ] {
            let sb = b.rating_score(white).unwrap_or("");
            let sa = a.rating_score(white).unwrap_or("");
            if sb != sa {
                rating.push(RatingResultChange {
                    player_id: me.to_owned(),
                    opponent_id: opp.to_owned(),
                    round: c.round,
                    score_before: sb.into(),
                    score_after: sa.into(),
                });
            }
        }
    }
    let summary = format!(
        "round {} {} → {} ({}): {} standing line(s) change; published pairings made with the old result: {}; unpublished pairings to re-pair: {}; {} rated game score(s) change",
        c.round,
        c.before,
        c.after,
        c.applies_to,
        moves.len(),
        list_or_none(&c.published),
        list_or_none(&c.unpublished),
        rating.len()
    );
    Ok(CorrectionImpact {
        applies_to: c.applies_to.to_owned(),
        rank_moves: moves,
        published_rounds_with_old_result: c.published.clone(),
        unpublished_rounds_to_repair: c.unpublished.clone(),
        rating_changes: rating,
        summary,
    })
}

fn list_or_none(rounds: &[u32]) -> String {
    if rounds.is_empty() {
        "none".into()
    } else {
        rounds
            .iter()
            .map(|r| format!("round {r}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
