-- Notes people write during and after an incident: observations, hypotheses, actions, decisions.

CREATE TABLE notes (
    id          BIGSERIAL PRIMARY KEY,
    incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    at          TIMESTAMPTZ NOT NULL,
    author      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    body        TEXT NOT NULL,
    causes      TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX notes_incident_at ON notes (incident_id, at);
