-- Issue 14, the library: an incident's own date, node pools told apart, and search that knows
-- the ways a cause is written.

-- When an incident happened, from the best of what it has: the date its report gives
-- (own_date), else when it started, else the first time in its evidence (evidence_at, from the
-- analysis of its snapshots), else when it was created. report_date is that day, and
-- occurred_at that moment: the library lists incidents by both, newest first. The store
-- fills them for every incident after this migration.
ALTER TABLE incidents ADD COLUMN own_date TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN evidence_at DATETIME;
ALTER TABLE incidents ADD COLUMN occurred_at DATETIME;
UPDATE incidents SET own_date = report_date
WHERE report <> '' OR org <> '' OR EXISTS (SELECT 1 FROM incident_signatures s WHERE s.incident_id = incidents.id AND s.origin = 'report');
CREATE INDEX incidents_by_date ON incidents (report_date DESC, occurred_at DESC, id);

-- incident_facets gains facet 'pool': a node pool's key, its role ("NodePool:core") or its
-- cluster and name, which related-incident lookup compares instead of the kind NodePool; the
-- component bit sets now hold those keys. The search document gains a column for the words of
-- the signature, and a word for each way of writing a well-known cause ("OOMKilled", "OOM
-- killed", "oom"): FTS5 cannot add a column, so the index is made anew. The store rebuilds the
-- facets and the documents of every incident after this migration.
DELETE FROM incident_facets;
DROP TABLE incident_search;
CREATE VIRTUAL TABLE incident_search USING fts5 (incident_id UNINDEXED, title, report, notes, terms, tokenize = 'porter unicode61');
