//go:build unix

package profile

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// Lease is one holder's exclusive use of a profile. Close ends it.
type Lease struct {
	p    *Profile
	f    *os.File
	once sync.Once
}

// Lease takes the profile for one holder, without waiting: profile_busy
// when another holds it, in this process or any other. The lock is an
// flock(2) on the lock file in the folder, so it lasts exactly as long as
// a descriptor of the file opened here is open: Close ends it, and so does
// the death of every process holding it. The lock file's modification time
// becomes the profile's last use.
//
// A lease taken, the folder's Chromium singleton files (Singleton*, which a
// browser that did not exit cleanly leaves behind and which would make the
// next browser refuse the profile) are removed: no browser can be using the
// profile without holding its lease.
func (p *Profile) Lease() (*Lease, error) {
	path := filepath.Join(p.Folder, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, ioError("opening the profile's lock file", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's lock file is not a regular file")
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errcode.New(errcode.ProfileBusy, pkg, "", "the profile is in use by another session; wait until it ends")
		}
		return nil, ioError("locking the profile", err)
	}
	now := time.Now()
	_ = os.Chtimes(path, now, now)
	clearSingleton(p.Folder)
	return &Lease{p: p, f: f}, nil
}

// singletonNames are the files Chromium keeps in a profile folder to make it
// single-instance.
var singletonNames = []string{"SingletonLock", "SingletonSocket", "SingletonCookie"}

// clearSingleton removes the singleton links of folder. Each is a symbolic
// link (the lock names a host and process, the socket and cookie point into
// a temporary folder, which the browser's owner removes); only links are
// removed, never what they point to.
func clearSingleton(folder string) {
	for _, n := range singletonNames {
		path := filepath.Join(folder, n)
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			_ = os.Remove(path)
		}
	}
}

// Profile is the leased profile.
func (l *Lease) Profile() *Profile { return l.p }

// File is the locked file, for a child process to inherit: the lease then
// lasts until this holder and the child have both closed it.
func (l *Lease) File() *os.File { return l.f }

// Close ends the lease: the singleton links a browser may have left are
// removed, the folder's files are made the owner's alone again, and the
// lock is released. It is safe to call more than once.
func (l *Lease) Close() error {
	l.once.Do(func() {
		clearSingleton(l.p.Folder)
		Restrict(l.p.Folder)
		l.f.Close()
	})
	return nil
}
