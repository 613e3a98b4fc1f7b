-- Raw objects are stored as the JSON they are, and PostgreSQL compresses them: with lz4 where
-- the server has it (else its default, pglz), and from 256 bytes on rather than 2 KiB, so
-- that events and collected states are compressed too. Compressing them in Rootline (zstd)
-- made storing a snapshot take twice as long as copying its rows. Rows stored before keep
-- their zstd or gzip, which the store still reads.
DO $$
BEGIN
    ALTER TABLE pods ALTER COLUMN raw SET COMPRESSION lz4;
    ALTER TABLE nodes ALTER COLUMN raw SET COMPRESSION lz4;
    ALTER TABLE objects ALTER COLUMN raw SET COMPRESSION lz4;
    ALTER TABLE object_states ALTER COLUMN raw SET COMPRESSION lz4;
    ALTER TABLE events ALTER COLUMN raw SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available: raw objects are compressed with pglz';
END
$$;

ALTER TABLE pods SET (toast_tuple_target = 256);
ALTER TABLE nodes SET (toast_tuple_target = 256);
ALTER TABLE objects SET (toast_tuple_target = 256);
ALTER TABLE object_states SET (toast_tuple_target = 256);

-- A partitioned table has no storage of its own: each day of events gets the setting when the
-- server creates it; these are the days already there.
DO $$
DECLARE
    p regclass;
BEGIN
    FOR p IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'events'::regclass LOOP
        EXECUTE format('ALTER TABLE %s SET (toast_tuple_target = 256)', p);
    END LOOP;
END
$$;
