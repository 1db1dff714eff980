package snapshot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/hostile"
	"github.com/domsnap/domsnap/limits"
)

// hostileDir holds the committed hostile inputs; this package's are the
// ones named input-*.
const hostileDir = "../testdata/hostile"

// hostileInputs is every committed input-* file with what Load must say
// about it: the error code (with a word of its message and its path), or
// "" for a result.
var hostileInputs = []struct {
	file    string
	charset string
	code    errcode.Code
	word    string
	path    string
}{
	{"input-bom-page.html", "", "", "", ""},
	{"input-bom-page.html", "bogus", errcode.InvalidRequest, "charset", ""},
	{"input-utf16-bom-page.html", "bogus", errcode.InvalidRequest, "charset", ""},
	{"input-doctype-upper.html", "", "", "", ""},
	{"input-capture-inputvalue-unequal.json", "", errcode.MalformedSnapshot, "length", "/documents/0/nodes/inputValue/value"},
	{"input-capture-inputvalue-unequal.json", "bogus", errcode.InvalidRequest, "charset", ""},
	{"input-capture-textvalue-node-out-of-range.json", "", errcode.MalformedSnapshot, "node index", "/documents/0/nodes/textValue/index/0"},
	{"input-capture-textvalue-string-out-of-range.json", "", errcode.MalformedSnapshot, "string index", "/documents/0/nodes/textValue/value/0"},
	{"input-capture-optionselected-negative.json", "", errcode.MalformedSnapshot, "node index", "/documents/0/nodes/optionSelected/index/0"},
}

func TestHostileInputFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(hostileDir, "input-*"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, c := range hostileInputs {
		listed[c.file] = true
		data, err := os.ReadFile(filepath.Join(hostileDir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		in, err := Load(data, LoadOptions{Charset: c.charset})
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.file, err)
			} else {
				checkTree(t, in.Tree)
			}
			continue
		}
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Error(), c.word) || e.Path != c.path {
			t.Errorf("%s (charset %q): %v; want %s %q at %q", c.file, c.charset, err, c.code, c.word, c.path)
		}
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s has no expectation here", f)
		}
	}
}

// TestHostileItalics: 30 KB of gzip holding 3,000,000 empty <i> elements
// is refused by the tokenizer pass, at the real bound, before a tree is
// built.
func TestHostileItalics(t *testing.T) {
	var b bytes.Buffer
	if err := hostile.Repeat(&b, "", "<i></i>", "", limits.MaxTreeNodes+1, true); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(b.Bytes(), LoadOptions{}); !isTooLarge(err) {
		t.Fatalf("%d bytes of gzip: %v", b.Len(), err)
	}
}

// hostileSeeds are small hostile inputs for the fuzz targets: the committed
// files and small members of each generated family.
func hostileSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	for _, c := range hostileInputs {
		data, err := os.ReadFile(filepath.Join(hostileDir, c.file))
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	var capture, italics bytes.Buffer
	if err := hostile.Capture(&capture, 50); err != nil {
		tb.Fatal(err)
	}
	if err := hostile.Repeat(&italics, "", "<i></i>", "", 200, true); err != nil {
		tb.Fatal(err)
	}
	return append(seeds, capture.Bytes(), italics.Bytes(), hostile.Reopened(8, 8), hostile.GzipBomb("{", 1<<16, ' '))
}
