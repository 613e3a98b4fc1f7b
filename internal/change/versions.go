package change

import (
	"slices"
	"sort"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Version is one object as it was read at one time: a state of it the collector saw.
type Version struct {
	Object *cluster.Object
	// At is when it was seen.
	At time.Time
	// Deleted says it was seen deleted then (Object is as it was last).
	Deleted bool
}

// Over finds what changed between the consecutive versions of each object (by kind, namespace
// and name; versions in any order): each version's fields against those of the version seen
// before it, as Between compares two readings, in the window from when the earlier was seen to
// when the later was. An object's first version is no change (the collector's first sighting
// of an object is not its creation), nor is one that differs from the last only by status. A
// version seen deleted after one that was not is the object gone (After is Absent), one seen
// after a deletion the object back (Before is Absent).
// Changes come in the order of when they were seen, then of kind, namespace, name and field.
func Over(versions []Version) []Change {
	byObject := map[key][]Version{}
	var order []key
	for _, v := range versions {
		if v.Object == nil {
			continue
		}
		k := key{v.Object.Kind, v.Object.Namespace, v.Object.Name}
		if _, ok := byObject[k]; !ok {
			order = append(order, k)
		}
		byObject[k] = append(byObject[k], v)
	}
	var out []Change
	for _, k := range order {
		vs := byObject[k]
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].At.Before(vs[j].At) })
		for i := 1; i < len(vs); i++ {
			was, is := vs[i-1], vs[i]
			switch {
			case was.Deleted && is.Deleted:
			case was.Deleted || is.Deleted: // it went, or came back
				c := Change{Kind: k.kind, Namespace: k.namespace, Name: k.name, Before: Absent, After: Absent,
					Was: Value{Absent: true}, Is: Value{Absent: true}, Since: was.At.UTC(), Until: is.At.UTC(), Source: is.Object.Source}
				if st, ok := read(was.Object); ok && !was.Deleted {
					c.Before, c.Was = st.summary, st.whole
				}
				if st, ok := read(is.Object); ok && !is.Deleted {
					c.After, c.Is = st.summary, st.whole
				}
				out = append(out, c)
			default:
				out = append(out, Between(Reading{Objects: []*cluster.Object{was.Object}, At: was.At.UTC()},
					Reading{Objects: []*cluster.Object{is.Object}, At: is.At.UTC()})...)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Until.Equal(b.Until) {
			return a.Until.Before(b.Until)
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Field < b.Field
	})
	return out
}

// Join compares the snapshots of a cluster (readings, each At its upload) with the versions the
// collector saw of the same cluster, object by object, where their order is certain: a snapshot
// was taken no earlier than the latest time it records and no later than its upload, so a
// version seen before the first is older than it, and one seen after the second newer. Each
// snapshot's object is compared with the last version seen before it (the window from that
// sighting to the upload) and with the first seen after it (from the latest time it records to
// that sighting); a version seen while the snapshot may have been taken is compared with
// nothing, as which came first is unknown.
func Join(readings []Reading, versions []Version) []Change {
	byObject := map[key][]Version{}
	for _, v := range versions {
		if v.Object != nil {
			k := key{v.Object.Kind, v.Object.Namespace, v.Object.Name}
			byObject[k] = append(byObject[k], v)
		}
	}
	if len(byObject) == 0 {
		return nil
	}
	for _, vs := range byObject {
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].At.Before(vs[j].At) })
	}
	var out []Change
	for _, r := range readings {
		taken := recorded(r.Objects)
		for _, o := range r.Objects {
			vs := slices.DeleteFunc(slices.Clone(byObject[key{o.Kind, o.Namespace, o.Name}]), func(v Version) bool { return v.Deleted })
			if len(vs) == 0 {
				continue
			}
			var before, after *Version
			for i := range vs {
				switch {
				case !taken.IsZero() && !vs[i].At.After(taken):
					before = &vs[i]
				case !r.At.IsZero() && !vs[i].At.Before(r.At) && after == nil:
					after = &vs[i]
				}
			}
			if before != nil {
				out = append(out, Between(Reading{Objects: []*cluster.Object{before.Object}, At: before.At.UTC()},
					Reading{Objects: []*cluster.Object{o}, At: r.At.UTC()})...)
			}
			if after != nil {
				out = append(out, Between(Reading{Objects: []*cluster.Object{o}, At: taken},
					Reading{Objects: []*cluster.Object{after.Object}, At: after.At.UTC()})...)
			}
		}
	}
	return out
}
