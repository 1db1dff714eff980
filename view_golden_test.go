package domsnap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

// viewDir holds pages whose observations pin the page view: landmarks and
// their scoping, every control role and state, select options and the
// page text. go test -run TestViewGoldens -update rewrites the goldens.
const viewDir = "testdata/view"

func TestViewGoldens(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(viewDir, "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages: %v", err)
	}
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			in, err := snapshot.Load(data, snapshot.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			o, err := Observe(in.Tree, in.Revision, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := o.Canonical()
			if !json.Valid(got) {
				t.Fatal("not JSON")
			}
			// Every CANARY on these pages is a value: none may show.
			if strings.Contains(string(got), "CANARY") {
				t.Errorf("a planted value reached the observation: %s", got)
			}
			// Indented, so a change reads as a diff of the records.
			var pretty strings.Builder
			enc := json.NewEncoder(&pretty)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", " ")
			var v any
			json.Unmarshal(got, &v)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(viewDir, name+".golden.json")
			if updateProjections() {
				if err := os.WriteFile(path, []byte(pretty.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestViewGoldens -update, then review the files)", err)
			}
			if diff := cmp.Diff(string(want), pretty.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
		})
	}
}
