// Package htmlfiles finds the saved pages the dev programs read: the files
// under a folder whose extension names a page, in sorted order.
package htmlfiles

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// Find lists the files under dir whose extension is one of exts (compared
// without regard to case, with the dot: ".html"), sorted, each as dir
// joined with its path below it. A folder that cannot be read is an error.
func Find(dir string, exts ...string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		ext := filepath.Ext(path)
		if slices.ContainsFunc(exts, func(e string) bool { return strings.EqualFold(e, ext) }) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}
