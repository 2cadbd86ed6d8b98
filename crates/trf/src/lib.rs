//! # `trf`: FIDE Tournament Report Files, read and written losslessly
//!
//! Pure crate (no I/O): bytes in, typed document out, text out.
//!
//! * [`parse`]`(&[u8]) -> Result<`[`Parsed`]`, `[`TrfError`]`>` reads TRF16 / TRF26 with the
//!   JaVaFo (`XX?`) and bbpPairings (`BB?`) extensions. CR, LF or CRLF; UTF-8, or Latin-1 with a
//!   warning. Only hopeless input (empty, nothing TRF-like) is an error.
//! * [`TrfDocument`] keeps every line in order as a typed [`Record`] (`001` →
//!   [`PlayerRecord`] with its [`RoundResult`] blocks; `012`…`132` → [`HeaderRecord`]; `142`,
//!   `152`, `162`, `172`, `240`, `250`, `260`, `299`, `013`, `310`, `320`, `330`, `300`, NRS,
//!   `XXR XXC XXZ XXS XXA XXP`, `BBW BBD BBL BBZ BBF BBU`, `###` comments; anything else is
//!   [`Record::Other`] with its text).
//! * [`write`]`(&doc, `[`TrfVersion`]`) -> String` writes canonical text; parse → write → parse
//!   gives back the same document.
//!
//! Player records for a pairing engine:
//!
//! ```
//! let text = "012 Test\n001    1      Doe, John                         2100                             1.0    1     2 w 1\n\
//!             001    2      Roe, Jane                         2000                             0.0    2     1 b 0\nXXR 5\n";
//! let parsed = trf::parse(text.as_bytes()).unwrap();
//! let p1 = parsed.doc.player(1).unwrap();
//! assert_eq!(p1.name, "Doe, John");
//! assert_eq!(p1.rating.get(), Some(2100));
//! assert_eq!(p1.rounds[0].opponent, trf::Opponent::Player(2));
//! assert_eq!(p1.rounds[0].result, trf::ResultCode::Win);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod columns;
pub mod document;
pub mod engine_extensions;
pub mod field;
pub mod finding;
pub mod header;
pub mod pairing_records;
pub mod parse;
pub mod player;
pub mod record;
pub mod score;
pub mod team;
pub mod validate;
pub mod write;

pub use document::{Line, TournamentHeader, TrfDocument};
pub use engine_extensions::{BbPointKind, XxaRecord, XxcOption, XxsItem};
pub use field::Field;
pub use finding::{Finding, Severity, TrfError};
pub use header::{
    HeaderKind, HeaderRecord, InitialColour, ScoringEntry, ScoringSystemRecord,
    StartingRankMethodRecord,
};
pub use pairing_records::{
    AbnormalPointsRecord, AccelerationRecord, ByeKind, ByeRecord, ProhibitedPairingRecord,
};
pub use parse::{MAX_INPUT_BYTES, Parsed, parse, parse_and_validate};
pub use player::{Colour, Opponent, PlayerRecord, ResultCode, RoundResult};
pub use record::Record;
pub use score::Score;
pub use team::{ForfeitedMatchRecord, LineupRecord, Team013Record, TeamByeRecord, TeamRecord};
pub use validate::validate;
pub use write::{LineEnding, TrfVersion, WriteOptions, write, write_with};
