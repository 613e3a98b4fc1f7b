-- Issue 19, alerts as evidence: what Alertmanager's webhook receiver posts
-- (POST /api/v1/alerts?cluster=NAME), kept per cluster, one row per firing of an alert: its
-- fingerprint (Alertmanager's hash of its labels) and when it started. A resolved alert
-- delivered later closes the row (status, ends_at); a payload delivered twice changes nothing.
-- Labels and annotations are JSON objects of strings, the annotations redacted. ends_at is NULL
-- while the alert fires. The incidents of the cluster whose window the alert overlaps read it.
CREATE TABLE alerts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    cluster_id    INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    fingerprint   TEXT NOT NULL,
    starts_at     DATETIME NOT NULL,
    ends_at       DATETIME,
    status        TEXT NOT NULL,
    labels        TEXT NOT NULL,
    annotations   TEXT NOT NULL,
    generator_url TEXT NOT NULL DEFAULT '',
    received_at   DATETIME NOT NULL,
    UNIQUE (cluster_id, fingerprint, starts_at)
);
CREATE INDEX alerts_window ON alerts (cluster_id, starts_at);
