package live

import (
	"context"
	"errors"
	"testing"

	"github.com/domsnap/domsnap/errcode"
)

// TestCaptureFailsAsTheTabLeaves: a capture that fails is answered by what
// the tab did meanwhile: navigated_during_capture when the navigation count
// moved, navigation_refused when the driver refused the document that came,
// and capture_failed when nothing happened.
func TestCaptureFailsAsTheTabLeaves(t *testing.T) {
	gone := errors.New("the document's world went away")
	for _, c := range []struct {
		name string
		// after is run by the Navigations call that follows the failed
		// capture (the second call).
		after func(f *fakeTab) error
		want  errcode.Code
	}{
		{"navigated", func(f *fakeTab) error { f.nav++; return nil }, errcode.NavigatedDuringCapture},
		{"refused", func(f *fakeTab) error {
			f.nav++
			return errcode.New(errcode.NavigationRefused, pkg, "", "refused")
		}, errcode.NavigationRefused},
		{"nothing", func(f *fakeTab) error { return nil }, errcode.CaptureFailed},
	} {
		s, f := newFakeSession(t)
		f.captureHook = func() error { return gone }
		f.navHook = func(call int) error {
			if call == 2 {
				return c.after(f)
			}
			return nil
		}
		_, err := s.Capture(context.Background())
		if errcode.CodeOf(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		if f.navCalls != 2 {
			t.Errorf("%s: %d Navigations calls, want 2", c.name, f.navCalls)
		}
	}
}
