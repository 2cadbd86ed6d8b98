-- Event log schema (SQLite). Mirrors postgres_0001_event_log.sql column for column.
CREATE TABLE log_head (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    position INTEGER NOT NULL
);
INSERT INTO log_head (id, position) VALUES (1, 0);

CREATE TABLE events (
    global_position INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL UNIQUE,
    stream TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    payload BLOB NOT NULL,
    recorded_at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    command_id TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    causation_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    rule_edition TEXT NOT NULL,
    service TEXT NOT NULL,
    prev_hash BLOB NOT NULL,
    hash BLOB NOT NULL,
    trace_parent TEXT NOT NULL,
    UNIQUE (stream, stream_version)
);

CREATE TABLE streams (
    stream TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    head_hash BLOB NOT NULL
);

CREATE TABLE commands (
    command_id TEXT PRIMARY KEY,
    stream TEXT NOT NULL,
    first_position INTEGER NOT NULL,
    last_position INTEGER NOT NULL,
    stream_version INTEGER NOT NULL
);

CREATE TABLE outbox (
    global_position INTEGER PRIMARY KEY
);

CREATE TABLE checkpoints (
    name TEXT PRIMARY KEY,
    position INTEGER NOT NULL
);
