-- Issue 17, provenance as types: what the text parser knows of an object beyond the object
-- itself is kept in columns of its own, no longer as rootline.dev/ annotations in its JSON.
--
-- snapshot_events.loose: the sighting was a phrase found in output with nothing around it (no
-- table, no describe), which the analysis weighs less (cluster.Source.Loose).
-- nodes.describe_allocated: the "Allocated resources" table of kubectl describe node, as a JSON
-- list of {resource, requests, limits} cells as printed (cluster.Object.Allocated); NULL when the
-- input was not a describe.
--
-- Rows stored before this migration keep the annotations in their JSON; the analysis no longer
-- reads them, so a snapshot uploaded earlier loses the weighting until it is uploaded again.
ALTER TABLE snapshot_events ADD COLUMN loose BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE nodes ADD COLUMN describe_allocated TEXT;
