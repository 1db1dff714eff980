package profile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Restrict makes everything below folder the owner's alone: folders 0700,
// regular files 0600, links left as they are (a link has no mode of its own
// and is never followed). Chromium creates some of its files readable by
// others; the profile holds the person's sign-in, so none may stay so. It
// is best effort: a file that cannot be changed is left.
func Restrict(folder string) {
	_ = filepath.WalkDir(folder, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
		case d.IsDir():
			if fi, err := d.Info(); err == nil && fi.Mode().Perm() != 0o700 {
				_ = os.Chmod(path, 0o700)
			}
		case d.Type().IsRegular():
			if fi, err := d.Info(); err == nil && fi.Mode().Perm() != 0o600 {
				_ = os.Chmod(path, 0o600)
			}
		}
		return nil
	})
}
