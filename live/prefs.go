package live

import (
	"os"
	"path/filepath"

	"github.com/domsnap/domsnap/errcode"
)

// profilePreferences are the preferences every launch starts its profile
// with. network_prediction_options 2 ("never") turns preloading off: a
// page's speculation rules then neither prefetch nor prerender anything. A
// document served from such a speculation reaches the main frame without a
// request the tab's Guard could pause, and the flags for the features
// (Prerender2, SpeculationRulesPrefetchProxy and the like) do not stop it in
// this Chromium; the preference does, in the default profile and in every
// browser context made from it. Guard still checks every commit, so a way
// in that this misses is stopped all the same.
//
// A variable so that a test can launch with preloading on and show Guard
// stopping what it lets in.
var profilePreferences = []byte(`{"net":{"network_prediction_options":2}}`)

// writePreferences puts profilePreferences where Chromium reads the default
// profile's preferences, before it starts.
func writePreferences(profile string) error {
	if profilePreferences == nil {
		return nil
	}
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkg, "", "creating the browser profile", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Preferences"), profilePreferences, 0o600); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkg, "", "writing the browser profile's preferences", err)
	}
	return nil
}
