-- The library at scale: full-text search over titles, reports and notes (FTS5, Porter
-- stemming), and the effective signature of each incident (the origin that speaks for it: a
-- person, else the report, else the analysis) kept as distinct facets with an index, so that
-- related-incident lookup and the symptom, cause and component filters read indexes.

-- One row per incident; the store rewrites it whenever the title, report or notes change. An
-- FTS5 column cannot be indexed, so incident_search_docs gives each incident a stable rowid of
-- the index: rewriting one incident's document finds it by key instead of scanning.
CREATE TABLE incident_search_docs (
    docid       INTEGER PRIMARY KEY,
    incident_id TEXT NOT NULL UNIQUE REFERENCES incidents (id) ON DELETE CASCADE
);
CREATE VIRTUAL TABLE incident_search USING fts5 (incident_id UNINDEXED, title, report, notes, tokenize = 'porter unicode61');
INSERT INTO incident_search_docs (incident_id) SELECT id FROM incidents;
INSERT INTO incident_search (rowid, incident_id, title, report, notes)
SELECT d.docid, i.id, i.title, i.report, coalesce((SELECT group_concat(body, ' ') FROM notes WHERE notes.incident_id = i.id), '')
FROM incidents i JOIN incident_search_docs d ON d.incident_id = i.id;

-- Filters and orders of the library's listing.
CREATE INDEX incidents_org ON incidents (lower(org));
CREATE INDEX incidents_report_date ON incidents (report_date);
CREATE INDEX incidents_created ON incidents (created_at DESC, id);

-- The origin that speaks for an incident (person, report or analysis) and its root cause.
ALTER TABLE incidents ADD COLUMN sig_origin TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN sig_root TEXT NOT NULL DEFAULT '';

-- The effective signature's distinct values, one row each. facet: symptom, cause, root (the
-- root cause) or component (its kind). Each row also carries the incident's root cause and its
-- whole signature as bit sets (the store's fixed, append-only bit of each kind), so that a
-- related-incident lookup reads one index range (incidents of the same root cause, or with a
-- component kind) and scores the overlap without another read. The store fills this table,
-- and rebuilds it from incident_signatures after this migration.
CREATE TABLE incident_facets (
    facet          TEXT NOT NULL,
    value          TEXT NOT NULL,
    incident_id    TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    root           TEXT NOT NULL DEFAULT '',
    symptom_bits   INTEGER NOT NULL DEFAULT 0,
    cause_bits     INTEGER NOT NULL DEFAULT 0,
    component_bits INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (facet, value, incident_id)
) WITHOUT ROWID;
CREATE INDEX incident_facets_incident ON incident_facets (incident_id);
