package realapps

import (
	"context"
	"embed"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

//go:embed npm/package.json npm/package-lock.json
var npmPackages embed.FS

//go:embed pages
var pageFiles embed.FS

// npmWait bounds npm ci: it fetches five libraries and their few
// dependencies, some megabytes.
const npmWait = 5 * time.Minute

// Library pages: /grid.html is a stock list of GridRows items drawn by AG
// Grid (ag-grid-community), which keeps only the rows on screen in the
// document, with its Price column sortable; /table.html is a staff list of
// TableRows people paged ten at a time by DataTables (datatables.net).
// The forms of web components, /shoelace.html (Shoelace), /material.html
// (Material Web) and /lit.html (a LitElement of the page's own), each print
// a line built of what was submitted.
const (
	GridRows  = 1000
	TableRows = 57
)

// LibraryPages installs the pinned npm packages (npm ci) into t's
// temporary folder and serves the pages built on them; it returns the
// server's base URL. The test fails when npm is missing or cannot install.
func LibraryPages(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"package.json", "package-lock.json"} {
		b, err := npmPackages.ReadFile("npm/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts",
		"--cache", filepath.Join(dir, ".npm"))
	cmd.Dir = dir
	setChildAttrs(cmd)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci (make install-browser installs npm): %v\n%s", err, out)
	}
	mux := http.NewServeMux()
	mux.Handle("/node_modules/", http.FileServer(http.Dir(dir)))
	pages, err := fs.Sub(pageFiles, "pages")
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/", http.FileServerFS(pages))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}
