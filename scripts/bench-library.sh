#!/usr/bin/env bash
# Benchmarks the incident library at scale on PostgreSQL: related-incident lookup and search
# in a library of generated incidents (100,000 unless ROOTLINE_BENCH_INCIDENTS says otherwise),
# and writes each query's plan (EXPLAIN ANALYZE) to docs/library-plans/. See docs/library.md.
#
# The library is built once into the database rootline_bench_<size> and kept, so that later runs
# skip the import; drop that database to rebuild it. PostgreSQL must run on 127.0.0.1:5432
# (user postgres, trust auth), or set ROOTLINE_BENCH_ADMIN to another maintenance URL.
set -euo pipefail
cd "$(dirname "$0")/.."

size=${ROOTLINE_BENCH_INCIDENTS:-100000}
admin=${ROOTLINE_BENCH_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
db=rootline_bench_${size}
url=${admin%/postgres*}/${db}?sslmode=disable

if ! psql "$admin" -Atc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
	psql "$admin" -qc "CREATE DATABASE $db"
fi
mkdir -p docs/library-plans
ROOTLINE_BENCH_INCIDENTS=$size ROOTLINE_BENCH_DATABASE=$url ROOTLINE_BENCH_PLANS="$PWD/docs/library-plans" \
	go test ./internal/store -run '^$' -bench 'Library' -benchtime "${BENCHTIME:-30x}" -count "${COUNT:-3}" "$@"
