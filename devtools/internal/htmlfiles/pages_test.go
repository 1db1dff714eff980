package htmlfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.html", "a/c.HTM", "a/d.htm", "e.txt", "f.html.gz"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find(dir, ".html", ".htm")
	want := []string{filepath.Join(dir, "a/c.HTM"), filepath.Join(dir, "a/d.htm"), filepath.Join(dir, "b.html")}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Find = %v, %v; want %v", got, err, want)
	}
	if got, _ := Find(dir, ".html"); !slices.Equal(got, want[2:]) {
		t.Fatalf("html alone: %v", got)
	}
	if _, err := Find(filepath.Join(dir, "missing"), ".html"); err == nil {
		t.Fatal("a missing folder was read")
	}
}
