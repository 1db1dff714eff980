package capture

import (
	"strconv"

	"github.com/domsnap/domsnap/domtree"
)

// DecodeBounded builds the tree of a bounded capture: the main document as
// a walker in the page read it, in tree order, up to a node horizon. The
// walker writes the wire form of a DOMSnapshot.captureSnapshot result (the
// tables Decode reads, with the styles display and visibility in that
// order) plus one more top-level member, "horizon", an object whose
// booleans "cut" (the document continues past the last node written) and
// "labelsBeyond" (a label element with a for attribute may lie past it)
// say where the document ends. So a bounded capture goes through the very
// checks and build a whole capture does: the page's reply is validated
// like any capture, never trusted. A cut capture gives a partial tree
// (domtree.Builder.MarkHorizon).
//
// resolve, when not nil, finds the backend node id of the node at an index
// of the tables; it is called only when an analysis reads a node's id
// (domtree.Builder.ResolveBackendIDs), since the caller pays per node.
// find, which may be nil, is the way back (domtree.Tree.NodeByBackendID):
// the index of the node whose backend id is id, or -1 when the capture does
// not hold it, with beyond set when the node lies in the document past the
// capture's horizon.
// hosts lists nodes the caller found to host a closed shadow root. A whole
// capture walks the flat tree: a host's light children are not its
// children there (the shadow root is, and the slotted ones sit under their
// slots), so the reader never sees them. A walker sees open shadow roots
// and writes them as a whole capture does (a shadowRootType entry), but not
// closed ones; the light children of the hosts the caller names are read
// as a whole capture's shadow-tree nodes are: left out, with their
// subtrees, and the host marked.
//
// A whole capture's reader ignores the horizon member, so a bounded
// capture saved and read again is read as the prefix it holds.
func DecodeBounded(data []byte, maxNodes int, hosts []int, resolve func(node int) int64, find func(id int64) (node int, beyond bool)) (*domtree.Tree, error) {
	sc, err := styleColumns(nil)
	if err != nil {
		return nil, err
	}
	var cut, labelsBeyond bool
	rc, err := decodeRawWith(data, maxNodes, &extraMember{name: "horizon", read: func(s *Scanner, p string) error {
		return decodeHorizon(s, p, &cut, &labelsBeyond)
	}})
	if err != nil {
		return nil, err
	}
	if resolve != nil {
		if rc.doc.hasBackend {
			return nil, Malformed("/documents/0/nodes/backendNodeId", "a bounded capture's backend node ids come from the caller")
		}
		// Each node's key is its index plus one (0 is no id).
		n := len(rc.doc.parent)
		rc.doc.backend, rc.doc.hasBackend = make([]int64, n), true
		for i := range rc.doc.backend {
			rc.doc.backend[i] = int64(i) + 1
		}
	}
	if err := lightChildren(rc, hosts); err != nil {
		return nil, err
	}
	b, err := fillCapture(rc, sc)
	if err != nil {
		return nil, err
	}
	if cut {
		b.MarkHorizon(labelsBeyond)
	}
	if resolve != nil {
		var back func(id int64) (int64, bool)
		if find != nil {
			back = func(id int64) (int64, bool) {
				i, beyond := find(id)
				if i < 0 || i >= len(rc.doc.parent) {
					return 0, beyond
				}
				return int64(i) + 1, false
			}
		}
		b.ResolveBackendIDs(func(key int64) int64 { return resolve(int(key - 1)) }, back)
	}
	return b.Build(), nil
}

// decodeHorizon reads the horizon member: an object of two booleans, both
// required, no other member.
func decodeHorizon(s *Scanner, path string, cut, labelsBeyond *bool) error {
	var haveCut, haveLabels bool
	err := s.Object(path, false, func(name, p string, _ []byte) error {
		var dst *bool
		switch name {
		case "cut":
			if haveCut {
				return dup(p)
			}
			haveCut, dst = true, cut
		case "labelsBeyond":
			if haveLabels {
				return dup(p)
			}
			haveLabels, dst = true, labelsBeyond
		default:
			return Malformed(p, "not a member of a bounded capture's horizon")
		}
		switch s.Peek() {
		case 't':
			*dst = true
			return s.Literal("true", p)
		case 'f':
			*dst = false
			return s.Literal("false", p)
		}
		return s.WrongType(p, "a boolean")
	})
	if err != nil {
		return err
	}
	if !haveCut {
		return Malformed(path+"/cut", "missing")
	}
	if !haveLabels {
		return Malformed(path+"/labelsBeyond", "missing")
	}
	return nil
}

// lightChildren adds the children of hosts to the capture's shadow table,
// where a whole capture lists the nodes of shadow trees, so the build
// leaves them out and marks the hosts. Parents are not validated yet: one
// out of range is left for validate to refuse.
func lightChildren(rc *rawCapture, hosts []int) error {
	if len(hosts) == 0 {
		return nil
	}
	d := &rc.doc
	n := len(d.parent)
	host := make([]bool, n)
	for k, h := range hosts {
		if h < 1 || h >= n {
			return Malformed("", "shadow host "+strconv.Itoa(k)+" is not a node of the capture")
		}
		host[h] = true
	}
	if d.shadow.present && len(d.shadow.index) != len(d.shadow.value) {
		return nil // validate refuses the table
	}
	d.shadow.present = true
	for i := 1; i < n; i++ {
		if p := d.parent[i]; p >= 0 && int(p) < n && host[p] {
			d.shadow.index = append(d.shadow.index, int32(i))
			d.shadow.value = append(d.shadow.value, -1)
		}
	}
	return nil
}
