package htmlsource

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/style"
)

// declShadow is one declarative shadow root: the template that declared
// it, its contents still its children, the host it is attached to, and the
// tree scope the host lies in.
type declShadow struct {
	host, root *html.Node
	scope      int32
}

// buildComposed builds the composed (flat) tree of a document whose light
// tree is built already (docs/reference.md#the-composed-page). lightIdx is
// each light node's index in that tree.
//
// It rearranges the parsed tree into the flat tree first, then styles and
// builds it as the light tree was: each host's children become its shadow
// root's, each slot's children the light children assigned to it (an
// element by its slot attribute, a text node to the default slot; the
// first slot of a name in tree order takes them), its own children staying
// as fallback when none are, and light children no slot takes are
// dropped. Declarative shadow roots inside shadow content are found and
// attached in turn, from a queue, never by recursion; then the frame
// documents, each with its own declarative shadow roots (attachFrames).
//
// The rearranged tree is styled as one document: its style elements,
// shadow trees' included, apply everywhere, and a slotted node inherits
// from its slot. A browser scopes a shadow tree's sheets to it; that is a
// listed divergence.
//
// The parsed tree is not used again after this, so it is changed in place.
func buildComposed(doc *html.Node, shadows []declShadow, lightIdx map[*html.Node]int32, maxNodes int) (*domtree.Tree, error) {
	c := &composer{scopeOf: map[*html.Node]int32{}, next: 1, maxNodes: maxNodes}
	if err := c.attachShadows(shadows, false); err != nil {
		return nil, err
	}
	omitted, err := c.attachFrames(doc)
	if err != nil {
		return nil, err
	}
	scopeOf, frameScopes := c.scopeOf, c.frameScopes
	p := htmlPrepare(doc)
	if p.nodes > maxNodes {
		return nil, readbound.TooManyNodes(pkgName, maxNodes)
	}
	inherited := make(map[*html.Node]int32, p.nodes)
	p.tag = func(b *domtree.Builder, n *html.Node, idx int) {
		s, ok := scopeOf[n]
		if !ok && n.Parent != nil {
			s = inherited[n.Parent]
		}
		inherited[n] = s
		b.SetScope(idx, s)
		if li, ok := lightIdx[n]; ok && s == 0 {
			b.SetLightIndex(idx, int(li))
		}
	}
	eng := style.New(doc, style.Options{Quirks: htmlQuirks(doc), States: p.states, Sources: &p.sheets})
	b, err := p.styleAndBuild(doc, eng)
	if err == nil && eng.OverBudget() {
		eng.DropSheets()
		b, err = p.styleAndBuild(doc, eng)
	}
	if err != nil {
		return nil, err
	}
	b.SetLightIndex(0, 0)
	for _, s := range frameScopes {
		b.SetScopeFrame(s, "")
	}
	b.SetFramesOmitted(omitted)
	return b.Build(), nil
}

// composer is buildComposed's rearrangement of the parsed tree.
type composer struct {
	// scopeOf holds the scope of every node whose scope is not its flat
	// parent's: the top nodes of a shadow root or a frame document, and
	// light nodes assigned to a slot in another scope.
	scopeOf map[*html.Node]int32
	// next is the next tree scope to give, in the order the roots are
	// attached: the main document's shadow roots first, then each frame
	// document followed by its own shadow roots.
	next int32
	// frameScopes are the scopes of frame documents and of the shadow
	// trees inside them; frames counts the frame documents attached.
	frameScopes []int32
	frames      int
	// moved counts the shadow content's nodes, bounded by maxNodes.
	moved, maxNodes int
}

// attachShadows attaches each declarative shadow root of queue to its
// host, and those found nested in their content in turn, from the queue,
// never by recursion (buildComposed says how). inFrame says the roots lie
// in a frame document, so their scopes are the frame's too.
func (c *composer) attachShadows(queue []declShadow, inFrame bool) error {
	queue = append([]declShadow(nil), queue...)
	for k := 0; k < len(queue); k++ {
		sh := queue[k]
		s := c.next
		c.next++
		if inFrame {
			c.frameScopes = append(c.frameScopes, s)
		}
		host := sh.host
		var light []*html.Node
		for n := host.FirstChild; n != nil; n = n.NextSibling {
			light = append(light, n)
		}
		for _, n := range light {
			host.RemoveChild(n)
		}
		for n := sh.root.FirstChild; n != nil; {
			next := n.NextSibling
			sh.root.RemoveChild(n)
			host.AppendChild(n)
			c.scopeOf[n] = s
			n = next
		}
		// The shadow content: its slots, in tree order, and the
		// declarative roots nested in it. A template right under the
		// shadow root declares nothing (its parent is no element), which
		// marking the host as hosting already says.
		hosted := map[*html.Node]bool{host: true}
		var slots []*html.Node
		for n := host.FirstChild; n != nil; {
			if n.Type == html.ElementNode && n.Namespace == "" && n.Data == "template" {
				next := style.NextNode(n, host, false)
				if isDeclarativeShadowRoot(n, hosted) {
					h := n.Parent
					hosted[h] = true
					h.RemoveChild(n)
					queue = append(queue, declShadow{host: h, root: n, scope: s})
				}
				n = next
				continue
			}
			c.moved++
			if c.moved > c.maxNodes {
				return readbound.TooManyNodes(pkgName, c.maxNodes)
			}
			if n.Type == html.ElementNode && n.Namespace == "" && n.Data == "slot" {
				slots = append(slots, n)
			}
			n = style.NextNode(n, host, true)
		}
		byName := map[string]*html.Node{}
		for _, sl := range slots {
			name, _ := htmlAttr(sl, "name")
			if _, seen := byName[name]; !seen {
				byName[name] = sl
			}
		}
		assigned := map[*html.Node][]*html.Node{}
		for _, n := range light {
			name := ""
			switch n.Type {
			case html.ElementNode:
				name, _ = htmlAttr(n, "slot")
			case html.TextNode:
			default:
				continue // only elements and text are slotted
			}
			if sl, ok := byName[name]; ok {
				assigned[sl] = append(assigned[sl], n)
			}
		}
		for _, sl := range slots {
			a := assigned[sl]
			if len(a) == 0 {
				continue
			}
			for sl.FirstChild != nil {
				sl.RemoveChild(sl.FirstChild)
			}
			for _, n := range a {
				sl.AppendChild(n)
				c.scopeOf[n] = sh.scope
			}
		}
	}
	return nil
}

// attachFrames puts each frame document an HTML file holds under its
// frame owner, in flat-tree order (docs/reference.md#the-composed-page):
// an iframe's srcdoc document, and for a frame owner with neither srcdoc
// nor src (or src about:blank) the empty document a browser gives it. A
// frame loaded by URL is never fetched: it is counted as omitted, as are
// the frames past limits.MaxFrames or nested deeper than
// limits.MaxFrameDepth, and a srcdoc the parser refuses. Each document's
// root element becomes the owner's first child, in a tree scope of its
// own; the owner's own children (fallback content no browser renders)
// stay after it, as a capture lists them. A document's declarative shadow
// roots are attached as soon as the document is, each in a scope of the
// frame's. The documents are found as the walk reaches them, so frames
// nested in frames, or in their shadow trees, are attached in turn,
// without recursion. It returns the count omitted.
func (c *composer) attachFrames(doc *html.Node) (int, error) {
	omitted := 0
	// depth holds each attached document root's frame depth.
	depth := map[*html.Node]int{}
	for n := doc; n != nil; n = style.NextNode(n, doc, true) {
		if n.Type != html.ElementNode || n.Namespace != "" || (n.Data != "iframe" && n.Data != "frame") {
			continue
		}
		d := 1
		for a := n.Parent; a != nil; a = a.Parent {
			if k, ok := depth[a]; ok {
				d = k + 1
				break
			}
		}
		src, hasSrc := htmlAttr(n, "src")
		srcdoc, hasSrcdoc := htmlAttr(n, "srcdoc")
		if n.Data != "iframe" {
			hasSrcdoc = false
		}
		blank := !hasSrcdoc && (!hasSrc || strings.TrimSpace(src) == "" || strings.EqualFold(strings.TrimSpace(src), "about:blank"))
		if (!hasSrcdoc && !blank) || d > limits.MaxFrameDepth || c.frames >= limits.MaxFrames {
			omitted++
			continue
		}
		fd, err := html.ParseWithOptions(strings.NewReader(srcdoc), html.ParseOptionEnableScripting(true))
		if err != nil {
			omitted++
			continue
		}
		var root *html.Node
		for k := fd.FirstChild; k != nil; k = k.NextSibling {
			if k.Type == html.ElementNode {
				root = k
				break
			}
		}
		if root == nil {
			omitted++
			continue
		}
		// The document's own shadow roots are found while it is still a
		// document: the root element is never a host.
		shadows := documentShadows(root)
		fd.RemoveChild(root)
		n.InsertBefore(root, n.FirstChild)
		s := c.next
		c.next++
		c.frames++
		c.frameScopes = append(c.frameScopes, s)
		c.scopeOf[root] = s
		depth[root] = d
		for i := range shadows {
			shadows[i].scope = s
		}
		if err := c.attachShadows(shadows, true); err != nil {
			return 0, err
		}
	}
	return omitted, nil
}

// documentShadows detaches the declarative shadow roots of the document
// whose root element is root, in tree order, as parsing the main document
// does (htmlPrepare), and returns them; roots nested in a shadow root's
// content stay in it, for attachShadows to find.
func documentShadows(root *html.Node) []declShadow {
	var out []declShadow
	hosts := map[*html.Node]bool{}
	for n := root; n != nil; {
		if n.Type == html.ElementNode && n.Namespace == "" && n.Data == "template" {
			next := style.NextNode(n, root, false)
			if isDeclarativeShadowRoot(n, hosts) {
				host := n.Parent
				hosts[host] = true
				host.RemoveChild(n)
				out = append(out, declShadow{host: host, root: n})
			}
			n = next
			continue
		}
		n = style.NextNode(n, root, true)
	}
	return out
}
