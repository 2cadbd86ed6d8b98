-- Signed events and anchored heads (ADR platform-005), request digests of command ids.
ALTER TABLE log_head ADD COLUMN log_hash BYTEA;
ALTER TABLE log_head ADD COLUMN sealed_from BIGINT NOT NULL DEFAULT 1;
UPDATE log_head SET sealed_from = position + 1;
CREATE TABLE seals (
    last_position BIGINT PRIMARY KEY,
    first_position BIGINT NOT NULL,
    stream TEXT NOT NULL,
    service TEXT NOT NULL,
    key_id TEXT NOT NULL,
    signature BYTEA NOT NULL
);
CREATE TABLE log_seals (
    position BIGINT PRIMARY KEY,
    log_hash BYTEA NOT NULL,
    key_id TEXT NOT NULL,
    signature BYTEA NOT NULL
);
ALTER TABLE commands ADD COLUMN request_digest BYTEA;
