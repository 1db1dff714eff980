package live

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveSingletonDir: the folder a profile's SingletonSocket link points
// into goes when it holds only Chromium's singleton files, and stays in
// every other case: anything else in it, a link to another name, a relative
// link, no link.
func TestRemoveSingletonDir(t *testing.T) {
	tmp := t.TempDir()
	setup := func(name string, files []string, link string) (profile, dir string) {
		t.Helper()
		profile = filepath.Join(tmp, name+"-profile")
		dir = filepath.Join(tmp, name+"-org.chromium.Chromium.x")
		for _, d := range []string{profile, dir} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if link != "" {
			if link == "abs" {
				link = filepath.Join(dir, "SingletonSocket")
			}
			if err := os.Symlink(link, filepath.Join(profile, "SingletonSocket")); err != nil {
				t.Fatal(err)
			}
		}
		return profile, dir
	}
	for _, c := range []struct {
		name   string
		files  []string
		link   string
		remove bool
	}{
		{"chromium", []string{"SingletonSocket", "SingletonCookie"}, "abs", true},
		{"socket-only", []string{"SingletonSocket"}, "abs", true},
		{"empty", nil, "abs", true},
		{"other-file", []string{"SingletonSocket", "notes.txt"}, "abs", false},
		{"no-link", []string{"SingletonSocket"}, "", false},
		{"relative-link", []string{"SingletonSocket"}, "x/SingletonSocket", false},
		{"other-name", []string{"SingletonSocket"}, filepath.Join(tmp, "other-name-org.chromium.Chromium.x", "Socket"), false},
	} {
		profile, dir := setup(c.name, c.files, c.link)
		got := removeSingletonDir(profile)
		_, err := os.Stat(dir)
		gone := os.IsNotExist(err)
		if got != c.remove || gone != c.remove {
			t.Errorf("%s: removed %v, folder gone %v; want %v", c.name, got, gone, c.remove)
		}
		if _, err := os.Stat(profile); err != nil {
			t.Errorf("%s: the profile itself was touched: %v", c.name, err)
		}
	}
}
