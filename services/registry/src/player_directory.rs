//! The player directory: reference data from a FIDE rating list (Rating Regulations B.02
//! §7.1), looked up by FIDE ID or name prefix, and used to fill a player's data when an
//! arbiter enters only a FIDE ID.
//!
//! The directory is not tournament history, so it is not in the event log: the imported
//! file is kept verbatim under the service's directory path (`player-list`, with
//! `player-list.meta` beside it) and read again at start-up. See
//! `docs/decisions/registry-001-player-directory.md`.
//!
//! The file arrives in chunks (client streaming); a blocking task parses it as it arrives
//! ([`ChunkReader`] is the `BufRead` the streaming list reader reads), hashing it and
//! writing it to a temporary file at the same time. Only a complete, readable list with
//! at least one player replaces the directory; the temporary file then replaces the stored
//! one by rename.
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use arbiter_proto::v1::{ImportRatingListResponse, PlayerData, RatingListLineError};
use ratinglist::{
    ListError, LoadReport, PlayerDirectory, PlayerRef, RatingKind, ReadOptions, Sex, read_list_with,
};
use sha2::{Digest, Sha256};

use crate::roster::normalise_title;

/// Largest list file accepted (the full combined FIDE list is a few hundred MB).
pub const MAX_LIST_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// Longest name a player entry takes (the TRF name field).
const MAX_NAME_CHARS: usize = 33;
/// Default and largest number of players a lookup returns.
pub const DEFAULT_LIMIT: u32 = 20;
/// See [`DEFAULT_LIMIT`].
pub const MAX_LIMIT: u32 = 1000;

const LIST_FILE: &str = "player-list";
const META_FILE: &str = "player-list.meta";
const INCOMING_FILE: &str = "player-list.incoming";

/// A loaded list: the directory and the hash of the file it came from.
#[derive(Debug)]
pub struct Loaded {
    /// The players.
    pub directory: PlayerDirectory,
    /// SHA-256 (hex) of the list file.
    pub sha256: String,
}

/// An import or restore failure, naming the request field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// `data`, `plain_rating_kind` or `file` (restore).
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

fn import_error(field: &'static str, message: impl Into<String>) -> ImportError {
    ImportError {
        field,
        message: message.into(),
    }
}

/// The directory shared by the handlers; imports are serialised.
#[derive(Debug, Clone, Default)]
pub struct Directory {
    current: Arc<RwLock<Option<Arc<Loaded>>>>,
    store: Option<PathBuf>,
    import_lock: Arc<tokio::sync::Mutex<()>>,
}

/// Parses `"standard"`, `"rapid"`, `"blitz"` (empty = standard).
pub fn rating_kind(s: &str) -> Result<RatingKind, ImportError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "" | "standard" | "std" => Ok(RatingKind::Standard),
        "rapid" | "rpd" => Ok(RatingKind::Rapid),
        "blitz" | "blz" => Ok(RatingKind::Blitz),
        other => Err(import_error(
            "plain_rating_kind",
            format!("{other:?}: standard, rapid or blitz"),
        )),
    }
}

fn kind_name(kind: RatingKind) -> &'static str {
    match kind {
        RatingKind::Standard => "standard",
        RatingKind::Rapid => "rapid",
        RatingKind::Blitz => "blitz",
    }
}

impl Directory {
    /// A directory kept in memory only (lost on restart).
    pub fn in_memory() -> Directory {
        Directory::default()
    }

    /// A directory stored under `path`; restores the stored list if there is one.
    pub fn stored(path: PathBuf) -> Result<Directory, ImportError> {
        std::fs::create_dir_all(&path)
            .map_err(|e| import_error("file", format!("{}: {e}", path.display())))?;
        let d = Directory {
            store: Some(path),
            ..Directory::default()
        };
        if let Some(loaded) = d.restore()? {
            tracing::info!(
                players = loaded.directory.len(),
                sha256 = %loaded.sha256,
                "player directory restored"
            );
            d.set(loaded);
        }
        Ok(d)
    }

    fn restore(&self) -> Result<Option<Loaded>, ImportError> {
        let Some(dir) = &self.store else {
            return Ok(None);
        };
        let list = dir.join(LIST_FILE);
        let f = match File::open(&list) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(import_error("file", format!("{}: {e}", list.display()))),
        };
        let meta = std::fs::read_to_string(dir.join(META_FILE)).unwrap_or_default();
        let kind = meta
            .lines()
            .find_map(|l| l.strip_prefix("plain_rating_kind="))
            .unwrap_or("");
        let options = ReadOptions {
            plain_rating_kind: rating_kind(kind)?,
        };
        let mut reader = HashingReader {
            inner: BufReader::with_capacity(1 << 16, f),
            hasher: Sha256::new(),
        };
        let (directory, _report) = load(&mut reader, options)
            .map_err(|e| import_error("file", format!("{}: {}", list.display(), e.message)))?;
        Ok(Some(Loaded {
            directory,
            sha256: hex::encode(reader.hasher.finalize()),
        }))
    }

    /// The current list, if one was imported.
    pub fn current(&self) -> Option<Arc<Loaded>> {
        self.current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn set(&self, loaded: Loaded) {
        *self
            .current
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::new(loaded));
    }

    /// Whether imports survive a restart.
    pub fn is_stored(&self) -> bool {
        self.store.is_some()
    }

    /// Imports a list arriving on `chunks` (an `Err` aborts it): parses while receiving,
    /// then replaces the directory and the stored file. Blocking: run it off the runtime.
    pub fn import_blocking(
        &self,
        chunks: tokio::sync::mpsc::Receiver<Result<Vec<u8>, String>>,
        kind: RatingKind,
        file_name: &str,
        actor: &str,
    ) -> Result<ImportRatingListResponse, ImportError> {
        let _guard = self.import_lock.blocking_lock();
        let incoming = match &self.store {
            Some(dir) => {
                let path = dir.join(INCOMING_FILE);
                let f = File::create(&path)
                    .map_err(|e| import_error("data", format!("{}: {e}", path.display())))?;
                Some((path, BufWriter::with_capacity(1 << 16, f)))
            }
            None => None,
        };
        let mut reader = ChunkReader {
            chunks,
            buf: Vec::new(),
            pos: 0,
            total: 0,
            hasher: Sha256::new(),
            copy: incoming,
        };
        let result = load_reporting(
            &mut reader,
            ReadOptions {
                plain_rating_kind: kind,
            },
        );
        let ChunkReader {
            total,
            hasher,
            copy,
            ..
        } = reader;
        let (directory, report, format) = match result {
            Ok(r) => r,
            Err(e) => {
                if let Some((path, _)) = copy {
                    let _ = std::fs::remove_file(path);
                }
                return Err(e);
            }
        };
        let sha256 = hex::encode(hasher.finalize());
        let persisted = match (copy, &self.store) {
            (Some((path, w)), Some(dir)) => {
                finish_copy(w, &path, dir, kind, file_name, actor, &sha256, total)?;
                true
            }
            _ => false,
        };
        let response = ImportRatingListResponse {
            format: format.into(),
            players_loaded: report.loaded,
            error_count: report.error_count,
            errors: report
                .first_errors
                .iter()
                .map(|e| RatingListLineError {
                    line: e.line().unwrap_or(0),
                    column: e.column().unwrap_or(0),
                    message: e.to_string(),
                })
                .collect(),
            duplicate_id_count: report.duplicate_ids.len() as u64,
            duplicate_ids: report
                .duplicate_ids
                .iter()
                .take(LoadReport::KEPT)
                .copied()
                .collect(),
            bytes: total,
            sha256: sha256.clone(),
            persisted,
        };
        self.set(Loaded { directory, sha256 });
        Ok(response)
    }
}

#[allow(clippy::too_many_arguments)]
fn finish_copy(
    mut w: BufWriter<File>,
    path: &Path,
    dir: &Path,
    kind: RatingKind,
    file_name: &str,
    actor: &str,
    sha256: &str,
    bytes: u64,
) -> Result<(), ImportError> {
    let io = |e: std::io::Error| import_error("data", format!("storing the list: {e}"));
    w.flush().map_err(io)?;
    let f = w.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    let meta = format!(
        "sha256={sha256}\nbytes={bytes}\nplain_rating_kind={}\nfile_name={}\nimported_by={}\nimported_at={}\n",
        kind_name(kind),
        file_name.replace(['\n', '\r'], " "),
        actor.replace(['\n', '\r'], " "),
        chrono::Utc::now().to_rfc3339(),
    );
    let meta_tmp = dir.join(format!("{META_FILE}.incoming"));
    std::fs::write(&meta_tmp, meta).map_err(io)?;
    // The list first: a crash between the renames leaves the new list with the old
    // metadata, whose only effect is the rating kind of a single-list file.
    std::fs::rename(path, dir.join(LIST_FILE)).map_err(io)?;
    std::fs::rename(&meta_tmp, dir.join(META_FILE)).map_err(io)?;
    Ok(())
}

/// Reads a whole list; an unreadable header, a read failure or a list without any
/// readable player is an error (the directory is then not replaced).
fn load_reporting<R: BufRead>(
    reader: R,
    options: ReadOptions,
) -> Result<(PlayerDirectory, LoadReport, &'static str), ImportError> {
    let mut list =
        read_list_with(reader, options).map_err(|e| import_error("data", e.to_string()))?;
    let format = match list.format() {
        ratinglist::ListFormat::Txt => "txt",
        ratinglist::ListFormat::Xml => "xml",
    };
    let (directory, report) =
        PlayerDirectory::from_list(&mut list).map_err(|e| import_error("data", e.to_string()))?;
    if let Some(fatal) = report.first_errors.iter().find(|e| e.is_fatal()) {
        return Err(import_error(
            "data",
            format!("{fatal}; the directory was not replaced"),
        ));
    }
    if report.loaded == 0 {
        let first = report
            .first_errors
            .first()
            .map(ListError::to_string)
            .unwrap_or_else(|| "no player records".into());
        return Err(import_error(
            "data",
            format!(
                "no player could be read ({} error(s), first: {first}); the directory was not replaced",
                report.error_count
            ),
        ));
    }
    Ok((directory, report, format))
}

fn load<R: BufRead>(
    reader: R,
    options: ReadOptions,
) -> Result<(PlayerDirectory, LoadReport), ImportError> {
    load_reporting(reader, options).map(|(d, r, _)| (d, r))
}

/// The `BufRead` over received chunks: counts, hashes and copies what it hands out.
struct ChunkReader {
    chunks: tokio::sync::mpsc::Receiver<Result<Vec<u8>, String>>,
    buf: Vec<u8>,
    pos: usize,
    total: u64,
    hasher: Sha256,
    copy: Option<(PathBuf, BufWriter<File>)>,
}

impl Read for ChunkReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(out.len());
            out[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChunkReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.pos >= self.buf.len() {
            match self.chunks.blocking_recv() {
                None => return Ok(&[]),
                Some(Err(message)) => return Err(std::io::Error::other(message)),
                Some(Ok(data)) => {
                    self.total += data.len() as u64;
                    if self.total > MAX_LIST_BYTES {
                        return Err(std::io::Error::other(format!(
                            "the list is larger than {MAX_LIST_BYTES} bytes"
                        )));
                    }
                    self.hasher.update(&data);
                    if let Some((_, w)) = &mut self.copy {
                        w.write_all(&data)?;
                    }
                    self.buf = data;
                    self.pos = 0;
                }
            }
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.buf.len());
    }
}

/// A `BufRead` that hashes what it hands out.
struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
}

impl<R: BufRead> Read for HashingReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(out.len());
            out[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for HashingReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        if let Ok(b) = self.inner.fill_buf() {
            let n = amt.min(b.len());
            self.hasher.update(&b[..n]);
        }
        self.inner.consume(amt);
    }
}

/// The registry's player data for a directory entry (title: the FIDE title, else the
/// women's title; birth date: the year; ratings 0 when the player has none).
pub fn player_data(p: &PlayerRef<'_>) -> PlayerData {
    let title = p
        .title()
        .or(p.women_title())
        .and_then(|t| normalise_title(t.code()).ok())
        .unwrap_or_default();
    let rating = |k| p.rating(k).map_or(0, |r| u32::from(r.rating));
    PlayerData {
        fide_id: u64::from(p.fide_id()),
        name: p.name().trim().chars().take(MAX_NAME_CHARS).collect(),
        sex: match p.sex() {
            Some(Sex::Male) => "m".into(),
            Some(Sex::Female) => "w".into(),
            None => String::new(),
        },
        title,
        federation: p.federation().trim().to_owned(),
        birth_date: p.birth_year().map(|y| y.to_string()).unwrap_or_default(),
        rating_standard: rating(RatingKind::Standard),
        rating_rapid: rating(RatingKind::Rapid),
        rating_blitz: rating(RatingKind::Blitz),
        ..PlayerData::default()
    }
}

/// Fills the empty fields of `data` from the directory entry `from` (explicit fields win).
pub fn fill(data: &mut PlayerData, from: &PlayerData) {
    let text = |mine: &mut String, theirs: &String| {
        if mine.trim().is_empty() {
            mine.clone_from(theirs);
        }
    };
    text(&mut data.name, &from.name);
    text(&mut data.sex, &from.sex);
    text(&mut data.title, &from.title);
    text(&mut data.federation, &from.federation);
    text(&mut data.birth_date, &from.birth_date);
    for (mine, theirs) in [
        (&mut data.rating_standard, from.rating_standard),
        (&mut data.rating_rapid, from.rating_rapid),
        (&mut data.rating_blitz, from.rating_blitz),
    ] {
        if *mine == 0 {
            *mine = theirs;
        }
    }
}

/// A lookup: digits are a FIDE ID, anything else a name prefix ("Surname, First").
pub fn lookup(
    directory: &PlayerDirectory,
    query: &str,
    limit: u32,
) -> Result<Vec<PlayerData>, ImportError> {
    let q = query.trim();
    if q.is_empty() {
        return Err(import_error(
            "query",
            "must not be empty: a FIDE ID or a name prefix",
        ));
    }
    let limit = match limit {
        0 => DEFAULT_LIMIT,
        n => n.min(MAX_LIMIT),
    } as usize;
    if q.bytes().all(|b| b.is_ascii_digit()) {
        let id: u32 = q
            .parse()
            .map_err(|_| import_error("query", format!("{q}: not a FIDE ID (too large)")))?;
        return Ok(directory
            .by_id(id)
            .map(|p| player_data(&p))
            .into_iter()
            .collect());
    }
    Ok(directory
        .search_name(q)
        .take(limit)
        .map(|p| player_data(&p))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratinglist::{TextEncoding, TxtLayout, generate_list, write_txt};

    fn list(n: usize) -> Vec<u8> {
        let mut out = Vec::new();
        write_txt(
            &mut out,
            generate_list(n, 7),
            &TxtLayout::CombinedFoa,
            TextEncoding::Utf8,
        )
        .expect("write");
        out
    }

    fn import(
        d: &Directory,
        bytes: Vec<u8>,
        chunk: usize,
        abort: bool,
    ) -> Result<ImportRatingListResponse, ImportError> {
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        let d2 = d.clone();
        let h = std::thread::spawn(move || {
            d2.import_blocking(rx, RatingKind::Standard, "x.txt", "admin")
        });
        for c in bytes.chunks(chunk) {
            if tx.blocking_send(Ok(c.to_vec())).is_err() {
                break;
            }
        }
        if abort {
            let _ = tx.blocking_send(Err("client went away".into()));
        }
        drop(tx);
        h.join().expect("thread")
    }

    #[test]
    fn imports_in_chunks_restores_and_rejects_bad_lists() {
        let tmp = tempfile::tempdir().expect("tmp");
        let d = Directory::stored(tmp.path().to_owned()).expect("dir");
        assert!(d.current().is_none());
        let bytes = list(300);
        let r = import(&d, bytes.clone(), 777, false).expect("import");
        assert_eq!(r.players_loaded, 300);
        assert_eq!(r.bytes, bytes.len() as u64);
        assert!(r.persisted);
        let first = generate_list(300, 7).next().expect("player");
        let found = lookup(
            &d.current().expect("loaded").directory,
            &first.fide_id.to_string(),
            0,
        )
        .expect("lookup");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].fide_id, u64::from(first.fide_id));

        // An aborted upload and a file without a header leave the directory as it was.
        assert!(import(&d, list(50), 100, true).is_err());
        let bad = import(&d, b"not a list\n".to_vec(), 4, false).expect_err("bad");
        assert_eq!(bad.field, "data");
        assert_eq!(d.current().expect("loaded").directory.len(), 300);

        // Restart: the stored list comes back, same hash.
        let again = Directory::stored(tmp.path().to_owned()).expect("dir");
        let loaded = again.current().expect("restored");
        assert_eq!(loaded.directory.len(), 300);
        assert_eq!(loaded.sha256, r.sha256);
    }

    #[test]
    fn fill_keeps_explicit_fields_and_lookup_validates_query() {
        let mut data = PlayerData {
            fide_id: 1,
            name: "Given, Name".into(),
            rating_standard: 1500,
            ..PlayerData::default()
        };
        let from = PlayerData {
            fide_id: 1,
            name: "List, Name".into(),
            federation: "NOR".into(),
            rating_standard: 2000,
            rating_rapid: 1900,
            ..PlayerData::default()
        };
        fill(&mut data, &from);
        assert_eq!(data.name, "Given, Name");
        assert_eq!(data.rating_standard, 1500);
        assert_eq!(data.rating_rapid, 1900);
        assert_eq!(data.federation, "NOR");
        let (dir, _) = PlayerDirectory::from_players(generate_list(10, 1)).expect("dir");
        assert_eq!(lookup(&dir, " ", 0).expect_err("empty").field, "query");
        assert_eq!(
            lookup(&dir, "99999999999", 0).expect_err("big").field,
            "query"
        );
        assert!(lookup(&dir, "12", 0).expect("none").is_empty());
    }
}
