//! `arbiter ratinglist import FILE` and `arbiter ratinglist find QUERY`: the registry's
//! player directory (a FIDE rating list, streamed to the server in chunks).
use std::path::PathBuf;

use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::{
    ImportRatingListChunk, ImportRatingListResponse, LookupPlayersRequest, PlayerData,
};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use tokio::io::AsyncReadExt;

use crate::client::{authed, connect, token};
use crate::{Cli, Failure, output};

/// Bytes per chunk sent.
const CHUNK: usize = 1 << 20;

/// The player directory (FIDE rating list).
#[derive(Subcommand)]
pub enum RatingListCommand {
    /// Replace the server's player directory with a FIDE rating list file (TXT or XML,
    /// as downloaded from ratings.fide.com).
    Import {
        /// The list file.
        file: PathBuf,
        /// For single-list files (standard_…/rapid_…/blitz_…frl.txt): which rating the
        /// unqualified column is: standard, rapid or blitz.
        #[arg(long, default_value = "standard")]
        kind: String,
    },
    /// Find players in the directory by FIDE ID or name prefix ("Surname, First").
    Find {
        /// A FIDE ID or the start of a name.
        query: String,
        /// At most this many players (default 20, at most 1000).
        #[arg(long, default_value_t = 0)]
        limit: u32,
    },
}

fn usage(message: String) -> Failure {
    Failure { code: 2, message }
}

/// Runs a `ratinglist` command.
pub async fn run(cli: &Cli, command: &RatingListCommand) -> Result<(), Failure> {
    match command {
        RatingListCommand::Import { file, kind } => import(cli, file, kind).await,
        RatingListCommand::Find { query, limit } => find(cli, query, *limit).await,
    }
}

async fn import(cli: &Cli, file: &PathBuf, kind: &str) -> Result<(), Failure> {
    let token = token(cli)?;
    let mut f = tokio::fs::File::open(file)
        .await
        .map_err(|e| usage(format!("{}: {e}", file.display())))?;
    let size = f.metadata().await.map(|m| m.len()).unwrap_or(0);
    let bar = if cli.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(size)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} sent ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let file_name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (tx, rx) = tokio::sync::mpsc::channel::<ImportRatingListChunk>(4);
    let sender_bar = bar.clone();
    let kind = kind.to_owned();
    let path = file.display().to_string();
    // Reads the file and hands chunks to the call; the bar moves as they are taken.
    let sender = tokio::spawn(async move {
        let mut first = true;
        loop {
            let mut buf = vec![0u8; CHUNK];
            let mut filled = 0;
            while filled < CHUNK {
                match f.read(&mut buf[filled..]).await {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) => return Err(format!("{path}: {e}")),
                }
            }
            if filled == 0 && !first {
                return Ok(());
            }
            buf.truncate(filled);
            let chunk = ImportRatingListChunk {
                data: buf,
                file_name: if first {
                    file_name.clone()
                } else {
                    String::new()
                },
                plain_rating_kind: if first { kind.clone() } else { String::new() },
            };
            first = false;
            if tx.send(chunk).await.is_err() {
                return Ok(()); // the call ended; its answer says why
            }
            sender_bar.inc(filled as u64);
            if filled < CHUNK {
                return Ok(());
            }
        }
    });
    let mut client = RegistryServiceClient::new(connect(cli).await?)
        .max_encoding_message_size(CHUNK + 64 * 1024);
    let request = authed(&token, tokio_stream::wrappers::ReceiverStream::new(rx))?;
    let answer = client.import_rating_list(request).await;
    let read = sender.await.unwrap_or_else(|e| Err(e.to_string()));
    if let Err(message) = read {
        bar.abandon();
        return Err(Failure { code: 2, message });
    }
    let r = match answer {
        Ok(r) => r.into_inner(),
        Err(s) => {
            bar.abandon();
            return Err(s.into());
        }
    };
    bar.finish_and_clear();
    print_import(cli, file, &r);
    Ok(())
}

fn print_import(cli: &Cli, file: &std::path::Path, r: &ImportRatingListResponse) {
    if cli.json {
        output::json(&serde_json::json!({
            "file": file.display().to_string(),
            "format": r.format,
            "players_loaded": r.players_loaded,
            "error_count": r.error_count,
            "errors": r.errors.iter().map(|e| serde_json::json!({
                "line": e.line, "column": e.column, "message": e.message,
            })).collect::<Vec<_>>(),
            "duplicate_id_count": r.duplicate_id_count,
            "duplicate_ids": r.duplicate_ids,
            "bytes": r.bytes,
            "sha256": r.sha256,
            "persisted": r.persisted,
        }));
        return;
    }
    println!(
        "{}: {} players loaded ({}, {} bytes, sha256 {})",
        file.display(),
        r.players_loaded,
        r.format,
        r.bytes,
        r.sha256
    );
    if !r.persisted {
        println!("note: the server keeps this list in memory only (lost on restart)");
    }
    if r.duplicate_id_count > 0 {
        println!(
            "{} duplicate FIDE ID(s) dropped (first kept): {}",
            r.duplicate_id_count,
            r.duplicate_ids
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    if r.error_count > 0 {
        println!(
            "{} record(s) skipped; the first {}:",
            r.error_count,
            r.errors.len()
        );
        // The messages start with "line L:C:".
        for e in &r.errors {
            println!("  {}", output::clean(&e.message));
        }
    }
}

fn player_json(d: &PlayerData) -> serde_json::Value {
    serde_json::json!({
        "fide_id": d.fide_id, "name": d.name, "federation": d.federation, "sex": d.sex,
        "title": d.title, "birth_date": d.birth_date, "rating_standard": d.rating_standard,
        "rating_rapid": d.rating_rapid, "rating_blitz": d.rating_blitz,
    })
}

async fn find(cli: &Cli, query: &str, limit: u32) -> Result<(), Failure> {
    let mut client = RegistryServiceClient::new(connect(cli).await?);
    let r = client
        .lookup_players(LookupPlayersRequest {
            query: query.to_owned(),
            limit,
        })
        .await?
        .into_inner();
    if cli.json {
        output::json(&serde_json::Value::Array(
            r.players.iter().map(player_json).collect(),
        ));
        return Ok(());
    }
    let rating = |r: u32| if r == 0 { String::new() } else { r.to_string() };
    let rows: Vec<Vec<String>> = r
        .players
        .iter()
        .map(|d| {
            vec![
                d.fide_id.to_string(),
                d.name.clone(),
                d.federation.clone(),
                d.title.clone(),
                rating(d.rating_standard),
                rating(d.rating_rapid),
                rating(d.rating_blitz),
                d.birth_date.clone(),
            ]
        })
        .collect();
    output::table(
        &[
            "FIDE ID", "Name", "Fed", "Title", "Std", "Rapid", "Blitz", "Born",
        ],
        &rows,
    );
    if r.players.is_empty() {
        println!(
            "no player matches {query:?} ({} in the directory)",
            r.directory_size
        );
    }
    Ok(())
}
