//! The heads this process knows: the log head (position, log hash) and the heads of the
//! streams it wrote or read under the append lock (ADR platform-011).
//!
//! Speed machinery only, never a rule: an append decided from these heads writes its
//! events at the positions after the known log head, and the events table's primary key
//! refuses that write whenever anyone else appended since (positions are gap-free, so
//! any other append holds the position after the known head). The append then runs
//! again the locked way, reading every head from the database. So a stale entry costs
//! one refused write, never a wrong one.
use std::collections::HashMap;

/// Stream heads kept at most; beyond that the map starts over (streams are read again).
const MAX_STREAMS: usize = 65_536;

/// Version and last event hash of a stream.
pub(crate) type StreamHead = (i64, Vec<u8>);

#[derive(Default)]
pub(crate) struct Heads {
    /// The log head (position, log hash) after this process's last commit or locked read;
    /// `None` when unknown (at open, after a failed or cancelled append).
    log: Option<(i64, Vec<u8>)>,
    streams: HashMap<String, StreamHead>,
}

impl Heads {
    /// The log head and the heads of every stream in `names`, when all are known.
    pub(crate) fn lookup<'a>(
        &self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Option<(i64, Vec<u8>, HashMap<String, StreamHead>)> {
        let (position, log_hash) = self.log.clone()?;
        let mut found = HashMap::new();
        for name in names {
            let head = self.streams.get(name)?;
            found.insert(name.to_owned(), head.clone());
        }
        Some((position, log_hash, found))
    }

    /// The log head as read under the append lock: when it is not the one known, someone
    /// else appended, and no stream head known is trusted any more.
    pub(crate) fn observed(&mut self, position: i64, log_hash: &[u8]) {
        let same = self
            .log
            .as_ref()
            .is_some_and(|(p, h)| *p == position && h == log_hash);
        if !same {
            self.streams.clear();
        }
        self.log = Some((position, log_hash.to_vec()));
    }

    /// A commit (or a locked read) left the log at `position` and these streams at
    /// these heads.
    pub(crate) fn committed(
        &mut self,
        position: i64,
        log_hash: Vec<u8>,
        streams: impl IntoIterator<Item = (String, StreamHead)>,
    ) {
        self.log = Some((position, log_hash));
        for (name, head) in streams {
            if self.streams.len() >= MAX_STREAMS && !self.streams.contains_key(&name) {
                self.streams.clear();
            }
            self.streams.insert(name, head);
        }
    }

    /// Nothing known any more (an append failed or its outcome is unknown).
    pub(crate) fn forget(&mut self) {
        self.log = None;
        self.streams.clear();
    }
}
