//! # FIDE rating list files, pure and streaming
//!
//! FIDE publishes its rating lists every month (Rating Regulations B.02 §7.1: "On the first
//! day of each month, FIDE shall prepare a list…"; §7.1.2 lists the published data). This
//! crate reads and writes the download files; it does file format only, and reads nothing
//! but the reader it is given.
//!
//! | what | module |
//! |---|---|
//! | the player record (B.02 §7.1.2 fields, titles, flags) | [`player`] |
//! | auto-detection TXT/XML, the streaming iterator, bytes consumed | [`reader`] |
//! | TXT fixed width, columns located from the header line | [`txt_fixed_width`] |
//! | XML `<playerslist>` | [`xml_players_list`] |
//! | per-field value rules shared by both formats | [`fields`] |
//! | writers for both formats | [`writer`] |
//! | deterministic synthetic lists | [`generator`] |
//! | in-memory directory: by FIDE ID, by name prefix | [`directory`], [`name_key`] |
//!
//! Decisions on ambiguous points are in `docs/decisions/ratinglist-*.md`.
//!
//! ```
//! use ratinglist::{read_list, PlayerDirectory, RatingKind};
//!
//! let file = "\
//! ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag
//! 1503014        Carlsen, Magnus                                              NOR M   GM                           2837  0   10 2825  12  10 2890  0   10 1990
//! 13300032       Nobody, Unrated                                              IND M                                0     0   0  0     0   0  0     0   0  0     i
//! ";
//! // Any `BufRead`: a file, a decompressor, a progress-counting wrapper…
//! let mut reader = read_list(file.as_bytes())?;
//! let first = reader.next().unwrap()?;
//! assert_eq!(first.standard.unwrap().rating, 2837);
//! assert!(reader.bytes_consumed() > 0); // drive a progress bar with this
//!
//! // Or load everything into a directory, skipping (and counting) bad records.
//! let (dir, report) = PlayerDirectory::from_list(read_list(file.as_bytes())?)?;
//! assert_eq!(report.error_count, 0);
//! assert_eq!(dir.by_id(1503014).unwrap().rating(RatingKind::Rapid).unwrap().games, 12);
//! assert_eq!(dir.search_name("carlsen, mag").count(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod directory;
pub mod error;
pub mod fields;
pub mod generator;
mod input;
pub mod name_key;
pub mod player;
pub mod reader;
pub mod txt_fixed_width;
pub mod writer;
pub mod xml_players_list;

pub use directory::{
    DirectoryError, LoadReport, PlayerDirectory, PlayerDirectoryBuilder, PlayerRef,
};
pub use error::{FieldProblem, ListError, WriteError};
pub use fields::Field;
pub use generator::{ListGenerator, generate_list};
pub use input::MAX_ITEM_BYTES;
pub use player::{Flags, ListPlayer, RatingEntry, RatingKind, Sex, Title};
pub use reader::{ListFormat, ListReader, ReadOptions, read_list, read_list_with};
pub use txt_fixed_width::{TxtColumn, TxtHeader, TxtLayout, TxtReader};
pub use writer::{TextEncoding, XmlLayout, write_txt, write_xml};
pub use xml_players_list::XmlReader;
