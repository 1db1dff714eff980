package mcp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/ownerstamp"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/mcp/internal/store"
)

// uploadServer is a server whose upload root is a fresh folder holding
// what files lays out, with uploads bounded at max bytes, and a session
// of it. TMPDIR is a folder of the test's own, so staged copies can be
// looked for.
func uploadServer(t *testing.T, max int64, files map[string]string) (*session, string, string) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root := filepath.Join(t.TempDir(), "uploads")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := New(Config{StateDir: filepath.Join(t.TempDir(), "state"), MaxStoreBytes: store.MinBytes, UploadRoot: root,
		MaxUploadBytes: max, Chrome: "/nonexistent/chromium"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return newSession(srv, grant{}), root, tmp
}

// TestStageRefusals: an upload path is refused as snapshot_observe's are
// (up and out, absolute, through a symbolic link, not a regular file, a
// folder, over the bound, a FIFO put in the file's place after the
// check), and without an upload root every upload is path_refused. No
// message names the file, and nothing is staged.
func TestStageRefusals(t *testing.T) {
	const secret = "secret-name-4c1d.csv"
	ss, root, tmp := uploadServer(t, 10, map[string]string{"ok/" + secret: "1234567890", "big.csv": "12345678901", "swap.csv": "x"})
	outside := filepath.Join(t.TempDir(), "outside.csv")
	os.WriteFile(outside, []byte("outside"), 0o600)
	os.Symlink(outside, filepath.Join(root, "link.csv"))
	os.Symlink(filepath.Join(root, "ok"), filepath.Join(root, "linkdir"))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/null", filepath.Join(root, "dev"))
	ctx := context.Background()
	for _, c := range []struct {
		path string
		code errcode.Code
	}{
		{"../" + secret, errcode.PathRefused},
		{"ok/../../" + secret, errcode.PathRefused},
		{root + "/ok/" + secret, errcode.PathRefused},
		{"link.csv", errcode.PathRefused},
		{"linkdir/" + secret, errcode.PathRefused},
		{"dev", errcode.PathRefused},
		{"pipe", errcode.UnsupportedInput},
		{"ok", errcode.UnsupportedInput},
		{"missing-" + secret, errcode.UnsupportedInput},
		{"big.csv", errcode.UnsupportedInput},
		{".", errcode.PathRefused},
	} {
		_, err := ss.stage(ctx, c.path)
		if errcode.CodeOf(err) != c.code || strings.HasPrefix(c.path, "big") != errors.Is(err, errcode.ErrTooLarge) {
			t.Errorf("%s: %v, want %s", c.path, err, c.code)
		}
		if err != nil && strings.Contains(err.Error(), "secret-name") {
			t.Errorf("%s: the message names the file: %v", c.path, err)
		}
	}
	// Swapped for a named pipe between the checks and the open: the
	// opened descriptor is checked again.
	ss.srv.uploads.checked = func(rel string) {
		p := filepath.Join(root, rel)
		os.Remove(p)
		syscall.Mkfifo(p, 0o600)
	}
	if _, err := ss.stage(ctx, "swap.csv"); errcode.CodeOf(err) != errcode.UnsupportedInput {
		t.Errorf("swapped for a pipe: %v", err)
	}
	ss.srv.uploads.checked = nil
	if ents, _ := os.ReadDir(tmp); len(ents) > 1 {
		t.Errorf("refused uploads left %d entries in the temporary folder", len(ents))
	}

	off, _, _ := uploadServer(t, 10, map[string]string{secret: "x"})
	off.srv.uploads = nil
	if _, err := off.stage(ctx, secret); errcode.CodeOf(err) != errcode.PathRefused {
		t.Errorf("without an upload root: %v", err)
	}
}

// TestStageCopies: an accepted upload is a copy under the session's own
// owner-only folder, with the file's name and bytes, which a change to
// the original afterwards does not reach; at most MaxUploads per session;
// the folder goes when the session ends.
func TestStageCopies(t *testing.T) {
	ss, root, tmp := uploadServer(t, 1<<20, map[string]string{"in/report.csv": "a,b\n1,2\n"})
	ctx := context.Background()
	p, err := ss.stage(ctx, "in/report.csv")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "report.csv" || !strings.HasPrefix(p, tmp+string(filepath.Separator)+uploadPrefix) {
		t.Fatalf("staged at %s", p)
	}
	os.WriteFile(filepath.Join(root, "in/report.csv"), []byte("changed"), 0o600)
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, []byte("a,b\n1,2\n")) {
		t.Errorf("the copy holds %q", got)
	}
	fi, _ := os.Stat(p)
	di, _ := os.Stat(ss.uploadDir)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v", fi.Mode().Perm(), di.Mode().Perm())
	}
	for i := 1; i < limits.MaxUploads; i++ {
		if _, err := ss.stage(ctx, "in/report.csv"); err != nil {
			t.Fatalf("upload %d: %v", i+1, err)
		}
	}
	if _, err := ss.stage(ctx, "in/report.csv"); !errors.Is(err, errcode.ErrTooLarge) {
		t.Errorf("one upload past MaxUploads: %v", err)
	}
	// A copy the page never received is taken back: its folder goes and
	// the allowance has room for one more, and only one.
	ss.unstage(p)
	if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
		t.Errorf("the taken-back copy's folder: %v", err)
	}
	ss.unstage(filepath.Join(tmp, "elsewhere", "u1", "report.csv"))
	if _, err := ss.stage(ctx, "in/report.csv"); err != nil {
		t.Errorf("the upload after a copy was taken back: %v", err)
	}
	if _, err := ss.stage(ctx, "in/report.csv"); !errors.Is(err, errcode.ErrTooLarge) {
		t.Errorf("one upload past MaxUploads again: %v", err)
	}
	ss.end()
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("the session's end left %d entries in the temporary folder", len(ents))
	}
}

// TestSweepSessionFolders: a server starting removes the upload and
// download folders that sessions of an ended server left (killed, it could
// not), and only those: a folder of a running process stays, and so does
// one without a mark.
func TestSweepSessionFolders(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	state := filepath.Join(t.TempDir(), "state")
	downloads := filepath.Join(state, downloadsDir)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dead := ownerstamp.StampOf(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	if dead == "" {
		t.Skip("no process stamps on this system")
	}
	mk := func(dir, name, stamp string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, "file"), []byte("x"), 0o600)
		if stamp != "" {
			os.WriteFile(filepath.Join(p, ownerstamp.File), []byte(stamp), 0o600)
		}
		return p
	}
	gone := []string{mk(tmp, uploadPrefix+"dead", dead), mk(downloads, downloadPrefix+"dead", dead)}
	kept := []string{mk(tmp, uploadPrefix+"live", ownerstamp.Stamp()), mk(downloads, downloadPrefix+"unmarked", ""),
		mk(tmp, "other-dead", dead)}
	srv, err := New(Config{StateDir: state, MaxStoreBytes: store.MinBytes, Chrome: "/nonexistent/chromium"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", filepath.Base(p))
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
}
