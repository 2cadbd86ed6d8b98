//! Replay on PostgreSQL through `COPY … TO STDOUT (FORMAT binary)`: one round trip per
//! page and the tuples parsed here (big-endian integers, UTF-8 text, raw bytea), without
//! the per-row machinery of a query. Same rows, same order as the query path, which stays
//! the fallback. A page arrives into one buffer ([`RawPage`]) and its rows are read in
//! place as [`EventRef`]s: the check walks them without allocating (ADR platform-011).
use futures::TryStreamExt;
use sqlx::postgres::PgPoolCopyExt;

use crate::envelope::{EventRef, RecordedEvent};
use crate::{Error, Result};

const SIGNATURE: &[u8] = b"PGCOPY\n\xff\r\n\0";

struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

fn corrupt(message: &str) -> Error {
    Error::Corrupt {
        position: 0,
        message: message.into(),
    }
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.buf.len())
            .ok_or_else(|| corrupt("COPY stream ended inside a row"))?;
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
    fn field(&mut self) -> Result<&'a [u8]> {
        let n = self.i32()?;
        let n = usize::try_from(n).map_err(|_| corrupt("unexpected NULL in the event log"))?;
        self.take(n)
    }
    fn int8(&mut self) -> Result<i64> {
        let b = self.field()?;
        let a: [u8; 8] = b
            .try_into()
            .map_err(|_| corrupt("BIGINT column of unexpected width"))?;
        Ok(i64::from_be_bytes(a))
    }
    fn text(&mut self) -> Result<&'a str> {
        std::str::from_utf8(self.field()?).map_err(|_| corrupt("TEXT column is not UTF-8"))
    }
}

/// One page of the COPY stream, as it arrived (header, rows, trailer).
pub(crate) struct RawPage {
    buf: Vec<u8>,
}

impl RawPage {
    /// Calls `f` with every row, in order; an error for a malformed stream.
    pub(crate) fn for_each<'p>(
        &'p self,
        mut f: impl FnMut(EventRef<'p>) -> Result<()>,
    ) -> Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let mut r = Reader {
            buf: &self.buf,
            at: 0,
        };
        header(&mut r)?;
        while let Some(e) = row(&mut r)? {
            f(e)?;
        }
        Ok(())
    }

    /// The rows, owned.
    pub(crate) fn events(&self) -> Result<Vec<RecordedEvent>> {
        let mut out = Vec::new();
        self.for_each(|e| {
            out.push(e.to_owned());
            Ok(())
        })?;
        Ok(out)
    }
}

/// Pages at least this long are read as two halves at once (ADR platform-011).
const SPLIT_FROM: i64 = 2_000;

/// Events from `from_position` on, at most `limit`, in log order. A long page is read as
/// two COPYs at once on two connections, the first half in a task of its own: the
/// server's work (one backend per COPY) and the decoding here each spread over two
/// cores. The first half is the positions `from..from + limit / 2` (fewer events where
/// positions are missing), the second the events after it, up to the rest of `limit`.
pub(crate) async fn page(
    pool: &sqlx::PgPool,
    from_position: i64,
    limit: i64,
) -> Result<Vec<RecordedEvent>> {
    let half = limit / 2;
    let parts = match from_position.checked_add(half) {
        Some(middle) if limit >= SPLIT_FROM => {
            two(
                pool,
                (from_position, Some(middle), half),
                (middle, None, limit - half),
                true,
            )
            .await?
        }
        _ => vec![copy(pool, from_position, None, limit, true).await?],
    };
    let mut events = Vec::new();
    for part in parts {
        match part {
            Part::Owned(e) => events.extend(e),
            Part::Raw(raw) => events.extend(raw.events()?),
        }
    }
    Ok(events)
}

/// The events at positions `from..before`, as they arrived: one or two [`RawPage`]s, in
/// log order (two halves at once for a long range).
pub(crate) async fn raw_range(pool: &sqlx::PgPool, from: i64, before: i64) -> Result<Vec<RawPage>> {
    let len = before.saturating_sub(from);
    let parts = if len < SPLIT_FROM {
        vec![copy(pool, from, Some(before), len.max(0), false).await?]
    } else {
        let middle = from + len / 2;
        two(
            pool,
            (from, Some(middle), middle - from),
            (middle, Some(before), before - middle),
            false,
        )
        .await?
    };
    parts
        .into_iter()
        .map(|p| match p {
            Part::Raw(raw) => Ok(raw),
            Part::Owned(_) => Err(corrupt("COPY page decoded unasked")),
        })
        .collect()
}

/// What one COPY gave: the buffer as it arrived, or the events decoded as they arrived.
enum Part {
    Raw(RawPage),
    Owned(Vec<RecordedEvent>),
}

/// Two COPYs (from, before, limit) at once, the first in a task of its own.
async fn two(
    pool: &sqlx::PgPool,
    a: (i64, Option<i64>, i64),
    b: (i64, Option<i64>, i64),
    owned: bool,
) -> Result<Vec<Part>> {
    let first = tokio::spawn({
        let pool = pool.clone();
        async move { copy(&pool, a.0, a.1, a.2, owned).await }
    });
    let second = copy(pool, b.0, b.1, b.2, owned).await;
    let first = first.await.map_err(|e| Error::Invalid {
        field: "replay",
        message: format!("reading the log failed: {e}"),
    })??;
    Ok(vec![first, second?])
}

/// Events with positions in `from..before` (no upper bound: `None`), at most `limit`, in
/// log order: `owned`, decoded as the stream arrives (the server produces the next rows
/// while this side decodes); else the buffer as it arrived.
async fn copy(
    pool: &sqlx::PgPool,
    from_position: i64,
    before: Option<i64>,
    limit: i64,
    owned: bool,
) -> Result<Part> {
    let upper = before.map_or(String::new(), |b| format!(" AND global_position < {b}"));
    let sql = format!(
        "COPY (SELECT {} FROM events WHERE global_position >= {from_position}{upper} \
         ORDER BY global_position LIMIT {limit}) TO STDOUT (FORMAT binary)",
        crate::store::COLUMNS_FOR_COPY
    );
    let mut stream = pool.copy_out_raw(&sql).await?;
    let mut buf = Vec::new();
    if !owned {
        while let Some(chunk) = stream.try_next().await? {
            buf.extend_from_slice(&chunk);
        }
        return Ok(Part::Raw(RawPage { buf }));
    }
    let mut out = Vec::with_capacity(usize::try_from(limit.clamp(0, 100_000)).unwrap_or(0));
    let mut header_read = false;
    let mut done = false;
    while let Some(chunk) = stream.try_next().await? {
        if done {
            continue;
        }
        buf.extend_from_slice(&chunk);
        let mut r = Reader { buf: &buf, at: 0 };
        if !header_read {
            if buf.len() < SIGNATURE.len() + 8 {
                continue;
            }
            header(&mut r)?;
            header_read = true;
        }
        loop {
            let start = r.at;
            match row(&mut r) {
                Ok(Some(e)) => out.push(e.to_owned()),
                Ok(None) => {
                    done = true;
                    break;
                }
                Err(_) => {
                    // An incomplete row: wait for the next chunk.
                    r.at = start;
                    break;
                }
            }
        }
        let used = r.at;
        buf.drain(..used);
    }
    if !done {
        // Whatever is left must parse completely (or it is an error).
        let mut r = Reader { buf: &buf, at: 0 };
        if !header_read {
            header(&mut r)?;
        }
        while let Some(e) = row(&mut r)? {
            out.push(e.to_owned());
        }
    }
    Ok(Part::Owned(out))
}

fn header(r: &mut Reader<'_>) -> Result<()> {
    if r.take(SIGNATURE.len())? != SIGNATURE {
        return Err(corrupt("not a binary COPY stream"));
    }
    let _flags = r.i32()?;
    let ext = r.i32()?;
    r.take(usize::try_from(ext).unwrap_or(0))?;
    Ok(())
}

/// One row, or `None` at the trailer.
fn row<'a>(r: &mut Reader<'a>) -> Result<Option<EventRef<'a>>> {
    let fields = r.i16()?;
    if fields == -1 {
        return Ok(None);
    }
    if fields != 18 {
        return Err(corrupt(&format!(
            "COPY row of {fields} columns, expected 18"
        )));
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
    Ok(Some(EventRef {
        global_position,
        event_id,
        stream,
        stream_version,
        event_type,
        schema_version,
        payload: r.field()?,
        recorded_at_micros: r.int8()?,
        actor: r.text()?,
        command_id: r.text()?,
        correlation_id: r.text()?,
        causation_id: r.text()?,
        reason: r.text()?,
        rule_edition: r.text()?,
        service: r.text()?,
        prev_hash: r.field()?,
        hash: r.field()?,
        trace_parent: r.text()?,
    }))
}
