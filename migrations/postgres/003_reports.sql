-- Incident reports of the library: the report's own fields and text, and the signature
-- (symptoms, causes, components) that related-incident search compares. A signature item says
-- where it came from: the report, the analysis of the incident's snapshots, or a person.

ALTER TABLE incidents ADD COLUMN org TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN report_date TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN report TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN report_extra TEXT NOT NULL DEFAULT '{}';

CREATE TABLE incident_signatures (
    incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    facet       TEXT NOT NULL,
    value       TEXT NOT NULL,
    name        TEXT NOT NULL DEFAULT '',
    role        TEXT NOT NULL DEFAULT '',
    origin      TEXT NOT NULL,
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (incident_id, facet, value, name, origin)
);
CREATE INDEX incident_signatures_value ON incident_signatures (facet, value);
