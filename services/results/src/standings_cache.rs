//! The last standings computed, by the state of the record they were computed from (ADR
//! results-003).
//!
//! A correction's impact compares the standings before and after it; the "after" of one
//! correction is the "before" of the next, and every reader of the standings between two
//! writes asks for the same table. The key is the tournament's revision
//! (`Tournaments::with_roster_revision`: the number of events folded into it), so an entry
//! can only be found by a reader of the very state it was computed from. The standings
//! themselves stay a pure function of the record ([`standings_projection::compute`]); this
//! is only memory of its last answers, bounded by [`CACHED_STANDINGS`], and computing
//! happens outside the lock.
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tiebreak::{Edition, TieBreak};

use crate::standings_projection::Computed;

/// How many standings are kept (each is one table of a tournament: at 10,000 players a few
/// megabytes).
pub const CACHED_STANDINGS: usize = 8;

/// What identifies one computed table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Key {
    pub tournament_id: String,
    /// The tournament's revision the record was read at.
    pub revision: u64,
    /// After this round (resolved: never 0).
    pub round: u32,
    pub list: Vec<TieBreak>,
    pub edition: Edition,
}

/// The kept tables, least recently used first.
type Entries = VecDeque<(Key, Arc<Computed>)>;

/// The cache (shared by the service's handlers).
#[derive(Clone, Default)]
pub struct StandingsCache {
    entries: Arc<Mutex<Entries>>,
}

impl StandingsCache {
    /// The table of `key`, if kept.
    pub fn get(&self, key: &Key) -> Option<Arc<Computed>> {
        let mut e = self.entries.lock().ok()?;
        let i = e.iter().position(|(k, _)| k == key)?;
        let hit = e.remove(i)?;
        let table = hit.1.clone();
        e.push_back(hit);
        Some(table)
    }

    /// Keeps `table` as the one of `key` (the oldest entry goes when full).
    pub fn put(&self, key: Key, table: Arc<Computed>) {
        let Ok(mut e) = self.entries.lock() else {
            return;
        };
        e.retain(|(k, _)| *k != key);
        if e.len() == CACHED_STANDINGS {
            e.pop_front();
        }
        e.push_back((key, table));
    }

    /// The table of `key`, computed by `compute` if not kept (and then kept).
    pub fn get_or_compute<E>(
        &self,
        key: Key,
        compute: impl FnOnce() -> Result<Computed, E>,
    ) -> Result<Arc<Computed>, E> {
        if let Some(t) = self.get(&key) {
            return Ok(t);
        }
        let t = Arc::new(compute()?);
        self.put(key, t.clone());
        Ok(t)
    }
}
