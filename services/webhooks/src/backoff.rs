//! When a failed delivery is tried again (pure): exponential backoff with equal jitter,
//! bounded by a number of attempts and by a total time since the first attempt.
use std::time::Duration;

/// The retry schedule (`arbiterd --webhook-backoff-base-ms`, `--webhook-backoff-max-ms`,
/// `--webhook-max-attempts`, `--webhook-give-up-after-s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// The wait after the first failure (before jitter).
    pub base: Duration,
    /// No wait is longer.
    pub max: Duration,
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// No attempt starts later than this after the first.
    pub give_up_after: Duration,
}

impl Default for Schedule {
    /// 10 s, 20 s, 40 s … up to 1 h between attempts, for about a day: 32 attempts
    /// within 24 h.
    fn default() -> Schedule {
        Schedule {
            base: Duration::from_secs(10),
            max: Duration::from_secs(3600),
            attempts: 32,
            give_up_after: Duration::from_secs(24 * 3600),
        }
    }
}

impl Schedule {
    /// The wait before attempt `failed + 1` after `failed` attempts failed (`failed` ≥ 1),
    /// `since_first` after the first attempt began; `jitter` in [0, 1) (random in the
    /// shell). `None`: give up. The wait is `d/2 + jitter·d/2` with
    /// `d = min(base·2^(failed-1), max)`: never less than half the exponential step, so
    /// retries spread out without bunching.
    pub fn next(&self, failed: u32, since_first: Duration, jitter: f64) -> Option<Duration> {
        if failed == 0 || failed >= self.attempts {
            return None;
        }
        let exp = failed.saturating_sub(1).min(40);
        let d = self
            .base
            .checked_mul(1u32 << exp.min(31))
            .unwrap_or(self.max)
            .min(self.max);
        let jitter = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let wait = d / 2 + d.mul_f64(jitter / 2.0);
        (since_first + wait <= self.give_up_after).then_some(wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(base: u64, max: u64, attempts: u32, within: u64) -> Schedule {
        Schedule {
            base: Duration::from_secs(base),
            max: Duration::from_secs(max),
            attempts,
            give_up_after: Duration::from_secs(within),
        }
    }

    #[test]
    fn waits_double_up_to_the_max_within_the_jitter_band() {
        let sch = s(10, 3600, 32, 86_400);
        let z = Duration::ZERO;
        assert_eq!(sch.next(1, z, 0.0), Some(Duration::from_secs(5)));
        assert_eq!(sch.next(1, z, 1.0), Some(Duration::from_secs(10)));
        assert_eq!(sch.next(2, z, 0.0), Some(Duration::from_secs(10)));
        assert_eq!(sch.next(3, z, 1.0), Some(Duration::from_secs(40)));
        // capped
        assert_eq!(sch.next(20, z, 1.0), Some(Duration::from_secs(3600)));
        assert_eq!(sch.next(20, z, 0.0), Some(Duration::from_secs(1800)));
        // never overflows
        assert_eq!(sch.next(31, z, 1.0), Some(Duration::from_secs(3600)));
        for failed in 1..32 {
            for j in [0.0, 0.3, 0.999, f64::NAN, -1.0, 7.0] {
                let w = sch.next(failed, z, j).unwrap();
                assert!(w <= sch.max && w >= Duration::from_secs(5));
            }
        }
    }

    #[test]
    fn bounded_by_attempts_and_by_time() {
        let sch = s(10, 3600, 3, 100);
        assert!(sch.next(2, Duration::ZERO, 0.5).is_some());
        assert_eq!(sch.next(3, Duration::ZERO, 0.5), None, "3 attempts in all");
        assert_eq!(sch.next(0, Duration::ZERO, 0.5), None);
        assert_eq!(
            sch.next(1, Duration::from_secs(96), 0.0),
            None,
            "past 100 s"
        );
        assert!(sch.next(1, Duration::from_secs(95), 0.0).is_some());
    }

    #[test]
    fn the_default_schedule_lasts_about_a_day() {
        let sch = Schedule::default();
        let (mut t, mut n) = (Duration::ZERO, 1);
        while let Some(w) = sch.next(n, t, 1.0) {
            t += w;
            n += 1;
        }
        assert!(t > Duration::from_secs(20 * 3600) && t <= Duration::from_secs(24 * 3600));
        assert!(n <= 32);
    }
}
