//! Health that tells the truth (ADR platform-014): the process probes what it depends on —
//! its event log's database and, in the distributed mode, NATS — and its gRPC health
//! answers SERVING only while the projections have caught up, the log passed its check
//! at start and every dependency answers. A lost dependency turns every hosted service
//! NOT_SERVING within one probe interval and back to SERVING by itself once it answers
//! again; the health answer then carries `arbiter-unhealthy` metadata naming it
//! (`database: …`, `nats: …`), and the change is logged.
//!
//! Liveness is apart: the health service [`LIVENESS_SERVICE`] answers SERVING as long as the
//! process serves at all (an orchestrator restarts on liveness, routes on readiness).
use std::sync::{Arc, RwLock};
use std::time::Duration;

use arbiter_bus::Bus;
use arbiter_eventlog::EventStore;

/// The health service name an orchestrator's liveness probe asks: SERVING while the process
/// answers, whatever its dependencies.
pub const LIVENESS_SERVICE: &str = "arbiter.v1.Liveness";
/// The metadata key of a health answer that names the dependencies that are down.
pub const UNHEALTHY_METADATA: &str = "arbiter-unhealthy";
/// How often the dependencies are probed (`ARBITER_HEALTH_PROBE_MS` overrides).
pub const PROBE_INTERVAL: Duration = Duration::from_secs(1);
/// A probe that takes longer than this counts as the dependency being down.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// One dependency's state: `None` when it answers, else what its probe said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DependencyState {
    /// `database` or `nats`.
    pub name: &'static str,
    /// Why it is down.
    pub down: Option<String>,
}

/// The dependencies' latest states, shared by the probe and the health answers.
#[derive(Clone, Default)]
pub struct Dependencies {
    states: Arc<RwLock<Vec<DependencyState>>>,
}

impl Dependencies {
    /// What is down, one `name: why` each (empty when every dependency answers).
    pub fn problems(&self) -> Vec<String> {
        self.states
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .filter_map(|s| s.down.as_ref().map(|why| format!("{}: {why}", s.name)))
            .collect()
    }

    /// True when every dependency answered its last probe.
    pub fn all_up(&self) -> bool {
        self.problems().is_empty()
    }

    /// Probes once and records the states; returns the changes (name, new down reason).
    pub async fn probe(&self, store: &EventStore, bus: &Bus) -> Vec<DependencyState> {
        let mut now = vec![DependencyState {
            name: "database",
            down: match tokio::time::timeout(PROBE_TIMEOUT, store.ping()).await {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(e.to_string()),
                Err(_) => Some(format!("no answer within {} s", PROBE_TIMEOUT.as_secs())),
            },
        }];
        if let Bus::Nats(n) = bus {
            use async_nats::connection::State;
            now.push(DependencyState {
                name: "nats",
                down: match n.client().connection_state() {
                    State::Connected => None,
                    State::Disconnected => Some("disconnected (reconnecting)".into()),
                    State::Pending => Some("connecting".into()),
                },
            });
        }
        let mut states = self.states.write().unwrap_or_else(|p| p.into_inner());
        let changes = now
            .iter()
            .filter(|s| {
                let before = states.iter().find(|b| b.name == s.name);
                before.map(|b| b.down.is_some()) != Some(s.down.is_some())
            })
            .cloned()
            .collect();
        *states = now;
        changes
    }
}

/// The probe interval, from `ARBITER_HEALTH_PROBE_MS` or [`PROBE_INTERVAL`].
pub fn probe_interval() -> Duration {
    std::env::var("ARBITER_HEALTH_PROBE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&ms: &u64| ms > 0)
        .map_or(PROBE_INTERVAL, Duration::from_millis)
}
