-- A cluster's generation grows whenever what is stored of it changes (a snapshot of it, a batch
-- from its collector), so that an analysis made from it can tell it is still current.
ALTER TABLE clusters ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
