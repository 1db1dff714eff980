package live

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// envelopeCapture has a typed value, a pre-filled value attribute, a
// textarea text and value, a selected option and a button caption.
const envelopeCapture = `{"documents":[{"nodes":{"parentIndex":[-1,0,0,0,3,0,0],"nodeType":[9,1,1,1,3,1,1],` +
	`"nodeName":[0,1,2,3,4,5,2],"nodeValue":[-1,-1,-1,-1,6,-1,-1],"attributes":[[],[],[7,8],[],[],[],[9,10,7,11]],` +
	`"inputValue":{"index":[2],"value":[12]},"textValue":{"index":[3],"value":[13]},"optionSelected":{"index":[5]}},` +
	`"layout":{"nodeIndex":[0,1,2,3,6],"styles":[[],[14,15],[14,15],[14,15],[14,15]]}}],` +
	`"strings":["#document","HTML","INPUT","TEXTAREA","#text","OPTION","CANARY-AREA","value","CANARY-ATTR","type","submit","Send","CANARY-TYPED","CANARY-TAVAL","inline","visible"]}`

var envelopeCanaries = []string{"CANARY-AREA", "CANARY-ATTR", "CANARY-TYPED", "CANARY-TAVAL", "optionSelected"}

// captureOf publishes one observation of capture through a fake tab and
// returns it with the bytes the tab sent.
func captureOf(t *testing.T, capture string) (*Snapshot, []byte, error) {
	t.Helper()
	f := &fakeTab{capture: []byte(capture)}
	s, err := NewSession(f, SessionOptions{Browser: "Chrome/156"})
	if err != nil {
		t.Fatal(err)
	}
	var sent []byte
	s.onCapture = func(raw []byte) { sent = append([]byte(nil), raw...) }
	snap, err := s.Capture(context.Background(), ReadOptions{})
	return snap, sent, err
}

func TestEnvelopeScrubs(t *testing.T) {
	s, sent, err := captureOf(t, envelopeCapture)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range envelopeCanaries {
		if !bytes.Contains(sent, []byte(c)) {
			t.Fatalf("%s not in the capture sent: the test would prove nothing", c)
		}
	}
	e := s.Envelope()
	for _, c := range envelopeCanaries {
		if bytes.Contains(e.Capture, []byte(c)) {
			t.Errorf("%s in the envelope", c)
		}
	}
	if !bytes.Contains(e.Capture, []byte(`"Send"`)) {
		t.Error("the submit button's caption was scrubbed")
	}
	var file bytes.Buffer
	if err := snapshot.WriteSnapshot(&file, e, false); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(file.Bytes(), []byte("CANARY")) {
		t.Error("a canary in the written file")
	}
	in, err := snapshot.Load(file.Bytes(), snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := snapshot.DecodeCapture(sent, snapshot.CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Len() != in.Tree.Len() || in.Revision != s.Revision {
		t.Errorf("loaded %d nodes at %s, want %d at %s", in.Tree.Len(), in.Revision, want.Len(), s.Revision)
	}
	if diff := cmp.Diff(snapshot.DefaultComputedStyles(), e.ComputedStyles); diff != "" {
		t.Errorf("styles (-want +got):\n%s", diff)
	}
}

// TestSnapshotHandsOutNoValue walks everything a Snapshot's exported API
// gives: every exported field and the results of every exported method
// that takes no argument, through structs, pointers, slices and maps. No
// string or byte slice in it may hold a planted value. A field or method
// added later that hands out the capture as sent fails here.
func TestSnapshotHandsOutNoValue(t *testing.T) {
	s, sent, err := captureOf(t, envelopeCapture)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range envelopeCanaries[:4] {
		if !bytes.Contains(sent, []byte(c)) {
			t.Fatalf("%s not in the capture sent", c)
		}
	}
	var texts []string
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > 8 || !v.IsValid() {
			return
		}
		switch v.Kind() {
		case reflect.String:
			texts = append(texts, v.String())
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				texts = append(texts, string(v.Bytes()))
				return
			}
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), depth+1)
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Key(), depth+1)
				walk(it.Value(), depth+1)
			}
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if v.Kind() == reflect.Pointer {
				if seen[v.Pointer()] {
					return
				}
				seen[v.Pointer()] = true
			}
			walk(v.Elem(), depth+1)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), depth+1)
				}
			}
		}
	}
	v := reflect.ValueOf(s)
	walk(v, 0)
	methods := 0
	for i := 0; i < v.NumMethod(); i++ {
		m := v.Method(i)
		if m.Type().NumIn() != 0 {
			continue
		}
		methods++
		for _, r := range m.Call(nil) {
			walk(r, 0)
		}
	}
	if methods == 0 || len(texts) == 0 {
		t.Fatal("the walk saw nothing")
	}
	all := strings.Join(texts, "\x00")
	if !strings.Contains(all, `"Send"`) {
		t.Fatal("the walk did not reach the scrubbed capture")
	}
	for _, c := range envelopeCanaries[:4] {
		if strings.Contains(all, c) {
			t.Errorf("%s handed out by a Snapshot", c)
		}
	}
}

// TestScrubErrorSurfaces: a capture the tree decoder reads but the scrub
// cannot (a member named twice in a document) fails the observation with
// the scrub's error, and nothing is published.
func TestScrubErrorSurfaces(t *testing.T) {
	bad := strings.Replace(envelopeCapture, `{"documents":[{"nodes"`, `{"documents":[{"title":-1,"title":-1,"nodes"`, 1)
	if _, err := snapshot.DecodeCapture([]byte(bad), snapshot.CaptureOptions{}); err != nil {
		t.Fatalf("the tree decoder refuses it too, so the test would prove nothing: %v", err)
	}
	snap, _, err := captureOf(t, bad)
	if snap != nil {
		t.Error("a snapshot was published")
	}
	var e *errcode.Error
	if !errors.As(err, &e) || e.Code != errcode.MalformedSnapshot || e.Path != "/capture/documents/0/title" {
		t.Fatalf("got %v, want malformed_snapshot at /capture/documents/0/title", err)
	}
}
