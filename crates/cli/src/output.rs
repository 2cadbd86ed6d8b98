//! Human tables and JSON. Text from the server is printed with its control characters
//! escaped (`\u{1b}`), so data never drives the terminal; JSON escapes them itself.
use std::io::Write as _;

pub use arbiter_service_kit::limits::escape_controls;

/// One value from the server for a terminal: every control character escaped.
pub fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, false)
}

/// Text of several lines from the server: control characters escaped but `\n`.
pub fn clean_lines(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, true)
}

/// Prints a left-aligned table with a header row.
pub fn table(header: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(clean(c).chars().count());
            }
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        let cells: Vec<std::borrow::Cow<'_, str>> = cells.iter().map(|c| clean(c)).collect();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        // never panic on a closed stdout (`arbiter … | head`)
        let _ = writeln!(std::io::stdout().lock(), "{}", s.trim_end());
    };
    line(header.to_vec());
    for r in rows {
        line(r.iter().map(String::as_str).collect());
    }
}

/// Pretty JSON on stdout.
pub fn json(v: &serde_json::Value) {
    let _ = writeln!(
        std::io::stdout().lock(),
        "{}",
        serde_json::to_string_pretty(v).unwrap_or_default()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_text_is_printed_with_control_characters_escaped() {
        assert_eq!(clean("Open\u{1b}[2J\0"), "Open\\u{1b}[2J\\u{0}");
        assert_eq!(clean_lines("a\nb\r"), "a\nb\\u{d}");
        assert_eq!(clean("Short, Nigel"), "Short, Nigel");
    }
}
