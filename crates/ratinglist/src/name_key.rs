//! Name search keys: case- and diacritics-insensitive form of "Surname, Firstname"
//! (ADR ratinglist-004).
//!
//! - letters are lower-cased and stripped of diacritics (Latin-1, Latin Extended-A, and
//!   `Ș ș Ț ț Ơ ơ Ư ư`); `Æ`→`ae`, `Œ`→`oe`, `ß`→`ss`, `Þ`→`th`, `Ĳ`→`ij`, `Ø`→`o`,
//!   `Ł`→`l`, `Đ`/`Ð`→`d`;
//! - whitespace, `-` and `_` separate words: a run of them is one space;
//! - `,` is kept (it separates surname and first names) and spaces around it are dropped;
//! - other punctuation (`'`, `’`, `.`, `(`…) is dropped;
//! - leading and trailing spaces are dropped.
//!
//! So "Vachier-Lagrave, Maxime", "vachier lagrave,maxime" and "VACHIER LAGRAVE , Maxime"
//! have the same key, and "Nuñez" matches "nunez". Keys are produced as a character
//! iterator ([`key_chars`]) so that a directory can compare names without storing keys.

use std::cmp::Ordering;

/// The ASCII folding of one character: up to two characters (`'\0'` = none).
fn fold(c: char) -> [char; 2] {
    const N: char = '\0';
    let one = |x: char| [x, N];
    let u = u32::from(c);
    match u {
        0x00C0..=0x00C5 | 0x00E0..=0x00E5 | 0x0100..=0x0105 => one('a'),
        0x00C6 | 0x00E6 => ['a', 'e'],
        0x00C7 | 0x00E7 | 0x0106..=0x010D => one('c'),
        0x00C8..=0x00CB | 0x00E8..=0x00EB | 0x0112..=0x011B => one('e'),
        0x00CC..=0x00CF | 0x00EC..=0x00EF | 0x0128..=0x0131 => one('i'),
        0x00D0 | 0x00F0 | 0x010E..=0x0111 => one('d'),
        0x00D1 | 0x00F1 | 0x0143..=0x014B => one('n'),
        0x00D2..=0x00D6 | 0x00D8 | 0x00F2..=0x00F6 | 0x00F8 | 0x014C..=0x0151 | 0x01A0 | 0x01A1 => {
            one('o')
        }
        0x00D9..=0x00DC | 0x00F9..=0x00FC | 0x0168..=0x0173 | 0x01AF | 0x01B0 => one('u'),
        0x00DD | 0x00FD | 0x00FF | 0x0176..=0x0178 => one('y'),
        0x00DE | 0x00FE => ['t', 'h'],
        0x00DF => ['s', 's'],
        0x011C..=0x0123 => one('g'),
        0x0124..=0x0127 => one('h'),
        0x0132 | 0x0133 => ['i', 'j'],
        0x0134 | 0x0135 => one('j'),
        0x0136..=0x0138 => one('k'),
        0x0139..=0x0142 => one('l'),
        0x0152 | 0x0153 => ['o', 'e'],
        0x0154..=0x0159 => one('r'),
        0x015A..=0x0161 | 0x017F | 0x0218 | 0x0219 => one('s'),
        0x0162..=0x0167 | 0x021A | 0x021B => one('t'),
        0x0174 | 0x0175 => one('w'),
        0x0179..=0x017E => one('z'),
        _ if c.is_ascii() => one(c.to_ascii_lowercase()),
        _ => {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(a), None) => one(a),
                (Some(a), Some(b)) => [a, b],
                _ => one(c),
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Word,
    Space,
    Comma,
    Drop,
}

fn class(c: char) -> Class {
    if c.is_whitespace() || c == '-' || c == '_' {
        Class::Space
    } else if c == ',' {
        Class::Comma
    } else if c.is_alphanumeric() {
        Class::Word
    } else {
        Class::Drop
    }
}

/// Iterator of the key characters of a name.
#[derive(Debug, Clone)]
pub struct KeyChars<'a> {
    rest: std::str::Chars<'a>,
    /// Folded characters waiting to be yielded (second slot first).
    queue: [char; 3],
    queued: usize,
    /// A space is due before the next word character.
    space_pending: bool,
    /// Something has been yielded (no leading space).
    started: bool,
}

/// The key of `name`, as characters.
pub fn key_chars(name: &str) -> KeyChars<'_> {
    KeyChars {
        rest: name.chars(),
        queue: ['\0'; 3],
        queued: 0,
        space_pending: false,
        started: false,
    }
}

impl Iterator for KeyChars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        loop {
            if self.queued > 0 {
                self.queued -= 1;
                return Some(self.queue[self.queued]);
            }
            let c = self.rest.next()?;
            match class(c) {
                Class::Space => self.space_pending = self.started,
                Class::Comma => {
                    self.space_pending = false;
                    self.started = false;
                    return Some(',');
                }
                Class::Drop => {}
                Class::Word => {
                    let [a, b] = fold(c);
                    // Queue is a stack: push in reverse order.
                    if b != '\0' {
                        self.queue[self.queued] = b;
                        self.queued += 1;
                    }
                    self.queue[self.queued] = a;
                    self.queued += 1;
                    if self.space_pending {
                        self.space_pending = false;
                        self.queue[self.queued] = ' ';
                        self.queued += 1;
                    }
                    self.started = true;
                }
            }
        }
    }
}

/// The key of `name` as a string.
pub fn name_key(name: &str) -> String {
    key_chars(name).collect()
}

/// Compares two names by key.
pub fn compare_keys(a: &str, b: &str) -> Ordering {
    key_chars(a).cmp(key_chars(b))
}

/// True if the key of `name` starts with `key_prefix` (already a key).
pub fn key_starts_with(name: &str, key_prefix: &str) -> bool {
    let mut k = key_chars(name);
    key_prefix.chars().all(|p| k.next() == Some(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_examples() {
        assert_eq!(name_key("Carlsen, Magnus"), "carlsen,magnus");
        assert_eq!(
            name_key("  VACHIER-LAGRAVE ,  Maxime "),
            "vachier lagrave,maxime"
        );
        assert_eq!(name_key("Núñez, José"), "nunez,jose");
        assert_eq!(name_key("Şahin, Çağrı"), "sahin,cagri");
        assert_eq!(name_key("Strauß, Øystein"), "strauss,oystein");
        assert_eq!(name_key("O'Connor, Ana-María"), "oconnor,ana maria");
        assert_eq!(name_key("Łukasz Ţurcanu"), "lukasz turcanu");
        assert_eq!(name_key(""), "");
    }

    #[test]
    fn prefix() {
        assert!(key_starts_with("Carlsen, Magnus", "carlsen,m"));
        assert!(key_starts_with("Carlsen, Magnus", ""));
        assert!(!key_starts_with("Carlsen", "carlsen,"));
    }
}
