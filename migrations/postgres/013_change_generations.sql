-- Issue 16, re-analysis after new evidence: what changed since a load, found by index instead of
-- by reading the keys of every event of an incident again.
--
-- A cluster's generation grows with every write that changes what is stored of it. Each row a
-- collector batch writes or changes, event or state, records the generation that batch made
-- (changed_gen); a snapshot records the generation its commit made (its events are found through
-- its links). Rows an upload writes keep changed_gen 0, so that the index below costs uploads
-- nothing. reset_gen is the last generation at which rows of the cluster were deleted (expiry):
-- a load made before it starts again from scratch.
ALTER TABLE events ADD COLUMN changed_gen BIGINT NOT NULL DEFAULT 0;
CREATE INDEX events_changed ON events (cluster_id, changed_gen) WHERE changed_gen <> 0;
ALTER TABLE object_states ADD COLUMN changed_gen BIGINT NOT NULL DEFAULT 0;
CREATE INDEX object_states_changed ON object_states (cluster_id, changed_gen);
ALTER TABLE snapshots ADD COLUMN changed_gen BIGINT NOT NULL DEFAULT 0;
CREATE INDEX snapshots_changed ON snapshots (cluster_id, changed_gen);
ALTER TABLE clusters ADD COLUMN reset_gen BIGINT NOT NULL DEFAULT 0;
