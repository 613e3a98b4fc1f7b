#!/bin/sh
# The mutation run of docs/testing.md ("Mutation testing"): the places that decide, 16 mutants
# of each package drawn with seed 1. Run from the repository's root:
#
#	sh scripts/mutate/places.sh
#
# It writes no file of the checkout (the mutants go to a temporary folder, through
# go test -overlay), so it may run where others build.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/mutate" ./scripts/mutate
run() { "$dir/mutate" -n 16 -seed 1 "$@" | tee -a "$dir/out"; }

# The cause rules and the chain: the engine's linking (internal/analysis/chain.go), judged by
# the rules' tests too (they drive it), and the rules' links.
run -also internal/analysis=internal/analysis/rules internal/analysis/chain.go
run internal/analysis/rules/shared_prometheus.go internal/analysis/rules/capacity.go \
	internal/analysis/rules/chain_change.go internal/analysis/rules/chain_follows.go internal/analysis/rules/chain_lingering.go \
	internal/analysis/rules/chain_new_nodes.go internal/analysis/rules/chain_same_node.go internal/analysis/rules/chain_triggered.go
# Redaction: the rules, and their application to Kubernetes' types.
run internal/redact/redact.go internal/redact/text.go internal/redact/command.go internal/ingest/redact.go
# The change detector.
run internal/change/change.go internal/change/fields.go
# Downsampling.
run internal/metrics/downsample.go
# The text readers.
run internal/ingest/text/nodes_table.go internal/ingest/text/pods.go internal/ingest/text/containers.go \
	internal/ingest/text/describe_node.go
# The budget's cost model: its constants and an upload's cost, with the budget's tests.
run -func '^(cost|costPerByte costBase costPerObject costPerSeries)$' -timeout 15m \
	-run 'internal/server=^Test(Budget|DecodedSize|UploadCost)' internal/server/budget.go

awk '/^score:/ { k += $2; n += $4 } END { printf "total: %d of %d killed (%.0f%%)\n", k, n, 100 * k / n }' "$dir/out"
