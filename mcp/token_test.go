package mcp

import (
	"github.com/domsnap/domsnap/internal/testkit/fifowait"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/domsnap/domsnap/errcode"
)

// TestReadToken: the file must be the owner's alone and hold one token of
// 16 to 4096 visible ASCII bytes; no message quotes the file's content.
func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		os.Chmod(p, mode)
		return p
	}
	good := strings.Repeat("k", 16)
	cases := []struct {
		name, content string
		mode          os.FileMode
		ok            bool
	}{
		{"owner", good + "\n", 0o600, true},
		{"owner-read-only", "  " + good + "\r\n", 0o400, true},
		{"group-read", good, 0o640, false},
		{"others-read", good, 0o604, false},
		{"group-write", good, 0o620, false},
		{"short", strings.Repeat("k", 15), 0o600, false},
		{"shortest", strings.Repeat("k", 16), 0o600, true},
		{"long", strings.Repeat("k", 4096), 0o600, true},
		{"too-long", strings.Repeat("k", 4097), 0o600, false},
		{"far-too-long", strings.Repeat("k", 1<<20), 0o600, false},
		{"inner-space", "kkkkkkkk kkkkkkkk", 0o600, false},
		{"control", good + "\x01", 0o600, false},
		{"empty", "", 0o600, false},
	}
	for _, c := range cases {
		p := write(c.name, c.content, c.mode)
		tok, err := ReadToken(p)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if err != nil {
			if errcode.CodeOf(err) != errcode.InvalidRequest || strings.Contains(err.Error(), "kkkk") {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if string(tok) != strings.TrimSpace(c.content) {
			t.Errorf("%s: token %q", c.name, tok)
		}
	}
	if _, err := ReadToken(""); err == nil {
		t.Error("no file")
	}
	if _, err := ReadToken(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file")
	}
	if _, err := ReadToken(dir); err == nil {
		t.Error("a folder")
	}
}

// TestReadTokenFIFO: a token file that is a named pipe with no writer is
// refused at once as not a regular file, instead of holding start-up.
func TestReadTokenFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	fifowait.WithinOrUnblock(t, fifo, func() { _, err = ReadToken(fifo) })
	if errcode.CodeOf(err) != errcode.InvalidRequest || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a named pipe as token file: %v", err)
	}
}
