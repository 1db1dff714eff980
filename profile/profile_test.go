package profile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

func TestCheckName(t *testing.T) {
	good := []string{"a", "intranet", "my.site_2-x", "0", strings.Repeat("z", MaxNameBytes)}
	for _, n := range good {
		if err := CheckName(n); err != nil {
			t.Errorf("%q refused: %v", n, err)
		}
	}
	bad := []string{"", ".hidden", ".", "..", "A", "a/b", "a b", "é", "a\x00", strings.Repeat("z", MaxNameBytes+1), "../x"}
	for _, n := range bad {
		if err := CheckName(n); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("%q: got %v, want invalid_request", n, err)
		}
	}
}

func TestParseOrigin(t *testing.T) {
	cases := map[string]string{
		"https://Shop.Example":     "https://shop.example",
		"https://shop.example:443": "https://shop.example",
		"http://127.0.0.1:8080/":   "http://127.0.0.1:8080",
		"http://[::1]:80":          "http://[::1]",
	}
	for in, want := range cases {
		if got, err := ParseOrigin(in); err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"ftp://x", "https://x/path", "https://x?q", "https://u:p@x", "x", "https://", "file:///etc"} {
		if _, err := ParseOrigin(in); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("%q accepted: %v", in, err)
		}
	}
	if o, err := URLOrigin("https://Intranet.example/a/b?c#d"); err != nil || o != "https://intranet.example" {
		t.Errorf("URLOrigin: %q %v", o, err)
	}
	const secret = "hunter2secret"
	_, err := URLOrigin("https://bob:" + secret + "@x.example/")
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("URLOrigin with a password: %v", err)
	}
}

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestCreateGetListRemove(t *testing.T) {
	s := newStore(t)
	if _, err := os.Lstat(s.Dir()); !os.IsNotExist(err) {
		t.Errorf("Open made the profiles folder: %v", err)
	}
	if l, err := s.List(); err != nil || len(l) != 0 {
		t.Errorf("List without a folder: %v %v", l, err)
	}
	if _, err := s.Get("intranet"); errcode.CodeOf(err) != errcode.UnknownProfile {
		t.Errorf("Get without a folder: %v", err)
	}
	p, err := s.Create("intranet", []string{"https://b.example", "https://A.example:443", "https://b.example/"})
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(t, s.Dir()); m != 0o700 {
		t.Errorf("profiles folder mode %04o", m)
	}
	want := []string{"https://a.example", "https://b.example"}
	if strings.Join(p.Origins, " ") != strings.Join(want, " ") {
		t.Errorf("origins %v, want %v", p.Origins, want)
	}
	if m := mode(t, p.Folder); m != 0o700 {
		t.Errorf("profile folder mode %04o", m)
	}
	if m := mode(t, filepath.Join(s.Dir(), "intranet.json")); m != 0o600 {
		t.Errorf("binding mode %04o", m)
	}
	got, err := s.Get("intranet")
	if err != nil || strings.Join(got.Origins, " ") != strings.Join(want, " ") || got.Folder != p.Folder {
		t.Fatalf("Get: %+v %v", got, err)
	}
	if _, err := s.Get("other"); errcode.CodeOf(err) != errcode.UnknownProfile {
		t.Errorf("Get of a missing profile: %v", err)
	}
	// A second login rebinds.
	if _, err := s.Create("intranet", []string{"https://c.example"}); err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Name != "intranet" || strings.Join(list[0].Origins, " ") != "https://c.example" || !list[0].LastUse.IsZero() {
		t.Fatalf("List: %+v %v", list, err)
	}
	l, err := got.Lease()
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	list, _ = s.List()
	if len(list) != 1 || list[0].LastUse.IsZero() {
		t.Errorf("no last use after a lease: %+v", list)
	}
	if err := s.Remove("intranet"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(p.Folder); !os.IsNotExist(err) {
		t.Errorf("folder left: %v", err)
	}
	if err := s.Remove("intranet"); errcode.CodeOf(err) != errcode.UnknownProfile {
		t.Errorf("second remove: %v", err)
	}
	ents, _ := os.ReadDir(s.Dir())
	if len(ents) != 0 {
		t.Errorf("left in the profiles folder: %v", ents)
	}
}

func TestCreateRefuses(t *testing.T) {
	s := newStore(t)
	if _, err := s.Create("x", nil); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("no origins: %v", err)
	}
	if _, err := s.Create(".x", []string{"https://a.example"}); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("bad name: %v", err)
	}
	if _, err := s.Create("x", []string{"javascript:alert(1)"}); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("bad origin: %v", err)
	}
	if _, err := os.Lstat(s.Dir()); !os.IsNotExist(err) {
		t.Errorf("a refused create made the profiles folder: %v", err)
	}
}

func TestBindingChecked(t *testing.T) {
	s := newStore(t)
	if _, err := s.Create("p", []string{"https://a.example"}); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(s.Dir(), "p.json")
	os.Chmod(b, 0o644)
	if _, err := s.Get("p"); errcode.CodeOf(err) != errcode.InvalidRequest || !strings.Contains(err.Error(), "group or others") {
		t.Errorf("a binding open to others: %v", err)
	}
	for _, body := range []string{`{"origins":["https://A.example"]}`, `{"origins":[]}`, `{"origins":["https://a.example"],"x":1}`, `[`, `{"origins":["file:///"]}`} {
		os.WriteFile(b, []byte(body), 0o600)
		os.Chmod(b, 0o600)
		if _, err := s.Get("p"); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("binding %s: %v", body, err)
		}
	}
	// A folder without a binding is not a profile.
	os.Remove(b)
	if _, err := s.Get("p"); errcode.CodeOf(err) != errcode.UnknownProfile {
		t.Errorf("no binding: %v", err)
	}
	if l, _ := s.List(); len(l) != 0 {
		t.Errorf("listed without a binding: %v", l)
	}
	// A binding that is a link is refused, never followed.
	os.WriteFile(filepath.Join(s.Dir(), "elsewhere"), []byte(`{"origins":["https://a.example"]}`), 0o600)
	os.Symlink(filepath.Join(s.Dir(), "elsewhere"), b)
	if _, err := s.Get("p"); err == nil {
		t.Error("a linked binding was followed")
	}
}

func TestRestrict(t *testing.T) {
	s := newStore(t)
	p, err := s.Create("p", []string{"https://a.example"})
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(p.Folder, "Default")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "Cookies"), nil, 0o644)
	os.Symlink("/nonexistent", filepath.Join(p.Folder, "SingletonLock"))
	l, err := p.Lease()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(p.Folder, "SingletonLock")); !os.IsNotExist(err) {
		t.Error("a stale singleton link survived the lease")
	}
	l.Close()
	if m := mode(t, sub); m != 0o700 {
		t.Errorf("sub folder %04o", m)
	}
	if m := mode(t, filepath.Join(sub, "Cookies")); m != 0o600 {
		t.Errorf("file %04o", m)
	}
}

func TestLeaseTwoHolders(t *testing.T) {
	s := newStore(t)
	p, err := s.Create("p", []string{"https://a.example"})
	if err != nil {
		t.Fatal(err)
	}
	l1, err := p.Lease()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Lease(); errcode.CodeOf(err) != errcode.ProfileBusy {
		t.Fatalf("second holder: %v", err)
	}
	if err := s.Remove("p"); errcode.CodeOf(err) != errcode.ProfileBusy {
		t.Fatalf("remove while leased: %v", err)
	}
	l1.Close()
	l1.Close()
	l2, err := p.Lease()
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Close()
}

// TestHelperHolder, run as a child process by TestLeaseKilledHolder, holds
// the lease of the profile its environment names until it is killed.
func TestHelperHolder(t *testing.T) {
	dir := os.Getenv("DOMSNAP_PROFILE_HOLDER")
	if dir == "" {
		return
	}
	s, err := Open(dir)
	if err != nil {
		os.Exit(3)
	}
	p, err := s.Get("p")
	if err != nil {
		os.Exit(3)
	}
	if _, err := p.Lease(); err != nil {
		os.Exit(4)
	}
	os.Stdout.WriteString("held\n")
	time.Sleep(time.Minute)
	os.Exit(5)
}

func TestLeaseKilledHolder(t *testing.T) {
	state := t.TempDir()
	s, err := Open(state)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Create("p", []string{"https://a.example"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHolder$")
	cmd.Env = append(os.Environ(), "DOMSNAP_PROFILE_HOLDER="+state)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	buf := make([]byte, 5)
	if n, err := out.Read(buf); err != nil || string(buf[:n]) != "held\n" {
		t.Fatalf("the holder did not take the lease: %q %v", buf[:n], err)
	}
	if _, err := p.Lease(); errcode.CodeOf(err) != errcode.ProfileBusy {
		t.Fatalf("while another process holds it: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := p.Lease()
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Close()
}
