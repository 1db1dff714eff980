package domsnap_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// mdLink matches the target of a Markdown link: ](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingAnchor is the anchor a Markdown heading gets on the usual hosts:
// lower case, punctuation other than '-' and '_' dropped, spaces as '-'.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchorsOf lists the anchors of a Markdown file's headings, outside code
// blocks.
func anchorsOf(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	inCode := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		out[headingAnchor(strings.TrimLeft(line, "#"))] = true
	}
	return out
}

// TestDocLinks checks that every relative link in README.md and docs/
// names a file that exists and, with a fragment, a heading of that file, so
// the reference's anchors cannot go stale when a heading is renamed.
func TestDocLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no documents under docs/: %v", err)
	}
	checked := 0
	for _, doc := range append([]string{"README.md"}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %q: %v", doc, target, err)
					continue
				}
			}
			if frag != "" && !anchorsOf(t, path)[frag] {
				t.Errorf("%s: link %q: %s has no heading with that anchor", doc, target, path)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d links checked; the reference alone has more", checked)
	}
}

func TestHeadingAnchor(t *testing.T) {
	for h, want := range map[string]string{
		" Limits":                            "limits",
		" Where the browser may go":          "where-the-browser-may-go",
		" Saving a capture domsnap can read": "saving-a-capture-domsnap-can-read",
		" `--format table` (v2.1)":           "--format-table-v21",
	} {
		if got := headingAnchor(h); got != want {
			t.Errorf("headingAnchor(%q) = %q, want %q", h, got, want)
		}
	}
}

// goBlocks returns the ```go code blocks of a Markdown file.
func goBlocks(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && line == "```go":
			cur = &strings.Builder{}
		case cur != nil && line == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return blocks
}

// funcBody prints the statements of the named function of a parsed file,
// without comments, and the file's import paths.
func funcBody(t *testing.T, fset *token.FileSet, f *ast.File, name string) (body string, imports []string) {
	t.Helper()
	for _, imp := range f.Imports {
		imports = append(imports, imp.Path.Value)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name {
			continue
		}
		var b bytes.Buffer
		for _, st := range fd.Body.List {
			if err := printer.Fprint(&b, fset, st); err != nil {
				t.Fatal(err)
			}
			b.WriteByte('\n')
		}
		return b.String(), imports
	}
	t.Fatalf("no function %s", name)
	return "", nil
}

// TestReadmeExample: README's Go program is a complete file that parses,
// and its main does exactly what Example_readme does (which go test runs
// and checks), with the same imports, so the snippet compiles and works
// as shown.
func TestReadmeExample(t *testing.T) {
	blocks := goBlocks(t, "README.md")
	if len(blocks) != 1 {
		t.Fatalf("README.md has %d Go blocks, want 1", len(blocks))
	}
	fset := token.NewFileSet()
	readme, err := parser.ParseFile(fset, "README.md", blocks[0], 0)
	if err != nil {
		t.Fatalf("README's Go program does not parse: %v", err)
	}
	if readme.Name.Name != "main" {
		t.Errorf("README's program is package %s", readme.Name.Name)
	}
	example, err := parser.ParseFile(fset, "example_readme_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	gotBody, gotImports := funcBody(t, fset, readme, "main")
	wantBody, wantImports := funcBody(t, fset, example, "Example_readme")
	if diff := cmp.Diff(wantBody, gotBody); diff != "" {
		t.Errorf("README's main differs from Example_readme (-example +readme):\n%s", diff)
	}
	if diff := cmp.Diff(wantImports, gotImports); diff != "" {
		t.Errorf("imports differ (-example +readme):\n%s", diff)
	}
}
