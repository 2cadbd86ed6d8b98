-- Signed events and anchored heads (ADR platform-005), request digests of command ids.
ALTER TABLE log_head ADD COLUMN log_hash BLOB;
ALTER TABLE log_head ADD COLUMN sealed_from INTEGER NOT NULL DEFAULT 1;
UPDATE log_head SET sealed_from = position + 1;
CREATE TABLE seals (
    last_position INTEGER PRIMARY KEY,
    first_position INTEGER NOT NULL,
    stream TEXT NOT NULL,
    service TEXT NOT NULL,
    key_id TEXT NOT NULL,
    signature BLOB NOT NULL
);
CREATE TABLE log_seals (
    position INTEGER PRIMARY KEY,
    log_hash BLOB NOT NULL,
    key_id TEXT NOT NULL,
    signature BLOB NOT NULL
);
ALTER TABLE commands ADD COLUMN request_digest BLOB;
