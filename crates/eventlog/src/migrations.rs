//! Embedded sqlx migrations, one set per backend (no `sqlx::migrate!` macro: the
//! workspace builds sqlx without `macros`, see ARCHITECTURE.md).
use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

use crate::Backend;

const SQLITE: &[(i64, &str, &str)] = &[
    (
        1,
        "event log",
        include_str!("../migrations/sqlite_0001_event_log.sql"),
    ),
    (
        2,
        "signatures",
        include_str!("../migrations/sqlite_0002_signatures.sql"),
    ),
    (
        3,
        "outbox ranges",
        include_str!("../migrations/sqlite_0003_outbox_ranges.sql"),
    ),
];
const POSTGRES: &[(i64, &str, &str)] = &[
    (
        1,
        "event log",
        include_str!("../migrations/postgres_0001_event_log.sql"),
    ),
    (
        2,
        "signatures",
        include_str!("../migrations/postgres_0002_signatures.sql"),
    ),
    (
        3,
        "outbox ranges",
        include_str!("../migrations/postgres_0003_outbox_ranges.sql"),
    ),
];

pub(crate) fn migrator(backend: Backend) -> Migrator {
    let set = match backend {
        Backend::Sqlite => SQLITE,
        Backend::Postgres => POSTGRES,
    };
    let migrations = set
        .iter()
        .map(|(version, description, sql)| {
            Migration::new(
                *version,
                Cow::Borrowed(*description),
                MigrationType::Simple,
                sqlx::SqlSafeStr::into_sql_str(*sql),
                false,
            )
        })
        .collect::<Vec<_>>();
    Migrator {
        migrations: Cow::Owned(migrations),
        ..Migrator::DEFAULT
    }
}
