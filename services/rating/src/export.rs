//! Exports of a computed list, pure: FIDE TXT (`players_list_foa.txt` layout), FIDE XML
//! (`players_list_xml_foa.xml`) through `crates/ratinglist`'s writers, and CSV. Players in
//! FIDE id order; the same list gives the same bytes.
use std::fmt::Write as _;

use arbiter_proto::v1::{RatingListEntry, RatingListPlayer};
use ratinglist::{
    Flags, ListPlayer, RatingEntry, Sex, TextEncoding, Title, TxtLayout, XmlLayout, write_txt,
    write_xml,
};

use crate::calendar::FieldError;

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// FIDE fixed-width TXT.
    Txt,
    /// FIDE XML.
    Xml,
    /// CSV with a header row.
    Csv,
}

impl Format {
    /// `txt`, `xml` or `csv`.
    pub fn parse(text: &str) -> Result<Format, FieldError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "txt" => Ok(Format::Txt),
            "xml" => Ok(Format::Xml),
            "csv" => Ok(Format::Csv),
            other => Err(FieldError::new(
                "format",
                format!("{other:?}: expected txt, xml or csv"),
            )),
        }
    }
}

fn rating_entry(e: Option<&RatingListEntry>) -> Option<RatingEntry> {
    let e = e?;
    let rating = u16::try_from(e.rating).ok().filter(|r| *r > 0)?;
    Some(RatingEntry {
        rating,
        games: u16::try_from(e.games).unwrap_or(u16::MAX),
        k: u8::try_from(e.k).ok().filter(|k| *k > 0),
    })
}

/// The file-format record of a list player.
pub fn to_list_player(p: &RatingListPlayer) -> ListPlayer {
    let mut l = ListPlayer::new(p.fide_id, p.name.clone());
    l.federation = p.federation.clone();
    l.sex = Sex::from_code(&p.sex);
    l.title = Title::from_code(&p.title);
    l.women_title = Title::from_code(&p.women_title);
    l.other_titles = p
        .other_titles
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    l.foa_title = (!p.foa_title.is_empty()).then(|| p.foa_title.clone());
    l.standard = rating_entry(p.standard.as_ref());
    l.rapid = rating_entry(p.rapid.as_ref());
    l.blitz = rating_entry(p.blitz.as_ref());
    l.birth_year = u16::try_from(p.birth_year).ok().filter(|y| *y > 0);
    l.flags = Flags::parse(&p.flags);
    l
}

/// The file-format record → a starting-list player (published fields only).
pub fn from_list_player(l: &ListPlayer) -> RatingListPlayer {
    let e = |r: Option<&RatingEntry>| {
        r.map(|r| RatingListEntry {
            rating: r.rating as u32,
            games: r.games as u32,
            k: r.k.unwrap_or(0) as u32,
            ..Default::default()
        })
    };
    RatingListPlayer {
        fide_id: l.fide_id,
        name: l.name.clone(),
        federation: l.federation.clone(),
        sex: l.sex.map(|s| s.code().to_string()).unwrap_or_default(),
        title: l.title.map(|t| t.code().to_owned()).unwrap_or_default(),
        women_title: l
            .women_title
            .map(|t| t.code().to_owned())
            .unwrap_or_default(),
        other_titles: l.other_titles.join(","),
        foa_title: l.foa_title.clone().unwrap_or_default(),
        birth_year: l.birth_year.unwrap_or(0) as u32,
        flags: l.flags.code(),
        standard: e(l.standard.as_ref()),
        rapid: e(l.rapid.as_ref()),
        blitz: e(l.blitz.as_ref()),
    }
}

fn csv_field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// Writes the list in `format`.
pub fn export(players: &[RatingListPlayer], format: Format) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    match format {
        Format::Txt => {
            write_txt(
                &mut out,
                players.iter().map(to_list_player),
                &TxtLayout::CombinedFoa,
                TextEncoding::Utf8,
            )
            .map_err(|e| e.to_string())?;
        }
        Format::Xml => {
            write_xml(
                &mut out,
                players.iter().map(to_list_player),
                XmlLayout::Combined,
                TextEncoding::Utf8,
            )
            .map_err(|e| e.to_string())?;
        }
        Format::Csv => {
            let mut s = String::from(
                "fide_id,name,federation,sex,title,women_title,birth_year,flags,\
                 standard,standard_games,standard_k,rapid,rapid_games,rapid_k,blitz,blitz_games,blitz_k\n",
            );
            for p in players {
                let _ = write!(s, "{},", p.fide_id);
                for f in [&p.name, &p.federation, &p.sex, &p.title, &p.women_title] {
                    csv_field(&mut s, f);
                    s.push(',');
                }
                let _ = write!(s, "{},", p.birth_year);
                csv_field(&mut s, &p.flags);
                for e in [&p.standard, &p.rapid, &p.blitz] {
                    match rating_entry(e.as_ref()) {
                        Some(r) => {
                            let _ = write!(s, ",{},{},{}", r.rating, r.games, r.k.unwrap_or(0));
                        }
                        None => s.push_str(",,,"),
                    }
                }
                s.push('\n');
            }
            out = s.into_bytes();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> Vec<RatingListPlayer> {
        vec![
            RatingListPlayer {
                fide_id: 1000001,
                name: "Alpha, Ann".into(),
                federation: "IRL".into(),
                sex: "F".into(),
                women_title: "WIM".into(),
                birth_year: 1990,
                standard: Some(RatingListEntry {
                    rating: 2015,
                    games: 3,
                    k: 20,
                    ..Default::default()
                }),
                ..Default::default()
            },
            RatingListPlayer {
                fide_id: 1000002,
                name: "Beta, \"Bob\"".into(),
                flags: "i".into(),
                ..Default::default()
            },
        ]
    }

    #[test]
    fn txt_and_xml_read_back() {
        for f in [Format::Txt, Format::Xml] {
            let bytes = export(&players(), f).unwrap();
            let back: Vec<ListPlayer> = ratinglist::read_list(bytes.as_slice())
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(back.len(), 2);
            assert_eq!(back[0].standard.unwrap().rating, 2015);
            assert_eq!(from_list_player(&back[0]).standard.unwrap().k, 20);
            assert!(back[1].flags.inactive);
        }
    }

    #[test]
    fn csv_quotes() {
        let s = String::from_utf8(export(&players(), Format::Csv).unwrap()).unwrap();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(
            lines[1],
            "1000001,\"Alpha, Ann\",IRL,F,,WIM,1990,,2015,3,20,,,,,,"
        );
        assert!(lines[2].starts_with("1000002,\"Beta, \"\"Bob\"\"\""));
        assert_eq!(Format::parse("pdf").unwrap_err().field, "format");
    }
}
