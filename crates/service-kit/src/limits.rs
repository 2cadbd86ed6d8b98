//! The bounds of every free-text and list field the services accept, in one place, and
//! the pure check of a text field against them (no I/O). Each refusal names the rule and
//! the limit; the caller names the field. README "Limits" lists these constants.

/// Most players in one tournament: the TRF numbers players with four digits (columns
/// 5-8 of a `001` record), so 9,999 is the largest pairing number a file can carry.
pub const MAX_PLAYERS: usize = 9_999;
/// Tournament name (the TRF `012` record has no limit; 200 is a printed title's worth).
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 200;
/// Place (city, venue).
pub const MAX_PLACE_CHARS: usize = 100;
/// Time control (PGN TimeControl notation, e.g. `40/7200:1800+30`).
pub const MAX_TIME_CONTROL_CHARS: usize = 100;
/// Player name: the TRF name field (columns 15-47).
pub const MAX_PLAYER_NAME_CHARS: usize = 33;
/// Player's club.
pub const MAX_CLUB_CHARS: usize = 100;
/// Player's national id.
pub const MAX_NATIONAL_ID_CHARS: usize = 30;
/// The reason recorded on an event (`--reason`).
pub const MAX_REASON_CHARS: usize = 1_000;
/// The announced tie-break list as text (`BH/C1,BH,SB`).
pub const MAX_TIEBREAKS_CHARS: usize = 200;
/// Tie-breaks in the announced list (C.07 lists need a handful).
pub const MAX_TIEBREAKS: usize = 20;
/// Scoring in XXS notation (`W=3 D=1 PAB=3 FW=3`).
pub const MAX_SCORING_CHARS: usize = 200;
/// Acceleration name (`degressive:A_MIN:C_BELOW`).
pub const MAX_ACCELERATION_CHARS: usize = 50;
/// A knockout's tie-break stages (`rapid:2,blitz:2,armageddon`).
pub const MAX_KNOCKOUT_TIE_BREAKS_CHARS: usize = 200;
/// Players named in one prohibited pairing (a club or a family).
pub const MAX_PROHIBITED_PLAYERS: usize = 100;
/// A player reference (id or pairing number) in a request.
pub const MAX_PLAYER_REF_CHARS: usize = 64;

/// The first control character of `text` (C0, DEL, C1: anything a terminal may act on)
/// with its 1-based character position.
pub fn first_control(text: &str) -> Option<(usize, char)> {
    text.chars()
        .enumerate()
        .find(|(_, c)| c.is_control())
        .map(|(i, c)| (i + 1, c))
}

/// Checks a free-text field: no control character, at most `max_chars` characters.
/// `Err` is the message (the caller prefixes the field).
pub fn check_text(text: &str, max_chars: usize) -> Result<(), String> {
    if let Some((pos, c)) = first_control(text) {
        return Err(format!(
            "control character U+{:04X} at character {pos}: control characters are not allowed",
            u32::from(c)
        ));
    }
    let n = text.chars().count();
    if n > max_chars {
        return Err(format!("at most {max_chars} characters, got {n}"));
    }
    Ok(())
}

/// Escapes control characters as `\u{1b}` so printed data never drives a terminal;
/// `keep_newlines` leaves `\n` (a message of several lines) as it is.
pub fn escape_controls(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && !(keep_newlines && c == '\n'))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && !(keep_newlines && c == '\n') {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_refused_with_their_position() {
        assert_eq!(check_text("Bunratty", 200), Ok(()));
        for (text, pos, code) in [
            ("A\0B", 2, "U+0000"),
            ("\u{1b}[2J", 1, "U+001B"),
            ("ab\r", 3, "U+000D"),
            ("x\ny", 2, "U+000A"),
            ("é\u{9b}", 2, "U+009B"),
        ] {
            let m = check_text(text, 200).unwrap_err();
            assert!(
                m.contains(code) && m.contains(&format!("character {pos}")),
                "{text:?}: {m}"
            );
        }
    }

    #[test]
    fn length_is_counted_in_characters_and_the_limit_is_named() {
        assert_eq!(check_text(&"é".repeat(33), MAX_PLAYER_NAME_CHARS), Ok(()));
        let m = check_text(&"é".repeat(34), MAX_PLAYER_NAME_CHARS).unwrap_err();
        assert_eq!(m, "at most 33 characters, got 34");
    }

    #[test]
    fn escaping_leaves_ordinary_text_and_shows_controls() {
        assert_eq!(escape_controls("Short, Nigel", false), "Short, Nigel");
        assert_eq!(escape_controls("a\u{1b}[2Jb", false), "a\\u{1b}[2Jb");
        assert_eq!(escape_controls("a\nb\r", true), "a\nb\\u{d}");
        assert_eq!(escape_controls("a\nb", false), "a\\u{a}b");
    }
}
