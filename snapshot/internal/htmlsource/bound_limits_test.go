package htmlsource

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/hostile"
	"github.com/domsnap/domsnap/limits"
)

func isTooLarge(err error) bool {
	return errors.Is(err, errcode.ErrTooLarge) && errcode.CodeOf(err) == errcode.UnsupportedInput
}
func TestHTMLNodeBound(t *testing.T) {
	// "<i></i>" repeated: each start tag is one token. The parser adds
	// html, head and body, so the tree has four nodes more than there are
	// tags: 96 tags make 100 nodes.
	for _, c := range []struct {
		tags, bound     int
		ok, prepassOver bool
	}{
		{95, 100, true, false},
		{96, 100, true, false},   // at the bound
		{97, 100, false, false},  // over it by the built tree only
		{100, 100, false, false}, // tokens at the bound, tree over it
		{101, 100, false, true},  // refused before parsing
	} {
		page := []byte(strings.Repeat("<i></i>", c.tags))
		if pre := htmlScan(page, c.bound); pre.over != c.prepassOver {
			t.Errorf("%d tags, bound %d: prepass over=%t after %d tokens", c.tags, c.bound, pre.over, pre.tokens)
		}
		tr, _, _, err := Parse(page, "", c.bound)
		if c.ok {
			if err != nil || tr.Len() != c.tags+4 {
				t.Errorf("%d tags, bound %d: %v", c.tags, c.bound, err)
			}
		} else if !isTooLarge(err) {
			t.Errorf("%d tags, bound %d: %v", c.tags, c.bound, err)
		}
	}
	// The token pass stops at the first token over the bound.
	if pre := htmlScan([]byte(strings.Repeat("<b>", 1000)), 10); !pre.over || pre.tokens != 11 {
		t.Errorf("prepass read %d tokens", pre.tokens)
	}
}

func TestHTMLBuiltTreeBound(t *testing.T) {
	page := hostile.Reopened(20, 60)
	pre := htmlScan(page, limits.MaxTreeNodes)
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for n := doc; n != nil; n = nextHTML(n) {
		nodes++
	}
	if nodes < 5*pre.tokens {
		t.Fatalf("the page does not multiply: %d tokens, %d nodes", pre.tokens, nodes)
	}
	for _, c := range []struct {
		bound int
		ok    bool
	}{{nodes - 1, false}, {nodes, true}, {nodes + 1, true}, {pre.tokens, false}} {
		_, _, _, err := Parse(page, "", c.bound)
		if c.ok && err != nil || !c.ok && !isTooLarge(err) {
			t.Errorf("%d nodes, bound %d: %v", nodes, c.bound, err)
		}
	}
}

func nextHTML(n *html.Node) *html.Node {
	if n.FirstChild != nil {
		return n.FirstChild
	}
	for n != nil && n.NextSibling == nil {
		n = n.Parent
	}
	if n == nil {
		return nil
	}
	return n.NextSibling
}

func BenchmarkHTMLScan(b *testing.B) {
	for _, size := range []int{10_000, 100_000} {
		page := htmlBenchPage(size)
		b.Run("nodes="+strconv.Itoa(size), func(b *testing.B) {
			var scan, parse time.Duration
			for b.Loop() {
				t0 := time.Now()
				if pre := htmlScan(page, limits.MaxTreeNodes); pre.over {
					b.Fatal("over")
				}
				t1 := time.Now()
				if _, err := html.Parse(bytes.NewReader(page)); err != nil {
					b.Fatal(err)
				}
				scan += t1.Sub(t0)
				parse += time.Since(t1)
			}
			b.ReportMetric(float64(scan)/float64(parse), "ratio-vs-html.Parse")
		})
	}
}

func TestHTMLScanShortcut(t *testing.T) {
	// Whitespace, the doctype, then "x<b>" repeated and a trailing "x": a
	// text token before every "<" and one after the last, the most tokens
	// a page can make, 2*51+1 for 51 "<".
	const k = 50
	page := []byte(" <!DOCTYPE HTML>" + strings.Repeat("x<b>", k) + "x")
	lt := k + 1
	for _, c := range []struct {
		bound   int
		over    bool
		counted bool
	}{
		{2*lt + 2, false, false},
		{2*lt + 1, false, false}, // at the shortcut's bound: no count
		{2 * lt, true, true},     // under it: counted, and over
	} {
		pre := htmlScan(page, c.bound)
		if pre.over != c.over {
			t.Errorf("bound %d: over %t after %d tokens", c.bound, pre.over, pre.tokens)
		}
		if counted := pre.tokens > 2; counted != c.counted {
			t.Errorf("bound %d: %d tokens counted", c.bound, pre.tokens)
		}
		if got := string(page[pre.nameStart:pre.nameEnd]); got != "HTML" {
			t.Errorf("bound %d: doctype name %q", c.bound, got)
		}
	}
	// Counted in full, the page makes exactly the shortcut's bound.
	if pre := htmlScan(page, 1<<20); pre.tokens != 2 {
		t.Errorf("shortcut read %d tokens", pre.tokens)
	}
	if pre := htmlScan(page, 2*lt); pre.tokens != 2*lt+1 {
		t.Errorf("full count %d tokens, want %d", pre.tokens, 2*lt+1)
	}
}

func TestHTMLScanShortcutKeepsEdits(t *testing.T) {
	for _, c := range []struct {
		page  string
		edits int
	}{
		{"<!doctype html><p>a</>b", 1},
		{"<!doctype html><p>a<!-- &amp; -->b", 1},
		{"<!doctype html><p>a<?php echo '&lt;'; ?>b", 1},
		{"<!doctype html><p>a</ x &amp;>b", 1},
		{"<!DOCTYPE HTML><p>a</>b<!--&-->", 3}, // the name, "</>", the comment
		{"<!doctype html><p>a &amp; b<!-- plain -->", 0},
		{"<!doctype html><p>a &amp; b</p>", 0},
	} {
		if !htmlMayEdit([]byte(c.page)) && c.edits > 0 {
			t.Errorf("%q: htmlMayEdit says no", c.page)
		}
		pre := htmlScan([]byte(c.page), 1<<20)
		if len(pre.edits) != c.edits {
			t.Errorf("%q: %d edits, want %d", c.page, len(pre.edits), c.edits)
		}
	}
	if htmlMayEdit([]byte("<!doctype html><p>a &amp; b</p>")) {
		t.Error("a page with no comment and no </> takes the full scan")
	}
}
