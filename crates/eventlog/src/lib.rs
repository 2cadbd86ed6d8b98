//! # The append-only event log
//!
//! Every service keeps its truth here: commands are decided into events, events are
//! appended to a *stream* (one aggregate, e.g. `tournament-<uuid>`), and every
//! projection (standings, histories, rating lists) is a fold of the log.
//!
//! Invariants this crate guarantees, on both backends (SQLite embedded, PostgreSQL):
//! - **Gap-free order**: global positions are 1, 2, 3, … in commit order; stream
//!   versions are 1, 2, 3, … per stream. Appends are serialised on the log head.
//! - **Optimistic concurrency**: an append with `expected_version` fails with
//!   [`Error::Conflict`] naming the stream and both versions; nothing is written.
//! - **Idempotency**: a command id is applied once; a retry returns the original
//!   positions ([`AppendAck::replayed`]) and writes nothing.
//! - **Tamper evidence**: each event carries `prev_hash` and
//!   `hash = SHA-256(prev_hash ‖ canonical bytes)` ([`hash_chain`]); [`EventStore::verify`]
//!   finds an edited, deleted or reordered event and says which.
//! - **Transactional outbox**: each event gets an outbox row in the same
//!   transaction; a relay (crate `arbiter-bus`) publishes and then acknowledges it.
//! - **Group commit**: [`EventStore::append_batch`] appends several requests (any
//!   streams) in one transaction — one durable commit for the lot — with exactly the
//!   per-request semantics of [`EventStore::append`] applied in order: a refused request
//!   (conflict, reused command id, invalid) gets its own error and writes nothing, the
//!   others commit; only a database failure fails the whole batch (nothing written).
//!   Concurrent [`EventStore::append`]s are grouped the same way by themselves
//!   (`group_commit`, ADR platform-015): the appends that queue while one commit runs
//!   share the next.
//! - **Schema evolution**: payloads carry a schema version; [`upcast::Upcasters`] turn
//!   old versions into the current one on read.

pub mod anchor;
pub mod backup;
mod envelope;
mod error;
mod group_commit;
pub mod hash_chain;
mod heads;
mod migrations;
mod pg_commit;
mod pg_copy_replay;
pub mod signing;
mod sqlite_replay;
mod store;
pub mod upcast;
mod verify;
mod writer;

pub use envelope::{AppendAck, AppendRequest, CommandContext, NewEvent, RecordedEvent, Seal};
pub use error::Error;
pub use signing::Keys;
pub use store::{Backend, EventStore, Subscription};
pub use verify::{Problem, Scope, Signatures, VerifyOptions, VerifyReport};

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
