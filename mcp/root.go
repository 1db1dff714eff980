package mcp

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// rootDir is the folder snapshot_observe may read below. A path is
// refused when it is absolute, has a ".." component, or passes through a
// symbolic link; the reads go through os.Root, which cannot leave the
// folder even if it changes meanwhile.
type rootDir struct {
	root *os.Root
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

// read returns the bytes of the file rel names below the root.
func (r *rootDir) read(rel string) ([]byte, error) {
	refuse := func(why string) error {
		return errcode.New(errcode.PathRefused, pkg, "", "the path "+why)
	}
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || strings.ContainsRune(rel, 0) {
		return nil, refuse("must be relative to the root, with / between its parts")
	}
	parts := strings.Split(rel, "/")
	cur := ""
	for i, part := range parts {
		if part == ".." {
			return nil, refuse("must not go up with ..")
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
			return nil, errcode.New(errcode.UnsupportedInput, pkg, "", "no file at that path below the root")
		}
		if err != nil {
			return nil, refuse("cannot be read below the root")
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, refuse("passes through a symbolic link")
		}
		if i == len(parts)-1 && !fi.Mode().IsRegular() {
			return nil, errcode.New(errcode.UnsupportedInput, pkg, "", "the path is not a regular file")
		}
	}
	if cur == "" {
		return nil, refuse("names the root itself")
	}
	f, err := r.root.Open(cur)
	if err != nil {
		return nil, refuse("cannot be read below the root")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInputBytes+1))
	if err != nil {
		return nil, errcode.New(errcode.UnsupportedInput, pkg, "", "the file cannot be read")
	}
	if len(data) > maxInputBytes {
		return nil, errcode.TooLarge(pkg, "the file is larger than "+strconv.Itoa(maxInputBytes)+" bytes")
	}
	return data, nil
}
