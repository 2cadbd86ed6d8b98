//! Streaming input: bounded reads from a caller's [`BufRead`] with byte, line and column
//! counting, and Latin-1/UTF-8 decoding. Memory is bounded by the item limit, never by the
//! size of the file.

use std::borrow::Cow;
use std::io::{self, BufRead};

/// The longest TXT line or XML text/tag kept, in bytes (a FIDE line is 162 bytes). Longer
/// items are skipped with [`crate::ListError::TooLong`].
pub const MAX_ITEM_BYTES: usize = 4096;

/// A reader with counters.
#[derive(Debug)]
pub(crate) struct Input<R> {
    reader: R,
    /// Bytes consumed from the reader.
    pub(crate) bytes: u64,
    /// 1-based line of the next byte.
    pub(crate) line: u64,
    /// 1-based column (characters) of the next byte.
    pub(crate) column: u32,
}

/// What a bounded read found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReadOutcome {
    /// The delimiter was found (and consumed, not stored).
    pub(crate) delimited: bool,
    /// More than the limit was read; the kept bytes are the first `limit`.
    pub(crate) overflow: bool,
    /// Bytes consumed, delimiter included.
    pub(crate) consumed: usize,
    /// The last two content bytes before the delimiter (whatever the limit), `tail_len` of
    /// them valid (at most 2): lets a caller find `-->` or `]]>` ends of any length.
    pub(crate) tail: [u8; 2],
    /// Number of content bytes read (delimiter excluded), whatever the limit.
    pub(crate) content_len: usize,
}

impl ReadOutcome {
    /// True if the content read ends with `end` (two bytes).
    pub(crate) fn ends_with(&self, end: &[u8; 2]) -> bool {
        self.content_len >= 2 && &self.tail == end
    }
}

fn is_char_start(b: u8) -> bool {
    b & 0xC0 != 0x80
}

fn fill<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    reader.fill_buf()
}

/// Moves a (line, column) position over consumed bytes.
fn advance(line: &mut u64, column: &mut u32, consumed: &[u8]) {
    match consumed.iter().rposition(|&b| b == b'\n') {
        Some(last) => {
            let newlines = consumed.iter().filter(|&&b| b == b'\n').count();
            *line += newlines as u64;
            let tail = &consumed[last + 1..];
            *column = 1 + tail.iter().filter(|&&b| is_char_start(b)).count() as u32;
        }
        None => {
            let chars = consumed.iter().filter(|&&b| is_char_start(b)).count() as u32;
            *column = column.saturating_add(chars);
        }
    }
}

impl<R: BufRead> Input<R> {
    pub(crate) fn new(reader: R) -> Input<R> {
        Input {
            reader,
            bytes: 0,
            line: 1,
            column: 1,
        }
    }

    pub(crate) fn into_inner(self) -> R {
        self.reader
    }

    /// Reads up to and including `delim`, storing at most `limit` bytes of the content (the
    /// delimiter is not stored) and consuming the rest of the item regardless.
    pub(crate) fn read_until(
        &mut self,
        delim: u8,
        buf: &mut Vec<u8>,
        limit: usize,
    ) -> io::Result<ReadOutcome> {
        let mut outcome = ReadOutcome {
            delimited: false,
            overflow: false,
            consumed: 0,
            tail: [0; 2],
            content_len: 0,
        };
        loop {
            let avail = fill(&mut self.reader)?;
            if avail.is_empty() {
                return Ok(outcome);
            }
            let (used, done) = match avail.iter().position(|&b| b == delim) {
                Some(i) => (i + 1, true),
                None => (avail.len(), false),
            };
            let content = if done {
                &avail[..used - 1]
            } else {
                &avail[..used]
            };
            match content.len() {
                0 => {}
                1 => outcome.tail = [outcome.tail[1], content[0]],
                n => outcome.tail = [content[n - 2], content[n - 1]],
            }
            outcome.content_len += content.len();
            let room = limit.saturating_sub(buf.len());
            if content.len() > room {
                buf.extend_from_slice(&content[..room]);
                outcome.overflow = true;
            } else {
                buf.extend_from_slice(content);
            }
            advance(&mut self.line, &mut self.column, &avail[..used]);
            self.reader.consume(used);
            self.bytes += used as u64;
            outcome.consumed += used;
            if done {
                outcome.delimited = true;
                return Ok(outcome);
            }
        }
    }

    /// Skips a UTF-8 byte-order mark and ASCII whitespace; returns the next byte without
    /// consuming it (`None` at end of input).
    pub(crate) fn skip_bom_and_whitespace(&mut self) -> io::Result<Option<u8>> {
        // The BOM may be split across buffer refills: match it byte by byte.
        const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
        let mut matched = 0;
        while matched < BOM.len() {
            let avail = fill(&mut self.reader)?;
            if avail.first() != Some(&BOM[matched]) {
                break;
            }
            self.reader.consume(1);
            self.bytes += 1;
            matched += 1;
        }
        if matched != 0 && matched != BOM.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "input starts with an incomplete UTF-8 byte-order mark",
            ));
        }
        loop {
            let avail = fill(&mut self.reader)?;
            if avail.is_empty() {
                return Ok(None);
            }
            let n = avail
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(avail.len());
            let first = avail.get(n).copied();
            advance(&mut self.line, &mut self.column, &avail[..n]);
            self.reader.consume(n);
            self.bytes += n as u64;
            if let Some(b) = first {
                return Ok(Some(b));
            }
        }
    }
}

/// Decodes one item: UTF-8 when valid, otherwise Latin-1 (ISO 8859-1, one byte per
/// character). See ADR ratinglist-001.
pub(crate) fn decode<'a>(raw: &'a [u8], scratch: &'a mut String) -> &'a str {
    match std::str::from_utf8(raw) {
        Ok(s) => s,
        Err(_) => {
            scratch.clear();
            scratch.extend(raw.iter().map(|&b| char::from(b)));
            scratch
        }
    }
}

/// Decodes to an owned or borrowed string (used for XML texts).
pub(crate) fn decode_cow(raw: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(raw) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(raw.iter().map(|&b| char::from(b)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_read_counts_bytes_lines_columns() {
        let data = b"ab\ncd\xC3\xA9f\nlong line here\n";
        let mut input = Input::new(std::io::BufReader::with_capacity(2, &data[..]));
        let mut buf = Vec::new();
        let o = input.read_until(b'\n', &mut buf, 10).unwrap();
        assert!(o.delimited && !o.overflow);
        assert_eq!(buf, b"ab");
        assert_eq!((input.line, input.column, input.bytes), (2, 1, 3));
        buf.clear();
        input.read_until(b'f', &mut buf, 10).unwrap();
        assert_eq!(input.column, 5, "é is one column");
        buf.clear();
        input.read_until(b'\n', &mut buf, 10).unwrap();
        buf.clear();
        let o = input.read_until(b'\n', &mut buf, 4).unwrap();
        assert!(o.overflow && o.delimited);
        assert_eq!(buf, b"long");
        assert_eq!(input.bytes, data.len() as u64);
        buf.clear();
        let o = input.read_until(b'\n', &mut buf, 4).unwrap();
        assert_eq!(o.consumed, 0);
    }

    #[test]
    fn latin1_fallback() {
        let mut s = String::new();
        assert_eq!(decode(b"M\xFCller", &mut s), "Müller");
        let mut s = String::new();
        assert_eq!(decode("Müller".as_bytes(), &mut s), "Müller");
    }

    #[test]
    fn bom_and_whitespace_are_skipped() {
        let data = b"\xEF\xBB\xBF \n <x/>";
        let mut input = Input::new(&data[..]);
        assert_eq!(input.skip_bom_and_whitespace().unwrap(), Some(b'<'));
        assert_eq!((input.line, input.column, input.bytes), (2, 2, 6));
    }
}
