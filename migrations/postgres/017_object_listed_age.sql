-- objects.listed_age_seconds: the AGE a kubectl listing printed for an object kept as raw JSON
-- and read from pasted text (a PersistentVolumeClaim of `kubectl get pvc`,
-- cluster.Object.ListedAge); NULL for any other input. A claim still Pending that long was not
-- provisioned.
ALTER TABLE objects ADD COLUMN listed_age_seconds BIGINT;
