-- Issue 16, upload speed: indexes no query reads, which every upload paid for. Events are read
-- by cluster and time (events_cluster_last), by day (events_stored_on) and by id, never by the
-- object they are about; pods by snapshot, never by node. (snapshot_events_event stays: here
-- it serves the foreign key from a snapshot's links to events, whose deletion cascades.)
DROP INDEX IF EXISTS events_involved;
DROP INDEX IF EXISTS pods_node;
