package snapshot

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/domsnap/domsnap/errcode"
)

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func testEnvelope(t testing.TB) Envelope {
	return Envelope{
		Revision:   "r1.5f3a9c.n2.o7",
		CapturedAt: "2026-11-30T08:00:00Z",
		Browser:    "Chrome/156.0.8078.108",
		Capture:    readChromium(t.(*testing.T), "features"),
	}
}

func TestFileRevision(t *testing.T) {
	// SHA-256 of the empty input begins e3b0c44298fc1c14.
	if got := FileRevision(nil); got != "r1.file.e3b0c44298fc1c14" {
		t.Errorf("FileRevision(empty) = %q", got)
	}
	if got := FileRevision([]byte("abc")); got != "r1.file.ba7816bf8f01cfea" {
		t.Errorf("FileRevision(abc) = %q", got)
	}
}

func TestWriteSnapshotGolden(t *testing.T) {
	var b bytes.Buffer
	e := Envelope{Revision: "r1.abc.n1.o2", CapturedAt: "2026-11-30T08:00:00Z", Browser: "Chrome/<156>&", Capture: []byte(` {"documents":[],"strings":[]} `)}
	if err := WriteSnapshot(&b, e, false); err != nil {
		t.Fatal(err)
	}
	want := `{"format":"domsnap-snapshot/1","revision":"r1.abc.n1.o2","captured_at":"2026-11-30T08:00:00Z","browser":"Chrome/<156>&","computed_styles":["display","visibility"],"capture":{"documents":[],"strings":[]}}` + "\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriteLoadRoundTrip(t *testing.T) {
	e := testEnvelope(t)
	want := dumpTree(mustDecode(t, e.Capture))
	for _, compress := range []bool{false, true} {
		var first, second bytes.Buffer
		if err := WriteSnapshot(&first, e, compress); err != nil {
			t.Fatal(err)
		}
		if err := WriteSnapshot(&second, e, compress); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("gzip=%t: two writes differ", compress)
		}
		if got := isGzip(first.Bytes()); got != compress {
			t.Fatalf("gzip=%t: magic bytes present %t", compress, got)
		}
		in, err := Load(first.Bytes(), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.Format != FormatEnvelope || in.Revision != e.Revision || in.Gzip != compress {
			t.Errorf("gzip=%t: format %s revision %q gzip %t", compress, in.Format, in.Revision, in.Gzip)
		}
		wantEnv := &Envelope{Format: FormatName, Revision: e.Revision, CapturedAt: e.CapturedAt, Browser: e.Browser, ComputedStyles: []string{"display", "visibility"}}
		if diff := cmp.Diff(wantEnv, in.Envelope, cmpopts.IgnoreUnexported(Envelope{})); diff != "" {
			t.Errorf("envelope (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(want, dumpTree(in.Tree)); diff != "" {
			t.Errorf("gzip=%t: tree (-want +got):\n%s", compress, diff)
		}
	}
}

// TestEnvelopeComputedStyles: the style order recorded in an envelope, or
// given by the caller for a bare capture, decides which value is which.
func TestEnvelopeComputedStyles(t *testing.T) {
	m := baseCapture()
	for _, st := range at(m, "/documents/0/layout/styles").([]any) {
		if s := st.([]any); len(s) == 2 {
			s[0], s[1] = s[1], s[0]
		}
	}
	swapped := marshal(t, m)
	base := dumpTree(mustDecode(t, marshal(t, baseCapture())))
	// Read in the default order, the swapped columns are refused rather than
	// misread.
	if _, err := DecodeCapture(swapped, CaptureOptions{}); errcode.CodeOf(err) != errcode.MalformedSnapshot {
		t.Fatalf("swapped styles in the default order: %v, want malformed_snapshot", err)
	}
	var b bytes.Buffer
	e := Envelope{Revision: "r1.x.n1.o1", ComputedStyles: []string{"visibility", "display"}, Capture: swapped}
	if err := WriteSnapshot(&b, e, false); err != nil {
		t.Fatal(err)
	}
	in, err := Load(b.Bytes(), LoadOptions{ComputedStyles: []string{"display", "visibility"}})
	if err != nil {
		t.Fatal(err)
	}
	assertLines(t, base, dumpTree(in.Tree))
	in, err = Load(swapped, LoadOptions{ComputedStyles: []string{"visibility", "display"}})
	if err != nil {
		t.Fatal(err)
	}
	assertLines(t, base, dumpTree(in.Tree))
}

func TestLoadBareCapture(t *testing.T) {
	data := readChromium(t, "features")
	want := dumpTree(mustDecode(t, data))
	for _, c := range []struct {
		name string
		data []byte
		gzip bool
	}{{"plain", data, false}, {"gzip", gz(t, data), true}, {"leading space", append([]byte(" \n"), data...), false}} {
		in, err := Load(c.data, LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if in.Format != FormatCapture || in.Revision != FileRevision(c.data) || in.Gzip != c.gzip || in.Envelope != nil {
			t.Errorf("%s: format %s revision %q gzip %t", c.name, in.Format, in.Revision, in.Gzip)
		}
		if !regexp.MustCompile(`^r1\.file\.[0-9a-f]{16}$`).MatchString(in.Revision) {
			t.Errorf("%s: revision %q", c.name, in.Revision)
		}
		if diff := cmp.Diff(want, dumpTree(in.Tree)); diff != "" {
			t.Errorf("%s: tree (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestLoadHTML(t *testing.T) {
	data := []byte("<!DOCTYPE html><p>hi</p>")
	in, err := Load(data, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Format != FormatHTML || in.Revision != FileRevision(data) || in.Charset == "" || in.Tree == nil {
		t.Errorf("format %s revision %q charset %q", in.Format, in.Revision, in.Charset)
	}
	in, err = Load(gz(t, data), LoadOptions{})
	if err != nil || in.Format != FormatHTML || !in.Gzip {
		t.Errorf("gzip HTML: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	e := testEnvelope(t)
	var ok bytes.Buffer
	if err := WriteSnapshot(&ok, e, false); err != nil {
		t.Fatal(err)
	}
	env := ok.String()
	badCapture := strings.Replace(string(marshal(t, baseCapture())), `"parentIndex":[-1,0,1,1`, `"parentIndex":[-1,0,1,9`, 1)
	gzOK := gz(t, ok.Bytes())
	for _, c := range []struct {
		name string
		data string
		code errcode.Code
		path string
	}{
		{"binary", "\x00\x01\x02", errcode.UnsupportedInput, ""},
		{"zip", "PK\x03\x04rest", errcode.UnsupportedInput, ""},
		{"json object of neither kind", `{"a":1}`, errcode.UnsupportedInput, ""},
		{"empty json object", `{}`, errcode.UnsupportedInput, ""},
		{"broken json object", `{"a":`, errcode.MalformedSnapshot, ""},
		{"unknown format", strings.Replace(env, FormatName, "domsnap-snapshot/2", 1), errcode.UnsupportedInput, "/format"},
		{"format not a string", `{"format":1}`, errcode.MalformedSnapshot, "/format"},
		{"missing revision", `{"format":"domsnap-snapshot/1","capture":{}}`, errcode.MalformedSnapshot, "/revision"},
		{"revision with a URL", strings.Replace(env, e.Revision, "r1.http://x/", 1), errcode.MalformedSnapshot, "/revision"},
		{"revision not r1", strings.Replace(env, e.Revision, "r2.a.n1.o1", 1), errcode.MalformedSnapshot, "/revision"},
		{"revision too long", strings.Replace(env, e.Revision, "r1."+strings.Repeat("a", maxRevisionBytes-2), 1), errcode.MalformedSnapshot, "/revision"},
		{"captured_at not a time", strings.Replace(env, e.CapturedAt, "yesterday", 1), errcode.MalformedSnapshot, "/captured_at"},
		{"missing capture", `{"format":"domsnap-snapshot/1","revision":"r1.a.n1.o1"}`, errcode.MalformedSnapshot, "/capture"},
		{"capture not an object", `{"format":"domsnap-snapshot/1","revision":"r1.a.n1.o1","capture":[]}`, errcode.MalformedSnapshot, "/capture"},
		{"bad capture inside", `{"format":"domsnap-snapshot/1","revision":"r1.a.n1.o1","capture":` + badCapture + `}`, errcode.MalformedSnapshot, "/capture/documents/0/nodes/parentIndex/3"},
		{"duplicate revision", `{"format":"domsnap-snapshot/1","revision":"r1.a.n1.o1","revision":"r1.a.n1.o2","capture":{}}`, errcode.MalformedSnapshot, "/revision"},
		{"styles lack visibility", `{"format":"domsnap-snapshot/1","revision":"r1.a.n1.o1","computed_styles":["display"],"capture":` + string(marshal(t, baseCapture())) + `}`, errcode.UnsupportedInput, ""},
		{"truncated envelope", env[:len(env)/2], errcode.MalformedSnapshot, ""},
		{"trailing data", env + "x", errcode.MalformedSnapshot, ""},
		{"truncated gzip", string(gzOK[:len(gzOK)/2]), errcode.MalformedSnapshot, ""},
		{"gzip header only", "\x1f\x8b\x08", errcode.UnsupportedInput, ""},
		{"gzip in gzip", string(gz(t, gzOK)), errcode.UnsupportedInput, ""},
		{"bad capture bare", badCapture, errcode.MalformedSnapshot, "/documents/0/nodes/parentIndex/3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, err := Load([]byte(c.data), LoadOptions{})
			var e *errcode.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %+v, %v; want %s", in, err, c.code)
			}
			if e.Code != c.code || (c.path != "" && e.Path != c.path) {
				t.Errorf("got %s %q (%v), want %s %q", e.Code, e.Path, err, c.code, c.path)
			}
		})
	}
}

func TestGunzipBound(t *testing.T) {
	const limit = 1000
	for _, n := range []int{limit - 1, limit, limit + 1} {
		out, err := gunzip(gz(t, bytes.Repeat([]byte{'a'}, n)), limit)
		if n <= limit {
			if err != nil || len(out) != n {
				t.Errorf("%d bytes: got %d, %v", n, len(out), err)
			}
		} else if errcode.CodeOf(err) != errcode.UnsupportedInput {
			t.Errorf("%d bytes over a %d cap: %v", n, limit, err)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteSnapshotErrors(t *testing.T) {
	good := testEnvelope(t)
	for _, c := range []struct {
		name string
		edit func(*Envelope)
		code errcode.Code
	}{
		{"unknown format", func(e *Envelope) { e.Format = "x" }, errcode.UnsupportedInput},
		{"bad revision", func(e *Envelope) { e.Revision = "" }, errcode.MalformedSnapshot},
		{"bad time", func(e *Envelope) { e.CapturedAt = "now" }, errcode.MalformedSnapshot},
		{"styles lack display", func(e *Envelope) { e.ComputedStyles = []string{"visibility"} }, errcode.UnsupportedInput},
		{"capture empty", func(e *Envelope) { e.Capture = nil }, errcode.MalformedSnapshot},
		{"capture an array", func(e *Envelope) { e.Capture = []byte(`[]`) }, errcode.MalformedSnapshot},
		{"capture two values", func(e *Envelope) { e.Capture = []byte(`{} {}`) }, errcode.MalformedSnapshot},
		{"capture truncated", func(e *Envelope) { e.Capture = e.Capture[:100] }, errcode.MalformedSnapshot},
	} {
		e := good
		c.edit(&e)
		var b bytes.Buffer
		if err := WriteSnapshot(&b, e, false); errcode.CodeOf(err) != c.code {
			t.Errorf("%s: got %v, want %s", c.name, err, c.code)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before failing", c.name, b.Len())
		}
	}
	for _, compress := range []bool{false, true} {
		if err := WriteSnapshot(failWriter{}, good, compress); errcode.CodeOf(err) != errcode.CaptureFailed {
			t.Errorf("failing writer, gzip=%t: %v", compress, err)
		}
	}
}

// TestLoadCanary: a saved snapshot of the features page keeps no form value
// in the tree or in the returned envelope.
func TestLoadCanary(t *testing.T) {
	var b bytes.Buffer
	e := testEnvelope(t)
	var canaries []string
	e.Capture, canaries = featuresWithCanaries(t)
	if err := WriteSnapshot(&b, e, true); err != nil {
		t.Fatal(err)
	}
	in, err := Load(b.Bytes(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Envelope.Capture != nil {
		t.Error("Load kept the capture bytes")
	}
	for _, line := range dumpTree(in.Tree) {
		for _, c := range canaries {
			if strings.Contains(line, c) {
				t.Errorf("canary %s in the tree: %s", c, line)
			}
		}
	}
}

func TestRevisionBound(t *testing.T) {
	for _, c := range []struct {
		rev string
		ok  bool
	}{
		{"r1." + strings.Repeat("a", maxRevisionBytes-4), true},
		{"r1." + strings.Repeat("a", maxRevisionBytes-3), true},
		{"r1." + strings.Repeat("a", maxRevisionBytes-2), false},
		{"r1.", false},
		{"r1.a", true},
		{"r1.file.0c1d2e3f4a5b6c7d", true},
		{"r1.a b", false},
		{"r1.a/b", false},
		{"R1.a", false},
	} {
		if got := validRevision(c.rev); got != c.ok {
			t.Errorf("validRevision(%q) [%d bytes] = %t, want %t", c.rev, len(c.rev), got, c.ok)
		}
	}
}

// FuzzLoad: any input loads or fails with one of the codes Load documents,
// and never panics.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"format":"domsnap-snapshot/1","revision":"r1.a.n1.o1","capture":{"documents":[],"strings":[]}}`))
	f.Add([]byte(`{"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[9],"nodeName":[0]},"layout":{"nodeIndex":[],"styles":[]}}],"strings":["#document"]}`))
	f.Add([]byte("<!DOCTYPE html><p>x</p>"))
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"))
	for _, s := range hostileSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Load(data, LoadOptions{})
		if err != nil {
			switch errcode.CodeOf(err) {
			case errcode.MalformedSnapshot, errcode.UnsupportedInput:
			default:
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if in.Tree == nil || in.Revision == "" || in.Format == 0 {
			t.Fatalf("incomplete input %+v", in)
		}
		checkTree(t, in.Tree)
	})
}

// TestSniffBinaryBound: binary bytes count within the first sniffBytes
// bytes only.
func TestSniffBinaryBound(t *testing.T) {
	for _, c := range []struct {
		at   int
		want Format
	}{{sniffBytes - 2, 0}, {sniffBytes - 1, 0}, {sniffBytes, FormatHTML}} {
		b := bytes.Repeat([]byte("a"), sniffBytes+10)
		b[c.at] = 0x01
		if got := sniff(b); got != c.want {
			t.Errorf("binary byte at %d: sniffed %s, want %s", c.at, got, c.want)
		}
	}
}

// TestErrorsQuoteNoValue: a syntax error next to a form value names the
// position, not the byte.
func TestErrorsQuoteNoValue(t *testing.T) {
	_, err := DecodeCapture([]byte(`{"strings":["a" Secret]}`), CaptureOptions{})
	if err == nil || strings.Contains(err.Error(), "S") {
		t.Errorf("got %v", err)
	}
	_, err = DecodeCapture([]byte(`{"strings":["a"}`), CaptureOptions{})
	if err == nil || !strings.Contains(err.Error(), `'}'`) {
		t.Errorf("punctuation not named: %v", err)
	}
}

// TestPropertyWriteLoad: any generated capture written as an envelope, plain
// or compressed, loads back with its revision, metadata and tree (the
// scrubbed tree: text inside editing hosts is not saved).
func TestPropertyWriteLoad(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		capture, err := json.Marshal(encodeCapture(genCapture(t)))
		if err != nil {
			t.Fatal(err)
		}
		e := Envelope{
			Revision: "r1." + rapid.StringMatching(`[a-zA-Z0-9._-]{1,40}`).Draw(t, "revision"),
			Browser:  rapid.String().Draw(t, "browser"),
			Capture:  capture,
		}
		compress := rapid.Bool().Draw(t, "gzip")
		var b bytes.Buffer
		if err := WriteSnapshot(&b, e, compress); err != nil {
			t.Fatal(err)
		}
		in, err := Load(b.Bytes(), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := DecodeCapture(capture, CaptureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.Revision != e.Revision || in.Gzip != compress || in.Format != FormatEnvelope {
			t.Fatalf("revision %q gzip %t format %s", in.Revision, in.Gzip, in.Format)
		}
		// Invalid UTF-8 is written as U+FFFD, as encoding/json does.
		if utf8.ValidString(e.Browser) && in.Envelope.Browser != e.Browser {
			t.Fatalf("browser %q, want %q", in.Envelope.Browser, e.Browser)
		}
		if diff := cmp.Diff(dumpTreeScrubbed(want), dumpTree(in.Tree)); diff != "" {
			t.Fatalf("tree (-want +got):\n%s", diff)
		}
	})
}
