//go:build browser

package live

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/pageserve"
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
