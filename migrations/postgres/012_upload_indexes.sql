-- Issue 16, upload speed: indexes no query reads, which every upload paid for. Events are read
-- by cluster and time (events_cluster_last) and by id, never by the object they are about;
-- a snapshot's links by snapshot (the primary key), never by event alone (they were the index
-- of a foreign key to events, gone since events are partitioned by day); pods by snapshot,
-- never by node. Keeping them up to date cost PostgreSQL about a sixth of the time it spent
-- copying the pods, events and links of an upload.
DROP INDEX IF EXISTS events_involved;
DROP INDEX IF EXISTS snapshot_events_event;
DROP INDEX IF EXISTS pods_node;
