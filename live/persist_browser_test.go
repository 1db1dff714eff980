//go:build browser

package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/profile"
)

// TestLaunchProfileKeepsFolderAndLease: a browser on a persistent profile
// holds the profile's lease through the descriptor it was handed, so the
// lease outlasts its launcher's own descriptor; Close leaves the folder
// with no singleton file in it once the lease ends, and frees the lease.
func TestLaunchProfileKeepsFolderAndLease(t *testing.T) {
	store, err := profile.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := store.Create("p", []string{"http://127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	lease, err := p.Lease()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := LaunchProfile(ctx, Options{}, p.Folder, lease.File())
	if err != nil {
		lease.Close()
		t.Fatal(err)
	}
	defer b.Close()
	if b.Profile() != p.Folder {
		t.Errorf("profile %s", b.Profile())
	}
	// The launcher lets go of its descriptor: the browser's keeps the lease.
	lease.Close()
	if _, err := p.Lease(); errcode.CodeOf(err) != errcode.ProfileBusy {
		t.Fatalf("with the browser running: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	l2, err := p.Lease()
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	l2.Close()
	if _, err := os.Stat(filepath.Join(p.Folder, "Default")); err != nil {
		t.Errorf("the profile's content went: %v", err)
	}
	ents, _ := os.ReadDir(p.Folder)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "Singleton") {
			t.Errorf("left: %s", e.Name())
		}
	}
	if _, err := LaunchProfile(ctx, Options{}, "relative/folder", nil); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("a relative folder: %v", err)
	}
}
