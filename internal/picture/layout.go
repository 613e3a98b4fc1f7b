package picture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-graphviz"
)

// engine is one slot: who holds it may call into Graphviz. go-graphviz keeps a single wasm
// module per process (instantiated on first use: Rootline's patch in third_party/go-graphviz,
// see docs/architecture.md) and every Graphviz value calls into
// that one module, which is not safe for two goroutines at once; so the lock belongs to the
// process, not to a Layouter. It is the package's only mutable global, for that reason.
var engine = make(chan struct{}, 1)

// Layouter lays out the causal chain with Graphviz's dot (go-graphviz: Graphviz compiled to
// wasm, run by wazero; no cgo). The Graphviz instance is made on first use and kept, so a page
// view pays a layout (a few milliseconds), not the engine's start. A Layouter is safe for
// concurrent use; the server holds one. The zero value is ready; Close releases the instance.
type Layouter struct {
	gv   *graphviz.Graphviz // guarded by the engine slot
	mu   sync.Mutex         // guards done
	done map[string]placed  // layouts by the graph sent, so a page seen again costs none
}

// layoutsKept bounds Layouter.done; when full it starts again empty.
const layoutsKept = 256

// NewLayouter returns a Layouter; it starts no engine until the first layout.
func NewLayouter() *Layouter { return &Layouter{} }

// Start makes the Graphviz instance now rather than at the first layout. The engine loads its
// wasm module when the first instance is made: about 0.1 s, and a second or more on a
// machine's first run, while wazero compiles it into its cache. A server pays that before its
// first page rather than during it, where the page's wait for its chain would count it.
func (l *Layouter) Start(ctx context.Context) error {
	if err := acquire(ctx); err != nil {
		return err
	}
	defer release()
	return l.start(ctx)
}

// start makes the Graphviz instance if there is none; the caller holds the engine slot.
func (l *Layouter) start(ctx context.Context) error {
	if l.gv != nil {
		return nil
	}
	gv, err := graphviz.New(ctx)
	if err != nil {
		return fmt.Errorf("picture: start graphviz: %w", err)
	}
	l.gv = gv
	return nil
}

// Close releases the Graphviz instance, if one was made.
func (l *Layouter) Close() error {
	if err := acquire(context.Background()); err != nil {
		return err
	}
	defer release()
	if l.gv == nil {
		return nil
	}
	err := l.gv.Close()
	l.gv = nil
	return err
}

func acquire(ctx context.Context) error {
	select {
	case engine <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("picture: wait for the layout engine: %w", ctx.Err())
	}
}

func release() { <-engine }

// box is a node to lay out: its size in points (the SVG's units).
type box struct{ w, h float64 }

// arc is an edge to lay out, by the indexes of its boxes; hidden arcs only order a rank.
type arc struct {
	from, to int
	hidden   bool
}

// placed is a laid out graph in SVG coordinates (y down): each box's top-left corner, each
// arc's path (the points of a cubic B-spline, then the arrow's tip), and the whole size.
type placed struct {
	at    [][2]float64
	paths [][][2]float64 // by arc; nil for hidden arcs
	w, h  float64
}

// dot lays out boxes left to right with arcs between them; the boxes of sink go in the last
// rank, in their order. The graph sent to Graphviz holds only generated names and numbers,
// never a text of the input.
func (l *Layouter) dot(ctx context.Context, boxes []box, arcs []arc, sink []int) (placed, error) {
	var src strings.Builder
	src.WriteString("digraph chain {\ngraph [rankdir=LR, nodesep=0.3, ranksep=0.7, splines=true];\n" +
		"node [shape=box, fixedsize=true, label=\"\"];\nedge [arrowsize=0.8];\n")
	for i, b := range boxes {
		fmt.Fprintf(&src, "n%d [width=%.3f, height=%.3f];\n", i, b.w/72, b.h/72)
	}
	if len(sink) > 0 {
		src.WriteString("{rank=sink;")
		for _, i := range sink {
			fmt.Fprintf(&src, " n%d;", i)
		}
		src.WriteString("}\n")
	}
	for _, a := range arcs {
		style := ""
		if a.hidden {
			style = " [style=invis]"
		}
		fmt.Fprintf(&src, "n%d -> n%d%s;\n", a.from, a.to, style)
	}
	src.WriteString("}\n")
	key := src.String()
	l.mu.Lock()
	p, ok := l.done[key]
	l.mu.Unlock()
	if ok {
		return p, nil
	}
	if err := acquire(ctx); err != nil {
		return placed{}, err
	}
	defer release()
	if err := l.start(ctx); err != nil {
		return placed{}, err
	}
	g, err := graphviz.ParseBytes([]byte(key))
	if err != nil {
		return placed{}, fmt.Errorf("picture: parse the chain's graph: %w", err)
	}
	defer g.Close()
	var out bytes.Buffer
	if err := l.gv.Render(ctx, g, "json", &out); err != nil {
		return placed{}, fmt.Errorf("picture: lay out the chain: %w", err)
	}
	p, err = readLayout(out.Bytes(), boxes, arcs)
	if err != nil {
		return placed{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.done) >= layoutsKept || l.done == nil {
		l.done = map[string]placed{}
	}
	l.done[key] = p
	return p, nil
}

// dotJSON is the part of Graphviz's json output the chain reads.
type dotJSON struct {
	BB      string `json:"bb"`
	Objects []struct {
		GVID int    `json:"_gvid"`
		Name string `json:"name"`
		Pos  string `json:"pos"`
	} `json:"objects"`
	Edges []struct {
		Tail  int    `json:"tail"`
		Head  int    `json:"head"`
		Pos   string `json:"pos"`
		Style string `json:"style"`
	} `json:"edges"`
}

// readLayout turns dot's json (points, y up) into SVG coordinates.
func readLayout(data []byte, boxes []box, arcs []arc) (placed, error) {
	var d dotJSON
	if err := json.Unmarshal(data, &d); err != nil {
		return placed{}, fmt.Errorf("picture: read the chain's layout: %w", err)
	}
	bb, err := points(strings.ReplaceAll(d.BB, ",", " "))
	if err != nil || len(bb) != 2 {
		return placed{}, fmt.Errorf("picture: the chain's bounding box %q: %w", d.BB, errors.Join(err, errors.New("want two corners")))
	}
	top := bb[1][1]
	p := placed{at: make([][2]float64, len(boxes)), paths: make([][][2]float64, len(arcs)), w: bb[1][0], h: top}
	byGVID := map[int]int{}
	seen := 0
	for _, o := range d.Objects {
		i, err := strconv.Atoi(strings.TrimPrefix(o.Name, "n"))
		if o.Pos == "" || err != nil || i < 0 || i >= len(boxes) {
			continue // a subgraph
		}
		c, err := points(strings.ReplaceAll(o.Pos, ",", " "))
		if err != nil || len(c) != 1 {
			return placed{}, fmt.Errorf("picture: the position %q of box %d: %w", o.Pos, i, errors.Join(err, errors.New("want one point")))
		}
		p.at[i] = [2]float64{c[0][0] - boxes[i].w/2, top - c[0][1] - boxes[i].h/2}
		byGVID[o.GVID] = i
		seen++
	}
	if seen != len(boxes) {
		return placed{}, fmt.Errorf("picture: the layout placed %d of %d boxes", seen, len(boxes))
	}
	arcIndex := map[[2]int][]int{}
	for i, a := range arcs {
		if !a.hidden {
			arcIndex[[2]int{a.from, a.to}] = append(arcIndex[[2]int{a.from, a.to}], i)
		}
	}
	for _, e := range d.Edges {
		if e.Style == "invis" {
			continue
		}
		key := [2]int{byGVID[e.Tail], byGVID[e.Head]}
		idx := arcIndex[key]
		if len(idx) == 0 {
			return placed{}, fmt.Errorf("picture: the layout drew an edge %v that was not asked for", key)
		}
		arcIndex[key] = idx[1:]
		path, err := spline(e.Pos)
		if err != nil {
			return placed{}, fmt.Errorf("picture: the path of edge %v: %w", key, err)
		}
		for j := range path {
			path[j][1] = top - path[j][1]
		}
		p.paths[idx[0]] = path
	}
	for i, a := range arcs {
		if !a.hidden && p.paths[i] == nil {
			return placed{}, fmt.Errorf("picture: the layout left out edge n%d -> n%d", a.from, a.to)
		}
	}
	return p, nil
}

// spline reads an edge's pos, "e,x,y x,y x,y …": the cubic B-spline's control points (3k+1 of
// them), then the arrow's tip, which the path reaches by a straight line.
func spline(pos string) ([][2]float64, error) {
	var tip *[2]float64
	var fields []string
	for _, f := range strings.Fields(pos) {
		switch {
		case strings.HasPrefix(f, "e,"):
			c, err := points(strings.ReplaceAll(f[2:], ",", " "))
			if err != nil || len(c) != 1 {
				return nil, fmt.Errorf("the end %q: %w", f, errors.Join(err, errors.New("want one point")))
			}
			tip = &c[0]
		case strings.HasPrefix(f, "s,"): // an arrow at the start: the chain draws none
		default:
			fields = append(fields, strings.ReplaceAll(f, ",", " "))
		}
	}
	ps, err := points(strings.Join(fields, " "))
	if err != nil {
		return nil, err
	}
	if len(ps) < 4 || (len(ps)-1)%3 != 0 {
		return nil, fmt.Errorf("%d control points, want 3k+1", len(ps))
	}
	if tip == nil { // no arrowhead: the spline ends at the box
		tip = &ps[len(ps)-1]
	}
	return append(ps, *tip), nil
}

// points reads "x y x y …".
func points(s string) ([][2]float64, error) {
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return nil, fmt.Errorf("an odd count of coordinates in %q", s)
	}
	out := make([][2]float64, 0, len(f)/2)
	for i := 0; i < len(f); i += 2 {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, err
		}
		y, err := strconv.ParseFloat(f[i+1], 64)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]float64{x, y})
	}
	return out, nil
}
