package live

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestPreferencesOfAPersistentProfile: a persistent profile keeps the
// preferences it has, with preloading turned off over them; a file that is
// not JSON is replaced; a throw-away profile gets ours alone.
func TestPreferencesOfAPersistentProfile(t *testing.T) {
	dir := t.TempDir()
	prefs := filepath.Join(dir, "Default", "Preferences")
	os.MkdirAll(filepath.Dir(prefs), 0o700)
	os.WriteFile(prefs, []byte(`{"profile":{"name":"Person"},"net":{"network_prediction_options":1,"other":true}}`), 0o600)
	if err := writePreferences(dir, true); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Profile struct{ Name string } `json:"profile"`
		Net     struct {
			Prediction int  `json:"network_prediction_options"`
			Other      bool `json:"other"`
		} `json:"net"`
	}
	data, _ := os.ReadFile(prefs)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Profile.Name != "Person" || !got.Net.Other || got.Net.Prediction != 2 {
		t.Errorf("merged: %s", data)
	}
	if fi, _ := os.Stat(prefs); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o", fi.Mode().Perm())
	}
	os.WriteFile(prefs, []byte(`not json`), 0o600)
	if err := writePreferences(dir, true); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(prefs); string(data) != string(profilePreferences) {
		t.Errorf("a broken file became %s", data)
	}
	os.WriteFile(prefs, []byte(`{"profile":{"name":"Person"}}`), 0o600)
	if err := writePreferences(dir, false); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(prefs); string(data) != string(profilePreferences) {
		t.Errorf("a throw-away profile got %s", data)
	}
	ents, _ := os.ReadDir(filepath.Dir(prefs))
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}
