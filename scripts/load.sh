#!/usr/bin/env bash
# Puts Rootline under load (issue 8) and writes the figures to docs/load.md. For each database
# asked for, it builds `rootline`, starts `rootline serve` on a free loopback port with a fresh,
# empty database, waits for /readyz, runs scripts/loadtest against it (an incident with the
# IL-0070 snapshot, then readers viewing the incident's page and timeline while uploaders add
# small snapshots to it), and stops the server.
#   --sqlite     a new SQLite file in a temporary folder (the default when no database is named)
#   --postgres   a new database on the PostgreSQL of 127.0.0.1:5432 (user postgres, no password;
#                ROOTLINE_LOAD_POSTGRES sets another admin URL), created and dropped by the script
# Both can be given; docs/load.md is then written with a table for each, else with the one run.
# After the steady load, each database also gets the burst (issue 15): a fresh server, then 50
# concurrent uploads of different 5 MiB pod lists and 20 decompression bombs all at once, with
# the server's RSS sampled from /proc against its memory budget (--memory-budget, 1 GiB).
#   --no-steady  only the burst          --no-burst  only the steady load
# Other options go to the load program: --duration (3m), --readers (8), --uploaders (2),
# --upload-events (10), --timeout (2m); --doc FILE writes elsewhere than docs/load.md.
# The server runs with auth off (the default on loopback), so its upload rate limit, which
# counts per token, does not apply. The script exits 1 when any request failed, after writing
# the document; the server logs are then kept and their folder printed.
#
# Usage: bash scripts/load.sh [--sqlite] [--postgres] [--duration 3m] [--readers 8] [--uploaders 2]
set -euo pipefail
cd "$(dirname "$0")/.."

doc=docs/load.md
dbs=()
load_args=()
duration=3m readers=8 uploaders=2 upload_events=10
repeat="bash scripts/load.sh"
steady=1 burst=1
while [ $# -gt 0 ]; do
	case $1 in
	--sqlite | --postgres) dbs+=("${1#--}"); repeat+=" $1"; shift ;;
	--no-steady) steady=""; repeat+=" $1"; shift ;;
	--no-burst) burst=""; repeat+=" $1"; shift ;;
	--duration | --readers | --uploaders | --upload-events | --timeout | --doc)
		[ $# -ge 2 ] || { echo "load.sh: $1 needs a value" >&2; exit 2; }
		case $1 in
		--duration) duration=$2 ;;
		--readers) readers=$2 ;;
		--uploaders) uploaders=$2 ;;
		--upload-events) upload_events=$2 ;;
		--timeout) load_args+=(--timeout "$2") ;;
		--doc) doc=$2 ;;
		esac
		[ "$1" = --doc ] || repeat+=" $1 $2"
		shift 2 ;;
	*) echo "load.sh: unknown option $1 (see the comment at the top of $0)" >&2; exit 2 ;;
	esac
done
[ ${#dbs[@]} -gt 0 ] || dbs=(sqlite)
load_args+=(--duration "$duration" --readers "$readers" --uploaders "$uploaders" --upload-events "$upload_events")
pg_admin=${ROOTLINE_LOAD_POSTGRES:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}

work=$(mktemp -d)
server_pid="" pg_db="" keep=""
cleanup() {
	if [ -n "$server_pid" ]; then
		kill -INT "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	if [ -n "$pg_db" ]; then
		psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null || true
	fi
	if [ -n "$keep" ]; then
		echo "load.sh: server logs kept in $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

log() { printf '==> %s\n' "$*" >&2; }

log "building rootline and the load program"
go build -trimpath -ldflags='-s -w' -tags nomsgpack -o "$work/rootline" ./cmd/rootline
go build -o "$work/loadtest" ./scripts/loadtest

# start_server DATABASE LOG: runs `rootline serve` on a free loopback port (--addr :0; the
# address is read from its "listening" log line) and waits until /readyz answers 200.
start_server() {
	"$work/rootline" serve --addr 127.0.0.1:0 --database "$1" --log-level info >"$2" 2>&1 &
	server_pid=$!
	server_url=""
	for _ in $(seq 600); do
		kill -0 "$server_pid" 2>/dev/null || { cat "$2" >&2; echo "load.sh: the server did not start" >&2; server_pid=""; exit 1; }
		server_url=$(sed -n 's/.*msg=listening url=\(http:[^ ]*\).*/\1/p' "$2" | head -1)
		if [ -n "$server_url" ] && curl -fsS -o /dev/null "$server_url/readyz" 2>/dev/null; then
			return
		fi
		sleep 0.1
	done
	cat "$2" >&2
	echo "load.sh: the server was not ready within a minute" >&2
	exit 1
}

# stop_server: interrupts the server (a graceful shutdown) and waits for it.
stop_server() {
	kill -INT "$server_pid"
	wait "$server_pid" || { echo "load.sh: the server exited with status $?" >&2; keep=1; }
	server_pid=""
}

# server_usage: the server's peak resident memory and CPU time so far, from /proc.
server_usage() {
	local hwm ticks
	hwm=$(awk '/^VmHWM/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$server_pid/status")
	# utime and stime are fields 14 and 15, counted after the command name in brackets.
	ticks=$(sed 's/.*) //' "/proc/$server_pid/stat" | awk '{ print $12 + $13 }')
	echo "peak resident memory $hwm, CPU time $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f s", t / hz }')"
}

# log_summary LOG: how many warnings and errors the server logged, and their messages.
log_summary() {
	awk '
		/level=(WARN|ERROR)/ {
			lvl = ($0 ~ /level=ERROR/) ? "ERROR" : "WARN"
			n[lvl]++
			msg = "?"
			if (match($0, /msg="[^"]*"/)) msg = substr($0, RSTART + 5, RLENGTH - 6)
			else if (match($0, /msg=[^ ]*/)) msg = substr($0, RSTART + 4, RLENGTH - 4)
			key = lvl " \"" msg "\""
			if (!(key in count)) order[++k] = key
			count[key]++
		}
		END {
			printf "%d warnings and %d errors", n["WARN"] + 0, n["ERROR"] + 0
			for (i = 1; i <= k; i++) printf "%s %s ×%d", (i == 1 ? ":" : ";"), order[i], count[order[i]]
			print "."
		}' "$1"
}

failed=0
sections=""
for db in "${dbs[@]}"; do
	case $db in
	sqlite)
		database="$work/load.db"
		title="SQLite"
		what="the embedded SQLite, a new file on the local disk" ;;
	postgres)
		pg_db="rootline_load_$$"
		psql "$pg_admin" -qc "CREATE DATABASE $pg_db" >/dev/null
		database=$(sed "s#/postgres?#/$pg_db?#" <<<"$pg_admin")
		title="PostgreSQL $(psql "$pg_admin" -Atc 'SHOW server_version')"
		what="a new database on the local PostgreSQL (127.0.0.1:5432)" ;;
	esac
	if [ -n "$steady" ]; then
	log "$title: server starting"
	start_server "$database" "$work/server-$db.log"
	log "$title: $duration of load on $server_url"
	rc=0
	"$work/loadtest" --url "$server_url" "${load_args[@]}" --out "$work/table-$db.md" || rc=$?
	usage=$(server_usage)
	stop_server
	if [ "$db" = postgres ]; then
		psql "$pg_admin" -qc "DROP DATABASE $pg_db WITH (FORCE)" >/dev/null
		pg_db=""
	fi
	if [ "$rc" -ne 0 ]; then
		failed=1 keep=1
		echo "load.sh: $title: the load program exited with status $rc; the server's warnings and errors:" >&2
		grep -E 'level=(WARN|ERROR)' "$work/server-$db.log" | head -40 >&2 || true
	fi
	[ -s "$work/table-$db.md" ] || { echo "load.sh: $title: no figures" >&2; exit 1; }
	sections+="## $title

The server on $what; $usage over the run (the server's own, not the load program's). Its log: $(log_summary "$work/server-$db.log")

$(cat "$work/table-$db.md")

"
	fi
	if [ -n "$burst" ]; then
		case $db in
		sqlite) database="$work/burst.db" ;;
		postgres)
			pg_db="rootline_burst_$$"
			psql "$pg_admin" -qc "CREATE DATABASE $pg_db" >/dev/null
			database=$(sed "s#/postgres?#/$pg_db?#" <<<"$pg_admin") ;;
		esac
		log "$title: the burst, on a fresh server"
		start_server "$database" "$work/burst-$db.log"
		rc=0
		"$work/loadtest" --url "$server_url" --burst --server-pid "$server_pid" --budget $((1 << 30)) --settle 60s --timeout 5m \
			--out "$work/burst-$db.md" || rc=$?
		stop_server
		if [ -n "$pg_db" ]; then
			psql "$pg_admin" -qc "DROP DATABASE $pg_db WITH (FORCE)" >/dev/null
			pg_db=""
		fi
		if [ "$rc" -ne 0 ]; then
			failed=1 keep=1
			echo "load.sh: $title: the burst broke its promises (status $rc)" >&2
		fi
		[ -s "$work/burst-$db.md" ] || { echo "load.sh: $title: no burst figures" >&2; exit 1; }
		sections+="## $title: the burst

A fresh server on $what, default settings (memory budget 1 GiB). Its log: $(log_summary "$work/burst-$db.log")

$(cat "$work/burst-$db.md")

"
	fi
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
pgv=$(psql "$pg_admin" -Atc 'SHOW server_version' 2>/dev/null || echo "n/a")
mkdir -p "$(dirname "$doc")"
cat >"$doc" <<EOF
# Load

Produced by \`$repeat\` on $(date -u +%Y-%m-%d): $(nproc) vCPU ($cpu), $mem,
$(go version | cut -d' ' -f3), PostgreSQL $pgv. The server and the load program share this
machine's CPUs, so the figures are those of a server with somewhat less than $(nproc) vCPU.

What the load is (\`scripts/loadtest\`, against a \`rootline serve\` on loopback with a fresh,
empty database):

1. It creates an incident (\`POST /api/v1/incidents\`) and uploads the IL-0070 snapshot to it:
   its nodes, pods and events as \`kubectl get … -o json\` prints them (the counts are in each
   section below), three files in one multipart upload, made by \`internal/synth\`.
2. Then, for $duration, $readers readers each request the incident's page (\`GET /incidents/{id}\`)
   and its timeline (\`GET /api/v1/incidents/{id}/timeline\`, the first page of 500 entries) in
   turn, as fast as the answers come, while $uploaders uploaders each send one small snapshot
   after another: $upload_events new events of a generated JupyterHub cluster, different bytes
   every time, so each is stored. Each stored snapshot changes the incident's evidence, so the
   next view loads and analyses the whole incident again instead of answering from the
   server's cache; the incident grows by $upload_events events per upload as the run goes on.
3. It counts, per endpoint, the requests, the requests per second over the run, the 50th and
   99th percentile and the largest latency (the whole answer read), and the errors: any answer
   other than 2xx, or a transport error. Any error makes it exit 1, showing the first answers.

The server runs with authentication off, its default on loopback. Its upload rate limit
(\`--upload-rate\`, 30 a minute per token by default) counts uploads per token, so it applies
only when authentication is on; here it does not hold the uploaders back. Against a server
with auth on, pass \`--token\` to \`scripts/loadtest\` and raise \`--upload-rate\` (or set it to
0), or the uploads beyond the limit are answered 429 and counted as errors.

To repeat it: \`$repeat\` (about $duration per database, plus the build). The load program
alone, against a server of your own on loopback: \`go run ./scripts/loadtest --url
http://127.0.0.1:8080 ${load_args[*]}\`; it refuses any host that is not loopback.

Parameters: \`${load_args[*]}\`.

The burst (issue 15) is another test, on a fresh server for each database: \`scripts/loadtest
--burst\` sends, all at once, 50 uploads of different pod lists (1,000 generated pods, about
5 MiB each) to one incident and 20 decompression bombs (1 GiB of whitespace inside a List, or of
zeros, each gzipped to about a megabyte; half to the snapshot endpoint, half to the collector's).
It samples the server's resident memory every 50 ms from /proc, and then requires: no answer 5xx
other than 503 with Retry-After; every upload answered 201 stored all its pods; a few uploads
refused with 503 (if any) stored when sent again alone, since a refusal keeps nothing; peak RSS
no more than the memory budget (1 GiB) above the idle server's; and RSS back within a quarter of
the budget above idle within 60 s of the burst's end.

${sections}
EOF
log "wrote $doc"
exit "$failed"
