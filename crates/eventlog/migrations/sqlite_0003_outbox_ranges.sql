-- One outbox row per commit (ADR platform-011): a row covers the positions
-- global_position ..= COALESCE(last_position, global_position); rows written before
-- this migration cover their own position. (The events' event_id UNIQUE index stays on
-- SQLite: dropping a table constraint there means rebuilding the table.)
ALTER TABLE outbox ADD COLUMN last_position INTEGER;
