//go:build browser

package mcp_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/limits"
)

// everydayPages are the steps of everyday tasks that used to answer done
// while nothing happened: a Delete guarded by confirm(), a prompt, and a
// menu that opens on CSS :hover alone.
var everydayPages = map[string]string{
	"/menu": `<style>nav li ul { display: none } nav li:hover > ul { display: block }</style>
<nav aria-label=Main><ul><li>Products<ul><li><a href="/laptops">Laptops</a></li><li><a href="/phones">Phones</a></li></ul></li><li><a href="/about">About</a></li></ul></nav>
<div id=acct aria-haspopup=menu onmouseenter="document.getElementById('m').hidden = false">Account</div><div id=m role=menu hidden><div role=menuitem>Sign out</div></div>
<div id=cover style="position:fixed; left:0; top:300px; width:100%; height:100px; background:white; z-index:10"></div><div style="position:absolute; top:320px" aria-haspopup=true>Covered</div>`,
	"/laptops": `<main><h1>Laptops</h1></main>`,
	"/reports-export": `<main><h1>Exports</h1><a href="/export/csv">Export CSV</a> <a href="/export/huge">Export everything</a>
<a href="/export/evil">Evil name</a> <a href="/export/bin">Export binary</a>
<button onclick="for (let i = 0; i < 100; i++) { const a = document.createElement('a'); a.href = '/export/csv?n=' + i; a.download = 'r' + i + '.csv'; document.body.append(a); a.click(); }">Export all</button></main>`,
	"/attach": `<main><h1>Attach</h1><form method=post enctype=multipart/form-data action=/received>
<label>Attachment <input type=file name=f></label><button>Send</button></form>
<label>Turns secret <input type=file id=turn onmouseover="this.type = 'password'"></label></main>`,
	"/reports": `<main><h1>Reports</h1><ul><li id=q3>Report Q3</li></ul>
<button onclick="if (confirm('Delete report Q3?')) document.getElementById('q3').remove()">Delete Report Q3</button></main>`,
	"/rename": `<main><h1>Rename</h1><p id=out>unnamed</p>
<button onclick="const v = prompt('New name?'); if (v !== null) document.getElementById('out').textContent = 'renamed, ' + v.length + ' characters'">Rename</button></main>`,
}

func everydaySite(t *testing.T) *httptest.Server {
	t.Helper()
	return everydaySiteWith(t, nil)
}

// everydaySiteWith is everydaySite whose /received takes a multipart
// upload and hands each file part's name and bytes to got, answering
// only how many bytes came, so no page shows the file.
func everydaySiteWith(t *testing.T, got func(name string, body []byte)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/received" && got != nil {
			n := 0
			if err := r.ParseMultipartForm(1 << 20); err == nil {
				for _, fhs := range r.MultipartForm.File {
					for _, fh := range fhs {
						f, _ := fh.Open()
						b, _ := io.ReadAll(f)
						f.Close()
						got(fh.Filename, b)
						n += len(b)
					}
				}
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!DOCTYPE html><main><h1>Received</h1><p>%d bytes</p></main>", n)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/export") {
			serveExport(w, r)
			return
		}
		body, found := everydayPages[r.URL.Path]
		if !found {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>` + body + `</body></html>`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// dialogAction is the action member of an answer with its dialogs.
type dialogAction struct {
	Action struct {
		Outcome string
		Dialogs []map[string]any
	}
}

// TestActDialogReported: a Delete guarded by confirm() is dismissed by
// default and the answer says so; with dialog "accept" the report is
// deleted; a prompt accepted with dialog_text gets that text, which no
// answer, stored file or log holds; dialog_text without accept is refused
// by the input schema. Before dialogs were reported the click answered
// done with no dialog in it and no way to accept.
func TestActDialogReported(t *testing.T) {
	const canary = "CANARY-PROMPT-91c4e2"
	web := everydaySite(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state)
	var outs [][]byte
	keep := func(res *sdk.CallToolResult) []byte {
		b := resultText(t, res)
		outs = append(outs, b)
		if res.IsError {
			t.Fatalf("error: %s", b)
		}
		return b
	}
	v := parseView(t, keep(s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/reports"})))
	del := v.ref(t, "button", "Delete Report Q3")
	b := keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": del}))
	var got struct {
		Action json.RawMessage
	}
	json.Unmarshal(b, &got)
	want := `{"action":"click","ref":"` + del + `","outcome":"done","dialogs":[{"type":"confirm","message":"Delete report Q3?"}]}`
	if string(got.Action) != want {
		t.Fatalf("dismissed confirm answered %s, want %s", got.Action, want)
	}
	v = parseView(t, b)
	if !strings.Contains(v.Text, "Report Q3 Delete") {
		t.Fatal("a dismissed confirm deleted the report")
	}
	v = parseView(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Delete Report Q3"), "dialog": "accept"})))
	if strings.Contains(v.Text, "Report Q3 Delete") {
		t.Fatalf("the accepted confirm left the report: %q", v.Text)
	}

	v = parseView(t, keep(s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/rename"})))
	ren := v.ref(t, "button", "Rename")
	if code := failed(t, s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": ren, "dialog_text": canary})); code != "invalid_request" {
		t.Errorf("dialog_text without accept: %s", code)
	}
	b = keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": ren, "dialog": "accept", "dialog_text": canary}))
	var d dialogAction
	json.Unmarshal(b, &d)
	if v = parseView(t, b); !strings.Contains(v.Text, "renamed, 20 characters") || len(d.Action.Dialogs) != 1 || d.Action.Dialogs[0]["type"] != "prompt" {
		t.Fatalf("accepted prompt: %q, %+v", v.Text, d.Action.Dialogs)
	}
	keep(s.call(t, "browser_artifact", map[string]any{"artifact": v.Artifact}))
	s.stop(t)
	nowhere(t, canary, outs, state, s.stderr.Bytes(), 4)
}

// TestActHoverMenus: a menu that opens on CSS :hover alone, its top item
// a plain label, is reached by hovering that label (a control of role
// button, named by its own text) and then clicking the link it shows; an
// aria-haspopup trigger is a control and hovering it shows what its
// script opens; hovering an element under another is refused, nothing
// sent. Before, neither label was a control and there was no hover.
func TestActHoverMenus(t *testing.T) {
	web := everydaySite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	v := s.open(t, web.URL+"/menu")
	for _, c := range v.Controls {
		if c.Name == "Laptops" {
			t.Fatal("the closed menu's link is listed before any hover")
		}
	}
	h := s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "hover", "ref": v.ref(t, "button", "Products")})
	if h.Action.Outcome != "done" {
		t.Fatalf("hover outcome %s", h.Action.Outcome)
	}
	n := s.acted(t, map[string]any{"expected_revision": h.Revision, "action": "click", "ref": h.ref(t, "link", "Laptops")})
	if n.Action.Outcome != "navigated" || !strings.Contains(n.Text, "Laptops") {
		t.Fatalf("the menu's link: %+v %q", n.Action, n.Text)
	}

	v = s.open(t, web.URL+"/menu")
	h = s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "hover", "ref": v.ref(t, "button", "Account")})
	h.ref(t, "menuitem", "Sign out")
	code, sent := actFailed(t, s.act(t, map[string]any{"expected_revision": h.Revision, "action": "hover", "ref": h.ref(t, "button", "Covered")}))
	if code != "not_actionable" || sent {
		t.Errorf("hovering a covered element: %s, sent %v", code, sent)
	}
}

// TestActUpload: a file input is a control (button, files: true); upload
// gives it a file below --upload-root, and the form sends that file's
// bytes under its own name. Paths up and out, through a symbolic link, of
// a named pipe or over --max-upload-bytes are refused with nothing sent;
// a field that turns into a password field as the pointer comes gets no
// file. The file's name and content appear in no answer, stored file or
// log. Before, a file input was no control and there was no upload.
func TestActUpload(t *testing.T) {
	const name, content = "CANARY-NAME-e81f.csv", "CANARY-CONTENT-77d0,1,2\n"
	var mu sync.Mutex
	received := map[string]string{}
	web := everydaySiteWith(t, func(n string, b []byte) {
		mu.Lock()
		received[n] = string(b)
		mu.Unlock()
	})
	root := filepath.Join(t.TempDir(), "files")
	os.MkdirAll(filepath.Join(root, "in"), 0o700)
	os.WriteFile(filepath.Join(root, "in", name), []byte(content), 0o600)
	os.WriteFile(filepath.Join(root, "big.bin"), make([]byte, 4097), 0o600)
	outside := filepath.Join(t.TempDir(), "outside.csv")
	os.WriteFile(outside, []byte(content), 0o600)
	os.Symlink(outside, filepath.Join(root, "link.csv"))
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state, "--upload-root", root, "--max-upload-bytes", "4096")
	var outs [][]byte
	keep := func(res *sdk.CallToolResult) *sdk.CallToolResult {
		outs = append(outs, resultText(t, res))
		return res
	}
	v := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/attach"}))))
	var raw struct{ Controls []map[string]any }
	json.Unmarshal(outs[0], &raw)
	if len(raw.Controls) < 1 || raw.Controls[0]["role"] != "button" || raw.Controls[0]["name"] != "Attachment" || raw.Controls[0]["files"] != true {
		t.Fatalf("the file input is listed as %+v", raw.Controls)
	}
	field := v.ref(t, "button", "Attachment")
	for _, c := range []struct{ path, code string }{
		{"../" + name, "path_refused"}, {"/etc/hostname", "path_refused"}, {"link.csv", "path_refused"},
		{"big.bin", "unsupported_input"}, {"in", "unsupported_input"},
	} {
		code, sent := actFailed(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "upload", "ref": field, "path": c.path})))
		if code != c.code || sent {
			t.Errorf("%s: %s, sent %v", c.path, code, sent)
		}
	}
	// An upload refused for its reference or its element is refused as
	// the check order says, before its path is looked at, and costs
	// neither a copy nor a part of the session's MaxUploads allowance:
	// more such refusals than the allowance, and the real upload still
	// goes (each used to copy the file first, and the 17th real upload
	// was refused as over the allowance).
	bogus := field[:strings.LastIndex(field, ".")+1] + "99999"
	for i := 0; i <= limits.MaxUploads; i++ {
		for _, c := range []struct{ ref, path, code string }{
			{bogus, "../" + name, "unknown_reference"},
			{bogus, "in/" + name, "unknown_reference"},
			{v.ref(t, "button", "Send"), "in/" + name, "not_actionable"},
		} {
			code, sent := actFailed(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "upload", "ref": c.ref, "path": c.path})))
			if code != c.code || sent {
				t.Fatalf("upload to %s of %s: %s, sent %v", c.ref, c.path, code, sent)
			}
		}
	}
	if n := stagedCopies(t, s.tmp); n != 0 {
		t.Fatalf("refused uploads left %d copies", n)
	}
	// Refusals left the revision current: the real upload uses it.
	u := s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "upload", "ref": field, "path": "in/" + name})
	keep(s.act(t, map[string]any{"expected_revision": u.Revision, "action": "hover", "ref": u.ref(t, "button", "Turns secret")}))
	u = parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{}))))
	if code, _ := actFailed(t, keep(s.act(t, map[string]any{"expected_revision": u.Revision, "action": "upload", "ref": u.ref(t, "textbox", "Turns secret"), "path": "in/" + name}))); code != "not_actionable" {
		t.Errorf("uploading into a field turned password: %s", code)
	}
	if n := stagedCopies(t, s.tmp); n != 1 {
		t.Errorf("one upload given, %d copies staged", n)
	}
	u = parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{}))))
	sent := s.acted(t, map[string]any{"expected_revision": u.Revision, "action": "click", "ref": u.ref(t, "button", "Send")})
	outs = append(outs, ok(t, s.call(t, "browser_artifact", map[string]any{"artifact": sent.Artifact})))
	if sent.Action.Outcome != "navigated" || !strings.Contains(sent.Text, fmt.Sprintf("%d bytes", len(content))) {
		t.Fatalf("the form sent: %+v %q", sent.Action, sent.Text)
	}
	mu.Lock()
	if received[name] != content || len(received) != 1 {
		t.Errorf("the server received %d files", len(received))
	}
	mu.Unlock()
	s.stop(t)
	nowhere(t, "CANARY-NAME", outs, state, s.stderr.Bytes(), 3)
	nowhere(t, "CANARY-CONTENT", outs, state, s.stderr.Bytes(), 3)
	if ents, _ := os.ReadDir(s.tmp); len(ents) > 0 {
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "domsnap-upload-") {
				t.Errorf("staged uploads left behind: %s", e.Name())
			}
		}
	}
}

// stagedCopies counts the copies in the session upload folders below tmp,
// each in a folder of its own there (the folder's owner mark aside).
func stagedCopies(t *testing.T, tmp string) int {
	t.Helper()
	copies, err := filepath.Glob(filepath.Join(tmp, "domsnap-upload-*", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(copies)
}

// exportCSV is the CSV the export link serves.
const exportCSV = "name,total\nWidget,3\nGadget,5\n"

// serveExport serves the attachments of /reports-export: a CSV, a body
// that claims 10 GB and trickles, a name with ../, control characters and
// 10,000 characters, and 200 KB of binary.
func serveExport(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/export/csv":
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		io.WriteString(w, exportCSV)
	case "/export/huge":
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="all.bin"`)
		w.Header().Set("Content-Length", "10737418240")
		chunk := make([]byte, 64<<10)
		for i := 0; i < 1<<17; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	case "/export/evil":
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Disposition", `attachment; filename*=UTF-8''..%2F..%2F%01evil%0A`+strings.Repeat("x", 10000)+`.txt`)
		io.WriteString(w, "evil")
	case "/export/bin":
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="data.bin"`)
		b := make([]byte, 200<<10)
		for i := range b {
			b[i] = byte(i * 7)
		}
		w.Write(b)
	}
}

// downloadAnswer is what the download tests read of an answer.
type downloadAnswer struct {
	Action struct {
		Outcome   string
		Downloads []struct {
			ID, Name, SHA256, Status string
			MediaType                string `json:"media_type"`
			Bytes                    *int64
		}
	}
}

// TestActDownloads: an attachment a click starts is saved in the
// session's own folder and reported (id, name, bytes, sha256,
// media_type); browser_download reads it back as text, page by page with
// next_offset, and a binary one as a blob. A body over
// --max-download-bytes is cancelled (too_large), a hundred at once save
// MaxDownloads and report the rest too_many, a hostile name is reduced to
// a safe, bounded one; the session's folder is gone when the server
// stops. Before, the export answered done and nothing was saved.
func TestActDownloads(t *testing.T) {
	web := everydaySite(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state, "--max-download-bytes", "262144")
	v := s.open(t, web.URL+"/reports-export")
	click := func(name string) downloadAnswer {
		t.Helper()
		defer func(start time.Time) { t.Logf("%s: %v", name, time.Since(start)) }(time.Now())
		role := "link"
		if name == "Export all" {
			role = "button"
		}
		res := s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, role, name)})
		b := ok(t, res)
		var d downloadAnswer
		json.Unmarshal(b, &d)
		v = parseView(t, b)
		return d
	}
	d := click("Export CSV")
	if len(d.Action.Downloads) != 1 {
		t.Fatalf("the export reported %+v", d.Action)
	}
	got := d.Action.Downloads[0]
	sum := sha256.Sum256([]byte(exportCSV))
	if got.ID != "d1" || got.Name != "report.csv" || got.Bytes == nil || *got.Bytes != int64(len(exportCSV)) ||
		got.SHA256 != hex.EncodeToString(sum[:]) || got.MediaType != "text/csv" || got.Status != "" {
		t.Fatalf("the export: %+v", got)
	}
	res := s.call(t, "browser_download", map[string]any{"id": "d1"})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("browser_download: %+v", res)
	}
	if tc, ok := res.Content[1].(*sdk.TextContent); !ok || tc.Text != exportCSV {
		t.Fatalf("the CSV read back as %#v", res.Content[1])
	}

	d = click("Export binary")
	bin := d.Action.Downloads[0]
	if bin.Status != "" || bin.MediaType != "application/octet-stream" || *bin.Bytes != 200<<10 {
		t.Fatalf("binary: %+v", bin)
	}
	var whole []byte
	offset := int64(0)
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("no end to the pages")
		}
		res := s.call(t, "browser_download", map[string]any{"id": bin.ID, "offset": offset, "model_bytes": 8192})
		if res.IsError || len(res.Content) != 2 {
			t.Fatalf("page at %d: %s", offset, res.Content[0].(*sdk.TextContent).Text)
		}
		er, ok := res.Content[1].(*sdk.EmbeddedResource)
		if !ok {
			t.Fatalf("a binary part as %T", res.Content[1])
		}
		whole = append(whole, er.Resource.Blob...)
		var head struct {
			NextOffset *int64 `json:"next_offset"`
		}
		json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &head)
		if head.NextOffset == nil {
			break
		}
		offset = *head.NextOffset
	}
	if len(whole) != 200<<10 || whole[12345] != byte(12345*7%256) {
		t.Fatalf("read back %d bytes", len(whole))
	}

	if d = click("Export everything"); len(d.Action.Downloads) != 1 || d.Action.Downloads[0].Status != "too_large" {
		t.Fatalf("10 GB: %+v", d.Action.Downloads)
	}
	if code := failed(t, s.call(t, "browser_download", map[string]any{"id": d.Action.Downloads[0].ID})); code != "invalid_request" {
		t.Errorf("reading a cancelled download: %s", code)
	}
	d = click("Evil name")
	if n := d.Action.Downloads[0].Name; strings.ContainsAny(n, "/\\\x01\n") || strings.HasPrefix(n, ".") || len(n) > 256 || !strings.Contains(n, "evil") {
		t.Errorf("the hostile name became %q", n)
	}
	// Up to MaxDownloads (16) are saved, one a click; then each is
	// cancelled as too_many, also a hundred asked for at once (of which
	// the browser itself starts only some). Each link's download is in
	// its own click's answer: the click's navigation was handed to the
	// downloads, and the answer waits for the browser to tell of it, which
	// on a loaded machine may come after the click's wait ended. The
	// hundred are started by the page, not by a navigation, so the ones
	// told of late are listed by the answer after; none comes here.
	var reported []downloadReportSeen
	for i := 3; i <= 17; i++ {
		d = click("Export CSV")
		if len(d.Action.Downloads) != 1 {
			t.Fatalf("click %d reported %+v", i+1, d.Action.Downloads)
		}
		reported = append(reported, seenOf(d)...)
	}
	d = click("Export all")
	reported = append(reported, seenOf(d)...)
	for i, x := range reported {
		want := ""
		if i >= 13 {
			want = "too_many"
		}
		if x.status != want || (i < 15 && x.name != "report.csv") {
			t.Errorf("download %d: %+v, want status %q", i+4, x, want)
		}
	}
	t.Logf("a hundred asked for past the bound: %d reported", len(reported)-15)
	folder := filepath.Join(state, "downloads")
	ents, _ := os.ReadDir(folder)
	if len(ents) != 1 {
		t.Fatalf("%d session folders", len(ents))
	}
	files, _ := os.ReadDir(filepath.Join(folder, ents[0].Name()))
	var size int64
	for _, f := range files {
		fi, _ := f.Info()
		size += fi.Size()
	}
	if size > 16*262144 {
		t.Errorf("the session's folder holds %d bytes", size)
	}
	s.stop(t)
	if ents, _ := os.ReadDir(folder); len(ents) != 0 {
		t.Errorf("the session's downloads are still there after the server stopped")
	}
}

// downloadReportSeen is what a download test reads of one reported
// download.
type downloadReportSeen struct{ name, status string }

func seenOf(d downloadAnswer) []downloadReportSeen {
	var out []downloadReportSeen
	for _, x := range d.Action.Downloads {
		out = append(out, downloadReportSeen{x.Name, x.Status})
	}
	return out
}
