//! Device stamps bounded by the server's clock (ADR `clock-007`).
//!
//! A device (clock, sensor board, gateway) stamps each item with the instant it saw it
//! (`at_ms`, milliseconds on the server's scale). The stamp decides how much time the
//! authoritative clock charges, so it is checked against the server's own time before it is
//! used: the server's time source is the authority, a device's stamp only refines *when*,
//! within what the server has already seen happen.
//!
//! * no stamp (or `0`): the item is stamped on receipt, at the server's time;
//! * a stamp ahead of the server's time by more than the tolerance: refused
//!   ([`StampRejection::AheadOfServer`]);
//! * a stamp ahead by at most the tolerance (devices' clocks drift a little): used at the
//!   server's time ([`BoundedStamp::Clamped`]), so the clock never runs ahead of the server;
//! * a stamp before the board's last event: refused ([`StampRejection::BeforeLastEvent`]);
//! * otherwise the stamp is used as given (a press stamped before the flag instant but
//!   delayed in transit still counts).
//!
//! Whatever is accepted lies in `[last event, max(server now, last event)]`: the clock never
//! moves further than the server's time, and no stamp can make a flag fall that the server's
//! time has not reached. All arithmetic saturates: any `u64` is a valid input.
use crate::chess_clock::Instant;

/// Default tolerance for device stamps ahead of the server's time (devices synchronised by
/// NTP are within tens of ms; 2 s leaves room for a device that is not).
pub const DEFAULT_DEVICE_CLOCK_TOLERANCE_MS: u64 = 2_000;

/// The largest tolerance a service accepts (a minute): beyond it the bound no longer protects
/// a game (a blitz move is a few seconds).
pub const MAX_DEVICE_CLOCK_TOLERANCE_MS: u64 = 60_000;

/// The server's time when an item is decided, and how far ahead of it a stamp may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerTime {
    /// The server's time source, read when the item is decided.
    pub now: Instant,
    /// How far a device stamp may be ahead of `now` (it is then used at `now`).
    pub tolerance_ms: u64,
}

impl ServerTime {
    /// `now` with the default tolerance.
    pub fn new(now: Instant) -> ServerTime {
        ServerTime {
            now,
            tolerance_ms: DEFAULT_DEVICE_CLOCK_TOLERANCE_MS,
        }
    }
}

/// The instant an accepted item is applied at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundedStamp {
    /// The device's stamp, used as given.
    Device(Instant),
    /// The device's stamp was ahead of the server's time within the tolerance: the item is
    /// applied at `at`, the server's time (or the last event, if later).
    Clamped { stamp: u64, at: Instant },
    /// No stamp (or `0`): stamped on receipt, at the server's time (or the last event, if
    /// later).
    Receipt { at: Instant },
}

impl BoundedStamp {
    /// The instant the item is applied at.
    pub fn at(self) -> Instant {
        match self {
            BoundedStamp::Device(at)
            | BoundedStamp::Clamped { at, .. }
            | BoundedStamp::Receipt { at } => at,
        }
    }

    /// Whether the device stamped the item (clamped or not).
    pub fn stamped(self) -> bool {
        !matches!(self, BoundedStamp::Receipt { .. })
    }
}

/// Why a stamp is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StampRejection {
    /// The stamp is ahead of the server's time by more than the tolerance.
    AheadOfServer {
        stamp: u64,
        server_now: Instant,
        tolerance_ms: u64,
    },
    /// The stamp is before the board's last event (time must not go backwards).
    BeforeLastEvent {
        stamp: u64,
        last_event: Instant,
        server_now: Instant,
    },
}

impl std::fmt::Display for StampRejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            StampRejection::AheadOfServer {
                stamp,
                server_now,
                tolerance_ms,
            } => write!(
                f,
                "{stamp} is {} ms ahead of the server's time {server_now} (tolerance {tolerance_ms} ms): \
                 the device's clock is wrong; not applied (send it without at_ms to have it stamped on receipt)",
                stamp.saturating_sub(server_now)
            ),
            StampRejection::BeforeLastEvent {
                stamp,
                last_event,
                server_now,
            } => write!(
                f,
                "{stamp} is before the board's last event at {last_event} (server time {server_now}; \
                 timestamps must not go backwards); not applied"
            ),
        }
    }
}

/// Bounds a device's stamp by the server's time: the instant to apply the item at, or why it
/// is refused. `last_event` is the instant of the board's latest event. Pure and total.
pub fn bound_stamp(
    stamp: Option<u64>,
    last_event: Instant,
    server: ServerTime,
) -> Result<BoundedStamp, StampRejection> {
    let receipt = server.now.max(last_event);
    let stamp = match stamp {
        None | Some(0) => return Ok(BoundedStamp::Receipt { at: receipt }),
        Some(s) => s,
    };
    if stamp > server.now.saturating_add(server.tolerance_ms) {
        return Err(StampRejection::AheadOfServer {
            stamp,
            server_now: server.now,
            tolerance_ms: server.tolerance_ms,
        });
    }
    if stamp < last_event {
        return Err(StampRejection::BeforeLastEvent {
            stamp,
            last_event,
            server_now: server.now,
        });
    }
    if stamp > server.now {
        return Ok(BoundedStamp::Clamped { stamp, at: receipt });
    }
    Ok(BoundedStamp::Device(stamp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::{Game, GameConfig, GameEvent, MoveText};
    use crate::{Side, TimeControl};
    use proptest::prelude::*;

    const NOW: u64 = 1_800_000_000_000;

    fn at(now: u64, tolerance_ms: u64) -> ServerTime {
        ServerTime { now, tolerance_ms }
    }

    #[test]
    fn stamps_far_ahead_are_refused_whatever_their_size() {
        for stamp in [u64::MAX, u64::MAX - 1, i64::MAX as u64 + 1, NOW + 3_600_000] {
            let r = bound_stamp(Some(stamp), NOW - 5_000, at(NOW, 2_000)).unwrap_err();
            assert!(matches!(r, StampRejection::AheadOfServer { .. }), "{r}");
            let text = r.to_string();
            assert!(text.contains(&NOW.to_string()), "{text}");
            assert!(text.contains("tolerance 2000 ms"), "{text}");
        }
        // The tolerance itself saturates: a server at the end of time refuses nothing ahead.
        assert_eq!(
            bound_stamp(Some(u64::MAX), 0, at(u64::MAX - 1, u64::MAX)),
            Ok(BoundedStamp::Clamped {
                stamp: u64::MAX,
                at: u64::MAX - 1
            })
        );
    }

    #[test]
    fn stamps_ahead_within_the_tolerance_are_used_at_the_servers_time() {
        let b = bound_stamp(Some(NOW + 2_000), NOW - 1, at(NOW, 2_000)).unwrap();
        assert_eq!(
            b,
            BoundedStamp::Clamped {
                stamp: NOW + 2_000,
                at: NOW
            }
        );
        assert!(b.stamped());
        assert!(bound_stamp(Some(NOW + 2_001), 0, at(NOW, 2_000)).is_err());
        assert!(bound_stamp(Some(NOW + 1), 0, at(NOW, 0)).is_err());
    }

    #[test]
    fn stamps_before_the_last_event_are_refused_and_missing_ones_stamped_on_receipt() {
        let r = bound_stamp(Some(NOW - 10), NOW - 5, at(NOW, 2_000)).unwrap_err();
        assert!(matches!(r, StampRejection::BeforeLastEvent { .. }));
        assert!(r.to_string().contains("server time"), "{r}");
        assert_eq!(
            bound_stamp(Some(NOW - 5), NOW - 5, at(NOW, 2_000)),
            Ok(BoundedStamp::Device(NOW - 5))
        );
        for missing in [None, Some(0)] {
            let b = bound_stamp(missing, NOW - 5, at(NOW, 2_000)).unwrap();
            assert_eq!(b, BoundedStamp::Receipt { at: NOW });
            assert!(!b.stamped());
        }
        // A server clock stepped back behind the last event: receipt is the last event.
        assert_eq!(
            bound_stamp(None, NOW + 7, at(NOW, 2_000)),
            Ok(BoundedStamp::Receipt { at: NOW + 7 })
        );
    }

    /// A device stamp of any kind: missing, zero, the extremes, near the server's time,
    /// before the last event, anything.
    fn any_stamp() -> impl Strategy<Value = (u8, u64)> {
        (0u8..8, any::<u64>())
    }

    fn stamp_of(kind: u8, x: u64, now: u64, last: u64) -> Option<u64> {
        match kind {
            0 => None,
            1 => Some(0),
            2 => Some(u64::MAX),
            3 => Some(i64::MAX as u64 + (x % 3)),
            4 => Some(now.saturating_add(x % 5_000)),
            5 => Some(last.saturating_sub(x % 5_000)),
            6 => Some(now.saturating_sub(x % 10_000)),
            _ => Some(x),
        }
    }

    proptest! {
        /// For any sequence of stamps on a running game, the authoritative clock never moves
        /// further than the server's time: neither side's remaining time, read at the server's
        /// time, drops by more than the server time elapsed since the last event; no flag
        /// falls at an instant the server has not reached; nothing panics.
        #[test]
        fn the_clock_never_jumps_further_than_the_servers_time(
            start in 1u64..=(u64::MAX / 2),
            steps in prop::collection::vec((0u64..20_000, any_stamp(), 0usize..40, 0u8..6), 1..60),
            tolerance_ms in 0u64..=MAX_DEVICE_CLOCK_TOLERANCE_MS,
            control in prop::sample::select(vec!["60+0", "180+2", "300", "5400+30", "40/7200:1800+30"]),
        ) {
            let tc = TimeControl::parse_trf222(control).unwrap();
            let mut game = Game::new(GameConfig::new(tc)).unwrap();
            game.apply(&GameEvent::Start { at: start }).unwrap();
            let mut now = start;
            let mut last = start;
            for (advance, (kind, x), pick, what) in steps {
                let before = game.clone();
                let prev_now = now;
                now = now.saturating_add(advance);
                let server = ServerTime { now, tolerance_ms };
                let stamp = stamp_of(kind, x, now, last);
                let Ok(bounded) = bound_stamp(stamp, last, server) else { continue };
                let at = bounded.at();
                prop_assert!(at >= last && at <= now.max(last));
                let event = match what {
                    0 => GameEvent::FlagCheck { at },
                    1 => GameEvent::Pause { at },
                    2 => GameEvent::Resume { at },
                    _ => {
                        let moves = game.legal_moves_uci();
                        if moves.is_empty() {
                            GameEvent::FlagCheck { at }
                        } else {
                            GameEvent::Move { at, mv: MoveText::Uci(moves[pick % moves.len()].clone()) }
                        }
                    }
                };
                if game.apply(&event).is_ok() {
                    last = last.max(at);
                }
                // Since the board's last event the clock charges at most the server time
                // elapsed since it (a stamp behind the server's time may charge retroactively
                // from that event on, never before it, never beyond the server's time).
                let since = before.clock().last_instant();
                prop_assert!(since <= prev_now);
                for side in [Side::White, Side::Black] {
                    let was = before.clock().remaining_at(side, since);
                    let is = game.clock().remaining_at(side, now.max(game.clock().last_instant()));
                    prop_assert!(
                        was.saturating_sub(is) <= now - since,
                        "{side:?}: {was} -> {is} in {} ms of server time (stamp {stamp:?})",
                        now - since
                    );
                }
                if let Some((_, fell)) = game.clock().fallen_flag() {
                    prop_assert!(fell <= now, "flag fell at {fell}, server time {now}");
                }
                prop_assert!(game.clock().last_instant() <= now.max(start));
            }
        }
    }
}
