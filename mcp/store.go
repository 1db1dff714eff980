package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// DefaultMaxStoreBytes bounds the artifact store unless told otherwise.
const DefaultMaxStoreBytes int64 = 1 << 30

// MinStoreBytes is the smallest bound the store accepts: comfortably more
// than one observation, whose inventory and extraction are bounded by
// package limits to well under 1 MiB.
const MinStoreBytes int64 = 1 << 20

// artifactMagic starts every artifact file, with the lengths of its two
// parts and the projection's budget.
const artifactMagic = "domsnap-artifact/1"

// artifactExt names the artifact files; tempPrefix the files being written.
const (
	artifactExt = ".artifact"
	tempPrefix  = ".tmp-"
)

// Store is the durable artifact store: each complete canonical observation,
// with the projection made of it, in one file named by the observation's
// SHA-256 digest, so an artifact can be read back byte for byte after a
// restart.
//
// Writes are atomic: the file is written under a temporary name in the same
// folder, synced, renamed into place and the folder synced, so after a
// crash an artifact is complete or absent. A file whose content does not
// match its name is treated as absent. The folder is the owner's alone
// (0700) and so are the files (0600). The total size of the files is
// bounded; when a new artifact would pass the bound, the least recently
// used ones are removed first. Observations hold no form value (the tree
// never has one), so neither does the store.
type Store struct {
	dir string
	max int64

	mu    sync.Mutex
	index map[string]*stored // by hex digest
	clock uint64             // orders uses: larger is more recent
	total int64
	// Evicted counts artifacts removed to stay within the bound.
	evicted uint64

	// owners are, by hex digest, the sessions of this process that made
	// each artifact. They are kept in memory only: an artifact stored by an
	// earlier run, or by another process sharing the folder, has none.
	owners map[string][]Owner

	// beforeRename, when set, runs between writing the temporary file and
	// renaming it: tests stop a writer there.
	beforeRename func(tmp string)
}

// Owner names the session an artifact belongs to; NoOwner is none.
type Owner uint64

// NoOwner stores an artifact without an owner and reads one without a
// check of ownership.
const NoOwner Owner = 0

type stored struct {
	size int64
	used uint64
}

// OpenStore opens (creating it when needed) the store in dir, bounded to
// max bytes. Temporary files a crashed writer left behind are removed.
func OpenStore(dir string, max int64) (*Store, error) {
	if max < MinStoreBytes {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the store bound must be at least "+strconv.FormatInt(MinStoreBytes, 10)+" bytes, got "+strconv.FormatInt(max, 10))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, storeError("creating the artifact folder", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, storeError("restricting the artifact folder to its owner", err)
	}
	s := &Store{dir: dir, max: max, index: map[string]*stored{}, owners: map[string][]Owner{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, storeError("reading the artifact folder", err)
	}
	type found struct {
		hex  string
		size int64
		mod  time.Time
	}
	var files []found
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			_ = os.Remove(filepath.Join(dir, name))
			continue
		}
		h, ok := strings.CutSuffix(name, artifactExt)
		if !ok || !isDigestHex(h) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, found{h, info.Size(), info.ModTime()})
	}
	// The files' modification times carry the order of use across restarts
	// (a read touches its file); ties are broken by name, so the order is
	// the same on every open.
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mod.Equal(files[j].mod) {
			return files[i].mod.Before(files[j].mod)
		}
		return files[i].hex < files[j].hex
	})
	for _, f := range files {
		s.clock++
		s.index[f.hex] = &stored{size: f.size, used: s.clock}
		s.total += f.size
	}
	return s, nil
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Bytes is the total size of the stored files.
func (s *Store) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Len is the number of stored artifacts.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.index)
}

// Evicted counts the artifacts removed to keep within the bound since the
// store was opened.
func (s *Store) Evicted() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.evicted
}

// Ref is the artifact reference of a canonical observation:
// "sha256:" and the hex digest of its bytes.
func Ref(observation []byte) string {
	sum := sha256.Sum256(observation)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// FileSize is the size of the file Put writes for these parts.
func FileSize(observation, projection []byte, budget int) int64 {
	return int64(len(header(len(observation), len(projection), budget)) + len(observation) + len(projection))
}

func header(obs, proj, budget int) string {
	return artifactMagic + " " + strconv.Itoa(obs) + " " + strconv.Itoa(proj) + " " + strconv.Itoa(budget) + "\n"
}

// Put stores an observation with its projection at budget and returns the
// artifact reference. An artifact already stored is kept as it is (its
// projection was made first and is the one replayed) and counts as used.
func (s *Store) Put(observation, projection []byte, budget int) (string, error) {
	return s.PutFor(NoOwner, observation, projection, budget)
}

// PutFor is Put that records owner among the sessions that made the
// artifact, so GetFor refuses it to every other session.
func (s *Store) PutFor(owner Owner, observation, projection []byte, budget int) (string, error) {
	ref := Ref(observation)
	h := ref[len("sha256:"):]
	size := FileSize(observation, projection, budget)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.index[h]; ok {
		s.touch(h, e)
		s.own(h, owner)
		return ref, nil
	}
	if size > s.max {
		return "", errcode.New(errcode.CaptureFailed, pkg, "", "the observation is larger than the whole artifact store")
	}
	for s.total+size > s.max {
		s.evictOldest()
	}
	if err := s.write(h, observation, projection, budget); err != nil {
		return "", err
	}
	s.clock++
	s.index[h] = &stored{size: size, used: s.clock}
	s.total += size
	s.own(h, owner)
	return ref, nil
}

// own adds owner to the artifact's owners. Two sessions make the same
// artifact only from the same bytes (an offline file both may read), so
// sharing it shows neither anything new.
func (s *Store) own(h string, owner Owner) {
	if owner == NoOwner {
		return
	}
	for _, o := range s.owners[h] {
		if o == owner {
			return
		}
	}
	s.owners[h] = append(s.owners[h], owner)
}

// Release forgets owner, whose session has ended: what only it could read
// is now nobody's in this process.
func (s *Store) Release(owner Owner) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h, list := range s.owners {
		kept := list[:0]
		for _, o := range list {
			if o != owner {
				kept = append(kept, o)
			}
		}
		if len(kept) == 0 {
			delete(s.owners, h)
		} else {
			s.owners[h] = kept
		}
	}
}

// write puts the file in place atomically.
func (s *Store) write(h string, observation, projection []byte, budget int) (err error) {
	f, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if err != nil {
		return storeError("creating an artifact file", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return storeError("restricting an artifact file to its owner", err)
	}
	var buf bytes.Buffer
	buf.WriteString(header(len(observation), len(projection), budget))
	buf.Write(observation)
	buf.Write(projection)
	if _, err := f.Write(buf.Bytes()); err != nil {
		return storeError("writing an artifact file", err)
	}
	if err := f.Sync(); err != nil {
		return storeError("syncing an artifact file", err)
	}
	if err := f.Close(); err != nil {
		return storeError("closing an artifact file", err)
	}
	if s.beforeRename != nil {
		s.beforeRename(tmp)
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, h+artifactExt)); err != nil {
		return storeError("renaming an artifact file into place", err)
	}
	return syncDir(s.dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return storeError("opening the artifact folder", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return storeError("syncing the artifact folder", err)
	}
	return nil
}

// evictOldest removes the least recently used artifact.
func (s *Store) evictOldest() {
	var oldest string
	var used uint64
	for h, e := range s.index {
		if oldest == "" || e.used < used || e.used == used && h < oldest {
			oldest, used = h, e.used
		}
	}
	if oldest == "" {
		return
	}
	_ = os.Remove(filepath.Join(s.dir, oldest+artifactExt))
	s.total -= s.index[oldest].size
	delete(s.index, oldest)
	delete(s.owners, oldest)
	s.evicted++
}

// touch marks an artifact as just used, in memory and in its file's time,
// which orders the artifacts again after a restart.
func (s *Store) touch(h string, e *stored) {
	s.clock++
	e.used = s.clock
	now := time.Now()
	_ = os.Chtimes(filepath.Join(s.dir, h+artifactExt), now, now)
}

// Artifact is one stored artifact.
type Artifact struct {
	Observation []byte
	Projection  []byte
	Budget      int
}

// Get reads the artifact stored under ref: unknown_artifact when there is
// none (never stored, evicted, or a file that does not hold what its name
// says, which is then removed). It does not ask who made it.
func (s *Store) Get(ref string) (*Artifact, error) {
	return s.GetFor(NoOwner, ref, false)
}

// GetFor is Get for the session owner: an artifact another session of this
// process made is unknown_artifact, with the very message of one never
// stored, so a session cannot learn what another has seen. One that no
// session of this process made (stored before a restart, or by another
// process) is readable unless strict, as a hosted server wants, where every
// session but its maker is another one.
func (s *Store) GetFor(owner Owner, ref string, strict bool) (*Artifact, error) {
	h, ok := strings.CutPrefix(ref, "sha256:")
	if !ok || !isDigestHex(h) {
		return nil, errcode.New(errcode.UnknownArtifact, pkg, "", "not an artifact reference: "+errcode.Quote(ref))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.index[h]
	if !ok {
		return nil, unknown()
	}
	if owner != NoOwner && !s.readable(h, owner, strict) {
		return nil, unknown()
	}
	path := filepath.Join(s.dir, h+artifactExt)
	data, err := os.ReadFile(path)
	a, perr := parseArtifact(data)
	if err != nil || perr != nil || Ref(a.Observation) != ref {
		_ = os.Remove(path)
		s.total -= e.size
		delete(s.index, h)
		delete(s.owners, h)
		return nil, unknown()
	}
	s.touch(h, e)
	return a, nil
}

// readable reports whether owner may read the artifact h.
func (s *Store) readable(h string, owner Owner, strict bool) bool {
	list, made := s.owners[h]
	if !made {
		return !strict
	}
	for _, o := range list {
		if o == owner {
			return true
		}
	}
	return false
}

func unknown() error {
	return errcode.New(errcode.UnknownArtifact, pkg, "", "no artifact is stored under that reference (never stored, or removed to keep the store within its bound)")
}

func parseArtifact(data []byte) (*Artifact, error) {
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("no header")
	}
	f := strings.Fields(string(line))
	if len(f) != 4 || f[0] != artifactMagic {
		return nil, fmt.Errorf("bad header")
	}
	n := make([]int, 3)
	for i := range n {
		v, err := strconv.Atoi(f[i+1])
		if err != nil || v < 0 {
			return nil, fmt.Errorf("bad header")
		}
		n[i] = v
	}
	if n[0]+n[1] != len(rest) {
		return nil, fmt.Errorf("length mismatch")
	}
	return &Artifact{Observation: rest[:n[0]], Projection: rest[n[0]:], Budget: n[2]}, nil
}

func isDigestHex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func storeError(what string, err error) error {
	return errcode.Wrap(errcode.CaptureFailed, pkg, "", "artifact store: "+what, err)
}

// DefaultStateDir is the store's default folder: $XDG_STATE_HOME/domsnap,
// else ~/.local/state/domsnap.
func DefaultStateDir() (string, error) {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "domsnap"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", storeError("finding the home folder", err)
	}
	return filepath.Join(home, ".local", "state", "domsnap"), nil
}
