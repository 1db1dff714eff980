package live

import (
	"os"
	"path/filepath"
)

// Chromium on Linux keeps the socket that makes a profile single-instance
// outside the profile, in a folder it makes in the temporary directory
// (org.chromium.Chromium.XXXXXX/SingletonSocket, reached through a symlink
// of the same name in the profile), because a profile's path may be too
// long for a socket's. A browser that exits normally removes that folder;
// one that is killed or crashes cannot, and every such death would leave
// one behind. removeSingletonDir removes it for the browser.

// singletonFiles are the only names Chromium puts in that folder. A folder
// holding anything else is not removed, whatever the link says.
var singletonFiles = map[string]bool{"SingletonSocket": true, "SingletonCookie": true, "SingletonLock": true}

// removeSingletonDir removes the folder that profile's SingletonSocket link
// points into, when the link exists, ends in a SingletonSocket, and the
// folder holds nothing but Chromium's singleton files. It reports whether
// it removed one. Call it before the profile itself is removed.
func removeSingletonDir(profile string) bool {
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil || !filepath.IsAbs(target) || filepath.Base(target) != "SingletonSocket" {
		return false
	}
	dir := filepath.Dir(target)
	if dir == profile || dir == filepath.Dir(dir) {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !singletonFiles[e.Name()] {
			return false
		}
	}
	return os.RemoveAll(dir) == nil
}
