package store

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// obsOf makes a distinct observation-like byte string of exactly n bytes.
func obsOf(i, n int) []byte {
	b := []byte(fmt.Sprintf(`{"n":%d,"pad":"`, i))
	for len(b) < n-2 {
		b = append(b, 'x')
	}
	return append(b, `"}`...)
}

func TestStoreRoundTripAndRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	obs, proj := obsOf(1, 500), []byte(`{"p":1}`)
	ref, err := s.Put(obs, proj, 1024)
	if err != nil {
		t.Fatal(err)
	}
	if ref != Ref(obs) || !strings.HasPrefix(ref, "sha256:") {
		t.Fatalf("ref %s", ref)
	}
	// A second Put of the same observation keeps the first projection.
	if _, err := s.Put(obs, []byte(`{"p":2}`), 2048); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s2.Get(ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Observation, obs) || !bytes.Equal(a.Projection, proj) || a.Budget != 1024 {
		t.Fatalf("after reopening: %q %q %d", a.Observation, a.Projection, a.Budget)
	}
	// Owner-only permissions.
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v", fi.Mode().Perm())
	}
	fi, _ = os.Stat(filepath.Join(dir, ref[len("sha256:"):]+artifactExt))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v", fi.Mode().Perm())
	}
}

func TestStoreUnknownAndCorrupt(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, MinBytes)
	for _, ref := range []string{"sha256:" + strings.Repeat("0", 64), "sha256:../../etc", "md5:x", ""} {
		if _, err := s.Get(ref); errcode.CodeOf(err) != errcode.UnknownArtifact {
			t.Fatalf("%q: %v", ref, err)
		}
	}
	obs := obsOf(2, 100)
	ref, _ := s.Put(obs, []byte("{}"), 1024)
	path := filepath.Join(dir, ref[len("sha256:"):]+artifactExt)
	data, _ := os.ReadFile(path)
	data[len(data)-5] ^= 1
	os.WriteFile(path, data, 0o600)
	if _, err := s.Get(ref); errcode.CodeOf(err) != errcode.UnknownArtifact {
		t.Fatalf("corrupt file: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) || s.Len() != 0 || s.Bytes() != 0 {
		t.Fatalf("corrupt file kept: %v, %d artifacts, %d bytes", err, s.Len(), s.Bytes())
	}
}

// TestStoreBound fills the store to exactly its bound, then one byte over:
// the bound is kept, and the least recently used artifact goes first.
func TestStoreBound(t *testing.T) {
	const budget = 1024
	proj := []byte("{}")
	size := func(obs []byte) int64 { return FileSize(obs, proj, budget) }
	for _, c := range []struct {
		name      string
		lastExtra int64 // bytes the last artifact adds beyond filling the bound exactly
		evicted   uint64
	}{
		{"just under", -1, 0},
		{"at", 0, 0},
		{"just over", 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := Open(t.TempDir(), MinBytes)
			// Four artifacts fill the bound exactly; the last one's size is
			// adjusted by lastExtra.
			per := MinBytes / 4
			var refs []string
			for i := 0; i < 4; i++ {
				want := per
				if i == 3 {
					want = MinBytes - 3*per + c.lastExtra
				}
				// The header spells the length, so find the length whose
				// file has the wanted size.
				n := int(want - size(nil))
				obs := obsOf(i, n)
				obs = obsOf(i, n-int(size(obs)-want))
				if size(obs) != want {
					t.Fatalf("artifact size %d, want %d", size(obs), want)
				}
				if i == 2 {
					// Use the first artifact, so the second is the least
					// recently used when the fourth arrives.
					if _, err := s.Get(refs[0]); err != nil {
						t.Fatal(err)
					}
				}
				ref, err := s.Put(obs, proj, budget)
				if err != nil {
					t.Fatal(err)
				}
				refs = append(refs, ref)
			}
			if s.Bytes() > MinBytes || s.Evicted() != c.evicted {
				t.Fatalf("%d bytes of %d, %d evicted, want %d", s.Bytes(), MinBytes, s.Evicted(), c.evicted)
			}
			_, err := s.Get(refs[1])
			if gone := errcode.CodeOf(err) == errcode.UnknownArtifact; gone != (c.evicted == 1) {
				t.Fatalf("second artifact gone=%v, want %v", gone, c.evicted == 1)
			}
			for _, i := range []int{0, 2, 3} {
				if _, err := s.Get(refs[i]); err != nil {
					t.Fatalf("artifact %d: %v", i, err)
				}
			}
		})
	}
	if _, err := Open(t.TempDir(), MinBytes-1); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("a bound under the minimum: %v", err)
	}
}

// TestStoreCrashMidWrite runs a writer in a child process that dies between
// writing its temporary file and renaming it: the store then holds no
// partial artifact, and reopening it removes the leftover.
func TestStoreCrashMidWrite(t *testing.T) {
	if dir := os.Getenv("DOMSNAP_STORE_CRASH_DIR"); dir != "" {
		s, err := Open(dir, MinBytes)
		if err != nil {
			os.Exit(3)
		}
		s.beforeRename = func(string) {
			p, _ := os.FindProcess(os.Getpid())
			p.Kill() // SIGKILL: no deferred cleanup runs
			select {}
		}
		s.Put(obsOf(9, 4000), []byte("{}"), 1024)
		os.Exit(4) // not reached
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreCrashMidWrite$")
	cmd.Env = append(os.Environ(), "DOMSNAP_STORE_CRASH_DIR="+dir)
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != -1 {
		t.Fatalf("the writer was not killed: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	temps := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), artifactExt) {
			t.Fatalf("a partial artifact is visible: %s", e.Name())
		}
		if strings.HasPrefix(e.Name(), tempPrefix) {
			temps++
		}
	}
	if temps != 1 {
		t.Fatalf("%d temporary files, want the one the killed writer left", temps)
	}
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(Ref(obsOf(9, 4000))); errcode.CodeOf(err) != errcode.UnknownArtifact {
		t.Fatalf("got %v", err)
	}
	ents, _ = os.ReadDir(dir)
	if len(ents) != 0 || s.Len() != 0 {
		t.Fatalf("after reopening: %d files, %d artifacts", len(ents), s.Len())
	}
}

// TestStoreOwnership: an artifact made by one session is to another what
// one never stored is (unknown_artifact, the same message); one made by two sessions (the same bytes) is both's; an
// artifact no session of this process made is readable only when not
// strict; a released owner's artifacts are nobody's; an unknown one stays
// unknown_artifact, whoever asks.
func TestStoreOwnership(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	a, b := Owner(1), Owner(2)
	refA, err := s.PutFor(a, obsOf(1, 300), []byte("{}"), 1024)
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := s.PutFor(a, obsOf(2, 300), []byte("{}"), 1024)
	if _, err := s.PutFor(b, obsOf(2, 300), []byte("{}"), 1024); err != nil {
		t.Fatal(err)
	}
	unowned, _ := s.Put(obsOf(3, 300), []byte("{}"), 1024)
	for _, strict := range []bool{false, true} {
		if _, err := s.GetFor(a, refA, strict); err != nil {
			t.Fatalf("the maker, strict %v: %v", strict, err)
		}
		_, never := s.GetFor(a, Ref(obsOf(9, 300)), strict)
		if errcode.CodeOf(never) != errcode.UnknownArtifact {
			t.Fatalf("never stored, strict %v: %v", strict, never)
		}
		if _, err := s.GetFor(b, refA, strict); !sameError(err, never) {
			t.Fatalf("another session, strict %v: %v, never stored: %v", strict, err, never)
		}
		for _, o := range []Owner{a, b} {
			if _, err := s.GetFor(o, shared, strict); err != nil {
				t.Fatalf("shared artifact for %d, strict %v: %v", o, strict, err)
			}
		}
		_, err := s.GetFor(b, unowned, strict)
		if strict && !sameError(err, never) || !strict && err != nil {
			t.Fatalf("an artifact of no session, strict %v: %v", strict, err)
		}
	}
	// Get asks nobody's name.
	if _, err := s.Get(refA); err != nil {
		t.Fatal(err)
	}
	s.Release(a)
	if _, err := s.GetFor(a, refA, true); errcode.CodeOf(err) != errcode.UnknownArtifact {
		t.Fatalf("released owner, strict: %v", err)
	}
	if _, err := s.GetFor(b, shared, true); err != nil {
		t.Fatalf("the other maker after a release: %v", err)
	}
	// Ownership is this process's: a reopened store has none.
	s2, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.GetFor(b, shared, false); err != nil {
		t.Fatalf("after a restart, not strict: %v", err)
	}
	if _, err := s2.GetFor(b, shared, true); errcode.CodeOf(err) != errcode.UnknownArtifact {
		t.Fatalf("after a restart, strict: %v", err)
	}
}

// sameError reports whether two store errors read the same to a client:
// the same code and the same message.
func sameError(a, b error) bool {
	return a != nil && b != nil && errcode.CodeOf(a) == errcode.CodeOf(b) && a.Error() == b.Error()
}

// fillStore opens a store bounded to MinBytes in dir and fills it to
// exactly its bound with four artifacts, returning their references.
func fillStore(t *testing.T, dir string) (*Store, []string) {
	t.Helper()
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for i := range 4 {
		obs := sizedObs(t, i, MinBytes/4)
		ref, err := s.Put(obs, []byte("{}"), 1024)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref)
	}
	if s.Bytes() != MinBytes {
		t.Fatalf("filled to %d bytes, want %d", s.Bytes(), MinBytes)
	}
	return s, refs
}

// sizedObs is obsOf(i, ...) of the length whose artifact file, with the
// projection "{}" at budget 1024, is exactly want bytes.
func sizedObs(t *testing.T, i int, want int64) []byte {
	t.Helper()
	proj := []byte("{}")
	size := func(obs []byte) int64 { return FileSize(obs, proj, 1024) }
	n := int(want - size(nil))
	obs := obsOf(i, n)
	obs = obsOf(i, n-int(size(obs)-want))
	if size(obs) != want {
		t.Fatalf("artifact size %d, want %d", size(obs), want)
	}
	return obs
}

// tempFiles counts the temporary files in dir.
func tempFiles(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			n++
		}
	}
	return n
}

// TestStoreEvictionCost: with hundreds of artifacts stored, each eviction
// looks at one artifact, the least recently used, instead of every one:
// the count of artifacts examined equals the count evicted. The order is
// the order of use: an artifact read just before the store fills is kept.
func TestStoreEvictionCost(t *testing.T) {
	s, err := Open(t.TempDir(), MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	const per = 4 << 10 // 256 artifacts fill the bound
	var refs []string
	for i := range int(MinBytes / per) {
		ref, err := s.Put(sizedObs(t, i, per), []byte("{}"), 1024)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref)
	}
	if s.Evicted() != 0 || s.Len() != len(refs) {
		t.Fatalf("filling: %d evicted, %d artifacts", s.Evicted(), s.Len())
	}
	if _, err := s.Get(refs[0]); err != nil {
		t.Fatal(err)
	}
	const more = 100
	for i := range more {
		if _, err := s.Put(sizedObs(t, 1000+i, per), []byte("{}"), 1024); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	examined, evicted := s.examined, s.evicted
	s.mu.Unlock()
	if evicted != more || examined != evicted {
		t.Fatalf("%d evictions examined %d artifacts, want %d each examining one", evicted, examined, more)
	}
	if _, err := s.Get(refs[0]); err != nil {
		t.Fatalf("the artifact read last before filling was evicted: %v", err)
	}
	for i := 1; i <= more; i++ {
		if _, err := s.Get(refs[i]); errcode.CodeOf(err) != errcode.UnknownArtifact {
			t.Fatalf("artifact %d, among the least recently used, is still there: %v", i, err)
		}
	}
	if _, err := s.Get(refs[more+1]); err != nil {
		t.Fatalf("artifact %d, not among the least recently used, is gone: %v", more+1, err)
	}
}

// TestStoreUseStamp: a use of an artifact is written to its file's time at
// most once per touchInterval: reads within the interval write nothing,
// the first one after it writes the store's clock, and the time carries
// the order of use over a reopening.
func TestStoreUseStamp(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Put(sizedObs(t, 1, MinBytes/2), []byte("{}"), 1024)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Put(sizedObs(t, 2, MinBytes/2), []byte("{}"), 1024)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, a[len("sha256:"):]+artifactExt)
	fi, _ := os.Stat(path)
	written := fi.ModTime()
	clock := written
	s.now = func() time.Time { return clock }
	touches := func() uint64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.touches
	}
	for range 50 {
		clock = clock.Add(touchInterval / 100)
		if _, err := s.Get(a); err != nil {
			t.Fatal(err)
		}
	}
	if fi, _ := os.Stat(path); touches() != 0 || !fi.ModTime().Equal(written) {
		t.Fatalf("reads within the interval: %d stamps, time moved %v", touches(), fi.ModTime().Sub(written))
	}
	clock = written.Add(touchInterval)
	if _, err := s.Get(a); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); touches() != 1 || !fi.ModTime().Equal(clock) {
		t.Fatalf("a read after the interval: %d stamps, time %v, want %v", touches(), fi.ModTime(), clock)
	}
	// Reopened, a is the more recently used: a third artifact evicts b.
	s2, err := Open(dir, MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Put(sizedObs(t, 3, MinBytes/2), []byte("{}"), 1024); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Get(b); errcode.CodeOf(err) != errcode.UnknownArtifact {
		t.Fatalf("the least recently used after reopening is kept: %v", err)
	}
	if _, err := s2.Get(a); err != nil {
		t.Fatalf("the most recently used after reopening is gone: %v", err)
	}
}
