//! Token buckets per caller and class (ADR platform-010). A caller is its principal when
//! the request carries a valid token, else the address it connects from; each has one
//! bucket for writes and one for expensive reads ([`crate::limits::RpcClass`]). A bucket
//! holds up to `burst` tokens, refilled at `per_second`; a request takes one, and is
//! refused with the time until the next one when there is none.
//!
//! Small on purpose (no library in the graph does it): one mutex-guarded map, touched
//! once per limited request. Full buckets are dropped when the map grows large, since a
//! full bucket and a missing one behave alike.
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::limits::{LimitOptions, RpcClass};

/// Who a bucket belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Who {
    /// A principal (`p_…`), with a valid token.
    Principal(String),
    /// An address, for callers without a valid token (`None`: not known).
    Address(Option<IpAddr>),
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Who::Principal(p) => write!(f, "principal {p}"),
            Who::Address(Some(a)) => write!(f, "address {a}"),
            Who::Address(None) => write!(f, "an unknown address"),
        }
    }
}

/// A bucket's rate and size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Tokens added per second (0: unlimited).
    pub per_second: f64,
    /// Most tokens held.
    pub burst: u32,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn refill(&mut self, rate: Rate, now: Instant) {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + dt * rate.per_second).min(f64::from(rate.burst.max(1)));
        self.at = now;
    }
}

/// Buckets are pruned (full ones dropped) beyond this many.
const PRUNE_ABOVE: usize = 10_000;

/// The buckets of a process.
#[derive(Debug)]
pub struct RateLimiter {
    writes: Rate,
    expensive: Rate,
    buckets: Mutex<HashMap<(Who, RpcClass), Bucket>>,
}

impl RateLimiter {
    /// The limits of `options`.
    pub fn new(options: &LimitOptions) -> RateLimiter {
        RateLimiter {
            writes: Rate {
                per_second: options.rate_writes_per_second,
                burst: options.rate_writes_burst,
            },
            expensive: Rate {
                per_second: options.rate_expensive_per_second,
                burst: options.rate_expensive_burst,
            },
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The rate of `class` (`None`: not limited).
    pub fn rate(&self, class: RpcClass) -> Option<Rate> {
        let r = match class {
            RpcClass::Read => return None,
            RpcClass::Write => self.writes,
            RpcClass::Expensive => self.expensive,
        };
        (r.per_second > 0.0).then_some(r)
    }

    /// Takes a token of `caller`'s `class` bucket, or says how long until there is one.
    pub fn take(&self, caller: &Who, class: RpcClass) -> Result<(), Duration> {
        self.take_at(caller, class, Instant::now())
    }

    fn take_at(&self, caller: &Who, class: RpcClass, now: Instant) -> Result<(), Duration> {
        let Some(rate) = self.rate(class) else {
            return Ok(());
        };
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > PRUNE_ABOVE {
            let (w, e) = (self.writes, self.expensive);
            buckets.retain(|(_, c), b| {
                let r = if *c == RpcClass::Write { w } else { e };
                b.refill(r, now);
                b.tokens < f64::from(r.burst.max(1))
            });
        }
        let b = buckets.entry((caller.clone(), class)).or_insert(Bucket {
            tokens: f64::from(rate.burst.max(1)),
            at: now,
        });
        b.refill(rate, now);
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - b.tokens) / rate.per_second))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_second: f64, burst: u32) -> RateLimiter {
        RateLimiter::new(&LimitOptions {
            rate_writes_per_second: per_second,
            rate_writes_burst: burst,
            ..LimitOptions::default()
        })
    }

    #[test]
    fn a_burst_then_the_rate_and_the_wait_until_the_next_token() {
        let l = limiter(2.0, 3);
        let a = Who::Principal("p_a".into());
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(l.take_at(&a, RpcClass::Write, t0), Ok(()));
        }
        let wait = l.take_at(&a, RpcClass::Write, t0).unwrap_err();
        assert!((wait.as_secs_f64() - 0.5).abs() < 1e-6, "{wait:?}");
        // Half a second later: one token.
        let t1 = t0 + Duration::from_millis(500);
        assert_eq!(l.take_at(&a, RpcClass::Write, t1), Ok(()));
        assert!(l.take_at(&a, RpcClass::Write, t1).is_err());
        // Never more than the burst, however long it waited.
        let t2 = t1 + Duration::from_secs(3600);
        for _ in 0..3 {
            assert_eq!(l.take_at(&a, RpcClass::Write, t2), Ok(()));
        }
        assert!(l.take_at(&a, RpcClass::Write, t2).is_err());
    }

    #[test]
    fn callers_and_classes_have_buckets_of_their_own() {
        let l = limiter(1.0, 1);
        let t = Instant::now();
        let a = Who::Principal("p_a".into());
        let b = Who::Principal("p_b".into());
        let ip = Who::Address(Some("10.0.0.1".parse().unwrap()));
        assert_eq!(l.take_at(&a, RpcClass::Write, t), Ok(()));
        assert!(l.take_at(&a, RpcClass::Write, t).is_err());
        assert_eq!(l.take_at(&b, RpcClass::Write, t), Ok(()));
        assert_eq!(l.take_at(&ip, RpcClass::Write, t), Ok(()));
        assert_eq!(l.take_at(&a, RpcClass::Expensive, t), Ok(()));
        // Reads are not limited; a rate of 0 turns a class off.
        for _ in 0..1000 {
            assert_eq!(l.take_at(&a, RpcClass::Read, t), Ok(()));
        }
        let off = limiter(0.0, 1);
        for _ in 0..1000 {
            assert_eq!(off.take_at(&a, RpcClass::Write, t), Ok(()));
        }
    }

    #[test]
    fn full_buckets_are_pruned_when_there_are_many() {
        let l = limiter(1000.0, 1);
        let t = Instant::now();
        for i in 0..=PRUNE_ABOVE as u32 {
            let c = Who::Address(Some(IpAddr::from(i.to_be_bytes())));
            assert_eq!(l.take_at(&c, RpcClass::Write, t), Ok(()));
        }
        let later = t + Duration::from_secs(1);
        let c = Who::Principal("p_new".into());
        assert_eq!(l.take_at(&c, RpcClass::Write, later), Ok(()));
        assert!(l.buckets.lock().unwrap().len() < 10);
    }
}
