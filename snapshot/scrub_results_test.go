package snapshot_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/parity"

	"github.com/google/go-cmp/cmp"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/snapshot"
)

// fixtureRequests reads the requests beside a fixture page, or the parity
// defaults when it has none; entries that are not valid requests are left
// out, as domsnap parity leaves them out.
func fixtureRequests(t *testing.T, name string) []domsnap.Request {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "html", name+".requests.json"))
	if os.IsNotExist(err) {
		return parity.DefaultRequests()
	}
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatal(err)
	}
	var reqs []domsnap.Request
	for _, r := range raws {
		if req, err := domsnap.DecodeRequest(r); err == nil {
			reqs = append(reqs, req)
		}
	}
	return reqs
}

// TestScrubKeepsResults: for every fixture capture, with canaries planted
// in all of its controls, every request's result and the observation are
// the same bytes from the capture as given and from the saved snapshot
// WriteSnapshot makes of it, and that file holds no canary.
func TestScrubKeepsResults(t *testing.T) {
	captures, err := filepath.Glob(filepath.Join("..", "testdata", "captures", "*.json"))
	if err != nil || len(captures) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	compared := 0
	for _, path := range captures {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			raw, canaries := snapshot.PlantCanaries(t, data, "PLANTED")
			const rev = "r1.0123456789abcdef.n1.o1"
			before, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var file bytes.Buffer
			if err := snapshot.WriteSnapshot(&file, snapshot.Envelope{Revision: rev, Capture: raw}, false); err != nil {
				t.Fatal(err)
			}
			for _, c := range canaries {
				if bytes.Contains(file.Bytes(), []byte(c)) {
					t.Errorf("canary %s in the saved snapshot", c)
				}
			}
			in, err := snapshot.Load(file.Bytes(), snapshot.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			reqs := fixtureRequests(t, name)
			if len(reqs) == 0 {
				t.Fatal("no requests")
			}
			for i, req := range reqs {
				req.ExpectedRevision = rev
				want, err := domsnap.Extract(before, rev, req)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				got, err := domsnap.Extract(in.Tree, in.Revision, req)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if diff := cmp.Diff(string(want.Canonical()), string(got.Canonical())); diff != "" {
					t.Errorf("request %d (-capture +saved):\n%s", i, diff)
				}
				compared++
			}
			req := reqs[0]
			req.ExpectedRevision = rev
			want, err := domsnap.Observe(before, rev, &req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := domsnap.Observe(in.Tree, in.Revision, &req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want.Canonical()), string(got.Canonical())); diff != "" {
				t.Errorf("observation (-capture +saved):\n%s", diff)
			}
		})
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
	t.Logf("%d captures, %d results compared", len(captures), compared)
}
