//! The engine's explanation of a Dutch pairing, made after the pairing is stored (ADR
//! pairing-004): `PairRound` answers as soon as the pairing `arbiter-pairings -p` makes
//! is written, and the explanation (the same engine with `explain`, which pairs as it
//! does without) follows in a `PairingExplained` event in
//! `pairing-<tournament>-explanations`, off the critical path.
//!
//! One explanation at a time per (tournament, round); a new pairing of the round stops
//! the explanation of the one it replaces (a repair, a pairing by hand, a discard), and
//! an explanation is written only while the pairing it explains is the round's.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arbiter_proto::v1::{CommandMeta, PairingExplained};
use arbiter_registry::projection::Tournaments;
use arbiter_registry::record_commands;
use arbiter_registry::roster::RosterEvent;
use arbiter_service_kit::Platform;

use crate::round_pairing::{self, ExplainJob};

/// The stream of a tournament's pairing explanations.
pub fn stream_of(tournament_id: &str) -> String {
    format!(
        "{}{}",
        crate::stream_of(tournament_id),
        arbiter_registry::event_index::EXPLANATIONS_SUFFIX
    )
}

/// How long an explanation waits before it starts (env `ARBITER_EXPLAIN_DELAY_MS`,
/// default 0; a test hook, ADR pairing-004).
pub fn explain_delay() -> std::time::Duration {
    std::env::var("ARBITER_EXPLAIN_DELAY_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(std::time::Duration::from_millis)
        .unwrap_or_default()
}

/// An explanation being made.
struct Making {
    /// Global position of the `RoundPaired` it explains.
    paired_position: i64,
    stop: swiss::StopSignal,
}

/// The explanations being made, by (tournament, round).
#[derive(Clone, Default)]
pub struct Explainers(Arc<Mutex<HashMap<(String, u32), Making>>>);

/// The stored pairing to explain, and who asked for it (for the explanation's envelope).
pub struct Stored {
    /// Its tournament.
    pub tournament_id: String,
    /// Global position of its `RoundPaired`.
    pub paired_position: i64,
    /// Its engine input's SHA-256.
    pub input_sha256: String,
    /// The principal that paired the round.
    pub actor: String,
    /// The rule edition the round was paired by.
    pub rule_edition: String,
}

impl Explainers {
    /// True while the explanation of the pairing at `paired_position` is being made.
    pub fn making(&self, tournament_id: &str, round: u32, paired_position: i64) -> bool {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&(tournament_id.to_owned(), round))
            .is_some_and(|m| m.paired_position == paired_position)
    }

    /// Stops the explanation of round `round` (its pairing was replaced or discarded).
    pub fn stop(&self, tournament_id: &str, round: u32) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = map.remove(&(tournament_id.to_owned(), round)) {
            m.stop.stop();
        }
    }

    /// Starts explaining the pairing at `paired_position` (unless it is already being
    /// explained): the engine runs on a blocking thread, the event is appended when it
    /// ends, if the pairing is still the round's.
    pub fn start(
        &self,
        platform: &Platform,
        tournaments: &Tournaments,
        job: ExplainJob,
        stored: Stored,
    ) {
        let (tournament_id, paired_position) =
            (stored.tournament_id.clone(), stored.paired_position);
        let round = job.round;
        let key = (tournament_id.clone(), round);
        let stop = swiss::StopSignal::new();
        {
            let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(m) = map.get(&key) {
                if m.paired_position == paired_position {
                    return;
                }
                m.stop.stop();
            }
            map.insert(
                key.clone(),
                Making {
                    paired_position,
                    stop: stop.clone(),
                },
            );
        }
        let (this, platform, tournaments) = (self.clone(), platform.clone(), tournaments.clone());
        tokio::spawn(async move {
            // Tests hold the explanation back to see the pairing stored without it, and
            // a server stopped before the explanation was written.
            let hold = explain_delay();
            if !hold.is_zero() {
                tokio::time::sleep(hold).await;
            }
            let signal = stop.clone();
            let made = tokio::task::spawn_blocking(move || round_pairing::explain(&job, &signal))
                .await
                .unwrap_or_else(|e| Err(format!("round {round}: the explanation failed: {e}")));
            if !stop.is_stopped() {
                let event = PairingExplained {
                    tournament_id: tournament_id.clone(),
                    round,
                    paired_position,
                    input_sha256: stored.input_sha256.clone(),
                    explanation: made.as_ref().cloned().unwrap_or_default(),
                    error: made.err().unwrap_or_default(),
                };
                if let Err(e) = write(&platform, &tournaments, &stored, event).await {
                    tracing::warn!(%tournament_id, round, error = %e, "pairing explanation not written");
                }
            }
            let mut map = this.0.lock().unwrap_or_else(|e| e.into_inner());
            if map
                .get(&key)
                .is_some_and(|m| m.paired_position == paired_position)
            {
                map.remove(&key);
            }
        });
    }
}

/// Appends the explanation if the pairing it explains is still the round's and has none.
async fn write(
    platform: &Platform,
    tournaments: &Tournaments,
    stored: &Stored,
    event: PairingExplained,
) -> Result<(), tonic::Status> {
    let (_, roster) =
        record_commands::load_latest(platform, tournaments, &event.tournament_id).await?;
    let current = roster
        .record
        .pairings
        .get(&event.round)
        .is_some_and(|p| p.paired.position == event.paired_position && p.explanation.is_none());
    if !current {
        return Ok(());
    }
    let meta = CommandMeta {
        // One explanation per pairing: a second writer (a restart raced the first) is
        // told the command was already done.
        command_id: format!("explain:{}:{}", event.tournament_id, event.paired_position),
        reason: format!(
            "the engine's explanation of round {}, made after its pairing was stored",
            event.round
        ),
        ..Default::default()
    };
    let stream = stream_of(&event.tournament_id);
    record_commands::append(
        platform,
        tournaments,
        crate::SERVICE,
        stored.actor.clone(),
        &meta,
        &stored.rule_edition,
        stream,
        None,
        &[RosterEvent::PairingExplained(event)],
    )
    .await
    .map(|_| ())
}
