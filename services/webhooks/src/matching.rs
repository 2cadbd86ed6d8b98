//! Which webhook gets which event (pure): the event types an integrator names, the log's
//! event types behind each, and the tournament filter.
use std::collections::BTreeSet;

/// The event types a webhook may name, and the log's events behind each.
pub const EVENT_TYPES: &[(&str, &[&str], &str)] = &[
    (
        "round.published",
        &["PairingsPublished"],
        "a round's pairing is published",
    ),
    (
        "result.recorded",
        &["ResultRecorded", "ByeRecorded"],
        "a result or a bye is recorded",
    ),
    (
        "result.corrected",
        &["ResultCorrected"],
        "a result is corrected",
    ),
    (
        "standings.changed",
        &[
            "ResultRecorded",
            "ByeRecorded",
            "ResultCorrected",
            "RoundClosed",
        ],
        "a recorded or corrected result, a bye or a closed round changes the standings",
    ),
    (
        "tournament.submitted",
        &["ExternalTournamentSubmitted"],
        "a tournament is submitted for rating",
    ),
    (
        "ratinglist.published",
        &["RatingPeriodPublished"],
        "a rating list is published",
    ),
];

/// The names of [`EVENT_TYPES`], comma-separated (for error messages).
pub fn names() -> String {
    EVENT_TYPES
        .iter()
        .map(|(n, _, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `name` is one of [`EVENT_TYPES`].
pub fn known(name: &str) -> bool {
    EVENT_TYPES.iter().any(|(n, _, _)| *n == name)
}

/// What a log event is, as far as webhooks go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<'a> {
    /// The log's event type.
    pub event_type: &'a str,
    /// Its tournament, if it is about one.
    pub tournament: Option<&'a str>,
}

/// The webhook event types of `subscribed` that `e` is, for a webhook with `filter`
/// (a tournament id; `None` every tournament). Empty: not delivered. A filtered webhook
/// gets only that tournament's events, and the rating list (about no tournament) only
/// when it names no tournament.
pub fn matches(subscribed: &[String], filter: Option<&str>, e: &Candidate<'_>) -> Vec<String> {
    if let Some(f) = filter
        && e.tournament != Some(f)
    {
        return Vec::new();
    }
    let mut out = BTreeSet::new();
    for (name, log_types, _) in EVENT_TYPES {
        if log_types.contains(&e.event_type) && subscribed.iter().any(|s| s == name) {
            out.insert((*name).to_owned());
        }
    }
    out.into_iter().collect()
}

/// Whether any webhook could want a log event of this type (the dispatcher skips the
/// rest without decoding them).
pub fn interesting(event_type: &str) -> bool {
    EVENT_TYPES
        .iter()
        .any(|(_, log_types, _)| log_types.contains(&event_type))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: &[&str]) -> Vec<String> {
        x.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn one_log_event_may_be_several_webhook_types_delivered_once() {
        let sub = v(&["result.recorded", "standings.changed"]);
        let e = Candidate {
            event_type: "ResultRecorded",
            tournament: Some("t1"),
        };
        assert_eq!(matches(&sub, None, &e), sub);
        assert_eq!(matches(&sub, Some("t1"), &e), sub);
        assert!(matches(&sub, Some("t2"), &e).is_empty());
        let c = Candidate {
            event_type: "ResultCorrected",
            tournament: Some("t1"),
        };
        assert_eq!(matches(&sub, None, &c), v(&["standings.changed"]));
        let p = Candidate {
            event_type: "PairingsPublished",
            tournament: Some("t1"),
        };
        assert!(matches(&sub, None, &p).is_empty());
        assert_eq!(
            matches(&v(&["round.published"]), None, &p),
            v(&["round.published"])
        );
    }

    #[test]
    fn the_rating_list_goes_only_to_webhooks_without_a_tournament() {
        let sub = v(&["ratinglist.published"]);
        let e = Candidate {
            event_type: "RatingPeriodPublished",
            tournament: None,
        };
        assert_eq!(matches(&sub, None, &e), sub);
        assert!(matches(&sub, Some("t1"), &e).is_empty());
        assert!(interesting("RatingPeriodPublished"));
        assert!(!interesting("PlayerAdded"));
        assert!(known("round.published") && !known("round.paired"));
    }
}
