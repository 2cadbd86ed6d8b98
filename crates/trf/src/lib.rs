//! # `trf`: FIDE Tournament Report Files, read and written losslessly
//!
//! Pure crate (no I/O, no clock, deterministic): bytes in, typed document out, text out.
//! Formats: TRF16 and TRF26 (reference `fide-rules-2026.md` §1; seed 000 §9.5 for the player
//! record), with the JaVaFo (`XXR XXC XXZ XXS XXA XXP`) and bbpPairings
//! (`BBW BBD BBL BBZ BBF BBU`) extensions that pairing engines read.
//!
//! ## Reading, checking, writing
//!
//! * [`parse()`]`(input: &[u8]) -> Result<`[`Parsed`]`, `[`TrfError`]`>` — `Parsed { doc,
//!   findings }`. CR, LF or CRLF; UTF-8, or Latin-1 converted with a warning. Only hopeless
//!   input (empty, no TRF record at all, over [`MAX_INPUT_BYTES`]) is an `Err`; everything else
//!   parses, every line is kept, and reading problems are [`Finding`]s.
//! * [`validate()`]`(&TrfDocument) -> Vec<`[`Finding`]`>` — the semantic checks (points vs
//!   results under the declared scoring system, asymmetric pairings, opponents out of range,
//!   two PABs in a round, colour on a bye, duplicate starting ranks, unknown result codes,
//!   letters in number columns, blocks past column 9999, …). [`parse_and_validate`] does both.
//!   A [`Finding`] is `{ severity: Info|Warning|Error, line, column, record, message }`.
//! * [`write()`]`(&TrfDocument, `[`TrfVersion`]`) -> String` — canonical UTF-8 text, CRLF line
//!   ends ([`write_with`] + [`WriteOptions`] for LF/CR). TRF26 (the default edition) writes
//!   everything; TRF16 leaves out or converts the TRF26-only records (ADR trf-004).
//!
//! **Lossless:** for every document `parse` returns, `parse(write(doc)) == doc`, and writing
//! is idempotent; a file already in canonical layout is reproduced byte for byte. Lines that
//! are not in canonical layout keep their original text in [`Line::verbatim`] until their
//! record is edited (ADR trf-001).
//!
//! ## The model
//!
//! [`TrfDocument`] `{ lines: Vec<`[`Line`]`> }`, one line per input line, each a typed
//! [`Record`]:
//!
//! | record | variant | type |
//! |---|---|---|
//! | `001` player | [`Record::Player`] | [`PlayerRecord`]: `start_rank`, `sex`, `title`, `name`, `rating`, `federation`, `fide_id`, `birth_date`, `points` ([`Score`]), `rank`, `rounds: Vec<`[`RoundResult`]`>` (`opponent`: [`Opponent`], `colour`: [`Colour`], `result`: [`ResultCode`]) |
//! | `012`…`132`, `182`–`222`, `352`, `362` | [`Record::Header`] | [`HeaderRecord`] `{ kind: `[`HeaderKind`]`, value }` |
//! | `142` / `152` / `162` / `172` | `NumberOfRounds` / `InitialColour` / `ScoringSystem` / `StartingRankMethod` | `Field<u16>` / `Field<`[`InitialColour`]`>` / [`ScoringSystemRecord`] / [`StartingRankMethodRecord`] |
//! | `240` / `250` / `260` / `299` | `Bye` / `Acceleration` / `ProhibitedPairing` / `AbnormalPoints` | [`ByeRecord`] / [`AccelerationRecord`] / [`ProhibitedPairingRecord`] / [`AbnormalPointsRecord`] |
//! | `013` / `310` / `320` / `330` / `300` | `Team013` / `Team` / `TeamBye` / `ForfeitedMatch` / `Lineup` | [`Team013Record`] / [`TeamRecord`] / [`TeamByeRecord`] / [`ForfeitedMatchRecord`] / [`LineupRecord`] |
//! | NRS (`BEL`, `FRA`…) | [`Record::NationalRating`] | federation + [`PlayerRecord`] |
//! | `XXR XXC XXZ XXS XXA XXP` | `XxRounds` `XxColour` `XxAbsent` `XxScoring` `XxAcceleration` `XxProhibited` | `Field<u16>`, `Vec<`[`XxcOption`]`>`, ids, `Vec<`[`XxsItem`]`>`, [`XxaRecord`], ids |
//! | `BBW BBD BBL BBZ BBF BBU` | [`Record::BbPoints`] | [`BbPointKind`] + `Field<Score>` |
//! | `###…` / blank / anything else | `Comment` / `Empty` / [`Record::Other`] | the text |
//!
//! Every fixed-column value is a [`Field`]`<T>`: `Empty`, `Value(T)` or `Invalid(text)` —
//! garbage is kept and reported, never guessed at. Points are exact: [`Score`] counts tenths.
//!
//! Views: [`TrfDocument::players`], [`TrfDocument::player`], [`TrfDocument::players_by_start_rank`],
//! [`TrfDocument::header`] ([`TournamentHeader`]), [`TrfDocument::edition`].
//!
//! ## For the pairing engine and the registry (module [`pairing_data`], [`scoring`])
//!
//! * [`ScoringSystem::from_document`] — points per result from `162`, `BB?`, `XXS` over the
//!   defaults 1 / ½ / 0; [`ScoringSystem::points_for`], [`ScoringSystem::total`].
//! * [`total_rounds`] (`142`/`XXR`), [`initial_colour`] (`152`/`XXC`), [`pairs_by_file_position`]
//!   (`XXC rank`), [`accelerations`] + [`acceleration_points`] (`250`/`XXA`),
//!   [`forbidden_pairings`] (`260`/`XXP`), [`known_byes`] (`240`, `0000 - H/F/Z`, `XXZ`),
//!   [`next_round`]. Precedence between the dialects: ADR trf-002.
//!
//! ```
//! let text = "012 Test\n\
//! 001    1      Doe, John                         2100                             1.0    1     2 w 1\n\
//! 001    2      Roe, Jane                         2000                             0.0    2     1 b 0\n\
//! XXR 5\n";
//! let parsed = trf::parse(text.as_bytes()).unwrap();
//! let doc = &parsed.doc;
//! let p1 = doc.player(1).unwrap();
//! assert_eq!(p1.name, "Doe, John");
//! assert_eq!(p1.rating.get(), Some(2100));
//! assert_eq!(p1.rounds[0].opponent, trf::Opponent::Player(2));
//! assert_eq!(p1.rounds[0].result, trf::ResultCode::Win);
//! assert_eq!(trf::total_rounds(doc), Some(5));
//! assert!(trf::validate(doc).is_empty());
//! let scoring = trf::ScoringSystem::from_document(doc);
//! assert_eq!(scoring.total(&p1.rounds), Some(trf::Score::ONE));
//! // Lossless: the text is canonical, so it comes back byte for byte.
//! let out = trf::write_with(doc, &trf::WriteOptions { line_ending: trf::LineEnding::Lf, ..Default::default() });
//! assert_eq!(out, text);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod columns;
pub mod correction_note;
pub mod document;
pub mod engine_extensions;
pub mod field;
pub mod finding;
pub mod header;
pub mod pairing_data;
pub mod pairing_records;
pub mod parse;
pub mod player;
pub mod record;
pub mod score;
pub mod scoring;
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
pub use pairing_data::{
    Acceleration, ForbiddenPairing, KnownBye, Source, acceleration_points, accelerations,
    forbidden_pairings, initial_colour, known_byes, next_round, pairs_by_file_position,
    total_rounds,
};
pub use pairing_records::{
    AbnormalPointsRecord, AccelerationRecord, ByeKind, ByeRecord, ProhibitedPairingRecord,
};
pub use parse::{MAX_INPUT_BYTES, Parsed, parse, parse_and_validate};
pub use player::{Colour, Opponent, PlayerRecord, ResultCode, RoundResult};
pub use record::Record;
pub use score::Score;
pub use scoring::ScoringSystem;
pub use team::{ForfeitedMatchRecord, LineupRecord, Team013Record, TeamByeRecord, TeamRecord};
pub use validate::validate;
pub use write::{LineEnding, TrfVersion, WriteOptions, write, write_with};
