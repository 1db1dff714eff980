package snapshot

import (
	"errors"
	"fmt"
	"github.com/domsnap/domsnap/limits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot/internal/htmlsource"
	"github.com/domsnap/domsnap/snapshot/internal/style"
)

// htmlCheckTree checks the invariants every tree from ParseHTML keeps:
// parents precede children, a bounded pre-order walk reaches every node
// exactly once and ends, child links agree with parent links, exclusion is
// inherited, the id and label-for indexes agree with a brute-force search,
// no private attribute leaks, and no control value is kept.
func htmlCheckTree(t interface {
	Helper()
	Fatalf(string, ...any)
}, tr *domtree.Tree) {
	t.Helper()
	n := tr.Len()
	root := tr.Root()
	if root.Kind() != domtree.Document || root.Index() != 0 {
		t.Fatalf("root is %s at %d", root.Kind(), root.Index())
	}
	seen := make([]int, n)
	steps := 0
	for c := root; c.Valid(); c = c.Next(root, true) {
		if steps++; steps > n {
			t.Fatalf("walk did not end after %d steps", steps)
		}
		seen[c.Index()]++
	}
	for i, k := range seen {
		if k != 1 {
			t.Fatalf("walk reached node %d %d times", i, k)
		}
	}
	children := 0
	firstID := map[string]int{}
	labels := map[string][]int{}
	for i := 0; i < n; i++ {
		node := tr.At(i)
		if i > 0 {
			p := node.Parent()
			if !p.Valid() || p.Index() >= i {
				t.Fatalf("node %d has parent %d", i, p.Index())
			}
			if p.Excluded() && !node.Excluded() {
				t.Fatalf("node %d not excluded under excluded parent %d", i, p.Index())
			}
		}
		for c := range node.Children() {
			children++
			if c.Parent() != node {
				t.Fatalf("child %d of %d names parent %d", c.Index(), i, c.Parent().Index())
			}
		}
		if !node.IsElement() {
			if node.Kind() == domtree.Text && node.Parent().Is("textarea") && node.Data() != "" {
				t.Fatalf("textarea text kept at node %d", i)
			}
			continue
		}
		for _, a := range node.Attrs() {
			if strings.ContainsAny(a.Name, " \t\n\f\r") {
				t.Fatalf("node %d has attribute %q", i, a.Name)
			}
			if a.Name == "value" && node.Is("input") && !node.AttrEquals("type", "button") &&
				!node.AttrEquals("type", "submit") && !node.AttrEquals("type", "reset") {
				t.Fatalf("input %d kept its value", i)
			}
		}
		if id, ok := node.Attr("id"); ok && id != "" {
			if _, dup := firstID[id]; !dup {
				firstID[id] = i
			}
		}
		if node.Is("label") {
			if f, ok := node.Attr("for"); ok && f != "" {
				labels[f] = append(labels[f], i)
			}
		}
	}
	if children != n-1 {
		t.Fatalf("child links reach %d nodes, want %d", children, n-1)
	}
	for id, i := range firstID {
		if got, ok := tr.ElementByID(id); !ok || got.Index() != i {
			t.Fatalf("ElementByID(%q) = %d, want %d", id, got.Index(), i)
		}
	}
	for f, want := range labels {
		var got []int
		for l := range tr.LabelsFor(f) {
			got = append(got, l.Index())
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("LabelsFor(%q) = %v, want %v", f, got, want)
		}
	}
	if _, ok := tr.ElementByID("no-such-id-anywhere"); ok {
		t.Fatalf("ElementByID found an id nobody has")
	}
}

// htmlCheckParse parses data and checks the result: either a tree that
// keeps the invariants, or a coded error of the kinds ParseHTML may return.
func htmlCheckParse(t interface {
	Helper()
	Fatalf(string, ...any)
}, data []byte) {
	t.Helper()
	tr, info, work, err := htmlsource.Parse(data, "", limits.MaxTreeNodes)
	// Matching is bounded by its budget, and nothing is matched without
	// being charged: slow inputs show up here as a failure.
	if info.StyleMatchSteps > style.MatchSteps || work > info.StyleMatchSteps {
		t.Fatalf("matching charged %d steps (budget %d) for %d units of work", info.StyleMatchSteps, style.MatchSteps, work)
	}
	if err != nil {
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.UnsupportedInput || tr != nil {
			t.Fatalf("error %v (%T), tree %v", err, err, tr != nil)
		}
		return
	}
	if info.Charset == "" {
		t.Fatalf("no charset reported")
	}
	htmlCheckTree(t, tr)
}

// htmlGenPage draws a page from a small vocabulary chosen to hit the
// parser's and the cascade's special cases.
func htmlGenPage(t *rapid.T) string {
	tags := []string{"div", "p", "span", "table", "tr", "td", "th", "tbody", "ul", "ol", "li", "label", "input",
		"textarea", "select", "option", "template", "form", "iframe", "details", "summary", "b", "svg", "math",
		"style", "noscript", "dialog", "x-el", "button", "br", "head", "body", "html", "title", "script"}
	attrs := []string{`id=a`, `id=b`, `id=c`, `for=a`, `for=b`, `class=x`, `class="x y"`, `hidden`, `open`,
		`style="display:none"`, `style="display:contents"`, `style="visibility:hidden"`, `style="display:flex"`,
		`style="visibility:visible"`, `type=radio`, `type=checkbox`, `type=hidden`, `type=submit`, `checked`,
		`name=r`, `form=a`, `value=secret`, `shadowrootmode=open`, `aria-hidden=true`, `popover`}
	css := []string{".x{display:none}", ".y{visibility:hidden}", "#a{display:block}", "div>p{display:inline}",
		"[hidden]{display:block}", ":checked{display:none}", "li:is(.x){float:left}", "@media all{p{display:none}}",
		"x-el:not(:defined){display:none}", ".x .y{position:absolute}", "a{", "}", "(", "p::before{display:none}"}
	var b strings.Builder
	k := rapid.IntRange(0, 60).Draw(t, "tokens")
	for i := 0; i < k; i++ {
		switch rapid.IntRange(0, 5).Draw(t, "what") {
		case 0, 1:
			tag := rapid.SampledFrom(tags).Draw(t, "tag")
			b.WriteString("<" + tag)
			for j := rapid.IntRange(0, 3).Draw(t, "attrs"); j > 0; j-- {
				b.WriteString(" " + rapid.SampledFrom(attrs).Draw(t, "attr"))
			}
			b.WriteString(">")
			if tag == "style" {
				for j := rapid.IntRange(0, 3).Draw(t, "rules"); j > 0; j-- {
					b.WriteString(rapid.SampledFrom(css).Draw(t, "css"))
				}
				b.WriteString("</style>")
			}
		case 2:
			b.WriteString("</" + rapid.SampledFrom(tags).Draw(t, "end") + ">")
		case 3:
			b.WriteString(rapid.SampledFrom([]string{"text", " ", "\u00a0", "&amp;", "<", "\x00", "é"}).Draw(t, "text"))
		case 4:
			b.WriteString(rapid.SampledFrom([]string{"<!--c-->", "<!doctype html>", "<!", "<?x?>"}).Draw(t, "other"))
		case 5:
			b.WriteString(rapid.StringN(0, 8, -1).Draw(t, "raw"))
		}
	}
	return b.String()
}

func TestPropertyParseHTML(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		htmlCheckParse(t, []byte(htmlGenPage(t)))
	})
}

// FuzzParseHTML runs the same check over arbitrary bytes. Seeds are under
// testdata/fuzz/FuzzParseHTML.
func FuzzParseHTML(f *testing.F) {
	f.Add([]byte(`<!doctype html><table><tr><td>x</td></tr></table>`))
	f.Add([]byte(`<div id=h><template shadowrootmode=open><p>s</p></template></div><template><i>t</i></template>`))
	f.Add([]byte(`<style>.x{display:none} :is(.a,.b) ~ p{visibility:hidden}</style><p class=x>q</p>`))
	f.Add([]byte(`<form id=f><input type=radio name=r checked><input type=radio name=r checked form=f></form>`))
	f.Add([]byte("\xff\xfe<\x00p\x00>\x00"))
	f.Add([]byte(`<style>i:nth-child(2n of .a){dis\70 lay:none} :dir(rtl),:read-only,:placeholder-shown{display:none}</style>` +
		`<p dir=auto>\u05e9<i class=a></i><i class=a></i></p><input placeholder=p><select><option>a</option></select>` +
		`<details name=g open></details><details name=g open></details><canvas><b>x</b></canvas><img align=left>`))
	// The hostile cascade corpus, small pages of the probes that once made
	// matching slow.
	hostile, err := filepath.Glob(filepath.Join("..", "testdata", "hostile", "cascade-*.html"))
	if err != nil || len(hostile) == 0 {
		f.Fatalf("no hostile cascade pages: %v", err)
	}
	for _, name := range hostile {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		htmlCheckParse(t, data)
	})
}
