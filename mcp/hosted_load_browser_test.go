//go:build browser

package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
	"github.com/domsnap/domsnap/mcp"
	"github.com/domsnap/domsnap/mcp/internal/store"
)

// loadSite serves /load?s=S&r=R, a table of three rows that name S and R,
// and /hold, which answers when release closes.
type loadSite struct {
	*httptest.Server
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
}

func newLoadSite(t *testing.T) *loadSite {
	t.Helper()
	s := &loadSite{arrived: make(chan struct{}, 16), release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/load", func(w http.ResponseWriter, r *http.Request) {
		sn, rn := r.URL.Query().Get("s"), r.URL.Query().Get("r")
		ri, _ := strconv.Atoi(rn)
		var sb strings.Builder
		sb.WriteString(`<!DOCTYPE html><html><body><table><tr><th>Tag</th><th>N</th></tr>`)
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&sb, `<tr><td>s%sr%si%d</td><td>%d</td></tr>`, sn, rn, i, i*(ri+1))
		}
		sb.WriteString(`</table></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, sb.String())
	})
	mux.HandleFunc("/hold", func(w http.ResponseWriter, r *http.Request) {
		s.arrived <- struct{}{}
		select {
		case <-s.release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<ul><li>released</li></ul>`)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		s.free()
		s.Server.Close()
	})
	return s
}

func (s *loadSite) free() { s.once.Do(func() { close(s.release) }) }

func (s *loadSite) arrival(t *testing.T) {
	t.Helper()
	select {
	case <-s.arrived:
	case <-time.After(60 * time.Second):
		t.Fatal("nothing reached /hold")
	}
}

type loadAnswer struct {
	Revision   string
	Artifact   string
	Inventory  []struct{ Kind string }
	Extraction *struct {
		Rows []struct {
			Header bool
			Cells  []struct{ Value any }
		}
	}
}

// outcome is one call's answer or coded error.
type outcome struct {
	answer loadAnswer
	raw    []byte
	code   string // the error's code, "" for an answer
	err    error  // a failure of the protocol, not of the tool
}

func invoke(cs *sdk.ClientSession, name string, args map[string]any) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: mcp.WholeView(name, args)})
	if err != nil {
		return outcome{err: err}
	}
	if len(res.Content) != 1 {
		return outcome{err: fmt.Errorf("%d content items", len(res.Content))}
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return outcome{err: fmt.Errorf("content %T", res.Content[0])}
	}
	o := outcome{raw: []byte(tc.Text)}
	if res.IsError {
		var e struct{ Error struct{ Code string } }
		json.Unmarshal(o.raw, &e)
		o.code = e.Error.Code
		if o.code == "" {
			o.err = fmt.Errorf("an error without a code: %s", o.raw)
		}
		return o
	}
	o.err = json.Unmarshal(o.raw, &o.answer)
	return o
}

func loadExtract(rev string) map[string]any {
	return map[string]any{"extract": map[string]any{"expected_revision": rev, "kind": "table", "index": 0, "row_limit": 10,
		"fields": []any{map[string]any{"name": "tag", "column": 0, "type": "string"}, map[string]any{"name": "n", "column": 1, "type": "integer"}}}}
}

// checkRound checks a navigate answer and the extraction that followed
// it, for session s and round r.
func checkRound(nav, ex outcome, s, r int) error {
	if nav.err != nil || nav.code != "" {
		return fmt.Errorf("navigate: %v %s", nav.err, nav.raw)
	}
	if len(nav.answer.Inventory) != 1 || nav.answer.Inventory[0].Kind != "table" {
		return fmt.Errorf("navigate inventory: %s", nav.raw)
	}
	if ex.err != nil || ex.code != "" {
		return fmt.Errorf("extract: %v %s", ex.err, ex.raw)
	}
	if ex.answer.Extraction == nil {
		return fmt.Errorf("no extraction: %s", ex.raw)
	}
	i := 0
	for _, row := range ex.answer.Extraction.Rows {
		if row.Header {
			continue
		}
		want := []any{fmt.Sprintf("s%dr%di%d", s, r, i), float64(i * (r + 1))}
		if len(row.Cells) != 2 || row.Cells[0].Value != want[0] || row.Cells[1].Value != want[1] {
			return fmt.Errorf("session %d round %d row %d: %v, want %v", s, r, i, row.Cells, want)
		}
		i++
	}
	if i != 3 {
		return fmt.Errorf("session %d round %d: %d rows: %s", s, r, i, ex.raw)
	}
	return nil
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(float64(len(s)-1)*p+0.5)]
}

// peakSampler samples the resident memory of the server (its high-water
// mark) and, summed, of its Chromium processes, keeping the peaks.
type peakSampler struct {
	server, chrome atomic.Int64
	stop           chan struct{}
	done           chan struct{}
}

func samplePeaks(p *hostedProc) *peakSampler {
	ps := &peakSampler{stop: make(chan struct{}), done: make(chan struct{})}
	pid := p.cmd.Process.Pid
	go func() {
		defer close(ps.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if v := rss(pid, "status", "VmHWM"); v > ps.server.Load() {
				ps.server.Store(v)
			}
			var sum int64
			procs, _ := leftover.Processes(p.tmp)
			for _, x := range procs {
				if x.PID != pid {
					// Chromium's processes share much of their memory;
					// the proportional set size counts each page once
					// across them.
					sum += rss(x.PID, "smaps_rollup", "Pss")
				}
			}
			if sum > ps.chrome.Load() {
				ps.chrome.Store(sum)
			}
			select {
			case <-ps.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return ps
}

func (ps *peakSampler) finish() (server, chrome int64) {
	close(ps.stop)
	<-ps.done
	return ps.server.Load(), ps.chrome.Load()
}

// TestHostedLoad: four sessions run 25 navigate-and-extract rounds each,
// in parallel, against loopback pages that name the session and round:
// every answer is right and none is lost. Then every artifact the rounds
// produced, written by the four sessions at once, reads back from its
// session and, after the server stopped, from the store on disk, byte for
// byte. The test logs the rounds' latency (p50, p95, max) and the peak
// resident memory of the server and of Chromium.
func TestHostedLoad(t *testing.T) {
	const sessions, rounds = 4, 25
	web := newLoadSite(t)
	p := startHosted(t)
	clients := make([]*sdk.ClientSession, sessions)
	for i := range clients {
		clients[i] = p.client(t)
	}
	peaks := samplePeaks(p)
	var mu sync.Mutex
	var lat []time.Duration
	refs := make([][]string, sessions)
	var wg sync.WaitGroup
	start := time.Now()
	for s := 0; s < sessions; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				t0 := time.Now()
				nav := invoke(clients[s], "browser_navigate", map[string]any{"url": fmt.Sprintf("%s/load?s=%d&r=%d", web.URL, s, r)})
				var ex outcome
				if nav.err == nil && nav.code == "" {
					ex = invoke(clients[s], "browser_observe", loadExtract(nav.answer.Revision))
				}
				d := time.Since(t0)
				if err := checkRound(nav, ex, s, r); err != nil {
					t.Errorf("session %d round %d: %v", s, r, err)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				refs[s] = append(refs[s], nav.answer.Artifact, ex.answer.Artifact)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	serverPeak, chromePeak := peaks.finish()
	if t.Failed() {
		return
	}
	if len(lat) != sessions*rounds {
		t.Fatalf("%d rounds answered, want %d", len(lat), sessions*rounds)
	}
	t.Logf("%d sessions x %d rounds (navigate + extract) in %v: round latency p50 %v, p95 %v, max %v; peak RSS: server %d KiB (VmHWM), Chromium %d KiB (sum of its processes' Pss, sampled every 100 ms)",
		sessions, rounds, wall.Round(time.Millisecond), percentile(lat, 0.5).Round(time.Millisecond), percentile(lat, 0.95).Round(time.Millisecond),
		percentile(lat, 1).Round(time.Millisecond), serverPeak, chromePeak)

	// Every artifact reads back in its own session, hashing to its name,
	// and is unknown in the next session, exactly as one never stored.
	read := map[string][]byte{}
	for s, list := range refs {
		for _, ref := range list {
			o := invoke(clients[s], "browser_artifact", map[string]any{"artifact": ref})
			if o.err != nil || o.code != "" || sha(o.raw) != ref {
				t.Fatalf("session %d artifact %s: %v %s", s, ref, o.err, o.code)
			}
			read[ref] = o.raw
		}
		other := invoke(clients[(s+1)%sessions], "browser_artifact", map[string]any{"artifact": list[0]})
		if other.code != "unknown_artifact" {
			t.Fatalf("session %d's artifact in session %d: %q %v", s, (s+1)%sessions, other.code, other.err)
		}
	}
	if len(read) != 2*sessions*rounds {
		t.Fatalf("%d distinct artifacts, want %d", len(read), 2*sessions*rounds)
	}
	p.stop(t)
	st, err := store.Open(p.state, mcp.DefaultMaxStoreBytes)
	if err != nil {
		t.Fatal(err)
	}
	if st.Len() != len(read) {
		t.Fatalf("the store holds %d artifacts, want %d", st.Len(), len(read))
	}
	for ref, want := range read {
		a, err := st.Get(ref)
		if err != nil || !bytes.Equal(a.Observation, want) {
			t.Fatalf("%s on disk: %v", ref, err)
		}
	}
}

// TestHostedBrowserKilled: Chromium SIGKILLed while four sessions work:
// the call held in flight fails with capture_failed, every other call
// either answers right or fails with capture_failed (foreign_revision for
// an extraction whose page went with the browser), every session works
// again from its next navigation on, in a new Chromium, and the server
// never exits.
func TestHostedBrowserKilled(t *testing.T) {
	const sessions = 4
	web := newLoadSite(t)
	p := startHosted(t)
	clients := make([]*sdk.ClientSession, sessions)
	for i := range clients {
		clients[i] = p.client(t)
		nav := invoke(clients[i], "browser_navigate", map[string]any{"url": fmt.Sprintf("%s/load?s=%d&r=0", web.URL, i)})
		if err := checkRound(nav, invoke(clients[i], "browser_observe", loadExtract(nav.answer.Revision)), i, 0); err != nil {
			t.Fatal(err)
		}
	}
	old := p.chromePID(t)

	held := make(chan outcome, 1)
	go func() {
		held <- invoke(clients[0], "browser_navigate", map[string]any{"url": web.URL + "/hold", "wait": map[string]any{"timeout_ms": 120000}})
	}()
	web.arrival(t)

	var killed atomic.Bool
	started := make(chan struct{}, sessions)
	var wg sync.WaitGroup
	for s := 1; s < sessions; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			after := 0 // good rounds begun after the kill
			for r := 1; r <= 30 && after < 2; r++ {
				if r == 2 {
					started <- struct{}{}
				}
				late := killed.Load()
				nav := invoke(clients[s], "browser_navigate", map[string]any{"url": fmt.Sprintf("%s/load?s=%d&r=%d", web.URL, s, r)})
				if nav.err != nil || nav.code != "" {
					if nav.err != nil || nav.code != "capture_failed" || !killed.Load() {
						t.Errorf("session %d round %d navigate: %v %s", s, r, nav.err, nav.raw)
						return
					}
					continue
				}
				ex := invoke(clients[s], "browser_observe", loadExtract(nav.answer.Revision))
				if ex.code == "capture_failed" || ex.code == "foreign_revision" {
					if !killed.Load() {
						t.Errorf("session %d round %d extract failed before the kill: %s", s, r, ex.raw)
						return
					}
					continue
				}
				if err := checkRound(nav, ex, s, r); err != nil {
					t.Errorf("session %d: %v", s, err)
					return
				}
				if late {
					after++
				}
			}
			if after < 2 {
				t.Errorf("session %d did not recover after the kill", s)
			}
		}()
	}
	for s := 1; s < sessions; s++ {
		<-started
	}
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.Store(true)
	select {
	case o := <-held:
		if o.err != nil || o.code != "capture_failed" {
			t.Errorf("the call in flight at the kill: %v %s", o.err, o.raw)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the call in flight at the kill did not end")
	}
	web.free()
	wg.Wait()
	// The held session recovers on its next navigation too.
	nav := invoke(clients[0], "browser_navigate", map[string]any{"url": web.URL + "/load?s=0&r=9"})
	if err := checkRound(nav, invoke(clients[0], "browser_observe", loadExtract(nav.answer.Revision)), 0, 9); err != nil {
		t.Fatalf("session 0 after the kill: %v", err)
	}
	if now := p.chromePID(t); now == old {
		t.Fatal("the same browser process after the kill")
	}
	select {
	case <-p.exited:
		t.Fatalf("the server exited: %v", p.err)
	default:
	}
	res, err := http.Get(p.url + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("healthz after the kill: %v", err)
	}
	res.Body.Close()
}

// TestHostedDrain: a wrong token is refused and never logged; on SIGTERM
// a call held in flight is cancelled within the drain bound and answered
// with cancelled, and the server exits with status 0 leaving no process
// and no profile behind.
func TestHostedDrain(t *testing.T) {
	web := newLoadSite(t)
	p := startHosted(t)
	for _, tok := range []string{p.token[:len(p.token)-1], p.token + "0", "not-the-token-at-all"} {
		req, _ := http.NewRequest(http.MethodPost, p.url+"/mcp", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong token: %v %v", res, err)
		}
		res.Body.Close()
	}
	a, b := p.client(t), p.client(t)
	nav := invoke(b, "browser_navigate", map[string]any{"url": web.URL + "/load?s=1&r=0"})
	if err := checkRound(nav, invoke(b, "browser_observe", loadExtract(nav.answer.Revision)), 1, 0); err != nil {
		t.Fatal(err)
	}
	held := make(chan outcome, 1)
	go func() {
		held <- invoke(a, "browser_navigate", map[string]any{"url": web.URL + "/hold", "wait": map[string]any{"timeout_ms": 120000}})
	}()
	web.arrival(t)
	t0 := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-held:
		if o.err != nil || o.code != "cancelled" {
			t.Fatalf("the call in flight at SIGTERM: %v %s", o.err, o.raw)
		}
		t.Logf("the call in flight was answered cancelled %v after SIGTERM (drain bound %v)", time.Since(t0).Round(time.Millisecond), mcp.DrainTimeout)
	case <-time.After(60 * time.Second):
		t.Fatal("the call in flight at SIGTERM did not end")
	}
	select {
	case <-p.exited:
		t.Logf("the server exited %v after SIGTERM", time.Since(t0).Round(time.Millisecond))
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not exit")
	}
	p.stop(t)
	log := p.stderr.String()
	if !strings.Contains(log, "refused a request with a wrong token") || !strings.Contains(log, "shutting down") {
		t.Fatalf("log: %s", log)
	}
	for _, tok := range []string{p.token, p.token[:len(p.token)-1], "not-the-token-at-all"} {
		if strings.Contains(log, tok) {
			t.Fatal("a token is in the log")
		}
	}
}
