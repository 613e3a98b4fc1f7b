-- The library at scale: full-text search over titles, reports and notes, and the effective
-- signature of each incident (the origin that speaks for it: a person, else the report, else
-- the analysis) kept as distinct facets with an index, so that related-incident lookup and the
-- symptom, cause and component filters read indexes instead of every signature.

-- incident_search holds each incident's document: the title weighs most, then the report,
-- then the notes. The store rewrites it whenever one of them changes. It is a table of its own
-- so that the incidents' rows stay narrow for listings.
CREATE TABLE incident_search (
    incident_id TEXT PRIMARY KEY REFERENCES incidents (id) ON DELETE CASCADE,
    doc         tsvector NOT NULL
);
INSERT INTO incident_search (incident_id, doc)
SELECT id,
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', report), 'B') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(body, ' ' ORDER BY id) FROM notes WHERE notes.incident_id = incidents.id), '')), 'C')
FROM incidents;
CREATE INDEX incident_search_doc ON incident_search USING GIN (doc);

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
    symptom_bits   BIGINT NOT NULL DEFAULT 0,
    cause_bits     BIGINT NOT NULL DEFAULT 0,
    component_bits BIGINT NOT NULL DEFAULT 0,
    -- The key includes the rest, so that a lookup is an index-only scan: the rows of one root
    -- cause or component kind lie together in the index, not scattered over the table.
    PRIMARY KEY (facet, value, incident_id) INCLUDE (root, symptom_bits, cause_bits, component_bits)
);
CREATE INDEX incident_facets_incident ON incident_facets (incident_id);
