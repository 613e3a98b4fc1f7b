-- Retention: what Rootline keeps of raw evidence expires after a configured age.
--
-- stored_on is the day Rootline last stored a sighting of the event (YYYY-MM-DD, UTC): an
-- event lives as long as its last sighting. (PostgreSQL partitions events by this day.)
ALTER TABLE events ADD COLUMN stored_on TEXT NOT NULL DEFAULT '';
UPDATE events SET stored_on = date('now');
CREATE INDEX events_stored_on ON events (stored_on);

-- A snapshot whose objects have expired keeps its row (what it was: files, bytes, counts),
-- marked with when it expired.
ALTER TABLE snapshots ADD COLUMN expired_at DATETIME;
CREATE INDEX snapshots_created ON snapshots (created_at) WHERE expired_at IS NULL;

CREATE INDEX object_states_observed ON object_states (observed_at);
