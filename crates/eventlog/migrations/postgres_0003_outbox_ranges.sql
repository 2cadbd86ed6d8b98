-- One outbox row per commit (ADR platform-011): a row covers the positions
-- global_position ..= COALESCE(last_position, global_position); rows written before
-- this migration cover their own position. The events' event_id UNIQUE index is dropped:
-- no query reads it, ids are UUIDv7 made by the writer, and copies are deduplicated by
-- (stream, stream_version), which stays unique.
ALTER TABLE outbox ADD COLUMN last_position BIGINT;
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_event_id_key;
