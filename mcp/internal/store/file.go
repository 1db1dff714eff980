package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// artifactMagic starts every artifact file, with the lengths of its two
// parts and the projection's budget.
const artifactMagic = "domsnap-artifact/1"

// artifactExt names the artifact files; tempPrefix the files being written.
const (
	artifactExt = ".artifact"
	tempPrefix  = ".tmp-"
)

// Artifact is one stored artifact.
type Artifact struct {
	Observation []byte
	Projection  []byte
	Budget      int
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

// write puts the file in place atomically and returns its modification
// time. It runs without the lock, the artifact marked busy.
func (s *Store) write(h string, observation, projection []byte, budget int) (_ time.Time, err error) {
	f, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if err != nil {
		return time.Time{}, storeError("creating an artifact file", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return time.Time{}, storeError("restricting an artifact file to its owner", err)
	}
	var buf bytes.Buffer
	buf.WriteString(header(len(observation), len(projection), budget))
	buf.Write(observation)
	buf.Write(projection)
	if _, err := f.Write(buf.Bytes()); err != nil {
		return time.Time{}, storeError("writing an artifact file", err)
	}
	if err := f.Sync(); err != nil {
		return time.Time{}, storeError("syncing an artifact file", err)
	}
	info, err := f.Stat()
	if err != nil {
		return time.Time{}, storeError("reading an artifact file's time", err)
	}
	if err := f.Close(); err != nil {
		return time.Time{}, storeError("closing an artifact file", err)
	}
	if s.beforeRename != nil {
		s.beforeRename(tmp)
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, h+artifactExt)); err != nil {
		return time.Time{}, storeError("renaming an artifact file into place", err)
	}
	return info.ModTime(), syncDir(s.dir)
}

func syncDir(dir string) error {
	d, err := openDir(dir)
	if err != nil {
		return storeError("opening the artifact folder", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return storeError("syncing the artifact folder", err)
	}
	return nil
}

// openDir opens the folder dir, refusing at once anything that is not
// one.
func openDir(dir string) (*os.File, error) {
	return os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
}

// readArtifact reads and parses an artifact file of size bytes. It is
// opened without blocking and must be a regular file of that size, so
// that a file replaced by a named pipe or a device cannot hang the read.
func readArtifact(path string, size int64) (*Artifact, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() != size {
		return nil, fmt.Errorf("not the file that was stored")
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return parseArtifact(data)
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
