package change

import (
	"sort"
	"time"

	"github.com/rootline-dev/rootline/internal/cluster"
)

// Version is one object as it was read at one time: a state of it the collector saw.
type Version struct {
	Object *cluster.Object
	// At is when it was seen.
	At time.Time
}

// Over finds what changed between the consecutive versions of each object (by kind, namespace
// and name; versions in any order): each version's fields against those of the version seen
// before it, as Between compares two readings, in the window from when the earlier was seen to
// when the later was. An object's first version is no change (the collector's first sighting
// of an object is not its creation), nor is one that differs from the last only by status.
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
			out = append(out, Between(Reading{Objects: []*cluster.Object{was.Object}, At: was.At.UTC()},
				Reading{Objects: []*cluster.Object{is.Object}, At: is.At.UTC()})...)
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
