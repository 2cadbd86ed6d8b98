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

pub use directory::{DirectoryError, PlayerDirectory, PlayerDirectoryBuilder};
pub use error::{FieldProblem, ListError, WriteError};
pub use fields::Field;
pub use generator::generate_list;
pub use input::MAX_ITEM_BYTES;
pub use player::{Flags, ListPlayer, RatingEntry, RatingKind, Sex, Title};
pub use reader::{ListFormat, ListReader, ReadOptions, read_list, read_list_with};
pub use txt_fixed_width::{TxtColumn, TxtHeader, TxtLayout, TxtReader};
pub use writer::{TextEncoding, XmlLayout, write_txt, write_xml};
pub use xml_players_list::XmlReader;
