//! Command ids bound to their request (ADR platform-006).
//!
//! Every mutating handler starts with [`Commands::begin`]: it validates the command
//! metadata, computes the request's digest (SHA-256 of the RPC name and the request
//! message as prost encodes it, with the digest field cleared), waits for any other
//! request with the same command id in this process to finish (so concurrent retries
//! see the first one's outcome and answer it as a replay), and refuses an id that was
//! used for a different request. The digest travels in `CommandMeta.request_digest` to
//! the event log, which records it with the command id and checks it again inside the
//! append transaction.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arbiter_eventlog::EventStore;
use arbiter_proto::v1::CommandMeta;
use sha2::{Digest, Sha256};
use tonic::Status;

use crate::status::{command_meta, from_log};

/// The in-flight command ids of this process.
#[derive(Clone, Default)]
pub struct Commands {
    in_flight: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>,
}

/// Held while a command is handled: other requests with its id wait.
pub struct InFlight {
    commands: Commands,
    id: String,
    _guard: tokio::sync::OwnedMutexGuard<()>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut map = self
            .commands
            .in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        // The map's own reference and this guard's lock: nobody else waits.
        if map.get(&self.id).is_some_and(|m| Arc::strong_count(m) <= 2) {
            map.remove(&self.id);
        }
    }
}

/// The digest of `request` (as received) under `rpc`.
pub fn request_digest<M: prost::Message>(rpc: &str, request: &M) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(rpc.as_bytes());
    h.update([0]);
    h.update(request.encode_to_vec());
    h.finalize().to_vec()
}

impl Commands {
    /// Validates `meta` (see [`command_meta`]), sets its request digest, waits for
    /// other requests with the same id, and refuses the id when it was used for a
    /// different request. Returns the metadata to record and the in-flight guard (keep
    /// it until the handler has answered).
    pub async fn begin<M: prost::Message>(
        &self,
        store: &EventStore,
        rpc: &str,
        request: &M,
        meta: Option<CommandMeta>,
    ) -> Result<(CommandMeta, InFlight), Status> {
        let mut meta = command_meta(meta)?;
        meta.request_digest.clear();
        let digest = request_digest(rpc, request);
        let lock = {
            let mut map = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
            map.entry(meta.command_id.clone()).or_default().clone()
        };
        let guard = lock.lock_owned().await;
        let in_flight = InFlight {
            commands: self.clone(),
            id: meta.command_id.clone(),
            _guard: guard,
        };
        if let Some(earlier) = store
            .command_digest(&meta.command_id)
            .await
            .map_err(from_log)?
            && earlier != digest
        {
            let what = store
                .find_command(&meta.command_id)
                .await
                .map_err(from_log)?
                .map(|(stream, ack)| {
                    format!(
                        " (the command that wrote positions {}..{} of stream {stream})",
                        ack.first_position, ack.last_position
                    )
                })
                .unwrap_or_default();
            return Err(Status::already_exists(format!(
                "meta.command_id: {} was already used by another request{what}; a retry must repeat the same request, a new command needs a new id",
                meta.command_id
            )));
        }
        meta.request_digest = digest;
        Ok((meta, in_flight))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_differ_by_rpc_and_by_request() {
        let a = CommandMeta {
            command_id: "x".into(),
            ..Default::default()
        };
        let b = CommandMeta {
            command_id: "x".into(),
            reason: "r".into(),
            ..Default::default()
        };
        assert_eq!(request_digest("A", &a), request_digest("A", &a));
        assert_ne!(request_digest("A", &a), request_digest("B", &a));
        assert_ne!(request_digest("A", &a), request_digest("A", &b));
    }
}
