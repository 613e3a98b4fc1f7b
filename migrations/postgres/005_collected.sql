-- What `rootline collect` streams from a live cluster: events go to the events table like any
-- other sighting; pods and nodes arrive as states, one row per version of an object
-- (uid and resourceVersion), so that a batch delivered twice stores nothing twice.
CREATE TABLE object_states (
    id               BIGSERIAL PRIMARY KEY,
    cluster_id       BIGINT NOT NULL REFERENCES clusters (id),
    kind             TEXT NOT NULL,
    namespace        TEXT NOT NULL,
    name             TEXT NOT NULL,
    uid              TEXT NOT NULL,
    resource_version TEXT NOT NULL,
    observed_at      TIMESTAMPTZ NOT NULL,
    state            TEXT NOT NULL,
    raw              BYTEA NOT NULL,
    UNIQUE (cluster_id, uid, resource_version)
);
CREATE INDEX object_states_cluster_time ON object_states (cluster_id, observed_at);
CREATE INDEX object_states_object ON object_states (cluster_id, uid, observed_at);
