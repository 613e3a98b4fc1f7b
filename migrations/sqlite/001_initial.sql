-- Clusters, incidents, snapshots and the objects decoded from them.

CREATE TABLE clusters (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE,
    created_at DATETIME NOT NULL
);

CREATE TABLE incidents (
    id         TEXT PRIMARY KEY,
    title      TEXT NOT NULL,
    cluster_id BIGINT REFERENCES clusters (id),
    started_at DATETIME,
    ended_at   DATETIME,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);

CREATE TABLE incident_tags (
    incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    tag         TEXT NOT NULL,
    PRIMARY KEY (incident_id, tag)
);
CREATE INDEX incident_tags_tag ON incident_tags (tag);

-- A snapshot is the files captured together, identified by the SHA-256 of its bytes (one file)
-- or of its files' hashes in name order (several).
CREATE TABLE snapshots (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    digest     TEXT NOT NULL UNIQUE,
    cluster_id BIGINT NOT NULL REFERENCES clusters (id),
    bytes      BIGINT NOT NULL,
    files      TEXT NOT NULL,
    objects    TEXT NOT NULL,
    skipped    TEXT NOT NULL,
    created_at DATETIME NOT NULL
);

CREATE TABLE incident_snapshots (
    incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    snapshot_id BIGINT NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    attached_at DATETIME NOT NULL,
    PRIMARY KEY (incident_id, snapshot_id)
);
CREATE INDEX incident_snapshots_snapshot ON incident_snapshots (snapshot_id);

CREATE TABLE pods (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    snapshot_id    BIGINT NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    namespace      TEXT NOT NULL,
    name           TEXT NOT NULL,
    uid            TEXT NOT NULL,
    node_name      TEXT NOT NULL,
    phase          TEXT NOT NULL,
    reason         TEXT NOT NULL,
    message        TEXT NOT NULL,
    qos_class      TEXT NOT NULL,
    priority       INTEGER,
    priority_class TEXT NOT NULL,
    owner_kind     TEXT NOT NULL,
    owner_name     TEXT NOT NULL,
    created_at     DATETIME,
    started_at     DATETIME,
    source_file    TEXT NOT NULL,
    source_line    INTEGER NOT NULL,
    raw            BLOB NOT NULL,
    UNIQUE (snapshot_id, namespace, name)
);
CREATE INDEX pods_node ON pods (snapshot_id, node_name);

CREATE TABLE pod_containers (
    snapshot_id          BIGINT NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    namespace            TEXT NOT NULL,
    pod_name             TEXT NOT NULL,
    position             INTEGER NOT NULL,
    name                 TEXT NOT NULL,
    init                 BOOLEAN NOT NULL,
    image                TEXT NOT NULL,
    cpu_request_milli    BIGINT,
    memory_request_bytes BIGINT,
    cpu_limit_milli      BIGINT,
    memory_limit_bytes   BIGINT,
    requests             TEXT NOT NULL,
    limits               TEXT NOT NULL,
    state                TEXT NOT NULL,
    state_reason         TEXT NOT NULL,
    state_message        TEXT NOT NULL,
    last_state           TEXT NOT NULL,
    last_state_reason    TEXT NOT NULL,
    last_exit_code       INTEGER,
    last_finished_at     DATETIME,
    restart_count        INTEGER NOT NULL,
    ready                BOOLEAN NOT NULL,
    PRIMARY KEY (snapshot_id, namespace, pod_name, position)
);

CREATE TABLE nodes (
    id                       INTEGER PRIMARY KEY AUTOINCREMENT,
    snapshot_id              BIGINT NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    name                     TEXT NOT NULL,
    uid                      TEXT NOT NULL,
    pool                     TEXT NOT NULL,
    instance_type            TEXT NOT NULL,
    labels                   TEXT NOT NULL,
    capacity                 TEXT NOT NULL,
    allocatable              TEXT NOT NULL,
    cpu_allocatable_milli    BIGINT,
    memory_allocatable_bytes BIGINT,
    pods_allocatable         BIGINT,
    conditions               TEXT NOT NULL,
    taints                   TEXT NOT NULL,
    ready                    TEXT NOT NULL,
    unschedulable            BOOLEAN NOT NULL,
    created_at               DATETIME,
    source_file              TEXT NOT NULL,
    source_line              INTEGER NOT NULL,
    raw                      BLOB NOT NULL,
    UNIQUE (snapshot_id, name)
);

-- Events belong to a cluster, not a snapshot: the same event arrives in several snapshots and
-- from the collector, and converges to one row that keeps the highest count and the widest
-- time span. snapshot_events says which snapshots carried it.
CREATE TABLE events (
    id                   TEXT PRIMARY KEY,
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
    first_at             DATETIME,
    last_at              DATETIME,
    event_time           DATETIME,
    source_component     TEXT NOT NULL,
    source_host          TEXT NOT NULL,
    reporting_controller TEXT NOT NULL,
    reporting_instance   TEXT NOT NULL,
    action               TEXT NOT NULL,
    raw                  BLOB NOT NULL,
    UNIQUE (cluster_id, identity)
);
CREATE INDEX events_cluster_last ON events (cluster_id, last_at);
CREATE INDEX events_involved ON events (cluster_id, involved_namespace, involved_name);

CREATE TABLE snapshot_events (
    snapshot_id BIGINT NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    event_id    TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL,
    PRIMARY KEY (snapshot_id, event_id)
);
CREATE INDEX snapshot_events_event ON snapshot_events (event_id);

-- Other kinds kept for context (workloads, priority classes, the autoscaler status).
CREATE TABLE objects (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    snapshot_id BIGINT NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    api_version TEXT NOT NULL,
    kind        TEXT NOT NULL,
    namespace   TEXT NOT NULL,
    name        TEXT NOT NULL,
    uid         TEXT NOT NULL,
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL,
    raw         BLOB NOT NULL,
    UNIQUE (snapshot_id, kind, namespace, name)
);
