//go:build browser

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
	"github.com/domsnap/domsnap/mcp"
)

// The canaries the sign-in site puts in its cookies. Neither may appear in
// anything domsnap prints, logs or stores outside the profile folder.
const (
	canaryPersistent = "persistentcanary7d1c"
	canaryHTTPOnly   = "httponlycanary52ab"
	canaryPassword   = "passwordcanary9e3f"
)

// signInSite is a loopback site with a form that signs in: posting it sets
// a persistent cookie and an HttpOnly one, and the account page shows a
// table only to a request carrying both. It counts the account requests
// that did.
type signInSite struct {
	*httptest.Server
	mu       sync.Mutex
	asked    int // sign-in pages answered
	signedIn int // POSTs of the form with the right password
	wrong    int // POSTs with anything else
	served   int // account pages answered with both cookies
}

func newSignInSite(t *testing.T) *signInSite {
	s := &signInSite{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked++
		s.mu.Unlock()
		fmt.Fprint(w, `<!doctype html><title>domsnaplogin</title>
<style>input{position:fixed;left:0;width:100%;height:50%;margin:0;border:0}</style>
<form method=post action=/login><input name=user style=top:0><input type=password name=pass autocomplete=current-password style=top:50%><button style="position:fixed;top:0;right:0;width:1px;height:1px;padding:0;border:0">Sign in</button></form>`)
	})
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("user") != "alice" || r.FormValue("pass") != canaryPassword {
			s.mu.Lock()
			s.wrong++
			s.mu.Unlock()
			http.Error(w, "wrong", http.StatusForbidden)
			return
		}
		s.mu.Lock()
		s.signedIn++
		s.mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "keep", Value: canaryPersistent, Path: "/", MaxAge: 3600})
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: canaryHTTPOnly, Path: "/", MaxAge: 3600, HttpOnly: true})
		fmt.Fprint(w, `<!doctype html><title>domsnapsignedin</title><p>Welcome`)
	})
	mux.HandleFunc("GET /account", func(w http.ResponseWriter, r *http.Request) {
		k, err1 := r.Cookie("keep")
		sid, err2 := r.Cookie("sid")
		if err1 != nil || err2 != nil || k.Value != canaryPersistent || sid.Value != canaryHTTPOnly {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `<!doctype html><title>out</title><p>Please sign in`)
			return
		}
		s.mu.Lock()
		s.served++
		s.mu.Unlock()
		fmt.Fprint(w, `<!doctype html><title>account</title><table><tr><th>Invoice<th>Amount</tr><tr><td>A-1<td>10</tr><tr><td>A-2<td>20</tr></table>`)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *signInSite) counts() (signedIn, served int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signedIn, s.served
}

// startXvfb starts a virtual display on a free number and returns it
// (":N"). The server is stopped, and its socket and lock file checked gone,
// when the test ends.
func startXvfb(t *testing.T) string {
	t.Helper()
	var n int
	for tries := 0; ; tries++ {
		n = 90 + rand.IntN(400)
		_, e1 := os.Stat("/tmp/.X11-unix/X" + strconv.Itoa(n))
		_, e2 := os.Stat("/tmp/.X" + strconv.Itoa(n) + "-lock")
		if os.IsNotExist(e1) && os.IsNotExist(e2) {
			break
		}
		if tries > 50 {
			t.Fatal("no free display number")
		}
	}
	disp := ":" + strconv.Itoa(n)
	cmd := exec.Command("Xvfb", disp, "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		for _, f := range []string{"/tmp/.X11-unix/X" + strconv.Itoa(n), "/tmp/.X" + strconv.Itoa(n) + "-lock"} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("Xvfb left %s", f)
			}
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat("/tmp/.X11-unix/X" + strconv.Itoa(n)); err == nil {
			return disp
		}
		select {
		case <-exited:
			t.Fatal("Xvfb exited at start")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("Xvfb did not open its socket within 20s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// xdo runs xdotool on disp within limit and returns its output and
// whether it succeeded.
func xdo(disp string, limit time.Duration, args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+disp)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err == nil
}

// waitWindow polls disp for a visible window whose name matches name, for
// at most limit, and returns the first one's id, or "" and why not. It
// does not use xdotool's own --sync wait: that wait was seen to give up
// within seconds, long before its limit, while Chromium was still opening
// its window (the site had not yet been asked for the page), both in a
// loaded run and once on a quiet machine; a failed search here is only one
// poll, and the next one follows.
func waitWindow(disp, name string, limit time.Duration) (string, string) {
	deadline := time.Now().Add(limit)
	for tries := 1; ; tries++ {
		// xdotool exits 1 both when nothing matches and on an X error.
		if out, ok := xdo(disp, 10*time.Second, "search", "--onlyvisible", "--name", name); ok && out != "" {
			return strings.Fields(out)[0], ""
		}
		if time.Now().After(deadline) {
			return "", fmt.Sprintf("%d searches found none", tries)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// signIn plays the person: it waits for the sign-in page's window, clicks
// into the name field (the page makes each field half the window, so a
// click cannot miss), types the name, clicks into the password field,
// types the password and presses Enter; it tries again, the fields cleared
// first, until the signed-in page shows (for at most four minutes), then closes the window with the
// keyboard, as a person would, so Chromium writes its cookies out as it
// exits.
func signIn(t *testing.T, disp string, site *signInSite) {
	// A visible browser starting on a loaded machine takes its time: the
	// wait is for the window, not a measure of how soon it comes.
	began := time.Now()
	win, why := waitWindow(disp, "domsnaplogin", 3*time.Minute)
	if win == "" {
		site.mu.Lock()
		asked := site.asked
		site.mu.Unlock()
		t.Errorf("the sign-in window did not show within %s (%s); the sign-in page was asked for %d times; the display's windows: %s", time.Since(began).Round(time.Second), why, asked, describeWindows(disp))
		return
	}
	geo, _ := xdo(disp, 10*time.Second, "getwindowgeometry", "--shell", win)
	w, h := 800, 600
	for _, line := range strings.Fields(geo) {
		if v, ok := strings.CutPrefix(line, "WIDTH="); ok {
			w, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(line, "HEIGHT="); ok {
			h, _ = strconv.Atoi(v)
		}
	}
	field := func(frac float64) {
		xdo(disp, 10*time.Second, "mousemove", "--window", win, strconv.Itoa(w/2), strconv.Itoa(int(float64(h)*frac)))
		xdo(disp, 10*time.Second, "click", "1")
		xdo(disp, 10*time.Second, "key", "ctrl+a")
	}
	signed := false
	// Keys typed into a window on a loaded machine can be lost; the person
	// tries again until the login command's own deadline is near. A try
	// whose keys were garbled posts wrong values and leaves the window on
	// the site's refusal, which has no form: the person first goes back
	// to the sign-in page by its address, as one would.
	for until, tries := time.Now().Add(4*time.Minute), 0; !signed && time.Now().Before(until); tries++ {
		if tries > 0 {
			if name, _ := xdo(disp, 10*time.Second, "getwindowname", win); !strings.Contains(name, "domsnaplogin") {
				t.Logf("try %d: the window shows %q; going back to the sign-in page", tries+1, name)
				xdo(disp, 10*time.Second, "windowfocus", "--sync", win)
				xdo(disp, 10*time.Second, "key", "ctrl+l")
				xdo(disp, 20*time.Second, "type", "--delay", "20", site.URL+"/login")
				xdo(disp, 10*time.Second, "key", "Return")
				waitWindow(disp, "domsnaplogin", 30*time.Second)
			}
		}
		xdo(disp, 10*time.Second, "windowfocus", "--sync", win)
		field(0.45)
		xdo(disp, 20*time.Second, "type", "--delay", "20", "alice")
		field(0.9)
		xdo(disp, 20*time.Second, "type", "--delay", "20", canaryPassword)
		xdo(disp, 10*time.Second, "key", "Return")
		found, _ := waitWindow(disp, "domsnapsignedin", 15*time.Second)
		signed = found != ""
	}
	if !signed {
		names, _ := xdo(disp, 10*time.Second, "getwindowname", win)
		t.Errorf("the signed-in page did not show (window %q, %dx%d)", names, w, h)
	}
	xdo(disp, 10*time.Second, "key", "ctrl+shift+w")
}

// describeWindows lists the windows of disp that have a name, visible or
// not, each as its id, name and whether it is mapped: what a failed wait
// for a window needs to say.
func describeWindows(disp string) string {
	all, _ := xdo(disp, 10*time.Second, "search", "--name", ".")
	visible, _ := xdo(disp, 10*time.Second, "search", "--onlyvisible", "--name", ".")
	shown := map[string]bool{}
	for _, id := range strings.Fields(visible) {
		shown[id] = true
	}
	var b strings.Builder
	for _, id := range strings.Fields(all) {
		name, _ := xdo(disp, 10*time.Second, "getwindowname", id)
		fmt.Fprintf(&b, "[%s %q visible=%v] ", id, name, shown[id])
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// TestProfileSignInThenUse: a person signs in through the visible window
// (played by xdotool under Xvfb); the cookies it set, a persistent and an
// HttpOnly one, are then sent by the headless browsers that use the
// profile, through the command line and the tool server. Another origin is
// refused even when --allow-origin names it, a second session gets
// profile_busy, the profile folder is the owner's alone, and no canary is
// in any output, log or file outside the profile folder.
func TestProfileSignInThenUse(t *testing.T) {
	site := newSignInSite(t)
	other := newSignInSite(t)
	state := filepath.Join(t.TempDir(), "state")
	var outputs bytes.Buffer
	keep := func(r result) result {
		outputs.WriteString(r.stdout)
		outputs.WriteString(r.stderr)
		return r
	}

	// Without a display, login refuses at once with status 2.
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if r := keep(runCmd(t, "", "profile", "login", "bank", site.URL+"/login", "--state-dir", state)); r.code != exitUsage || !strings.Contains(r.stderr, "no display") {
		t.Fatalf("login without a display: exit %d, %q", r.code, r.stderr)
	}

	disp := startXvfb(t)
	t.Setenv("DISPLAY", disp)
	played := make(chan struct{})
	go func() {
		defer close(played)
		signIn(t, disp, site)
	}()
	r := keep(runCmd(t, "", "profile", "login", "bank", site.URL+"/login", "--state-dir", state, "--timeout", "5m"))
	<-played
	if r.code != exitOK {
		t.Fatalf("login: exit %d, stderr %q", r.code, r.stderr)
	}
	if in, _ := site.counts(); in != 1 {
		site.mu.Lock()
		wrong := site.wrong
		site.mu.Unlock()
		t.Fatalf("the form was posted %d times, want 1 (and %d times with the wrong values)", in, wrong)
	}
	folder := filepath.Join(state, "profiles", "bank")
	if ps, _ := leftover.WaitGone(folder, 10*time.Second); len(ps) != 0 {
		t.Fatalf("the login window left processes: %v", ps)
	}
	t.Setenv("DISPLAY", "")

	r = keep(runCmd(t, "", "profile", "list", "--state-dir", state))
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "bank\t"+site.URL+"\tlast used ") {
		t.Fatalf("list: exit %d, %q", r.code, r.stdout)
	}

	// The command line reads the page behind the sign-in.
	r = keep(runLive(t, "inventory", "--live", site.URL+"/account", "--profile", "bank", "--state-dir", state, "--format", "json"))
	if r.code != exitOK || !strings.Contains(r.stdout, `"kind":"table"`) {
		t.Fatalf("inventory --live --profile: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, served := site.counts(); served != 1 {
		t.Fatalf("the account page was served signed-in %d times, want 1", served)
	}
	r = keep(runLive(t, "extract", "--live", other.URL+"/account", "--profile", "bank", "--state-dir", state, "--kind", "table", "--field", "invoice:0:string"))
	if r.code != exitFailure || !strings.Contains(r.stderr, "navigation_refused") {
		t.Fatalf("another origin: exit %d, %q", r.code, r.stderr)
	}

	// The tool server, with --allow-origin naming the other origin too.
	var log bytes.Buffer
	srv, err := mcp.New(mcp.Config{StateDir: state, Profile: "bank", AllowOrigins: []string{site.URL, other.URL}})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMCP(t, srv)
	ans := callTool(t, cs, "browser_navigate", map[string]any{"url": site.URL + "/account"})
	outputs.WriteString(ans)
	if !strings.Contains(ans, `"http_status":200`) || !strings.Contains(ans, `"kind":"table"`) {
		t.Fatalf("navigate behind the sign-in: %s", ans)
	}
	ans = callTool(t, cs, "browser_navigate", map[string]any{"url": other.URL + "/account"})
	outputs.WriteString(ans)
	if !strings.Contains(ans, "navigation_refused") {
		t.Fatalf("another origin through the tool server: %s", ans)
	}
	// A second session, in another server on the same state folder, and
	// a command: profile_busy while the first holds the lease.
	srv2, err := mcp.New(mcp.Config{StateDir: state, Profile: "bank"})
	if err != nil {
		t.Fatal(err)
	}
	cs2 := connectMCP(t, srv2)
	ans = callTool(t, cs2, "browser_navigate", map[string]any{"url": site.URL + "/account"})
	outputs.WriteString(ans)
	if !strings.Contains(ans, "profile_busy") {
		t.Fatalf("second session: %s", ans)
	}
	r = keep(runLive(t, "inventory", "--live", site.URL+"/account", "--profile", "bank", "--state-dir", state))
	if r.code != exitFailure || !strings.Contains(r.stderr, "profile_busy") {
		t.Fatalf("a command while a session holds the profile: exit %d, %q", r.code, r.stderr)
	}
	if r := keep(runCmd(t, "", "profile", "remove", "bank", "--state-dir", state)); r.code != exitFailure || !strings.Contains(r.stderr, "profile_busy") {
		t.Fatalf("remove while leased: exit %d, %q", r.code, r.stderr)
	}
	// The session's end releases the lease.
	cs.Close()
	srv.Close()
	ans = callTool(t, cs2, "browser_navigate", map[string]any{"url": site.URL + "/account"})
	outputs.WriteString(ans)
	if !strings.Contains(ans, `"kind":"table"`) {
		t.Fatalf("after the first session ended: %s", ans)
	}
	cs2.Close()
	srv2.Close()
	if _, served := site.counts(); served != 3 {
		t.Fatalf("the account page was served signed-in %d times, want 3", served)
	}
	if ps, _ := leftover.WaitGone(folder, 10*time.Second); len(ps) != 0 {
		t.Fatalf("browsers left on the profile: %v", ps)
	}
	outputs.Write(log.Bytes())

	// The profile folder is the owner's alone; nothing outside it holds a
	// canary; no singleton link is left in it.
	for _, c := range []string{canaryPersistent, canaryHTTPOnly, canaryPassword} {
		if strings.Contains(outputs.String(), c) {
			t.Errorf("canary %s in the output", c)
		}
	}
	filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, _ := d.Info()
		inProfile := path == folder || strings.HasPrefix(path, folder+string(filepath.Separator))
		if inProfile {
			switch {
			case strings.HasPrefix(d.Name(), "Singleton"):
				t.Errorf("left in the profile: %s", path)
			case d.IsDir() && info.Mode().Perm() != 0o700, d.Type().IsRegular() && info.Mode().Perm() != 0o600:
				t.Errorf("%s has mode %04o", path, info.Mode().Perm())
			}
			return nil
		}
		if d.Type().IsRegular() {
			data, _ := os.ReadFile(path)
			for _, c := range []string{canaryPersistent, canaryHTTPOnly, canaryPassword} {
				if bytes.Contains(data, []byte(c)) {
					t.Errorf("canary %s in %s", c, path)
				}
			}
		}
		return nil
	})

	if r := keep(runCmd(t, "", "profile", "remove", "bank", "--state-dir", state)); r.code != exitOK {
		t.Fatalf("remove: exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(folder); !os.IsNotExist(err) {
		t.Errorf("the folder stayed after remove: %v", err)
	}
}

// connectMCP serves srv in memory to an SDK client.
func connectMCP(t *testing.T, srv *mcp.Server) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// callTool calls a tool within a deadline and returns its text.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	data, _ := json.Marshal(res.StructuredContent)
	b.Write(data)
	return b.String()
}
