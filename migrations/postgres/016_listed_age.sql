-- pods.listed_age_seconds: the AGE a kubectl listing printed for a pod read from pasted text
-- whose time of capture is unknown (cluster.Object.ListedAge), so that its created_at could not
-- be set; NULL for any other input. A pod still ContainerCreating that long is stuck.
ALTER TABLE pods ADD COLUMN listed_age_seconds BIGINT;
