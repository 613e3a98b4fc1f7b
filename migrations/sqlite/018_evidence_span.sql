-- Issue 27, an incident's window is its evidence's when none is set.
--
-- snapshots.evidence_from and evidence_to: the span of the times a snapshot's evidence records,
-- as the analysis dates a model (cluster.Model.TimeRange): its events' first and last
-- sightings, else, for a snapshot without events, its pods' starts. NULL when it records no
-- time. An incident with a cluster but no start (or no end) reads its cluster's alerts,
-- collected events and changes over the span of its snapshots, which its snapshot rows give
-- at no cost. The snapshots stored before are dated here from what they stored.
ALTER TABLE snapshots ADD COLUMN evidence_from DATETIME;
ALTER TABLE snapshots ADD COLUMN evidence_to DATETIME;
UPDATE snapshots SET
    evidence_from = (SELECT min(e.first_at) FROM snapshot_events se JOIN events e ON e.id = se.event_id WHERE se.snapshot_id = snapshots.id),
    evidence_to = (SELECT max(e.last_at) FROM snapshot_events se JOIN events e ON e.id = se.event_id WHERE se.snapshot_id = snapshots.id);
UPDATE snapshots SET
    evidence_from = (SELECT min(p.started_at) FROM pods p WHERE p.snapshot_id = snapshots.id),
    evidence_to = (SELECT max(p.started_at) FROM pods p WHERE p.snapshot_id = snapshots.id)
WHERE evidence_from IS NULL;

-- Alerts expire by when Rootline last received them (received_at), not by when they fired, so
-- that an alert just posted is never deleted at once, however old its firing.
CREATE INDEX alerts_received ON alerts (received_at);
