package collect

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

// built is a tree made from a compact description, with its labelled nodes.
type built struct {
	tree   *domtree.Tree
	labels map[string]int
	names  map[int]string
}

// node returns the labelled node.
func (b built) node(t *testing.T, label string) domtree.Node {
	t.Helper()
	i, ok := b.labels[label]
	if !ok {
		t.Fatalf("no node labelled @%s", label)
	}
	return b.tree.At(i)
}

// name is a node's label, or #index for an unlabelled node.
func (b built) name(n domtree.Node) string {
	if s, ok := b.names[n.Index()]; ok {
		return s
	}
	return "#" + strconv.Itoa(n.Index())
}

// buildTree turns a compact description into a tree. One node a line,
// children indented two spaces deeper than their parent:
//
//	table @t
//	  tr role=row class="a b" @r1
//	    td colspan=2 !hidden
//	      "some text"
//	    # a comment
//
// An element line is a name followed by attributes (name=value, the value
// optionally double-quoted), flags (!none for display none, !inline for an
// inline display, !hidden and !visible for the computed visibility, which is
// otherwise inherited from the parent as a source would give it) and an
// optional @label. A line in double quotes is a text node (Go string syntax);
// a line starting with # is a comment.
func buildTree(t testing.TB, desc string) built {
	t.Helper()
	out, err := parseDesc(desc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type openNode struct {
	indent int
	index  int
	vis    domtree.Visibility
}

func parseDesc(desc string) (built, error) {
	b := domtree.NewBuilder(0)
	out := built{labels: map[string]int{}, names: map[int]string{}}
	stack := []openNode{{indent: -1, index: 0}}
	for ln, line := range strings.Split(desc, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if strings.TrimSpace(trimmed) == "" {
			continue
		}
		indent := len(line) - len(trimmed)
		for stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1]
		var i int
		var err error
		vis := parent.vis
		switch {
		case strings.HasPrefix(trimmed, `"`):
			var s string
			if s, err = strconv.Unquote(strings.TrimSpace(trimmed)); err == nil {
				i, err = b.AddText(parent.index, s, 0)
			}
		case strings.HasPrefix(trimmed, "#"):
			i, err = b.AddComment(parent.index, strings.TrimSpace(trimmed[1:]), 0)
		default:
			toks, terr := tokens(trimmed)
			if terr != nil {
				return built{}, fmt.Errorf("line %d: %v", ln+1, terr)
			}
			info := domtree.ElementInfo{Display: domtree.DisplayBlock}
			var attrs []domtree.Attr
			label := ""
			for _, tok := range toks[1:] {
				switch {
				case tok == "!none":
					info.Display = domtree.DisplayNone
				case tok == "!inline":
					info.Display = domtree.DisplayInline
				case tok == "!hidden":
					vis = domtree.Hidden
				case tok == "!visible":
					vis = domtree.Visible
				case strings.HasPrefix(tok, "@"):
					label = tok[1:]
				default:
					k, v, _ := strings.Cut(tok, "=")
					if strings.HasPrefix(v, `"`) {
						if v, err = strconv.Unquote(v); err != nil {
							return built{}, fmt.Errorf("line %d: %v", ln+1, err)
						}
					}
					attrs = append(attrs, domtree.Attr{Name: k, Value: v})
				}
			}
			info.Visibility = vis
			i, err = b.AddElement(parent.index, toks[0], attrs, info)
			if err == nil && label != "" {
				if _, dup := out.labels[label]; dup {
					return built{}, fmt.Errorf("line %d: label @%s used twice", ln+1, label)
				}
				out.labels[label] = i
				out.names[i] = label
			}
		}
		if err != nil {
			return built{}, fmt.Errorf("line %d: %v", ln+1, err)
		}
		stack = append(stack, openNode{indent: indent, index: i, vis: vis})
	}
	out.tree = b.Build()
	return out, nil
}

// tokens splits an element line on spaces, keeping double-quoted values whole.
func tokens(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimLeft(s, " ") {
		end, quoted := 0, false
		for end < len(s) && (quoted || s[end] != ' ') {
			switch s[end] {
			case '"':
				quoted = !quoted
			case '\\':
				if quoted {
					end++
				}
			}
			end++
		}
		if quoted {
			return nil, fmt.Errorf("unterminated quote in %q", s)
		}
		out = append(out, s[:min(end, len(s))])
		s = s[min(end, len(s)):]
	}
	return out, nil
}

func TestBuildTreeHelper(t *testing.T) {
	b := buildTree(t, `
html @h
  body
    div title="a b" !hidden @d
      "x y"
      span !visible @s
    # note
`)
	if b.tree.Len() != 7 {
		t.Fatalf("len %d, want 7", b.tree.Len())
	}
	d := b.node(t, "d")
	if d.AttrValue("title") != "a b" || !d.Invisible() {
		t.Fatalf("div: title %q invisible %v", d.AttrValue("title"), d.Invisible())
	}
	if !b.node(t, "s").Visible() {
		t.Fatal("!visible did not make the span visible")
	}
	if b.tree.At(6).Kind() != domtree.Comment {
		t.Fatalf("node 6 is %v", b.tree.At(6).Kind())
	}
	if _, err := parseDesc("div @a\ndiv @a"); err == nil {
		t.Fatal("duplicate label accepted")
	}
	if _, err := parseDesc(`div title="x`); err == nil {
		t.Fatal("unterminated quote accepted")
	}
}
