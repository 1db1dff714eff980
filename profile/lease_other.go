//go:build !unix

package profile

import (
	"os"

	"github.com/domsnap/domsnap/errcode"
)

// Lease is one holder's exclusive use of a profile. Profiles need flock(2),
// which this system does not have.
type Lease struct{ p *Profile }

// Lease refuses: profiles need flock(2).
func (p *Profile) Lease() (*Lease, error) {
	return nil, errcode.New(errcode.InvalidRequest, pkg, "", "profiles are not supported on this system")
}

// Profile is the leased profile.
func (l *Lease) Profile() *Profile { return l.p }

// File is nil: there is no lock file.
func (l *Lease) File() *os.File { return nil }

// Close does nothing.
func (l *Lease) Close() error { return nil }
