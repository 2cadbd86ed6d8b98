//! `arbiter player import FILE`: the players of a CSV file (with a header) or of a TRF's
//! `001` records, read and checked here before anything is sent (ADR registry-005). Pure:
//! bytes in, player data (with where each came from) or the first fault with its
//! `line:column` out. The server checks again and names a player by its index, which
//! [`Source::locate`] turns back into the line and column.
use arbiter_proto::v1::PlayerData;

/// Largest file read (bytes): 16 MiB, as for TRF files.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A CSV column: what its header may say (case, blanks, `-` and `_` ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Name,
    Title,
    Rating,
    Rapid,
    Blitz,
    Federation,
    FideId,
    Birth,
    Sex,
    Club,
    NationalId,
    NationalRating,
}

const COLUMNS: &[(Column, &[&str], &str)] = &[
    (Column::Name, &["name", "player"], "data.name"),
    (Column::Title, &["title"], "data.title"),
    (
        Column::Rating,
        &["rating", "elo", "fiderating", "standard", "ratingstandard"],
        "data.rating_standard",
    ),
    (
        Column::Rapid,
        &["rapid", "ratingrapid"],
        "data.rating_rapid",
    ),
    (
        Column::Blitz,
        &["blitz", "ratingblitz"],
        "data.rating_blitz",
    ),
    (
        Column::Federation,
        &["federation", "fed", "country"],
        "data.federation",
    ),
    (Column::FideId, &["fideid", "fide", "id"], "data.fide_id"),
    (
        Column::Birth,
        &[
            "birthdate",
            "birth",
            "born",
            "dateofbirth",
            "birthyear",
            "byear",
        ],
        "data.birth_date",
    ),
    (Column::Sex, &["sex", "gender"], "data.sex"),
    (Column::Club, &["club"], "data.club"),
    (Column::NationalId, &["nationalid"], "data.national_id"),
    (
        Column::NationalRating,
        &["nationalrating"],
        "data.national_rating",
    ),
];

/// The TRF `001` columns of each field (1-based start).
const TRF_COLUMNS: &[(&str, usize)] = &[
    ("data.sex", 10),
    ("data.title", 11),
    ("data.name", 15),
    ("data.rating_standard", 49),
    ("data.federation", 54),
    ("data.fide_id", 58),
    ("data.birth_date", 70),
];

/// Where the players came from: for each, its line, and the column each field is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// `csv` or `trf`.
    pub format: &'static str,
    /// Line of each player (1-based), in order.
    pub lines: Vec<usize>,
    /// Field (`data.name`) → column (1-based; the CSV column number, or the TRF column).
    pub columns: Vec<(&'static str, usize)>,
}

impl Source {
    /// `(line, column)` of player `index`'s `field` (column 0 when unknown).
    pub fn locate(&self, index: usize, field: &str) -> Option<(usize, usize)> {
        let line = *self.lines.get(index)?;
        let column = self
            .columns
            .iter()
            .find(|(f, _)| *f == field)
            .map_or(0, |(_, c)| *c);
        Some((line, column))
    }
}

/// A fault in the file: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// 1-based line (0 = the whole file).
    pub line: usize,
    /// 1-based column (0 = the whole line).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

fn fault(line: usize, column: usize, message: impl Into<String>) -> Fault {
    Fault {
        line,
        column,
        message: message.into(),
    }
}

/// Reads `bytes` as a TRF (when its first record is a TRF record code such as `012` or
/// `001`) or as CSV with a header.
pub fn read(bytes: &[u8]) -> Result<(Vec<PlayerData>, Source), Fault> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        fault(line, 0, "not UTF-8 text")
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let code = first.get(..3).unwrap_or("");
    let trf_like = first.len() >= 4
        && first.as_bytes()[3] == b' '
        && (code.bytes().all(|b| b.is_ascii_digit()) || code == "###" || code.starts_with("XX"));
    if trf_like {
        read_trf(text.as_bytes())
    } else {
        read_csv(text)
    }
}

fn key(header: &str) -> String {
    header
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-' && *c != '.')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The 1-based line of byte `at` (the csv crate's own count skips blank lines).
fn line_at(text: &str, at: u64) -> usize {
    let mut at = usize::try_from(at).unwrap_or(usize::MAX).min(text.len());
    // A record's position can be where the blank lines before it start.
    while at < text.len() && matches!(text.as_bytes()[at], b'\n' | b'\r') {
        at += 1;
    }
    text.as_bytes()[..at]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// CSV with a header line; `,` or `;` (whichever the header has; `;` as spreadsheets in
/// much of Europe write it).
pub fn read_csv(text: &str) -> Result<(Vec<PlayerData>, Source), Fault> {
    let header_line = text.lines().next().unwrap_or("");
    let delimiter = if header_line.contains(';') && !header_line.contains(',') {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .flexible(false)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| fault(1, 0, format!("the header line: {e}")))?
        .clone();
    let mut columns: Vec<(Column, &'static str, usize)> = Vec::new();
    for (i, h) in headers.iter().enumerate() {
        let k = key(h);
        let Some((col, _, field)) = COLUMNS
            .iter()
            .find(|(_, names, _)| names.contains(&k.as_str()))
        else {
            let known: Vec<&str> = COLUMNS.iter().map(|(_, n, _)| n[0]).collect();
            return Err(fault(
                1,
                i + 1,
                format!(
                    "column {h:?} is not one this import reads ({})",
                    known.join(", ")
                ),
            ));
        };
        if columns.iter().any(|(c, _, _)| c == col) {
            return Err(fault(1, i + 1, format!("column {h:?} is given twice")));
        }
        columns.push((*col, field, i + 1));
    }
    if !columns.iter().any(|(c, _, _)| *c == Column::Name) {
        return Err(fault(
            1,
            0,
            "the header has no name column (\"Lastname, Firstname\")",
        ));
    }
    let mut players = Vec::new();
    let mut lines = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| line_at(text, p.byte()));
            let message = match e.kind() {
                csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                } => format!("{len} fields, the header has {expected_len}"),
                _ => e.to_string(),
            };
            fault(line, 0, message)
        })?;
        let line = record.position().map_or(0, |p| line_at(text, p.byte()));
        if record.iter().all(str::is_empty) {
            continue;
        }
        let mut d = PlayerData::default();
        for (col, _, at) in &columns {
            let v = record.get(at - 1).unwrap_or("");
            let number = |what: &str, max: u64| -> Result<u64, Fault> {
                if v.is_empty() {
                    return Ok(0);
                }
                match v.parse::<u64>() {
                    Ok(n) if n <= max => Ok(n),
                    _ => Err(fault(
                        line,
                        *at,
                        format!("{what}: {v:?} is not a number from 0 to {max}"),
                    )),
                }
            };
            match col {
                Column::Name => d.name = v.to_owned(),
                Column::Title => d.title = v.to_owned(),
                Column::Rating => d.rating_standard = number("rating", 3500)? as u32,
                Column::Rapid => d.rating_rapid = number("rapid", 3500)? as u32,
                Column::Blitz => d.rating_blitz = number("blitz", 3500)? as u32,
                Column::Federation => d.federation = v.to_ascii_uppercase(),
                Column::FideId => d.fide_id = number("fide id", 99_999_999_999)?,
                Column::Birth => d.birth_date = v.to_owned(),
                Column::Sex => d.sex = v.to_owned(),
                Column::Club => d.club = v.to_owned(),
                Column::NationalId => d.national_id = v.to_owned(),
                Column::NationalRating => {
                    d.national_rating = number("national rating", 3500)? as u32;
                }
            }
        }
        if d.name.is_empty() {
            let at = columns
                .iter()
                .find(|(c, _, _)| *c == Column::Name)
                .map_or(0, |(_, _, a)| *a);
            return Err(fault(line, at, "name: empty (\"Lastname, Firstname\")"));
        }
        players.push(d);
        lines.push(line);
    }
    if players.is_empty() {
        return Err(fault(0, 0, "no players: the file has a header and no rows"));
    }
    Ok((
        players,
        Source {
            format: "csv",
            lines,
            columns: columns.iter().map(|(_, f, a)| (*f, *a)).collect(),
        },
    ))
}

/// The `001` records of a TRF (its rounds are not read: players only).
pub fn read_trf(bytes: &[u8]) -> Result<(Vec<PlayerData>, Source), Fault> {
    let parsed = trf::parse(bytes).map_err(|e| fault(0, 0, e.to_string()))?;
    let mut players = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in parsed.doc.lines.iter().enumerate() {
        let trf::Record::Player(p) = &line.record else {
            continue;
        };
        players.push(PlayerData {
            name: p.name.trim().to_owned(),
            sex: p.sex.map(|c| c.to_string()).unwrap_or_default(),
            title: p.title.clone(),
            rating_standard: p.rating.get().map_or(0, u32::from),
            federation: p.federation.trim().to_owned(),
            fide_id: p.fide_id.get().unwrap_or(0),
            birth_date: p.birth_date.trim().to_owned(),
            ..PlayerData::default()
        });
        lines.push(i + 1);
    }
    if players.is_empty() {
        return Err(fault(0, 0, "no player records (001) in the file"));
    }
    Ok((
        players,
        Source {
            format: "trf",
            lines,
            columns: TRF_COLUMNS.to_vec(),
        },
    ))
}

/// Reads a server refusal `players[3].data.name: …` back to `(index, field, message)`.
pub fn refused_player(message: &str) -> Option<(usize, &str, &str)> {
    let rest = message.strip_prefix("players[")?;
    let (index, rest) = rest.split_once("].")?;
    let (field, what) = rest.split_once(": ")?;
    Some((index.parse().ok()?, field, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_with_a_header_reads_every_column() {
        let csv = "Name,Title,Rating,Federation,FIDE ID,Birth date,Sex\n\
\"Short, Nigel\",GM,2658,eng,400025,1965/06/01,m\n\
\n\
\"Baburin, Alex\",,2410,IRL,,1967,m\n";
        let (players, source) = read(csv.as_bytes()).unwrap();
        assert_eq!(players.len(), 2);
        assert_eq!(players[0].name, "Short, Nigel");
        assert_eq!(players[0].title, "GM");
        assert_eq!(players[0].rating_standard, 2658);
        assert_eq!(players[0].federation, "ENG");
        assert_eq!(players[0].fide_id, 400_025);
        assert_eq!(players[1].birth_date, "1967");
        assert_eq!(source.lines, [2, 4]);
        assert_eq!(source.locate(1, "data.fide_id"), Some((4, 5)));
    }

    #[test]
    fn semicolons_are_read_when_the_header_has_them() {
        let (players, _) = read("name;elo\nA, B;2000\n".as_bytes()).unwrap();
        assert_eq!(players[0].rating_standard, 2000);
        assert_eq!(players[0].name, "A, B");
    }

    #[test]
    fn faults_name_line_and_column() {
        let bad = read("name,rating\n\"A, A\",2000\n\"B, B\",20x0\n".as_bytes()).unwrap_err();
        assert_eq!((bad.line, bad.column), (3, 2), "{bad:?}");
        assert!(bad.message.contains("\"20x0\""), "{bad:?}");
        let unknown = read("name,ratng\n".as_bytes()).unwrap_err();
        assert_eq!((unknown.line, unknown.column), (1, 2));
        assert!(unknown.message.contains("\"ratng\""), "{unknown:?}");
        let short = read("name,rating\n\"A, A\"\n".as_bytes()).unwrap_err();
        assert_eq!(short.line, 2, "{short:?}");
        let empty = read("name,rating\n,2000\n".as_bytes()).unwrap_err();
        assert_eq!((empty.line, empty.column), (2, 1));
        assert!(read("rating\n2000\n".as_bytes()).is_err());
        assert!(read("name\n".as_bytes()).is_err());
        let not_utf8 = read(b"name\n\xff\xfe\n").unwrap_err();
        assert_eq!(not_utf8.line, 2);
    }

    #[test]
    fn a_trfs_player_records_are_read_without_their_rounds() {
        let trf = "012 T\n\
001    1 m GM Short, Nigel                      2658 ENG      400025 1965/06/01  1.0    1     2 w 1\n\
001    2 m    Baburin, Alex                     2410 IRL                         0.0    2     1 b 0\n";
        let (players, source) = read(trf.as_bytes()).unwrap();
        assert_eq!(players.len(), 2);
        assert_eq!(players[0].title, "GM");
        assert_eq!(players[0].fide_id, 400_025);
        assert_eq!(players[1].federation, "IRL");
        assert_eq!(source.lines, [2, 3]);
        assert_eq!(source.locate(1, "data.birth_date"), Some((3, 70)));
    }

    #[test]
    fn a_server_refusal_names_the_player() {
        assert_eq!(
            refused_player("players[3].data.name: must not be empty"),
            Some((3, "data.name", "must not be empty"))
        );
        assert_eq!(refused_player("data.name: x"), None);
    }
}
