-- Event log schema (PostgreSQL). Mirrors sqlite_0001_event_log.sql column for column.
CREATE TABLE log_head (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    position BIGINT NOT NULL
);
INSERT INTO log_head (id, position) VALUES (1, 0);

CREATE TABLE events (
    global_position BIGINT PRIMARY KEY,
    event_id TEXT NOT NULL UNIQUE,
    stream TEXT NOT NULL,
    stream_version BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    schema_version BIGINT NOT NULL,
    payload BYTEA NOT NULL,
    recorded_at BIGINT NOT NULL,
    actor TEXT NOT NULL,
    command_id TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    causation_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    rule_edition TEXT NOT NULL,
    service TEXT NOT NULL,
    prev_hash BYTEA NOT NULL,
    hash BYTEA NOT NULL,
    trace_parent TEXT NOT NULL,
    UNIQUE (stream, stream_version)
);

CREATE TABLE streams (
    stream TEXT PRIMARY KEY,
    version BIGINT NOT NULL,
    head_hash BYTEA NOT NULL
);

CREATE TABLE commands (
    command_id TEXT PRIMARY KEY,
    stream TEXT NOT NULL,
    first_position BIGINT NOT NULL,
    last_position BIGINT NOT NULL,
    stream_version BIGINT NOT NULL
);

CREATE TABLE outbox (
    global_position BIGINT PRIMARY KEY
);

CREATE TABLE checkpoints (
    name TEXT PRIMARY KEY,
    position BIGINT NOT NULL
);
