//! FIDE download XML files (`players_list_xml_foa.xml` and the older single-list XML):
//! a `<playerslist>` of `<player>` elements whose children are one field each
//! (`<fideid>`, `<name>`, `<country>`, `<sex>`, `<title>`, `<w_title>`, `<o_title>`,
//! `<foa_title>`, `<rating>`, `<games>`, `<k>`, `<rapid_rating>`, `<rapid_games>`,
//! `<rapid_k>`, `<blitz_rating>`, `<blitz_games>`, `<blitz_k>`, `<birthday>`, `<flag>`).
//!
//! A small streaming scanner, enough for this flat format: elements, text, the five
//! predefined entities and character references, comments, CDATA, processing instructions
//! and a DOCTYPE (skipped). Attributes are ignored. Missing children are blank; unknown
//! children are ignored; children may come in any order. `<player>` elements are found at
//! any depth. After malformed XML the current player is reported once and skipped, and
//! reading goes on with the next `<player>`.

use std::io::BufRead;

use crate::error::ListError;
use crate::fields::{self, APPLY_ORDER, Field};
use crate::input::{Input, MAX_ITEM_BYTES, decode_cow};
use crate::player::{ListPlayer, RatingKind};
use crate::reader::ReadOptions;

/// Deepest element nesting accepted.
const MAX_DEPTH: usize = 64;

fn field_for_element(name: &str, plain: RatingKind) -> Option<Field> {
    use RatingKind::*;
    // Element names are lower case in FIDE files: no allocation unless they are not.
    let lowered;
    let n = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        lowered = name.to_ascii_lowercase();
        lowered.as_str()
    } else {
        name
    };
    Some(match n {
        "fideid" | "fide_id" | "id" => Field::FideId,
        "name" => Field::Name,
        "country" | "federation" | "fed" => Field::Federation,
        "sex" | "gender" => Field::Sex,
        "title" => Field::Title,
        "w_title" => Field::WomenTitle,
        "o_title" => Field::OtherTitles,
        "foa_title" | "foa" => Field::Foa,
        "rating" => Field::Rating(plain),
        "games" => Field::Games(plain),
        "k" => Field::K(plain),
        "standard_rating" => Field::Rating(Standard),
        "standard_games" => Field::Games(Standard),
        "standard_k" => Field::K(Standard),
        "rapid_rating" => Field::Rating(Rapid),
        "rapid_games" => Field::Games(Rapid),
        "rapid_k" => Field::K(Rapid),
        "blitz_rating" => Field::Rating(Blitz),
        "blitz_games" => Field::Games(Blitz),
        "blitz_k" => Field::K(Blitz),
        "birthday" | "birthyear" | "born" | "b_year" => Field::BirthYear,
        "flag" | "flags" => Field::Flags,
        _ => return None,
    })
}

/// Replaces the predefined entities and character references. Returns the byte offset of
/// the first bad reference on error.
fn unescape_into(text: &str, out: &mut String) -> Result<(), (usize, String)> {
    let mut rest = text;
    let mut offset = 0;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';').filter(|&s| s <= 12) else {
            return Err((offset + amp, "`&` not starting an entity".into()));
        };
        let entity = &after[..semi];
        let c = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let code =
                    if let Some(hex) = entity.strip_prefix("#x").or(entity.strip_prefix("#X")) {
                        u32::from_str_radix(hex, 16).ok()
                    } else if let Some(dec) = entity.strip_prefix('#') {
                        dec.parse::<u32>().ok()
                    } else {
                        None
                    };
                code.and_then(char::from_u32)
            }
        };
        match c {
            Some(c) => out.push(c),
            None => return Err((offset + amp, format!("unknown entity `&{entity};`"))),
        }
        let consumed = amp + 1 + semi + 1;
        offset += consumed;
        rest = &rest[consumed..];
    }
    out.push_str(rest);
    Ok(())
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' || c == ':' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

/// Names of the open elements, in one string (no allocation per element).
#[derive(Debug, Default)]
struct ElementStack {
    names: String,
    starts: Vec<usize>,
}

impl ElementStack {
    fn len(&self) -> usize {
        self.starts.len()
    }

    fn get(&self, i: usize) -> &str {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.names.len());
        &self.names[self.starts[i]..end]
    }

    fn last(&self) -> Option<&str> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }

    fn push(&mut self, name: &str) {
        self.starts.push(self.names.len());
        self.names.push_str(name);
    }

    fn rposition(&self, name: &str) -> Option<usize> {
        (0..self.len()).rev().find(|&i| self.get(i) == name)
    }

    fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.names.truncate(self.starts[len]);
            self.starts.truncate(len);
        }
    }
}

/// Streaming reader of an XML list.
#[derive(Debug)]
pub struct XmlReader<R> {
    pub(crate) input: Input<R>,
    plain: RatingKind,
    text: Vec<u8>,
    tag: Vec<u8>,
    stack: ElementStack,
    tag_text: String,
    /// Stack length when the current `<player>` was opened (the player is `stack[depth]`).
    player_depth: Option<usize>,
    /// The current player already produced an error; it is skipped.
    poisoned: bool,
    player_pos: (u64, u32),
    /// Field being read (direct child of the player), with the position of its text.
    field: Option<(Field, u64, u32)>,
    field_text: String,
    values: Vec<String>,
    present: Vec<Option<(u64, u32)>>,
    finished: bool,
}

impl<R: BufRead> XmlReader<R> {
    pub(crate) fn start(input: Input<R>, options: &ReadOptions) -> XmlReader<R> {
        XmlReader {
            input,
            plain: options.plain_rating_kind,
            text: Vec::new(),
            tag: Vec::new(),
            stack: ElementStack::default(),
            tag_text: String::new(),
            player_depth: None,
            poisoned: false,
            player_pos: (1, 1),
            field: None,
            field_text: String::new(),
            values: vec![String::new(); Field::COUNT],
            present: vec![None; Field::COUNT],
            finished: false,
        }
    }

    /// Bytes consumed from the underlying reader so far.
    pub fn bytes_consumed(&self) -> u64 {
        self.input.bytes
    }

    /// Returns the underlying reader.
    pub fn into_inner(self) -> R {
        self.input.into_inner()
    }

    fn xml_error(&mut self, line: u64, column: u32, problem: impl Into<String>) -> ListError {
        if self.player_depth.is_some() {
            self.poisoned = true;
        }
        ListError::Xml {
            line,
            column,
            problem: problem.into(),
        }
    }

    /// Adds text (raw bytes, entities not yet replaced) to the current field.
    fn add_text(&mut self, raw_is_cdata: bool, pos: (u64, u32)) -> Result<(), ListError> {
        let in_field =
            self.field.is_some() && self.player_depth.is_some_and(|d| self.stack.len() == d + 2);
        if !in_field || self.poisoned {
            return Ok(());
        }
        let raw = if raw_is_cdata { &self.tag } else { &self.text };
        let decoded = decode_cow(raw);
        if self.field_text.len() + decoded.len() > MAX_ITEM_BYTES {
            let e = ListError::TooLong {
                line: pos.0,
                column: pos.1,
                max: MAX_ITEM_BYTES,
            };
            self.poisoned = true;
            return Err(e);
        }
        if raw_is_cdata {
            let inner = decoded
                .strip_prefix("![CDATA[")
                .and_then(|s| s.strip_suffix("]]"))
                .unwrap_or("");
            self.field_text.push_str(inner);
            return Ok(());
        }
        let result = unescape_into(&decoded, &mut self.field_text);
        if let Err((offset, problem)) = result {
            let before = &decoded[..offset];
            let newlines = before.matches('\n').count() as u64;
            let column = match before.rfind('\n') {
                Some(last) => 1 + before[last + 1..].chars().count() as u32,
                None => pos.1 + before.chars().count() as u32,
            };
            return Err(self.xml_error(pos.0 + newlines, column, problem));
        }
        Ok(())
    }

    fn begin_player(&mut self, pos: (u64, u32)) {
        self.player_depth = Some(self.stack.len());
        self.poisoned = false;
        self.player_pos = pos;
        self.field = None;
        self.present.iter_mut().for_each(|p| *p = None);
    }

    fn finish_player(&mut self) -> Option<Result<ListPlayer, ListError>> {
        self.player_depth = None;
        self.field = None;
        if self.poisoned {
            self.poisoned = false;
            return None;
        }
        let mut player = ListPlayer::new(0, String::new());
        for field in APPLY_ORDER {
            let (text, (line, column)) = match self.present[field.index()] {
                Some(pos) => (self.values[field.index()].as_str(), pos),
                None if matches!(field, Field::FideId | Field::Name) => ("", self.player_pos),
                None => continue,
            };
            if let Err(problem) = fields::apply(&mut player, field, text) {
                return Some(Err(ListError::Field {
                    line,
                    column,
                    field: field.xml_name(),
                    problem,
                    found: fields::shown(text),
                }));
            }
        }
        Some(Ok(player))
    }

    /// Handles one tag (content between `<` and `>`); may produce an item.
    fn handle_tag(&mut self, pos: (u64, u32)) -> Option<Result<ListPlayer, ListError>> {
        let mut tag_text = std::mem::take(&mut self.tag_text);
        tag_text.clear();
        tag_text.push_str(&decode_cow(&self.tag));
        let item = self.handle_tag_text(&tag_text, pos);
        self.tag_text = tag_text;
        item
    }

    fn handle_tag_text(
        &mut self,
        tag: &str,
        pos: (u64, u32),
    ) -> Option<Result<ListPlayer, ListError>> {
        if tag.starts_with('?') || tag.starts_with('!') {
            if tag.starts_with("![CDATA[") {
                return self.add_text(true, pos).err().map(Err);
            }
            return None;
        }
        if let Some(end) = tag.strip_prefix('/') {
            let name = end.trim_end();
            if !valid_name(name) {
                return Some(Err(self.xml_error(
                    pos.0,
                    pos.1,
                    format!("malformed end tag `<{tag}>`"),
                )));
            }
            return self.end_element(name, pos);
        }
        let self_closing = tag.ends_with('/');
        let body = tag.strip_suffix('/').unwrap_or(tag);
        let name = body.split(|c: char| c.is_whitespace()).next().unwrap_or("");
        if !valid_name(name) {
            return Some(Err(self.xml_error(
                pos.0,
                pos.1,
                format!("malformed tag `<{tag}>`"),
            )));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Some(Err(self.xml_error(
                pos.0,
                pos.1,
                format!("elements nested deeper than {MAX_DEPTH}"),
            )));
        }
        let after_tag = (self.input.line, self.input.column);
        match self.player_depth {
            None if name == "player" => {
                self.begin_player(pos);
                if self_closing {
                    return self.finish_player();
                }
            }
            Some(d) if self.stack.len() == d + 1 => {
                self.field =
                    field_for_element(name, self.plain).map(|f| (f, after_tag.0, after_tag.1));
                self.field_text.clear();
                if self_closing {
                    if let Some((f, l, c)) = self.field.take() {
                        self.values[f.index()].clear();
                        self.present[f.index()] = Some((l, c));
                    }
                    return None;
                }
            }
            _ => {}
        }
        if !self_closing {
            self.stack.push(name);
        }
        None
    }

    fn end_element(
        &mut self,
        name: &str,
        pos: (u64, u32),
    ) -> Option<Result<ListPlayer, ListError>> {
        let mut error = None;
        match self.stack.rposition(name) {
            Some(i) => {
                if i + 1 != self.stack.len() {
                    let open = self.stack.last().unwrap_or_default().to_string();
                    error = Some(self.xml_error(
                        pos.0,
                        pos.1,
                        format!("expected `</{open}>`, found `</{name}>`"),
                    ));
                }
                self.stack.truncate(i);
            }
            None => {
                return Some(Err(self.xml_error(
                    pos.0,
                    pos.1,
                    format!("`</{name}>` closes no open element"),
                )));
            }
        }
        let mut item = None;
        if let Some(d) = self.player_depth {
            if self.stack.len() <= d + 1
                && let Some((f, l, c)) = self.field.take()
            {
                std::mem::swap(&mut self.values[f.index()], &mut self.field_text);
                self.field_text.clear();
                self.present[f.index()] = Some((l, c));
            }
            if self.stack.len() <= d {
                item = self.finish_player();
            }
        }
        match error {
            Some(e) => Some(Err(e)),
            None => item,
        }
    }
}

impl<R: BufRead> Iterator for XmlReader<R> {
    type Item = Result<ListPlayer, ListError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.finished {
                return None;
            }
            // Text up to the next `<`.
            let text_pos = (self.input.line, self.input.column);
            self.text.clear();
            let outcome = match self.input.read_until(b'<', &mut self.text, MAX_ITEM_BYTES) {
                Ok(o) => o,
                Err(e) => {
                    self.finished = true;
                    return Some(Err(ListError::io(text_pos.0, &e)));
                }
            };
            if outcome.overflow {
                // Only the text of a field matters; overlong text elsewhere is ignored.
                let in_field = self.field.is_some()
                    && self.player_depth.is_some_and(|d| self.stack.len() == d + 2);
                if in_field && !self.poisoned {
                    self.poisoned = true;
                    return Some(Err(ListError::TooLong {
                        line: text_pos.0,
                        column: text_pos.1,
                        max: MAX_ITEM_BYTES,
                    }));
                }
            } else if let Err(e) = self.add_text(false, text_pos) {
                // add_text reports nothing for a player already broken.
                return Some(Err(e));
            }
            if !outcome.delimited {
                self.finished = true;
                if let Some(open) = self.stack.last().map(str::to_string) {
                    let (l, c) = (self.input.line, self.input.column);
                    let e =
                        self.xml_error(l, c, format!("unexpected end of input inside `<{open}>`"));
                    // The player is lost; report once.
                    return Some(Err(e));
                }
                return None;
            }
            // The tag: `<` was just consumed.
            let tag_pos = (self.input.line, self.input.column.saturating_sub(1).max(1));
            self.tag.clear();
            let mut outcome = match self.input.read_until(b'>', &mut self.tag, MAX_ITEM_BYTES) {
                Ok(o) => o,
                Err(e) => {
                    self.finished = true;
                    return Some(Err(ListError::io(tag_pos.0, &e)));
                }
            };
            // Comments and CDATA may contain `>`: read on to their real end, found from the
            // last bytes read whatever the length. A comment's content is not kept; CDATA is
            // limited like any text.
            let comment = self.tag.starts_with(b"!--");
            let cdata = self.tag.starts_with(b"![CDATA[");
            let mut complete = if comment {
                outcome.content_len >= 5 && outcome.ends_with(b"--")
            } else {
                !cdata || (outcome.content_len >= 10 && outcome.ends_with(b"]]"))
            };
            while !complete && outcome.delimited {
                let limit = if comment { 0 } else { MAX_ITEM_BYTES };
                if !comment {
                    self.tag.push(b'>');
                }
                let overflow_before = outcome.overflow;
                outcome = match self.input.read_until(b'>', &mut self.tag, limit) {
                    Ok(o) => o,
                    Err(e) => {
                        self.finished = true;
                        return Some(Err(ListError::io(tag_pos.0, &e)));
                    }
                };
                outcome.overflow |= overflow_before && !comment;
                if comment {
                    outcome.overflow = false;
                }
                complete = outcome.ends_with(if comment { b"--" } else { b"]]" });
            }
            if comment && outcome.delimited {
                continue;
            }
            if !outcome.delimited {
                self.finished = true;
                return Some(Err(self.xml_error(
                    tag_pos.0,
                    tag_pos.1,
                    "unexpected end of input inside a tag",
                )));
            }
            if outcome.overflow {
                let was_poisoned = self.poisoned && self.player_depth.is_some();
                if self.player_depth.is_some() {
                    self.poisoned = true;
                }
                if was_poisoned {
                    continue;
                }
                return Some(Err(ListError::TooLong {
                    line: tag_pos.0,
                    column: tag_pos.1,
                    max: MAX_ITEM_BYTES,
                }));
            }
            // Once a player is known to be broken, later errors inside it are not repeated.
            let was_poisoned = self.poisoned && self.player_depth.is_some();
            match self.handle_tag(tag_pos) {
                Some(Err(_)) if was_poisoned => continue,
                Some(item) => return Some(item),
                None => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities() {
        let mut s = String::new();
        unescape_into("O&apos;Brien &amp; Co &#233;&#xE9;", &mut s).unwrap();
        assert_eq!(s, "O'Brien & Co éé");
        let mut s = String::new();
        assert!(unescape_into("a & b", &mut s).is_err());
        let mut s = String::new();
        assert_eq!(unescape_into("ab&nbsp;", &mut s).unwrap_err().0, 2);
    }

    #[test]
    fn names() {
        assert!(valid_name("player"));
        assert!(valid_name("w_title"));
        assert!(!valid_name(""));
        assert!(!valid_name("1a"));
        assert!(!valid_name(" player"));
    }
}
