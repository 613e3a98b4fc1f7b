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

CREATE INDEX incidents_org ON incidents (org);
CREATE INDEX incidents_report_date ON incidents (report_date);

-- The effective signature's shape, for scoring without reading it.
ALTER TABLE incidents ADD COLUMN sig_origin TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN sig_root TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN sig_symptoms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE incidents ADD COLUMN sig_causes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE incidents ADD COLUMN sig_components INTEGER NOT NULL DEFAULT 0;

-- facet: symptom, cause, root (the root cause) or component (its kind); each value once.
CREATE TABLE incident_facets (
    facet       TEXT NOT NULL,
    value       TEXT NOT NULL,
    incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    PRIMARY KEY (facet, value, incident_id)
) WITHOUT ROWID;
CREATE INDEX incident_facets_incident ON incident_facets (incident_id, facet, value);

INSERT INTO incident_facets (facet, value, incident_id)
SELECT DISTINCT CASE WHEN s.facet = 'cause' AND s.role = 'root' AND r.root THEN 'root' ELSE s.facet END, s.value, s.incident_id
FROM incident_signatures s
JOIN (SELECT incident_id, max(CASE origin WHEN 'person' THEN 3 WHEN 'report' THEN 2 ELSE 1 END) AS rank
      FROM incident_signatures GROUP BY incident_id) b
  ON b.incident_id = s.incident_id AND b.rank = CASE s.origin WHEN 'person' THEN 3 WHEN 'report' THEN 2 ELSE 1 END
CROSS JOIN (SELECT 0 AS root UNION ALL SELECT 1) r
WHERE r.root = 0 OR (s.facet = 'cause' AND s.role = 'root');

UPDATE incidents SET
    sig_origin = coalesce((SELECT CASE max(CASE origin WHEN 'person' THEN 3 WHEN 'report' THEN 2 ELSE 1 END)
                           WHEN 3 THEN 'person' WHEN 2 THEN 'report' WHEN 1 THEN 'analysis' END
                           FROM incident_signatures s WHERE s.incident_id = incidents.id), ''),
    sig_root = coalesce((SELECT min(value) FROM incident_facets f WHERE f.incident_id = incidents.id AND f.facet = 'root'), ''),
    sig_symptoms = (SELECT count(*) FROM incident_facets f WHERE f.incident_id = incidents.id AND f.facet = 'symptom'),
    sig_causes = (SELECT count(*) FROM incident_facets f WHERE f.incident_id = incidents.id AND f.facet = 'cause'),
    sig_components = (SELECT count(*) FROM incident_facets f WHERE f.incident_id = incidents.id AND f.facet = 'component');
