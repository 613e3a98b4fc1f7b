package text

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// claimsTable reads the rows of a `kubectl get pvc` table: [NAMESPACE] NAME STATUS VOLUME
// CAPACITY ACCESS MODES STORAGECLASS [VOLUMEATTRIBUTESCLASS] AGE [VOLUMEMODE], and 1.5's
// ACCESSMODES without STORAGECLASS. A claim that is not bound prints its VOLUME, CAPACITY and
// ACCESS MODES empty, so a row is cut where its header's columns start (kubectl aligns each cell
// to its column); a row that does not align still gives its name, status and age, which kubectl
// prints first, second and last.
type claimsTable struct {
	cols   []string
	starts []int // where each column of the header starts
}

// newClaimsTable returns a table reader when s is a claims header, or nil. A volumes table
// (NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM …) is not one.
func newClaimsTable(s string) *claimsTable {
	cols, starts := headerCells(s)
	if len(cols) < 5 || slices.Contains(cols, "CLAIM") || !slices.Contains(cols, "VOLUME") || !slices.Contains(cols, "CAPACITY") ||
		!slices.Contains(cols, "STATUS") || !slices.Contains(cols, "AGE") ||
		!slices.Contains(cols, "ACCESS MODES") && !slices.Contains(cols, "ACCESSMODES") {
		return nil
	}
	if i := slices.Index(cols, "NAME"); i != 0 && !(i == 1 && cols[0] == "NAMESPACE") {
		return nil
	}
	return &claimsTable{cols: cols, starts: starts}
}

func (t *claimsTable) row(p *parser, ln line) (bool, error) {
	f, ok := t.fields(ln.text)
	if !ok {
		return false, nil
	}
	name := f["NAME"]
	if _, n, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(name, "persistentvolumeclaim") {
		name = n // kubectl get all, get pv,pvc: "persistentvolumeclaim/data"
	}
	phase := corev1.PersistentVolumeClaimPhase(f["STATUS"])
	if !objectNameRe.MatchString(name) || (phase != corev1.ClaimPending && phase != corev1.ClaimBound && phase != corev1.ClaimLost) {
		return f["NAME"] == "NAME", nil // a repeated header
	}
	age, _, ok := parseAge(f["AGE"])
	if !ok {
		return false, nil
	}
	c := &corev1.PersistentVolumeClaim{}
	c.Kind, c.APIVersion = "PersistentVolumeClaim", "v1"
	c.Name, c.Namespace = name, f["NAMESPACE"]
	if c.Namespace == "" {
		c.Namespace = p.cmdNamespace("PersistentVolumeClaim")
	}
	c.Status.Phase = phase
	c.Spec.VolumeName = f["VOLUME"]
	if sc := f["STORAGECLASS"]; sc != "" && !isNone(sc) {
		c.Spec.StorageClassName = &sc
	}
	if tm := p.ago(age, true); tm != nil {
		c.CreationTimestamp = *tm
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return false, fmt.Errorf("claim %s: %w", name, err)
	}
	p.scan.name("PersistentVolumeClaim", name)
	return true, p.send(&cluster.Object{APIVersion: "v1", Kind: "PersistentVolumeClaim", Namespace: c.Namespace, Name: name,
		Source: p.source(ln), Raw: raw, Printed: cluster.NewPrinted(nil, age)})
}

// fields cuts a row into its cells by column name: at the header's column starts where every
// cell of the row begins at one, else the name, status and age from where kubectl prints them.
func (t *claimsTable) fields(s string) (map[string]string, bool) {
	toks := tokens(s)
	if len(toks) < 3 {
		return nil, false
	}
	f := map[string]string{}
	if t.starts != nil {
		col := -1
		for k, tk := range toks {
			if i := slices.Index(t.starts, tk.start); i >= 0 {
				col = i
				f[t.cols[col]] = tk.text
			} else if k > 0 && col >= 0 && tk.start == toks[k-1].end+1 {
				f[t.cols[col]] += " " + tk.text // a cell of two words
			} else {
				col = -1 // a cell that starts at no column: the row does not align
				break
			}
		}
		if col >= 0 && f["NAME"] != "" && f["STATUS"] != "" && f["AGE"] != "" {
			return f, true
		}
	}
	f = map[string]string{}
	first := 0
	if t.cols[0] == "NAMESPACE" {
		f["NAMESPACE"], first = toks[0].text, 1
	}
	if len(toks) < first+3 {
		return nil, false
	}
	f["NAME"], f["STATUS"] = toks[first].text, toks[first+1].text
	last := toks[len(toks)-1].text
	if t.cols[len(t.cols)-1] == "VOLUMEMODE" && len(toks) > first+3 {
		last = toks[len(toks)-2].text // -o wide's VOLUMEMODE after the age
	}
	f["AGE"] = last
	return f, true
}

// classesTable reads the rows of a `kubectl get storageclass` table: NAME PROVISIONER
// [RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION] AGE, the default class's name with
// " (default)" after it. Each row is a class the cluster has, with its binding mode.
type classesTable struct {
	cols []string
}

// newClassesTable returns a table reader when s is a storage classes header, or nil.
func newClassesTable(s string) *classesTable {
	cols := headerColumns(s)
	if len(cols) < 3 || cols[0] != "NAME" || cols[1] != "PROVISIONER" || cols[len(cols)-1] != "AGE" {
		return nil
	}
	return &classesTable{cols: cols}
}

func (t *classesTable) row(p *parser, ln line) (bool, error) {
	cells := cellsRe.Split(strings.TrimSpace(ln.text), -1)
	if len(cells) != len(t.cols) {
		return false, nil
	}
	name, _ := strings.CutSuffix(cells[0], " (default)")
	name = strings.TrimPrefix(name, "storageclass.storage.k8s.io/")
	if !objectNameRe.MatchString(name) {
		return cells[0] == "NAME", nil // a repeated header
	}
	sc := &storagev1.StorageClass{Provisioner: cells[1]}
	sc.Kind, sc.APIVersion, sc.Name = "StorageClass", "storage.k8s.io/v1", name
	if i := slices.Index(t.cols, "VOLUMEBINDINGMODE"); i > 0 {
		mode := storagev1.VolumeBindingMode(cells[i])
		if mode != storagev1.VolumeBindingImmediate && mode != storagev1.VolumeBindingWaitForFirstConsumer {
			return false, nil
		}
		sc.VolumeBindingMode = &mode
	}
	raw, err := json.Marshal(sc)
	if err != nil {
		return false, fmt.Errorf("storage class %s: %w", name, err)
	}
	return true, p.send(&cluster.Object{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass", Name: name, Source: p.source(ln), Raw: raw})
}
