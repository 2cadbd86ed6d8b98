//! The heading every sheet starts with: the event, then what the sheet is.
use crate::model::Event;

/// "Spring Open, Limerick, 2026-02-20 – 2026-02-22" (the parts given).
#[must_use]
pub fn event_line(e: &Event) -> String {
    let mut parts = vec![e.name.clone()];
    if !e.place.is_empty() {
        parts.push(e.place.clone());
    }
    match (e.start_date.as_str(), e.end_date.as_str()) {
        ("", "") => {}
        (s, "") => parts.push(s.to_owned()),
        ("", t) => parts.push(t.to_owned()),
        (s, t) if s == t => parts.push(s.to_owned()),
        (s, t) => parts.push(format!("{s} – {t}")),
    }
    parts.join(", ")
}

/// The text heading: the event line and the sheet's title, then a blank line.
#[must_use]
pub fn text(e: &Event, title: &str) -> String {
    format!("{}\n{title}\n\n", event_line(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_line_names_what_is_given() {
        let mut e = Event {
            name: "Spring Open".into(),
            ..Event::default()
        };
        assert_eq!(event_line(&e), "Spring Open");
        e.place = "Limerick".into();
        e.start_date = "2026-02-20".into();
        e.end_date = "2026-02-22".into();
        assert_eq!(
            event_line(&e),
            "Spring Open, Limerick, 2026-02-20 – 2026-02-22"
        );
    }
}
