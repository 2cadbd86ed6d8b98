//! In-memory player directory built from a list: lookup by FIDE ID in O(1) (open-addressing
//! table) and by name prefix (case- and diacritics-insensitive, "Surname, Firstname" order
//! as FIDE writes names; see [`crate::name_key`]).
//!
//! Compact: every string lives in one arena; federation codes and the rare extras (other
//! titles, FOA title, unknown flags) are interned; a player costs a 40-byte record, its name
//! bytes, a 4-byte name-order slot and about 8 bytes of ID table. Name keys are not stored:
//! they are computed while comparing.

use std::collections::HashMap;

use crate::error::ListError;
use crate::name_key::{key_chars, key_starts_with, name_key};
use crate::player::{Flags, ListPlayer, RatingEntry, RatingKind, Sex, Title};

/// Errors while building a directory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DirectoryError {
    /// More than `u32::MAX` bytes of strings or players.
    #[error("directory too large: {0}")]
    TooLarge(&'static str),
    /// A name longer than 65,535 bytes.
    #[error("player {fide_id}: name longer than 65535 bytes")]
    NameTooLong {
        /// The player.
        fide_id: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Span {
    start: u32,
    len: u32,
}

#[derive(Debug, Clone, Default)]
struct Extra {
    other_titles: Vec<Span>,
    foa: Option<Span>,
    flags_other: Span,
}

const NO_RATING: u16 = 0;

#[derive(Debug, Clone, Copy)]
struct Record {
    fide_id: u32,
    name_start: u32,
    name_len: u16,
    federation: u16,
    /// 0 = none, else index + 1 into `extras`.
    extra: u32,
    birth_year: u16,
    /// bits 0-1 sex (0 none, 1 M, 2 F), bit 2 inactive, bit 3 woman.
    bits: u8,
    /// 0 = none, else `Title::ALL` index + 1.
    title: u8,
    women_title: u8,
    ks: [u8; 3],
    ratings: [u16; 3],
    games: [u16; 3],
}

fn title_code(t: Option<Title>) -> u8 {
    t.and_then(|t| Title::ALL.iter().position(|&x| x == t))
        .map_or(0, |i| i as u8 + 1)
}

fn title_from(code: u8) -> Option<Title> {
    code.checked_sub(1)
        .and_then(|i| Title::ALL.get(i as usize).copied())
}

fn kind_index(kind: RatingKind) -> usize {
    match kind {
        RatingKind::Standard => 0,
        RatingKind::Rapid => 1,
        RatingKind::Blitz => 2,
    }
}

/// Accumulates players, then [`PlayerDirectoryBuilder::finish`] sorts and indexes them.
#[derive(Debug, Default)]
pub struct PlayerDirectoryBuilder {
    arena: String,
    records: Vec<Record>,
    federations: Vec<Span>,
    federation_index: HashMap<String, u16>,
    extras: Vec<Extra>,
    interned: HashMap<String, Span>,
}

impl PlayerDirectoryBuilder {
    /// An empty builder.
    pub fn new() -> PlayerDirectoryBuilder {
        PlayerDirectoryBuilder::default()
    }

    /// An empty builder with room for `players` players.
    pub fn with_capacity(players: usize) -> PlayerDirectoryBuilder {
        PlayerDirectoryBuilder {
            arena: String::with_capacity(players.saturating_mul(24)),
            records: Vec::with_capacity(players),
            ..PlayerDirectoryBuilder::default()
        }
    }

    fn push_str(&mut self, s: &str) -> Result<Span, DirectoryError> {
        let start = u32::try_from(self.arena.len())
            .map_err(|_| DirectoryError::TooLarge("string arena"))?;
        let len = u32::try_from(s.len()).map_err(|_| DirectoryError::TooLarge("string"))?;
        if start.checked_add(len).is_none() {
            return Err(DirectoryError::TooLarge("string arena"));
        }
        self.arena.push_str(s);
        Ok(Span { start, len })
    }

    fn intern(&mut self, s: &str) -> Result<Span, DirectoryError> {
        if let Some(span) = self.interned.get(s) {
            return Ok(*span);
        }
        let span = self.push_str(s)?;
        self.interned.insert(s.to_string(), span);
        Ok(span)
    }

    /// Adds one player.
    pub fn push(&mut self, p: &ListPlayer) -> Result<(), DirectoryError> {
        if self.records.len() >= u32::MAX as usize - 1 {
            return Err(DirectoryError::TooLarge("players"));
        }
        let name_len = u16::try_from(p.name.len())
            .map_err(|_| DirectoryError::NameTooLong { fide_id: p.fide_id })?;
        let federation = match self.federation_index.get(&p.federation) {
            Some(&i) => i,
            None => {
                let i = u16::try_from(self.federations.len())
                    .map_err(|_| DirectoryError::TooLarge("federation codes"))?;
                let span = self.intern(&p.federation)?;
                self.federations.push(span);
                self.federation_index.insert(p.federation.clone(), i);
                i
            }
        };
        let extra =
            if p.other_titles.is_empty() && p.foa_title.is_none() && p.flags.other.is_empty() {
                0
            } else {
                let mut e = Extra::default();
                for t in &p.other_titles {
                    e.other_titles.push(self.intern(t)?);
                }
                if let Some(f) = &p.foa_title {
                    e.foa = Some(self.intern(f)?);
                }
                e.flags_other = self.intern(&p.flags.other)?;
                self.extras.push(e);
                u32::try_from(self.extras.len()).map_err(|_| DirectoryError::TooLarge("extras"))?
            };
        let name = self.push_str(&p.name)?;
        let mut r = Record {
            fide_id: p.fide_id,
            name_start: name.start,
            name_len,
            federation,
            extra,
            birth_year: p.birth_year.unwrap_or(0),
            bits: match p.sex {
                None => 0,
                Some(Sex::Male) => 1,
                Some(Sex::Female) => 2,
            } | if p.flags.inactive { 4 } else { 0 }
                | if p.flags.woman { 8 } else { 0 },
            title: title_code(p.title),
            women_title: title_code(p.women_title),
            ks: [0; 3],
            ratings: [NO_RATING; 3],
            games: [0; 3],
        };
        for kind in [RatingKind::Standard, RatingKind::Rapid, RatingKind::Blitz] {
            if let Some(e) = p.rating(kind) {
                let i = kind_index(kind);
                // A rating entry of 0 cannot come from a file; it is stored as "not rated".
                r.ratings[i] = e.rating;
                r.games[i] = e.games;
                r.ks[i] = e.k.unwrap_or(0);
            }
        }
        self.records.push(r);
        Ok(())
    }

    /// Sorts and indexes. When an ID occurs more than once the first occurrence is kept
    /// (ADR ratinglist-005); the IDs dropped are returned.
    pub fn finish(self) -> (PlayerDirectory, Vec<u32>) {
        let PlayerDirectoryBuilder {
            arena,
            mut records,
            federations,
            extras,
            ..
        } = self;
        // Stable sort: among equal IDs the first pushed stays first.
        records.sort_by_key(|r| r.fide_id);
        let mut duplicates = Vec::new();
        records.dedup_by(|later, earlier| {
            let dup = later.fide_id == earlier.fide_id;
            if dup {
                duplicates.push(later.fide_id);
            }
            dup
        });
        records.shrink_to_fit();
        let mut arena = arena;
        arena.shrink_to_fit();

        let n = records.len();
        let bits = (n.saturating_mul(2))
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut id_table = vec![0u32; 1usize << bits];
        let mask = (1usize << bits) - 1;
        for (i, r) in records.iter().enumerate() {
            let mut slot = slot_of(r.fide_id, bits);
            while id_table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            id_table[slot] = i as u32 + 1;
        }

        // Name order: keys are computed once into a temporary arena and compared as bytes
        // (UTF-8 byte order is character order, the order `search_name` relies on).
        let mut keys = String::with_capacity(arena.len());
        let mut key_starts: Vec<usize> = Vec::with_capacity(n + 1);
        for r in &records {
            key_starts.push(keys.len());
            let name = &arena[r.name_start as usize..r.name_start as usize + r.name_len as usize];
            keys.extend(key_chars(name));
        }
        key_starts.push(keys.len());
        let key_of = |i: u32| &keys.as_bytes()[key_starts[i as usize]..key_starts[i as usize + 1]];
        let mut by_name: Vec<u32> = (0..n as u32).collect();
        // Records are in ID order, so index order breaks key ties by ID.
        by_name.sort_unstable_by(|&a, &b| key_of(a).cmp(key_of(b)).then(a.cmp(&b)));
        drop(key_starts);
        drop(keys);

        (
            PlayerDirectory {
                arena,
                records,
                federations,
                extras,
                id_table,
                id_bits: bits,
                by_name,
            },
            duplicates,
        )
    }
}

fn slot_of(id: u32, bits: u32) -> usize {
    // Fibonacci hashing: deterministic, no global state.
    (u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

/// The directory. Built with [`PlayerDirectoryBuilder`] or [`PlayerDirectory::from_players`].
#[derive(Debug, Clone)]
pub struct PlayerDirectory {
    arena: String,
    /// Sorted by FIDE ID, unique.
    records: Vec<Record>,
    federations: Vec<Span>,
    extras: Vec<Extra>,
    /// Open addressing, values are record index + 1 (0 = empty).
    id_table: Vec<u32>,
    id_bits: u32,
    /// Record indices sorted by name key, then FIDE ID.
    by_name: Vec<u32>,
}

/// What [`PlayerDirectory::from_list`] kept and skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Players in the directory.
    pub loaded: u64,
    /// Records that could not be read (all of them counted).
    pub error_count: u64,
    /// The first [`LoadReport::KEPT`] errors.
    pub first_errors: Vec<ListError>,
    /// IDs dropped because they occurred earlier in the list.
    pub duplicate_ids: Vec<u32>,
}

impl LoadReport {
    /// How many errors are kept in `first_errors`.
    pub const KEPT: usize = 100;
}

impl PlayerDirectory {
    /// Builds from players; returns the directory and the duplicate IDs dropped.
    pub fn from_players<I, P>(players: I) -> Result<(PlayerDirectory, Vec<u32>), DirectoryError>
    where
        I: IntoIterator<Item = P>,
        P: std::borrow::Borrow<ListPlayer>,
    {
        let iter = players.into_iter();
        let mut b = PlayerDirectoryBuilder::with_capacity(iter.size_hint().0);
        for p in iter {
            b.push(p.borrow())?;
        }
        Ok(b.finish())
    }

    /// Builds from a list reader's items, skipping records that could not be read (they are
    /// counted, the first 100 kept) and stopping at a fatal error (I/O), which is returned in
    /// the report too.
    pub fn from_list<I>(items: I) -> Result<(PlayerDirectory, LoadReport), DirectoryError>
    where
        I: IntoIterator<Item = Result<ListPlayer, ListError>>,
    {
        let iter = items.into_iter();
        let mut b = PlayerDirectoryBuilder::with_capacity(iter.size_hint().0);
        let mut report = LoadReport::default();
        for item in iter {
            match item {
                Ok(p) => b.push(&p)?,
                Err(e) => {
                    report.error_count += 1;
                    let fatal = e.is_fatal();
                    if report.first_errors.len() < LoadReport::KEPT {
                        report.first_errors.push(e);
                    }
                    if fatal {
                        break;
                    }
                }
            }
        }
        let (dir, dups) = b.finish();
        report.loaded = dir.len() as u64;
        report.duplicate_ids = dups;
        Ok((dir, report))
    }

    /// Number of players.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when there is no player.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn view(&self, index: usize) -> PlayerRef<'_> {
        PlayerRef {
            dir: self,
            record: &self.records[index],
        }
    }

    /// The player with this FIDE ID (O(1) expected).
    pub fn by_id(&self, fide_id: u32) -> Option<PlayerRef<'_>> {
        if self.records.is_empty() {
            return None;
        }
        let mask = self.id_table.len() - 1;
        let mut slot = slot_of(fide_id, self.id_bits);
        loop {
            match self.id_table[slot] {
                0 => return None,
                v => {
                    let r = &self.records[(v - 1) as usize];
                    if r.fide_id == fide_id {
                        return Some(self.view((v - 1) as usize));
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Players whose name key starts with the key of `query`, in name order (then ID).
    /// An empty query matches everyone.
    pub fn search_name<'a>(&'a self, query: &str) -> impl Iterator<Item = PlayerRef<'a>> + 'a {
        let key = name_key(query);
        let start = self.by_name.partition_point(|&i| {
            let name = self.name_at(i as usize);
            crate::name_key::key_chars(name).cmp(key.chars()) == std::cmp::Ordering::Less
        });
        self.by_name[start..]
            .iter()
            .map(move |&i| i as usize)
            .take_while(move |&i| key_starts_with(self.name_at(i), &key))
            .map(move |i| self.view(i))
    }

    /// All players in FIDE ID order.
    pub fn iter(&self) -> impl Iterator<Item = PlayerRef<'_>> + '_ {
        (0..self.records.len()).map(move |i| self.view(i))
    }

    fn name_at(&self, index: usize) -> &str {
        let r = &self.records[index];
        &self.arena[r.name_start as usize..r.name_start as usize + r.name_len as usize]
    }

    fn span(&self, s: Span) -> &str {
        &self.arena[s.start as usize..(s.start + s.len) as usize]
    }

    /// Approximate heap bytes used (for the benchmark report).
    pub fn heap_bytes(&self) -> usize {
        self.arena.capacity()
            + self.records.capacity() * std::mem::size_of::<Record>()
            + self.id_table.capacity() * 4
            + self.by_name.capacity() * 4
            + self.federations.capacity() * std::mem::size_of::<Span>()
            + self.extras.capacity() * std::mem::size_of::<Extra>()
    }
}

/// A player in a [`PlayerDirectory`], borrowed.
#[derive(Debug, Clone, Copy)]
pub struct PlayerRef<'a> {
    dir: &'a PlayerDirectory,
    record: &'a Record,
}

impl<'a> PlayerRef<'a> {
    /// FIDE ID.
    pub fn fide_id(&self) -> u32 {
        self.record.fide_id
    }

    /// Name as published.
    pub fn name(&self) -> &'a str {
        let r = self.record;
        &self.dir.arena[r.name_start as usize..r.name_start as usize + r.name_len as usize]
    }

    /// Federation code.
    pub fn federation(&self) -> &'a str {
        self.dir
            .span(self.dir.federations[self.record.federation as usize])
    }

    /// Gender.
    pub fn sex(&self) -> Option<Sex> {
        match self.record.bits & 3 {
            1 => Some(Sex::Male),
            2 => Some(Sex::Female),
            _ => None,
        }
    }

    /// Title.
    pub fn title(&self) -> Option<Title> {
        title_from(self.record.title)
    }

    /// Women's title.
    pub fn women_title(&self) -> Option<Title> {
        title_from(self.record.women_title)
    }

    /// Rating of one list.
    pub fn rating(&self, kind: RatingKind) -> Option<RatingEntry> {
        let i = kind_index(kind);
        let r = self.record;
        (r.ratings[i] != NO_RATING).then(|| RatingEntry {
            rating: r.ratings[i],
            games: r.games[i],
            k: (r.ks[i] != 0).then_some(r.ks[i]),
        })
    }

    /// Year of birth.
    pub fn birth_year(&self) -> Option<u16> {
        (self.record.birth_year != 0).then_some(self.record.birth_year)
    }

    /// Inactive flag (B.02 §7.2.2).
    pub fn is_inactive(&self) -> bool {
        self.record.bits & 4 != 0
    }

    /// The full record.
    pub fn to_player(&self) -> ListPlayer {
        let r = self.record;
        let extra = r
            .extra
            .checked_sub(1)
            .and_then(|i| self.dir.extras.get(i as usize));
        ListPlayer {
            fide_id: r.fide_id,
            name: self.name().to_string(),
            federation: self.federation().to_string(),
            sex: self.sex(),
            title: self.title(),
            women_title: self.women_title(),
            other_titles: extra.map_or_else(Vec::new, |e| {
                e.other_titles
                    .iter()
                    .map(|s| self.dir.span(*s).to_string())
                    .collect()
            }),
            foa_title: extra.and_then(|e| e.foa.map(|s| self.dir.span(s).to_string())),
            standard: self.rating(RatingKind::Standard),
            rapid: self.rating(RatingKind::Rapid),
            blitz: self.rating(RatingKind::Blitz),
            birth_year: self.birth_year(),
            flags: Flags {
                inactive: self.is_inactive(),
                woman: r.bits & 8 != 0,
                other: extra.map_or_else(String::new, |e| self.dir.span(e.flags_other).to_string()),
            },
        }
    }
}
