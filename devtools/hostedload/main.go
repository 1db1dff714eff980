package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "load" && os.Args[1] != "latency") {
		fmt.Fprintln(os.Stderr, "usage: hostedload load|latency -url URL -token-file FILE [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	url := fs.String("url", "", "the MCP endpoint, http://HOST:PORT/mcp")
	tokenFile := fs.String("token-file", "", "the bearer token's file")
	sessions := fs.Int("sessions", 8, "load: sessions at once")
	rounds := fs.Int("rounds", 10, "load: navigate-and-extract rounds per session after the first")
	calls := fs.Int("calls", 500, "latency: calls, one after the other")
	fs.Parse(os.Args[2:])
	raw, err := os.ReadFile(*tokenFile)
	if err != nil || *url == "" {
		fmt.Fprintln(os.Stderr, "hostedload: -url and a readable -token-file are required")
		os.Exit(2)
	}
	token := strings.TrimSpace(string(raw))
	if os.Args[1] == "load" {
		err = load(os.Stdout, *url, token, *sessions, *rounds)
	} else {
		err = latency(os.Stdout, *url, token, *calls)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostedload:", err)
		os.Exit(1)
	}
}

type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func connect(ctx context.Context, url, token string) (*sdk.ClientSession, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	return sdk.NewClient(&sdk.Implementation{Name: "hostedload", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, tr}}}, nil)
}

// site serves /t?s=S&r=R: a table of three rows naming S and R.
func site() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, rn := r.URL.Query().Get("s"), r.URL.Query().Get("r")
		var b strings.Builder
		b.WriteString(`<!doctype html><table><tr><th>Tag</th><th>N</th></tr>`)
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&b, `<tr><td>s%sr%si%d</td><td>%d</td></tr>`, s, rn, i, i)
		}
		b.WriteString(`</table>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, b.String())
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

func text(res *sdk.CallToolResult) (string, error) {
	if len(res.Content) != 1 {
		return "", fmt.Errorf("%d content items", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return "", fmt.Errorf("content %T", res.Content[0])
	}
	if res.IsError {
		return tc.Text, errors.New("tool error: " + tc.Text)
	}
	return tc.Text, nil
}

// round navigates to the page naming s and r and extracts its rows,
// checking them.
func round(ctx context.Context, cs *sdk.ClientSession, web string, s, r int) error {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": fmt.Sprintf("%s/t?s=%d&r=%d", web, s, r)}})
	if err != nil {
		return err
	}
	t, err := text(res)
	if err != nil {
		return err
	}
	var nav struct{ Revision string }
	if err := json.Unmarshal([]byte(t), &nav); err != nil {
		return err
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_observe", Arguments: map[string]any{"extract": map[string]any{
		"expected_revision": nav.Revision, "kind": "table", "index": 0,
		"fields": []any{map[string]any{"name": "tag", "column": 0, "type": "string"}}}}})
	if err != nil {
		return err
	}
	if t, err = text(res); err != nil {
		return err
	}
	var ex struct {
		Extraction struct {
			Rows []struct {
				Header bool
				Cells  []struct{ Value any }
			}
		}
	}
	if err := json.Unmarshal([]byte(t), &ex); err != nil {
		return err
	}
	n := 0
	for _, row := range ex.Extraction.Rows {
		if row.Header {
			continue
		}
		if want := fmt.Sprintf("s%dr%di%d", s, r, n); len(row.Cells) != 1 || row.Cells[0].Value != want {
			return fmt.Errorf("session %d round %d row %d: %v, want %s", s, r, n, row.Cells, want)
		}
		n++
	}
	if n != 3 {
		return fmt.Errorf("session %d round %d: %d rows", s, r, n)
	}
	return nil
}

func pct(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(float64(len(s)-1)*p+0.5)]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

func load(out io.Writer, url, token string, sessions, rounds int) error {
	web, stop, err := site()
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	clients := make([]*sdk.ClientSession, sessions)
	errs := make([]error, sessions)
	var wg sync.WaitGroup
	t0 := time.Now()
	for s := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, err := connect(ctx, url, token)
			if err != nil {
				errs[s] = err
				return
			}
			clients[s] = cs
			errs[s] = round(ctx, cs, web, s, 0)
		}()
	}
	wg.Wait()
	open := time.Since(t0)
	defer func() {
		for _, cs := range clients {
			if cs != nil {
				cs.Close()
			}
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("opening the sessions: %w", err)
	}
	fmt.Fprintf(out, "sessions opened (initialize and a first navigate-and-extract round): %d in %v: %.2f sessions/s\n", sessions, open.Round(time.Millisecond), float64(sessions)/open.Seconds())
	var mu sync.Mutex
	var lat []time.Duration
	t0 = time.Now()
	for s := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 1; r <= rounds; r++ {
				t := time.Now()
				if err := round(ctx, clients[s], web, s, r); err != nil {
					errs[s] = err
					return
				}
				mu.Lock()
				lat = append(lat, time.Since(t))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	wall := time.Since(t0)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(out, "rounds (navigate + extract, %d sessions in parallel): %d in %v: %.2f rounds/s; round latency p50 %s, p95 %s, max %s\n",
		sessions, len(lat), wall.Round(time.Millisecond), float64(len(lat))/wall.Seconds(), ms(pct(lat, 0.5)), ms(pct(lat, 0.95)), ms(pct(lat, 1)))
	return nil
}

func latency(out io.Writer, url, token string, calls int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cs, err := connect(ctx, url, token)
	if err != nil {
		return err
	}
	defer cs.Close()
	args := map[string]any{"artifact": "sha256:" + strings.Repeat("0", 64)}
	// A few calls first, so that connections are open.
	var lat []time.Duration
	for i := 0; i < calls+20; i++ {
		t := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_artifact", Arguments: args})
		d := time.Since(t)
		if err != nil {
			return err
		}
		if txt, _ := text(res); !res.IsError || !strings.Contains(txt, "unknown_artifact") {
			return fmt.Errorf("browser_artifact answered %q", txt)
		}
		if i >= 20 {
			lat = append(lat, d)
		}
	}
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	fmt.Fprintf(out, "browser_artifact (no browser) x %d, one after the other: p50 %s, p95 %s, p99 %s, mean %s\n",
		len(lat), ms(pct(lat, 0.5)), ms(pct(lat, 0.95)), ms(pct(lat, 0.99)), ms(sum/time.Duration(len(lat))))
	return nil
}
