-- Nothing changes on SQLite: raw objects are compressed with zstd by the store (PostgreSQL
-- compresses them itself from this migration on).
SELECT 1;
