//go:build browser

package live

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// captureHTML loads data, served with charset (empty: the one offline
// analysis finds), in a fresh tab of b and returns the capture reply as the
// protocol sent it; the tab and the server are closed before it returns.
func captureHTML(ctx context.Context, b *Browser, data []byte, charset string) (json.RawMessage, error) {
	if charset == "" {
		_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
		if err != nil {
			return nil, err
		}
		charset = info.Charset
	}
	srv, err := pageserve.Serve(data, charset)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		return nil, err
	}
	return p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
}

// jsonDiff shows how two JSON documents differ, (-a +b), for a failure
// message.
func jsonDiff(a, b []byte) string {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return cmp.Diff(string(a), string(b))
	}
	return cmp.Diff(x, y)
}

// loadRequests reads a fixture page's requests file (a JSON array of
// requests beside the page); an entry that is not a valid request is left
// out, since a fixture may hold one on purpose. Every fixture page has such
// a file, so a missing one fails the test.
func loadRequests(t testing.TB, path string) []domsnap.Request {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var reqs []domsnap.Request
	for _, raw := range raws {
		if req, err := domsnap.DecodeRequest(raw); err == nil {
			reqs = append(reqs, req)
		}
	}
	return reqs
}

// wholeAnswer is what the analysis of a whole tree answers: the
// observation's canonical JSON when req is nil, else the extraction's, or
// "error: <code>".
func wholeAnswer(t *domtree.Tree, rev string, req domsnap.Query) []byte {
	var b []byte
	var err error
	if req == nil {
		var o *domsnap.Observation
		if o, err = domsnap.Observe(t, rev, nil); err == nil {
			b = o.Canonical()
		}
	} else {
		var r *domsnap.Result
		if r, err = domsnap.Extract(t, rev, req); err == nil {
			b = r.Canonical()
		}
	}
	if err != nil {
		return []byte("error: " + string(errcode.CodeOf(err)))
	}
	return b
}

// firstColumns asks for the first collection of each kind, every column a
// kind allows as text (a table's first four), as many rows as a request may.
func firstColumns() []domsnap.Request {
	var reqs []domsnap.Request
	for _, k := range []domsnap.Kind{domsnap.Table, domsnap.List, domsnap.Form} {
		cols := map[domsnap.Kind]int{domsnap.Table: 4, domsnap.List: limits.MaxListColumn + 1, domsnap.Form: limits.MaxFormColumn + 1}[k]
		var fields []domsnap.Field
		for c := 0; c < cols; c++ {
			fields = append(fields, domsnap.Field{Name: "c" + strconv.Itoa(c), Column: c, Type: domsnap.String})
		}
		reqs = append(reqs, domsnap.Request{Kind: k, Fields: fields, RowLimit: limits.MaxRowLimit})
	}
	return reqs
}
