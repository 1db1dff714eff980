package live

import (
	"context"
	"os"
	"path/filepath"

	"github.com/domsnap/domsnap/errcode"
)

// LaunchProfile is Launch on a persistent profile folder (package profile)
// instead of a throw-away one: the browser keeps the person's sign-in
// there, and Close leaves the folder in place, removing only the singleton
// files a browser leaves behind. lock, when not nil, is the profile's lease
// file, handed to the browser as an open descriptor so the lease lasts as
// long as the browser does, even past its launcher's death. The browser
// pages of its default context (Browser.NewPage) hold the profile's cookies
// and storage; a BrowserContext would not.
func LaunchProfile(ctx context.Context, opts Options, folder string, lock *os.File) (*Browser, error) {
	if folder == "" || !filepath.IsAbs(folder) {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile folder must be an absolute path")
	}
	fi, err := os.Lstat(folder)
	if err != nil || !fi.IsDir() {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile folder is not a folder")
	}
	opts.persist, opts.lock = folder, lock
	return Launch(ctx, opts)
}
