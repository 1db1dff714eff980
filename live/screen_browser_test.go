//go:build browser

package live

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// referenceQueries are the media queries that hold on the reference screen,
// one per feature of its definition (docs/reference.md, "Reference screen"),
// and queries that must not hold, so a feature stuck at some other value
// shows.
var referenceQueries = []struct {
	query string
	want  bool
}{
	{"screen", true},
	{"print", false},
	{"(width: 1280px)", true},
	{"(height: 800px)", true},
	{"(device-width: 1280px)", true},
	{"(device-height: 800px)", true},
	{"(aspect-ratio: 8/5)", true},
	{"(device-aspect-ratio: 8/5)", true},
	{"(resolution: 1dppx)", true},
	{"(orientation: landscape)", true},
	{"(color: 8)", true},
	{"(monochrome: 0)", true},
	{"(pointer: none)", true},
	{"(hover: none)", true},
	{"(any-pointer: none)", true},
	{"(any-hover: none)", true},
	{"(any-pointer: fine)", false},
	{"(scripting: enabled)", true},
	{"(display-mode: browser)", true},
	{"(update: fast)", true},
	{"(dynamic-range: standard)", true},
	{"(dynamic-range: high)", false},
	{"(color-gamut: srgb)", true},
	{"(color-gamut: p3)", false},
	{"(prefers-color-scheme: light)", true},
	{"(prefers-color-scheme: dark)", false},
	{"(prefers-reduced-motion: no-preference)", true},
	{"(prefers-reduced-transparency: no-preference)", true},
	{"(prefers-contrast: no-preference)", true},
	{"(forced-colors: none)", true},
	{"(forced-colors: active)", false},
}

// isolatedEval evaluates expr in a fresh isolated world of the tab's main
// frame, where the page's own script can neither see nor disturb it, and
// decodes its JSON value into out.
func isolatedEval(t *testing.T, ctx context.Context, p *Page, expr string, out any) {
	t.Helper()
	c := p.Client()
	tree, err := c.Page.GetFrameTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	world, err := c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(tree.FrameTree.Frame.ID).SetWorldName("domsnap-screen-test"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(world.ExecutionContextID).SetReturnByValue(true))
	if err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("%s threw: %s", expr, r.ExceptionDetails.Text)
	}
	if err := json.Unmarshal(r.Result.Value, out); err != nil {
		t.Fatalf("%s: %v (%s)", expr, err, r.Result.Value)
	}
}

// TestReferenceScreen reads every feature of the reference screen back
// with matchMedia, and the screen's numbers from the window, in a page
// loaded the way capture, extract --live and parity load theirs (NewPage,
// then Navigate), after a first and after a second navigation. The page
// itself asks for a dark scheme, reduced motion and a 390-pixel viewport;
// none of it may change what it is shown.
func TestReferenceScreen(t *testing.T) {
	const doc = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>screen</title>
<meta name="viewport" content="width=390"><meta name="color-scheme" content="dark">
</head><body><p>screen</p></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(doc))
	}))
	defer srv.Close()
	b := launch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var queries []string
	for _, q := range referenceQueries {
		queries = append(queries, strconv.Quote(q.query))
	}
	expr := `[` + strings.Join(queries, ",") + `].map(q => matchMedia(q).matches)`
	for _, path := range []string{"/one", "/two"} {
		if err := p.Navigate(ctx, srv.URL+path); err != nil {
			t.Fatal(err)
		}
		var got []bool
		isolatedEval(t, ctx, p, expr, &got)
		if len(got) != len(referenceQueries) {
			t.Fatalf("%d answers for %d queries", len(got), len(referenceQueries))
		}
		for i, q := range referenceQueries {
			if got[i] != q.want {
				t.Errorf("%s: matchMedia(%q) = %v, want %v", path, q.query, got[i], q.want)
			}
		}
		var nums map[string]float64
		isolatedEval(t, ctx, p, `({innerWidth, innerHeight, dpr: devicePixelRatio, screenWidth: screen.width, screenHeight: screen.height,
			availWidth: screen.availWidth, availHeight: screen.availHeight, colorDepth: screen.colorDepth,
			landscape: screen.orientation.type === "landscape-primary" ? 1 : 0})`, &nums)
		want := map[string]float64{"innerWidth": 1280, "innerHeight": 800, "dpr": 1, "screenWidth": 1280, "screenHeight": 800,
			"availWidth": 1280, "availHeight": 800, "colorDepth": 24, "landscape": 1}
		for k, v := range want {
			if nums[k] != v {
				t.Errorf("%s: %s = %v, want %v", path, k, nums[k], v)
			}
		}
	}
}
