package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/domsnap/domsnap/live"
	"sort"
	"strconv"
	"strings"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// Report is one HTML file analyzed offline and live.
type Report struct {
	// Charset is the encoding offline analysis used, and the one the page
	// was served with.
	Charset string
	// Revision is the file revision both analyses ran under, so whole
	// results, evidence references included, can be compared byte for byte.
	Revision string
	// Results are the requests' outcomes, in request order.
	Results []Result
	// Inventory compares the observations without a request: the
	// inventory of every kind.
	Inventory Result
}

// Result is one request's outcome on both sides.
type Result struct {
	// Request is the request's position in the list, -1 for the inventory.
	Request int
	// Offline and Live are the canonical results, or "error: <code>" when
	// the extraction failed.
	Offline, Live []byte
	// Differences are empty when both sides agree byte for byte.
	Differences []Difference
}

// Difference is one JSON value that differs.
type Difference struct {
	// Path is a JSON pointer into the result.
	Path string
	// Offline and Live are the JSON values at Path, "(absent)" when missing.
	Offline, Live string
}

// Differs reports whether any request gave different results.
func (r *Report) Differs() bool {
	if len(r.Inventory.Differences) > 0 {
		return true
	}
	for _, res := range r.Results {
		if len(res.Differences) > 0 {
			return true
		}
	}
	return false
}

// maxDifferences bounds the differences listed for one request; the rest
// of a result that disagrees this much adds nothing to the diagnosis.
const maxDifferences = 64

// Check analyzes the HTML file data offline and live in b, with every
// request in reqs, and compares the canonical results (docs/reference.md#command-line).
// Live, the file's exact bytes are served from memory with the charset found
// offline; both trees are analyzed under the file's revision.
func Check(ctx context.Context, b *live.Browser, data []byte, reqs []domsnap.Request) (*Report, error) {
	offTree, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		return nil, err
	}
	raw, err := captureHTML(ctx, b, data, info.Charset)
	if err != nil {
		return nil, err
	}
	return parityOf(data, offTree, info.Charset, raw, reqs)
}

// CheckCapture is Check with the live side already captured: raw is a
// DOMSnapshot.captureSnapshot reply (with snapshot.DefaultComputedStyles) of
// data served as Check serves it, with the charset offline analysis found.
// It lets a caller that also wants the live tree itself capture the page
// once.
func CheckCapture(data []byte, raw json.RawMessage, reqs []domsnap.Request) (*Report, error) {
	offTree, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		return nil, err
	}
	return parityOf(data, offTree, info.Charset, raw, reqs)
}

func parityOf(data []byte, offTree *domtree.Tree, charset string, raw json.RawMessage, reqs []domsnap.Request) (*Report, error) {
	liveTree, err := treeFromCapture(raw)
	if err != nil {
		return nil, err
	}
	rep := &Report{Charset: charset, Revision: snapshot.FileRevision(data)}
	for i, req := range reqs {
		req.ExpectedRevision = ""
		off := extractBytes(offTree, rep.Revision, req)
		liv := extractBytes(liveTree, rep.Revision, req)
		rep.Results = append(rep.Results, Result{Request: i, Offline: off, Live: liv, Differences: DiffJSON(off, liv)})
	}
	offObs := observeBytes(offTree, rep.Revision)
	liveObs := observeBytes(liveTree, rep.Revision)
	rep.Inventory = Result{Request: -1, Offline: offObs, Live: liveObs, Differences: DiffJSON(offObs, liveObs)}
	return rep, nil
}

func observeBytes(t *domtree.Tree, rev string) []byte {
	o, err := domsnap.Observe(t, rev, nil)
	if err != nil {
		return []byte("error: " + string(errcode.CodeOf(err)))
	}
	return o.Canonical()
}

// treeFromCapture decodes the live side with the decoder a session uses
// (snapshot.DecodeCapture), so parity compares offline analysis with what
// production reads, not with a second decoder.
func treeFromCapture(raw json.RawMessage) (*domtree.Tree, error) {
	return snapshot.DecodeCapture(raw, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
}

func extractBytes(t *domtree.Tree, rev string, req domsnap.Request) []byte {
	res, err := domsnap.Extract(t, rev, req)
	if err != nil {
		return []byte("error: " + string(errcode.CodeOf(err)))
	}
	return res.Canonical()
}

// DefaultRequests are the requests parity runs on a page that has no
// requests file: the first three collections of each kind, with every
// column a kind allows as strings (tables: the first four columns), and the
// most rows a request may ask for.
func DefaultRequests() []domsnap.Request {
	var reqs []domsnap.Request
	for _, k := range []domsnap.Kind{domsnap.Table, domsnap.List, domsnap.Form} {
		cols := 4
		switch k {
		case domsnap.List:
			cols = limits.MaxListColumn + 1
		case domsnap.Form:
			cols = limits.MaxFormColumn + 1
		}
		var fields []domsnap.Field
		for c := 0; c < cols; c++ {
			fields = append(fields, domsnap.Field{Name: "c" + strconv.Itoa(c), Column: c, Type: domsnap.String})
		}
		for i := 0; i < 3; i++ {
			reqs = append(reqs, domsnap.Request{Kind: k, Index: i, Fields: fields, RowLimit: limits.MaxRowLimit})
		}
	}
	return reqs
}

// DiffJSON lists where two JSON documents differ, as JSON pointers with
// both values. Documents that are not JSON are compared as a whole. It walks
// with an explicit stack; results are shallow, but nothing here trusts that.
func DiffJSON(a, b []byte) []Difference {
	if bytes.Equal(a, b) {
		return nil
	}
	va, errA := decodeJSON(a)
	vb, errB := decodeJSON(b)
	if errA != nil || errB != nil {
		return []Difference{{Path: "", Offline: string(a), Live: string(b)}}
	}
	type item struct {
		path string
		a, b any
	}
	var out []Difference
	stack := []item{{"", va, vb}}
	for len(stack) > 0 && len(out) < maxDifferences {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := it.a.(type) {
		case map[string]any:
			y, ok := it.b.(map[string]any)
			if !ok {
				out = append(out, leafDiff(it.path, it.a, it.b))
				continue
			}
			keys := map[string]bool{}
			for k := range x {
				keys[k] = true
			}
			for k := range y {
				keys[k] = true
			}
			sorted := make([]string, 0, len(keys))
			for k := range keys {
				sorted = append(sorted, k)
			}
			sort.Sort(sort.Reverse(sort.StringSlice(sorted))) // popped in ascending order
			for _, k := range sorted {
				stack = append(stack, item{jsonlex.AppendKey(it.path, k), present(x, k), present(y, k)})
			}
		case []any:
			y, ok := it.b.([]any)
			if !ok {
				out = append(out, leafDiff(it.path, it.a, it.b))
				continue
			}
			for i := max(len(x), len(y)) - 1; i >= 0; i-- {
				var ea, eb any = absent{}, absent{}
				if i < len(x) {
					ea = x[i]
				}
				if i < len(y) {
					eb = y[i]
				}
				stack = append(stack, item{it.path + "/" + strconv.Itoa(i), ea, eb})
			}
		default:
			if !sameLeaf(it.a, it.b) {
				out = append(out, leafDiff(it.path, it.a, it.b))
			}
		}
	}
	return out
}

type absent struct{}

func present(m map[string]any, k string) any {
	if v, ok := m[k]; ok {
		return v
	}
	return absent{}
}

func sameLeaf(a, b any) bool {
	switch x := a.(type) {
	case absent:
		_, ok := b.(absent)
		return ok
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

func leafDiff(path string, a, b any) Difference {
	return Difference{Path: path, Offline: render(a), Live: render(b)}
}

func render(v any) string {
	if _, ok := v.(absent); ok {
		return "(absent)"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(unprintable)"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
