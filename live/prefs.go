package live

import (
	"encoding/json"
	"errors"
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
// profile's preferences, before it starts. A persistent profile (keep) has
// preferences of its own, which the person's browsing made: those are kept,
// with profilePreferences' members set over them.
func writePreferences(profile string, keep bool) error {
	if profilePreferences == nil {
		return nil
	}
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkg, "", "creating the browser profile", err)
	}
	path := filepath.Join(dir, "Preferences")
	data := profilePreferences
	if keep {
		data = mergedPreferences(path)
	}
	if err := writeFileAtomic(path, data); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkg, "", "writing the browser profile's preferences", err)
	}
	return nil
}

// maxPreferencesBytes bounds the preferences file a persistent profile
// carries; one larger is replaced, as one that does not parse is.
const maxPreferencesBytes = 8 << 20

// mergedPreferences is the preferences file at path with every member of
// profilePreferences set over it, objects merged member by member; when
// the file is missing, too large or not a JSON object, profilePreferences
// alone.
func mergedPreferences(path string) []byte {
	old, err := os.ReadFile(path)
	if err != nil || len(old) > maxPreferencesBytes {
		return profilePreferences
	}
	var have, want map[string]any
	if json.Unmarshal(old, &have) != nil || have == nil || json.Unmarshal(profilePreferences, &want) != nil {
		return profilePreferences
	}
	mergeJSON(have, want)
	out, err := json.Marshal(have)
	if err != nil {
		return profilePreferences
	}
	return out
}

// mergeJSON sets every member of src over dst, merging objects found in
// both. The preferences are a few levels deep: the recursion follows src,
// which is ours.
func mergeJSON(dst, src map[string]any) {
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				mergeJSON(dv, sv)
				continue
			}
		}
		dst[k] = v
	}
}

// writeFileAtomic writes data to path (0600) through a temporary file and a
// rename, so a persistent profile never holds half a preferences file.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".domsnap-prefs-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(f.Name())
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
