//! Payload schema evolution. A service registers, per event type, a function that
//! turns schema version `n` into `n + 1`; [`Upcasters::upcast`] applies them until the
//! current version. Stored events are never rewritten (the hash chain covers them):
//! upcasting happens on every read.
use std::collections::HashMap;

use crate::{Error, RecordedEvent};

/// Turns an encoded payload of version `n` into version `n + 1`.
pub type UpcastFn = fn(&[u8]) -> Result<Vec<u8>, String>;

/// The upcasters of one service.
#[derive(Default, Clone)]
pub struct Upcasters {
    steps: HashMap<(String, u32), UpcastFn>,
    current: HashMap<String, u32>,
}

impl Upcasters {
    /// No upcasters: every event is read as stored.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares that `event_type` at `from_version` becomes `from_version + 1` through `f`.
    pub fn register(mut self, event_type: &str, from_version: u32, f: UpcastFn) -> Self {
        self.steps.insert((event_type.to_owned(), from_version), f);
        let cur = self.current.entry(event_type.to_owned()).or_insert(1);
        *cur = (*cur).max(from_version + 1);
        self
    }

    /// The current schema version of `event_type` (1 when never evolved).
    pub fn current_version(&self, event_type: &str) -> u32 {
        self.current.get(event_type).copied().unwrap_or(1)
    }

    /// Brings `event` to the current schema version of its type.
    pub fn upcast(&self, mut event: RecordedEvent) -> Result<RecordedEvent, Error> {
        while let Some(f) = self
            .steps
            .get(&(event.event_type.clone(), event.schema_version))
        {
            event.payload = f(&event.payload).map_err(|message| Error::Corrupt {
                position: event.global_position,
                message: format!(
                    "upcasting {} v{}: {message}",
                    event.event_type, event.schema_version
                ),
            })?;
            event.schema_version += 1;
        }
        Ok(event)
    }
}
