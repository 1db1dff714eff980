package store

import (
	"container/list"
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

// MinBytes is the smallest bound the store accepts: comfortably more
// than one observation, whose inventory and extraction are bounded by
// package limits to well under 1 MiB.
const MinBytes int64 = 1 << 20

// touchInterval is how often, at most, a use of an artifact is written to
// its file's modification time. The order of use within a run is kept in
// memory, exactly; the files' times only carry it over a restart, where
// an order right to within this interval does as well, and a read that
// wrote to the disk every time would cost a metadata write per read.
const touchInterval = time.Minute

// Store is the durable artifact store: each complete canonical observation,
// with the projection made of it, in one file named by the observation's
// SHA-256 digest, so an artifact can be read back byte for byte after a
// restart.
//
// Writes are atomic: the file is written under a temporary name in the same
// folder, synced, renamed into place and the folder synced, so after a
// crash an artifact is complete or absent. A file whose content does not
// match its name is treated as absent. The folder is the owner's alone
// (0700) and so are the files (0600). Observations hold no form value (the
// tree never has one), so neither does the store.
//
// The total size of the files is bounded. The artifacts are kept in order
// of use (a list, most recent first), built once at open from the files'
// modification times; when a new artifact has been written and the total
// passes the bound, the least recently used ones are taken off the end of
// the list and removed. A write that fails removes nothing.
//
// The lock guards the index only: no file is read, written, synced,
// renamed or removed under it, so a slow disk holds up the one call that
// waits for it and no other. An artifact's file is written or removed by
// one call at a time (busy), so a removal and a new write of the same
// artifact cannot cross.
type Store struct {
	dir string
	max int64

	mu    sync.Mutex
	index map[string]*list.Element // by hex digest; values are *stored
	order *list.List               // most recently used first
	total int64
	// held is the part of total that Hold counts for files kept outside
	// the artifacts.
	held int64
	// busy holds, by hex digest, the artifacts whose file is being written
	// or removed; the channel is closed when that is done.
	busy map[string]chan struct{}
	// evicted counts artifacts removed to stay within the bound; examined
	// counts the artifacts eviction looked at to choose them, which the
	// list keeps to one each.
	evicted, examined uint64
	// touches counts the uses written to a file's modification time.
	touches uint64

	// owners are, by hex digest, the sessions of this process that made
	// each artifact. They are kept in memory only: an artifact stored by an
	// earlier run, or by another process sharing the folder, has none.
	owners map[string][]Owner

	// now is the clock of the files' times; tests set it.
	now func() time.Time
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
	hex  string
	size int64
	// stamped is the modification time last written to the file (or read
	// from it at open).
	stamped time.Time
}

// Open opens (creating it when needed) the store in dir, bounded to
// max bytes. Temporary files a crashed writer left behind are removed.
func Open(dir string, max int64) (*Store, error) {
	if max < MinBytes {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the store bound must be at least "+strconv.FormatInt(MinBytes, 10)+" bytes, got "+strconv.FormatInt(max, 10))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, storeError("creating the artifact folder", err)
	}
	// Opened as a folder and without blocking, so a name that is anything
	// else is refused at once rather than opened (a named pipe would wait
	// for a writer); the mode is set and the list read on what was opened.
	d, err := openDir(dir)
	if err != nil {
		return nil, storeError("opening the artifact folder", err)
	}
	defer d.Close()
	if err := d.Chmod(0o700); err != nil {
		return nil, storeError("restricting the artifact folder to its owner", err)
	}
	ents, err := d.ReadDir(-1)
	if err != nil {
		return nil, storeError("reading the artifact folder", err)
	}
	s := &Store{dir: dir, max: max, index: map[string]*list.Element{}, order: list.New(),
		busy: map[string]chan struct{}{}, owners: map[string][]Owner{}, now: time.Now}
	var files []*stored
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
		files = append(files, &stored{hex: h, size: info.Size(), stamped: info.ModTime()})
	}
	// The files' modification times carry the order of use across restarts;
	// ties are broken by name, so the order is the same on every open. The
	// most recent goes first.
	sort.Slice(files, func(i, j int) bool {
		if !files[i].stamped.Equal(files[j].stamped) {
			return files[i].stamped.After(files[j].stamped)
		}
		return files[i].hex > files[j].hex
	})
	for _, f := range files {
		s.index[f.hex] = s.order.PushBack(f)
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

// Put stores an observation with its projection at budget and returns the
// artifact reference. An artifact already stored is kept as it is (its
// projection was made first and is the one replayed) and counts as used.
func (s *Store) Put(observation, projection []byte, budget int) (string, error) {
	return s.PutFor(NoOwner, observation, projection, budget)
}

// PutFor is Put that records owner among the sessions that made the
// artifact, so GetFor refuses it to every other session.
//
// The file is written with the lock released; only once it is in place is
// it listed, and only then are the least recently used artifacts removed
// to make room, so a write that fails leaves the store as it was. Until
// they are removed the folder holds, beside the bound, the new file.
func (s *Store) PutFor(owner Owner, observation, projection []byte, budget int) (string, error) {
	ref := Ref(observation)
	h := ref[len("sha256:"):]
	size := FileSize(observation, projection, budget)
	if size > s.max {
		return "", errcode.New(errcode.CaptureFailed, pkg, "", "the observation is larger than the whole artifact store")
	}
	var done chan struct{}
	for done == nil {
		s.mu.Lock()
		if el, ok := s.index[h]; ok {
			e, stamp := s.useLocked(el)
			s.own(h, owner)
			s.mu.Unlock()
			s.stamp(e, stamp)
			return ref, nil
		}
		if wait, ok := s.busy[h]; ok {
			// The same artifact is being written (or its old file
			// removed) by another call: the first projection wins, so
			// look again once that is done. It is one file's write.
			s.mu.Unlock()
			<-wait
			continue
		}
		done = make(chan struct{})
		s.busy[h] = done
		s.mu.Unlock()
	}
	stamped, err := s.write(h, observation, projection, budget)
	s.mu.Lock()
	delete(s.busy, h)
	close(done)
	if err != nil {
		s.mu.Unlock()
		return "", err
	}
	s.index[h] = s.order.PushFront(&stored{hex: h, size: size, stamped: stamped})
	s.total += size
	s.own(h, owner)
	victims := s.evictLocked()
	s.mu.Unlock()
	s.remove(victims)
	return ref, nil
}

// Hold counts n bytes kept outside the artifacts (a session's downloads)
// within the store's bound, removing the least recently used artifacts to
// make room. It reports false, and holds nothing, when n does not fit
// beside the bytes held already.
func (s *Store) Hold(n int64) bool {
	s.mu.Lock()
	if n < 0 || s.held+n > s.max {
		s.mu.Unlock()
		return false
	}
	s.held += n
	s.total += n
	victims := s.evictHeldLocked()
	s.mu.Unlock()
	s.remove(victims)
	return true
}

// Unhold gives back bytes Hold counted, once they are gone.
func (s *Store) Unhold(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n = min(n, s.held)
	s.held -= n
	s.total -= n
}

// evictHeldLocked is evictLocked for room made for held bytes: every
// artifact may go, the newest too.
func (s *Store) evictHeldLocked() []string {
	var victims []string
	for s.total > s.max && s.order.Len() > 0 {
		el := s.order.Back()
		s.examined++
		s.dropLocked(el)
		victims = append(victims, el.Value.(*stored).hex)
		s.evicted++
	}
	return victims
}

// evictLocked takes the least recently used artifacts off the index until
// the total is within the bound, and returns them for remove, marked busy.
// Each is the last of the list: one looked at for each one removed. The
// newest artifact is first and never more than the bound, so it stays.
func (s *Store) evictLocked() []string {
	var victims []string
	for s.total > s.max && s.order.Len() > 1 {
		el := s.order.Back()
		s.examined++
		e := el.Value.(*stored)
		s.dropLocked(el)
		victims = append(victims, e.hex)
		s.evicted++
	}
	return victims
}

// dropLocked takes an artifact off the index and marks its file busy, for
// remove to delete.
func (s *Store) dropLocked(el *list.Element) {
	e := el.Value.(*stored)
	s.order.Remove(el)
	delete(s.index, e.hex)
	delete(s.owners, e.hex)
	s.total -= e.size
	s.busy[e.hex] = make(chan struct{})
}

// remove deletes the files of artifacts dropLocked took off the index, and
// then lets other calls write them again.
func (s *Store) remove(hexes []string) {
	for _, h := range hexes {
		_ = os.Remove(filepath.Join(s.dir, h+artifactExt))
		s.mu.Lock()
		close(s.busy[h])
		delete(s.busy, h)
		s.mu.Unlock()
	}
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
	for h, makers := range s.owners {
		kept := makers[:0]
		for _, o := range makers {
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

// useLocked marks an artifact as just used: first in the list. It returns
// the artifact and the time to write to its file, zero when the file's
// time is recent enough (see touchInterval).
func (s *Store) useLocked(el *list.Element) (*stored, time.Time) {
	s.order.MoveToFront(el)
	e := el.Value.(*stored)
	now := s.now()
	if now.Sub(e.stamped) < touchInterval {
		return e, time.Time{}
	}
	e.stamped = now
	s.touches++
	return e, now
}

// stamp writes t, unless zero, to the artifact's file's modification time,
// without the lock. Should the artifact have been removed meanwhile, there
// is no file to stamp, and a new file of the same name is only made a
// little more recent.
func (s *Store) stamp(e *stored, t time.Time) {
	if t.IsZero() {
		return
	}
	_ = os.Chtimes(filepath.Join(s.dir, e.hex+artifactExt), t, t)
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
//
// The file is read with the lock released. An artifact evicted meanwhile
// is read all the same when its file was opened first, and is
// unknown_artifact when it was not.
func (s *Store) GetFor(owner Owner, ref string, strict bool) (*Artifact, error) {
	h, ok := strings.CutPrefix(ref, "sha256:")
	if !ok || !isDigestHex(h) {
		return nil, errcode.New(errcode.UnknownArtifact, pkg, "", "not an artifact reference: "+errcode.Quote(ref))
	}
	s.mu.Lock()
	el, ok := s.index[h]
	if !ok || owner != NoOwner && !s.readable(h, owner, strict) {
		s.mu.Unlock()
		return nil, unknown()
	}
	size := el.Value.(*stored).size
	s.mu.Unlock()

	a, err := readArtifact(filepath.Join(s.dir, h+artifactExt), size)
	if err == nil && Ref(a.Observation) != ref {
		err = fmt.Errorf("the content is not what the name says")
	}
	s.mu.Lock()
	if cur, listed := s.index[h]; !listed || cur != el {
		// Evicted (and perhaps written again) while it was read: what
		// was read is still the artifact, whole, when it was read at all.
		s.mu.Unlock()
		if err != nil {
			return nil, unknown()
		}
		return a, nil
	}
	if err != nil {
		// Gone or damaged behind the store's back: forget it, and remove
		// what is left of its file.
		s.dropLocked(el)
		s.mu.Unlock()
		s.remove([]string{h})
		return nil, unknown()
	}
	e, stamp := s.useLocked(el)
	s.mu.Unlock()
	s.stamp(e, stamp)
	return a, nil
}

// readable reports whether owner may read the artifact h.
func (s *Store) readable(h string, owner Owner, strict bool) bool {
	makers, made := s.owners[h]
	if !made {
		return !strict
	}
	for _, o := range makers {
		if o == owner {
			return true
		}
	}
	return false
}

func unknown() error {
	return errcode.New(errcode.UnknownArtifact, pkg, "", "no artifact is stored under that reference (never stored, or removed to keep the store within its bound)")
}
