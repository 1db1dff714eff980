package mcp

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// rootDir is a folder the server reads below: snapshot_observe's --root,
// and browser_act's --upload-root. A path is
// refused when it is absolute, has a ".." component, or passes through a
// symbolic link; the reads go through os.Root, which cannot leave the
// folder even if it changes meanwhile.
type rootDir struct {
	root *os.Root
	// checked, when set, runs after the path's checks and before the
	// open: tests change the file there, as a local user racing the
	// server could.
	checked func(rel string)
}

func openRootDir(dir string) (*rootDir, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, errcode.Wrap(errcode.InvalidRequest, pkg, "", "the --root folder cannot be opened", err)
	}
	return &rootDir{root: r}, nil
}

// maxInputBytes bounds a file read below the root, as the saved-snapshot
// reader bounds what it decompresses.
const maxInputBytes = snapshot.MaxDecompressedBytes

// read returns the bytes of the file rel names below the root (open),
// read within maxInputBytes and ctx.
func (r *rootDir) read(ctx context.Context, rel string) ([]byte, error) {
	f, fi, err := r.open(rel, maxInputBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(ctx, f, fi.Size())
}

// open opens the regular file rel names below the root, of at most max
// bytes. The checks of the path come first; then the file is opened
// without blocking and the opened descriptor is checked again, since the
// path may have been swapped meanwhile (for a named pipe, whose open and
// read would otherwise wait for a writer for ever). No error quotes the
// path.
func (r *rootDir) open(rel string, max int64) (*os.File, fs.FileInfo, error) {
	refuse := func(why string) error {
		return errcode.New(errcode.PathRefused, pkg, "", "the path "+why)
	}
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || strings.ContainsRune(rel, 0) {
		return nil, nil, refuse("must be relative to the root, with / between its parts")
	}
	parts := strings.Split(rel, "/")
	cur := ""
	for i, part := range parts {
		if part == ".." {
			return nil, nil, refuse("must not go up with ..")
		}
		if part == "" || part == "." {
			continue
		}
		if cur != "" {
			cur += "/"
		}
		cur += part
		fi, err := r.root.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, errcode.New(errcode.UnsupportedInput, pkg, "", "no file at that path below the root")
		}
		if err != nil {
			return nil, nil, refuse("cannot be read below the root")
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, refuse("passes through a symbolic link")
		}
		if i == len(parts)-1 && !fi.Mode().IsRegular() {
			return nil, nil, notRegular()
		}
	}
	if cur == "" {
		return nil, nil, refuse("names the root itself")
	}
	if r.checked != nil {
		r.checked(cur)
	}
	f, err := r.root.OpenFile(cur, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, refuse("cannot be read below the root")
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular()
	}
	if fi.Size() > max {
		f.Close()
		return nil, nil, tooLarge(max)
	}
	return f, fi, nil
}

func notRegular() error {
	return errcode.New(errcode.UnsupportedInput, pkg, "", "the path is not a regular file")
}

func tooLargeFile() error { return tooLarge(maxInputBytes) }

func tooLarge(max int64) error {
	return errcode.TooLarge(pkg, "the file is larger than "+strconv.FormatInt(max, 10)+" bytes")
}

// readChunk is how much of a file is read between two looks at the call's
// context: each read of a regular file returns as soon as the disk
// answers, so a call cancelled mid-file stops within one chunk.
const readChunk = 1 << 20

// readBounded reads the regular file f, of size bytes when it was
// checked, in chunks, stopping when ctx ends. The file may have grown
// since: at most maxInputBytes+1 bytes are read, and more is too large.
func readBounded(ctx context.Context, f *os.File, size int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, maxInputBytes)+1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, errcode.Wrap(errcode.Cancelled, pkg, "", "context done while reading the file", err)
		}
		if len(buf) > maxInputBytes {
			return nil, tooLargeFile()
		}
		if len(buf) == cap(buf) {
			// The file grew since it was checked: room for twice as much,
			// and never more than one byte past the bound.
			buf = slices.Grow(buf, min(2*cap(buf), maxInputBytes+1)-len(buf))
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), len(buf)+readChunk)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errcode.New(errcode.UnsupportedInput, pkg, "", "the file cannot be read")
		}
	}
	return buf, nil
}
