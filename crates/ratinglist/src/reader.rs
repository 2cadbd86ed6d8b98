//! Entry point: detect TXT or XML from the first bytes and stream the players.

use std::io::BufRead;

use crate::error::ListError;
use crate::input::Input;
use crate::player::{ListPlayer, RatingKind};
use crate::txt_fixed_width::{TxtHeader, TxtReader};
use crate::xml_players_list::XmlReader;

/// The two file formats FIDE publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListFormat {
    /// Fixed-width text with a header line.
    Txt,
    /// `<playerslist>` XML.
    Xml,
}

/// Reading options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadOptions {
    /// The list an unqualified rating belongs to: the month-code column of a single-list TXT
    /// file and `<rating>`/`<games>`/`<k>` in XML. Standard by default (the combined files
    /// use `SRtng…` in TXT and `<rating>` for standard in XML); set it to Rapid or Blitz when
    /// reading `rapid_…`/`blitz_…` single-list files, whose contents do not say which list
    /// they are (the file name does).
    pub plain_rating_kind: RatingKind,
}

/// A streaming reader of a FIDE rating list: an iterator of players or per-record errors.
///
/// Memory use is constant (bounded by [`crate::MAX_ITEM_BYTES`] per line/tag). Call
/// [`ListReader::bytes_consumed`] between items to drive a progress display.
#[derive(Debug)]
pub enum ListReader<R> {
    /// A TXT file.
    Txt(TxtReader<R>),
    /// An XML file.
    Xml(XmlReader<R>),
}

/// Opens a list with default options: skips a UTF-8 BOM and leading whitespace, then reads
/// XML if the first character is `<`, TXT (header line first) otherwise.
///
/// Errors: [`ListError::EmptyInput`], [`ListError::Header`] (TXT whose first line is not a
/// list header) or [`ListError::Io`].
pub fn read_list<R: BufRead>(reader: R) -> Result<ListReader<R>, ListError> {
    read_list_with(reader, ReadOptions::default())
}

/// [`read_list`] with options.
pub fn read_list_with<R: BufRead>(
    reader: R,
    options: ReadOptions,
) -> Result<ListReader<R>, ListError> {
    let mut input = Input::new(reader);
    let first = input
        .skip_bom_and_whitespace()
        .map_err(|e| ListError::io(1, &e))?;
    match first {
        None => Err(ListError::EmptyInput),
        Some(b'<') => Ok(ListReader::Xml(XmlReader::start(input, &options))),
        Some(_) => Ok(ListReader::Txt(TxtReader::start(input, &options)?)),
    }
}

impl<R: BufRead> ListReader<R> {
    /// Which format was detected.
    pub fn format(&self) -> ListFormat {
        match self {
            ListReader::Txt(_) => ListFormat::Txt,
            ListReader::Xml(_) => ListFormat::Xml,
        }
    }

    /// Bytes consumed from the reader so far (including the header and any BOM).
    pub fn bytes_consumed(&self) -> u64 {
        match self {
            ListReader::Txt(r) => r.bytes_consumed(),
            ListReader::Xml(r) => r.bytes_consumed(),
        }
    }

    /// The TXT header, for a TXT file.
    pub fn txt_header(&self) -> Option<&TxtHeader> {
        match self {
            ListReader::Txt(r) => Some(r.header()),
            ListReader::Xml(_) => None,
        }
    }

    /// Returns the underlying reader.
    pub fn into_inner(self) -> R {
        match self {
            ListReader::Txt(r) => r.into_inner(),
            ListReader::Xml(r) => r.into_inner(),
        }
    }
}

impl<R: BufRead> Iterator for ListReader<R> {
    type Item = Result<ListPlayer, ListError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            ListReader::Txt(r) => r.next(),
            ListReader::Xml(r) => r.next(),
        }
    }
}
