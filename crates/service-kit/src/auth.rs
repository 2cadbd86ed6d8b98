//! Who may call what. Every handler's first line is [`Auth::authorize`]: the bearer
//! token is looked up in the fold of the `access` stream ([`crate::access`]), the RPC's
//! rule in [`crate::access::roles::RULES`] decides, and the [`Caller`]'s actor
//! (`NAME (p_…; token t_…)`) is recorded on every event the handler appends. This is
//! also where writes are refused when the event log failed its check at start.
use std::path::Path;

use tonic::{Request, Status};

use crate::access::{Access, roles};
pub use crate::access::{Caller, Scope};
use crate::limits;

/// The access check of a platform.
#[derive(Clone, Debug, Default)]
pub struct Auth {
    access: Access,
    /// Set when the event log failed its check at start: every write is refused.
    refuse_writes: Option<String>,
}

impl Auth {
    /// Checks against `access`.
    pub fn new(access: Access) -> Auth {
        Auth {
            access,
            refuse_writes: None,
        }
    }

    /// The live access fold.
    pub fn access(&self) -> &Access {
        &self.access
    }

    /// Refuses every write from now on (`FAILED_PRECONDITION` with `why`).
    pub fn refuse_writes(&mut self, why: String) {
        self.refuse_writes = Some(why);
    }

    /// The first token of `name` in a token file (how the CLI finds the admin token).
    pub fn read_token(path: &Path, name: &str) -> Option<String> {
        std::fs::read_to_string(path).ok()?.lines().find_map(|l| {
            let mut p = l.split_whitespace();
            (p.next() == Some(name)).then(|| p.next().map(str::to_owned))?
        })
    }

    /// The caller of `request` for `rpc` on `scope`: `INVALID_ARGUMENT` for a tournament
    /// id beyond [`limits::MAX_ID_CHARS`] (ADR platform-010), `FAILED_PRECONDITION` for
    /// a write when the log failed its check, `UNAUTHENTICATED` without a valid token
    /// (unless the rule lets anybody read), `PERMISSION_DENIED` naming the principal,
    /// the roles needed and the tournament. Every RPC of every service calls this first
    /// (rate limits and message sizes are enforced before, by [`crate::gate`]).
    pub fn authorize<T>(
        &self,
        request: &Request<T>,
        rpc: &str,
        scope: Scope<'_>,
    ) -> Result<Caller, Status> {
        if let Scope::Tournament(id) = scope {
            limits::check_id("tournament_id", id).map_err(Status::invalid_argument)?;
        }
        if let Some(why) = &self.refuse_writes
            && roles::rule_of(rpc).is_none_or(|r| r.write)
        {
            return Err(Status::failed_precondition(format!("{rpc}: {why}")));
        }
        self.access.authorize(request, rpc, scope)
    }

    /// [`Auth::authorize`] for a write, returning the actor to record.
    pub fn actor<T>(
        &self,
        request: &Request<T>,
        rpc: &str,
        scope: Scope<'_>,
    ) -> Result<String, Status> {
        self.authorize(request, rpc, scope).map(|c| c.actor)
    }

    /// For streams whose messages name their tournament: whether `caller` may send
    /// `rpc` for `tournament` (also refused while writes are refused).
    pub fn check_message(
        &self,
        caller: &Caller,
        rpc: &str,
        tournament: &str,
    ) -> Result<(), Status> {
        limits::check_id("tournament_id", tournament).map_err(Status::invalid_argument)?;
        if let Some(why) = &self.refuse_writes {
            return Err(Status::failed_precondition(format!("{rpc}: {why}")));
        }
        Access::check_message(caller, rpc, tournament)
    }
}
