package live

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mafredri/cdp/protocol/domsnapshot"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/treediff"
	"github.com/domsnap/domsnap/snapshot"
)

// TestFromReplyAgrees: FromReply over the committed Chromium captures, as
// encoding/json decodes them into the protocol's reply type, builds the
// tree DecodeCapture builds from the same bytes, node for node.
func TestFromReplyAgrees(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "snapshot", "testdata", "chromium", "*.capture.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	describe := func(tr *domtree.Tree) []string {
		var out []string
		for n := range tr.All() {
			out = append(out, treediff.Describe(n))
		}
		return out
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := snapshot.DecodeCapture(data, snapshot.CaptureOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var r domsnapshot.CaptureSnapshotReply
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		got, err := FromReply(&r, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		w, g := describe(want), describe(got)
		if len(w) < 10 || len(w) != len(g) {
			t.Fatalf("%s: %d nodes from DecodeCapture, %d from FromReply", f, len(w), len(g))
		}
		for i := range w {
			if w[i] != g[i] {
				t.Errorf("%s: node %d: DecodeCapture %s, FromReply %s", f, i, w[i], g[i])
			}
		}
	}
}

// TestFromReplyRefusals: no reply at all is malformed_snapshot, and styles
// that do not name display and visibility are refused before the reply is
// looked at, as DecodeCapture refuses them.
func TestFromReplyRefusals(t *testing.T) {
	if _, err := FromReply(nil, snapshot.CaptureOptions{}); errcode.CodeOf(err) != errcode.MalformedSnapshot {
		t.Errorf("nil reply: %v", err)
	}
	opts := snapshot.CaptureOptions{ComputedStyles: []string{"display"}}
	_, want := snapshot.DecodeCapture([]byte(`{"documents":[],"strings":[]}`), opts)
	_, got := FromReply(nil, opts)
	if errcode.CodeOf(got) != errcode.UnsupportedInput || got.Error() != want.Error() {
		t.Errorf("styles without visibility: %v, want %v", got, want)
	}
}
