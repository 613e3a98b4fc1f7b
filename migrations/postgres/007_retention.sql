-- Retention: what Rootline keeps of raw evidence expires after a configured age.
--
-- Events are partitioned by the day Rootline stored them, one partition a day, so that
-- expiring a day of events is dropping a table rather than deleting rows. A sighting stored on
-- a later day than the event's row goes to that day's partition as a row of its own; readers
-- merge the rows of one event (the highest count, the widest time span, the other fields of
-- the newest sighting), just as the upsert merges sightings of one day. So an event lives as
-- long as its last sighting. Partitions are created ahead by the server; this migration
-- creates the one of today for the events already stored.
--
-- The link from a snapshot to its events can no longer be a foreign key (a partitioned
-- table's keys include the partition key): a link to an expired event finds no row.
ALTER TABLE snapshot_events DROP CONSTRAINT IF EXISTS snapshot_events_event_id_fkey;

ALTER TABLE events RENAME TO events_before_partitioning;
ALTER TABLE events_before_partitioning DROP CONSTRAINT events_pkey;
ALTER TABLE events_before_partitioning DROP CONSTRAINT events_cluster_id_identity_key;
DROP INDEX events_cluster_last;
DROP INDEX events_involved;

CREATE TABLE events (
    id                   TEXT NOT NULL,
    cluster_id           BIGINT NOT NULL REFERENCES clusters (id),
    identity             TEXT NOT NULL,
    api_version          TEXT NOT NULL,
    uid                  TEXT NOT NULL,
    namespace            TEXT NOT NULL,
    name                 TEXT NOT NULL,
    involved_kind        TEXT NOT NULL,
    involved_namespace   TEXT NOT NULL,
    involved_name        TEXT NOT NULL,
    involved_uid         TEXT NOT NULL,
    involved_field_path  TEXT NOT NULL,
    reason               TEXT NOT NULL,
    message              TEXT NOT NULL,
    type                 TEXT NOT NULL,
    count                INTEGER NOT NULL,
    first_at             TIMESTAMPTZ,
    last_at              TIMESTAMPTZ,
    event_time           TIMESTAMPTZ,
    source_component     TEXT NOT NULL,
    source_host          TEXT NOT NULL,
    reporting_controller TEXT NOT NULL,
    reporting_instance   TEXT NOT NULL,
    action               TEXT NOT NULL,
    raw                  BYTEA NOT NULL,
    stored_on            DATE NOT NULL,
    PRIMARY KEY (id, stored_on)
) PARTITION BY RANGE (stored_on);
CREATE INDEX events_cluster_last ON events (cluster_id, last_at);
CREATE INDEX events_involved ON events (cluster_id, involved_namespace, involved_name);

DO $$
BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)',
        'events_p' || to_char(current_date, 'YYYYMMDD'), current_date, current_date + 1);
END
$$;

INSERT INTO events (id, cluster_id, identity, api_version, uid, namespace, name, involved_kind,
        involved_namespace, involved_name, involved_uid, involved_field_path, reason, message, type,
        count, first_at, last_at, event_time, source_component, source_host, reporting_controller,
        reporting_instance, action, raw, stored_on)
    SELECT id, cluster_id, identity, api_version, uid, namespace, name, involved_kind,
        involved_namespace, involved_name, involved_uid, involved_field_path, reason, message, type,
        count, first_at, last_at, event_time, source_component, source_host, reporting_controller,
        reporting_instance, action, raw, current_date
    FROM events_before_partitioning;
DROP TABLE events_before_partitioning;

-- A snapshot whose objects have expired keeps its row (what it was: files, bytes, counts),
-- marked with when it expired.
ALTER TABLE snapshots ADD COLUMN expired_at TIMESTAMPTZ;
CREATE INDEX snapshots_created ON snapshots (created_at) WHERE expired_at IS NULL;

CREATE INDEX object_states_observed ON object_states (observed_at);
