-- The library at scale: full-text search over titles, reports and notes, and the effective
-- signature of each incident (the origin that speaks for it: a person, else the report, else
-- the analysis) kept as distinct facets with an index, so that related-incident lookup and the
-- symptom, cause and component filters read indexes instead of every signature.

-- search is the incident's document: the title weighs most, then the report, then the notes.
-- The store rewrites it whenever one of them changes.
ALTER TABLE incidents ADD COLUMN search tsvector NOT NULL DEFAULT ''::tsvector;
UPDATE incidents SET search =
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', report), 'B') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(body, ' ' ORDER BY id) FROM notes WHERE notes.incident_id = incidents.id), '')), 'C');
CREATE INDEX incidents_search ON incidents USING GIN (search);

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
    PRIMARY KEY (facet, value, incident_id)
);
CREATE INDEX incident_facets_incident ON incident_facets (incident_id);
