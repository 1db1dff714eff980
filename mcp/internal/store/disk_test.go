package store

import (
	"bytes"
	"fmt"
	"github.com/domsnap/domsnap/internal/testkit/fifowait"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// TestStoreFailedWriteEvictsNothing: in a full store, a write that fails
// (its temporary file gone before the rename) leaves every old artifact
// in place and readable, the total as it was, and no temporary file; the
// same write succeeding then evicts the least recently used one.
func TestStoreFailedWriteEvictsNothing(t *testing.T) {
	dir := t.TempDir()
	s, refs := fillStore(t, dir)
	obs := sizedObs(t, 9, MinBytes/4)
	s.beforeRename = func(tmp string) { os.Remove(tmp) }
	if _, err := s.Put(obs, []byte("{}"), 1024); errcode.CodeOf(err) != errcode.CaptureFailed {
		t.Fatalf("a failed write: %v", err)
	}
	if s.Evicted() != 0 || s.Len() != 4 || s.Bytes() != MinBytes || tempFiles(t, dir) != 0 {
		t.Fatalf("after a failed write: %d evicted, %d artifacts, %d bytes, %d temporary files", s.Evicted(), s.Len(), s.Bytes(), tempFiles(t, dir))
	}
	for i, ref := range refs {
		if _, err := s.Get(ref); err != nil {
			t.Fatalf("artifact %d after a failed write: %v", i, err)
		}
	}
	s.beforeRename = nil
	if _, err := s.Put(obs, []byte("{}"), 1024); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(refs[0]); errcode.CodeOf(err) != errcode.UnknownArtifact || s.Evicted() != 1 || s.Bytes() != MinBytes {
		t.Fatalf("after the write: oldest %v, %d evicted, %d bytes", err, s.Evicted(), s.Bytes())
	}
}

// TestStoreReadsDuringSlowWrite: while a write is stopped between writing
// its file and renaming it (a slow disk), a read of another artifact, the
// store's counts and a write of another artifact all complete: no file is
// touched under the store's lock. Should one of them wait, the writer is
// let go after hangGuard so that the test fails instead of hanging.
func TestStoreReadsDuringSlowWrite(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	old, err := s.Put(obsOf(1, 500), []byte(`{"p":1}`), 1024)
	if err != nil {
		t.Fatal(err)
	}
	slow := obsOf(2, 500)
	entered, release := make(chan struct{}), make(chan struct{})
	s.beforeRename = func(string) {
		close(entered)
		<-release
	}
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	defer let()
	wrote := make(chan error, 1)
	go func() {
		_, err := s.Put(slow, []byte(`{"p":2}`), 1024)
		wrote <- err
	}()
	<-entered
	s.beforeRename = nil // read by the slow writer already; the next write is not stopped
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			a, err := s.Get(old)
			if err != nil {
				return err
			}
			if !bytes.Equal(a.Projection, []byte(`{"p":1}`)) {
				return fmt.Errorf("read %q", a.Projection)
			}
			if s.Len() != 1 || s.Bytes() != FileSize(obsOf(1, 500), []byte(`{"p":1}`), 1024) {
				return fmt.Errorf("%d artifacts, %d bytes while the second is written", s.Len(), s.Bytes())
			}
			_, err = s.Put(obsOf(3, 500), []byte(`{"p":3}`), 1024)
			return err
		}()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(hangGuard):
		t.Error("a read waited behind a slow write")
		let()
		<-done
	}
	let()
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if s.Len() != 3 {
		t.Fatalf("%d artifacts, want 3", s.Len())
	}
}

// TestStoreConcurrent: many calls writing and reading overlapping
// artifacts at once, in a store too small for all of them, under the race
// detector. Every read is the artifact whole or unknown_artifact; the same
// artifact written at once with two projections keeps one of them for
// good; at the end the total is within the bound and is the size of the
// files in the folder, and no temporary file is left.
func TestStoreConcurrent(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	const kinds, per = 24, 96 << 10 // 24 artifacts of which 10 fit
	obs := make([][]byte, kinds)
	for i := range obs {
		obs[i] = sizedObs(t, i, per)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 60 {
				i := (g*7 + j*5) % kinds
				ref, err := s.Put(obs[i], []byte("{}"), 1024)
				if err != nil {
					errs <- err
					return
				}
				a, err := s.Get(ref)
				if errcode.CodeOf(err) == errcode.UnknownArtifact {
					continue
				}
				if err != nil || !bytes.Equal(a.Observation, obs[i]) || string(a.Projection) != "{}" {
					errs <- fmt.Errorf("artifact %d read back as %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// One artifact, two projections, written at once: the first listed
	// wins and stays.
	twin := obsOf(99, 500)
	var got [2]string
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Put(twin, []byte(fmt.Sprintf(`{"p":%d}`, k)), 1024)
		}()
	}
	wg.Wait()
	for k := range got {
		a, err := s.Get(Ref(twin))
		if err != nil {
			t.Fatal(err)
		}
		got[k] = string(a.Projection)
	}
	reopened, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := reopened.Get(Ref(twin))
	if err != nil || got[0] != got[1] || string(a.Projection) != got[0] {
		t.Fatalf("the twin's projection: %q, after reopening %v", got, err)
	}
	ents, _ := os.ReadDir(dir)
	var files int64
	for _, e := range ents {
		fi, _ := e.Info()
		files += fi.Size()
	}
	if s.Bytes() > MinBytes || files != s.Bytes() || tempFiles(t, dir) != 0 {
		t.Fatalf("%d bytes listed of %d, %d in the folder, %d temporary files", s.Bytes(), MinBytes, files, tempFiles(t, dir))
	}
}

// TestStoreFIFO: an artifact file replaced by a named pipe is read as the
// damaged file it is (unknown_artifact, and removed) at once, not waited
// on; a state folder that is a named pipe is refused at once.
func TestStoreFIFO(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.Put(obsOf(1, 300), []byte("{}"), 1024)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ref[len("sha256:"):]+artifactExt)
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	fifowait.WithinOrUnblock(t, path, func() {
		if _, err := s.Get(ref); errcode.CodeOf(err) != errcode.UnknownArtifact {
			t.Errorf("an artifact file replaced by a pipe: %v", err)
		}
	})
	if _, err := os.Lstat(path); !os.IsNotExist(err) || s.Len() != 0 {
		t.Fatalf("the pipe is kept: %v, %d artifacts", err, s.Len())
	}
	pipe := filepath.Join(t.TempDir(), "state")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	fifowait.WithinOrUnblock(t, pipe, func() {
		if _, err := Open(pipe, MinBytes); errcode.CodeOf(err) != errcode.CaptureFailed {
			t.Errorf("a state folder that is a pipe: %v", err)
		}
	})
}

// hangGuard bounds a test's wait for a read, as for a named pipe.
const hangGuard = fifowait.HangGuard
