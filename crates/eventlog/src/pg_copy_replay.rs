//! Replay on PostgreSQL through `COPY … TO STDOUT (FORMAT binary)`: one round trip per
//! page and the tuples parsed here (big-endian integers, UTF-8 text, raw bytea), without
//! the per-row machinery of a query. Same rows, same order as the query path, which stays
//! the fallback.
use futures::TryStreamExt;
use sqlx::postgres::PgPoolCopyExt;

use crate::envelope::RecordedEvent;
use crate::{Error, Result};

const SIGNATURE: &[u8] = b"PGCOPY\n\xff\r\n\0";

struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.buf.len())
            .ok_or_else(|| Error::Corrupt {
                position: 0,
                message: "COPY stream ended inside a row".into(),
            })?;
        let s = &self.buf[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn i16(&mut self) -> Result<i16> {
        let b = self.take(2)?;
        Ok(i16::from_be_bytes([b[0], b[1]]))
    }
    fn i32(&mut self) -> Result<i32> {
        let b = self.take(4)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn field(&mut self) -> Result<&[u8]> {
        let n = self.i32()?;
        let n = usize::try_from(n).map_err(|_| Error::Corrupt {
            position: 0,
            message: "unexpected NULL in the event log".into(),
        })?;
        self.take(n)
    }
    fn int8(&mut self) -> Result<i64> {
        let b = self.field()?;
        let a: [u8; 8] = b.try_into().map_err(|_| Error::Corrupt {
            position: 0,
            message: "BIGINT column of unexpected width".into(),
        })?;
        Ok(i64::from_be_bytes(a))
    }
    fn text(&mut self) -> Result<String> {
        let b = self.field()?;
        String::from_utf8(b.to_vec()).map_err(|_| Error::Corrupt {
            position: 0,
            message: "TEXT column is not UTF-8".into(),
        })
    }
    fn bytes(&mut self) -> Result<Vec<u8>> {
        Ok(self.field()?.to_vec())
    }
}

/// Events from `from_position` on, at most `limit`, in log order. Rows are parsed as the
/// stream arrives, so the server produces the next rows while this side decodes.
pub(crate) async fn page(
    pool: &sqlx::PgPool,
    from_position: i64,
    limit: i64,
) -> Result<Vec<RecordedEvent>> {
    let sql = format!(
        "COPY (SELECT {} FROM events WHERE global_position >= {from_position} \
         ORDER BY global_position LIMIT {limit}) TO STDOUT (FORMAT binary)",
        crate::store::COLUMNS_FOR_COPY
    );
    let mut stream = pool.copy_out_raw(&sql).await?;
    let mut pending: Vec<u8> = Vec::new();
    let mut out = Vec::with_capacity(usize::try_from(limit.clamp(0, 100_000)).unwrap_or(0));
    let mut header_read = false;
    let mut done = false;
    while let Some(chunk) = stream.try_next().await? {
        if done {
            continue;
        }
        pending.extend_from_slice(&chunk);
        let mut r = Reader {
            buf: &pending,
            at: 0,
        };
        if !header_read {
            if pending.len() < SIGNATURE.len() + 8 {
                continue;
            }
            header(&mut r)?;
            header_read = true;
        }
        loop {
            let start = r.at;
            match row(&mut r) {
                Ok(Some(e)) => out.push(e),
                Ok(None) => {
                    done = true;
                    break;
                }
                Err(_) if !done => {
                    // An incomplete row: wait for the next chunk.
                    r.at = start;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        let used = r.at;
        pending.drain(..used);
    }
    if !done {
        // Whatever is left must parse completely (or it is an error).
        let mut r = Reader {
            buf: &pending,
            at: 0,
        };
        if !header_read {
            header(&mut r)?;
        }
        while let Some(e) = row(&mut r)? {
            out.push(e);
        }
    }
    Ok(out)
}

fn header(r: &mut Reader<'_>) -> Result<()> {
    if r.take(SIGNATURE.len())? != SIGNATURE {
        return Err(Error::Corrupt {
            position: 0,
            message: "not a binary COPY stream".into(),
        });
    }
    let _flags = r.i32()?;
    let ext = r.i32()?;
    r.take(usize::try_from(ext).unwrap_or(0))?;
    Ok(())
}

/// One row, or `None` at the trailer.
fn row(r: &mut Reader<'_>) -> Result<Option<RecordedEvent>> {
    let fields = r.i16()?;
    if fields == -1 {
        return Ok(None);
    }
    if fields != 18 {
        return Err(Error::Corrupt {
            position: 0,
            message: format!("COPY row of {fields} columns, expected 18"),
        });
    }
    let global_position = r.int8()?;
    let event_id = r.text()?;
    let stream = r.text()?;
    let stream_version = r.int8()?;
    let event_type = r.text()?;
    let schema = r.int8()?;
    let schema_version = u32::try_from(schema).map_err(|_| Error::Corrupt {
        position: global_position,
        message: format!("schema_version {schema} out of range"),
    })?;
    Ok(Some(RecordedEvent {
        global_position,
        event_id,
        stream,
        stream_version,
        event_type,
        schema_version,
        payload: r.bytes()?,
        recorded_at_micros: r.int8()?,
        actor: r.text()?,
        command_id: r.text()?,
        correlation_id: r.text()?,
        causation_id: r.text()?,
        reason: r.text()?,
        rule_edition: r.text()?,
        service: r.text()?,
        prev_hash: r.bytes()?,
        hash: r.bytes()?,
        trace_parent: r.text()?,
    }))
}
