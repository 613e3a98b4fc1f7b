package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/incident"
	"github.com/rootline-dev/rootline/internal/kinds"
)

// Library vocabulary: the kinds of the report format (internal/kinds), and component words
// people use beyond them.
var (
	librarySymptoms   = kinds.Symptoms
	libraryCauses     = kinds.Causes
	libraryComponents = append(slices.Clone(kinds.Components), "Kubelet", "CNI", "Etcd")
	libraryOrgs       = []string{"2i2c", "mybinder.org", "Pangeo", "DFDS", "Zalando", "Grafana Labs", "Moonlight", "Universe", "ACME", "Initech"}
	libraryWords      = []string{"hub", "restart", "scale-up", "burst", "eviction", "memory", "pressure", "prometheus", "scrape",
		"dask", "workers", "pending", "quota", "autoscaler", "node", "pool", "kubelet", "probe", "timeout", "dns", "coredns",
		"ingress", "certificate", "image", "registry", "disk", "logs", "etcd", "latency", "outage", "users", "notebook"}
)

// Report returns the i-th report of a generated library of incidents (GEN-0000001, …): a root
// cause drawn with a skew (a few causes are common, as in real libraries), one to four causes,
// one to five symptoms, one to three components, an organisation, a date within 2017–2025, and
// a few sentences of text. The same seed and index give the same report.
func Report(seed uint64, i int) incident.Report {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	skewed := func(list []string) string { // about half of the draws fall on the first quarter of the list
		if r.IntN(2) == 0 {
			return list[r.IntN(max(1, len(list)/4))]
		}
		return list[r.IntN(len(list))]
	}
	pick := func(list []string, n int, first string) []string {
		out := []string{}
		if first != "" {
			out = append(out, first)
		}
		for len(out) < n {
			v := skewed(list)
			if !containsString(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	root := skewed(libraryCauses)
	rep := incident.Report{
		ID:        fmt.Sprintf("GEN-%07d", i),
		Org:       libraryOrgs[r.IntN(len(libraryOrgs))],
		Date:      time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(9*365)).Format(time.DateOnly),
		Symptoms:  pick(librarySymptoms, 1+r.IntN(5), ""),
		RootCause: root,
		Causes:    pick(libraryCauses, 1+r.IntN(4), root),
	}
	for _, kind := range pick(libraryComponents, 1+r.IntN(3), "") {
		rep.Components = append(rep.Components, incident.Component{Kind: kind, Name: strings.ToLower(kind) + fmt.Sprint(r.IntN(20))})
	}
	// Words follow Zipf's law, as in real text: the library's own words are the most frequent,
	// then a long tail of rarer terms ("term1234"), so that searches meet common and rare words.
	zipf := rand.NewZipf(r, 1.2, 8, 20000)
	words := make([]string, 0, 60)
	for range 40 + r.IntN(20) {
		if k := int(zipf.Uint64()); k < len(libraryWords) {
			words = append(words, libraryWords[k])
		} else {
			words = append(words, fmt.Sprintf("term%d", k))
		}
	}
	rep.Title = fmt.Sprintf("%s %s on %s", strings.ReplaceAll(rep.Symptoms[0], "_", " "), libraryWords[r.IntN(len(libraryWords))], rep.Components[0].Name)
	rep.Tags = []string{"generated", strings.ToLower(rep.Components[0].Kind)}
	rep.Body = fmt.Sprintf("## What happened\n\n%s.\n\n## Root cause\n\n%s, with %s.\n", strings.Join(words, " "),
		strings.ReplaceAll(root, "_", " "), strings.Join(rep.Causes, ", "))
	return rep
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
