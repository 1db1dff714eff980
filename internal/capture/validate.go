package capture

import (
	"strconv"

	"github.com/domsnap/domsnap/internal/readbound"
)

// validate checks every index of the raw tables once, before any is used:
// table lengths, parents, node types, string indexes, rare-data indexes and
// layout indexes, in the main document and in every frame document that
// has nodes (one a live capture left out is an empty object). The frame
// documents' nodes count against the same bound as the main document's.
// After it returns nil, buildCapture may index freely.
func validate(rc *rawCapture) error {
	if rc.docCount == 0 {
		return Malformed("/documents", "no document")
	}
	if err := validateDoc(rc, &rc.doc, 0); err != nil {
		return err
	}
	total := len(rc.doc.parent)
	for k := range rc.frames {
		// A frame document that does not hold together is left out and
		// counted, never the capture: only the main document must.
		d := &rc.frames[k]
		if d.bad || validateDoc(rc, d, k+1) != nil || rc.maxNodes > 0 && total+len(d.parent) > rc.maxNodes {
			d.bad = true
			continue
		}
		total += len(d.parent)
	}
	for k := range rc.subs {
		sub := &rc.subs[k]
		if sub.bad {
			continue
		}
		if int(sub.doc) > len(rc.frames) || (sub.doc > 0 && rc.frames[sub.doc-1].bad) {
			sub.bad = true
			continue
		}
		od := &rc.doc
		if sub.doc > 0 {
			od = &rc.frames[sub.doc-1]
		}
		if int(sub.node) >= len(od.parent) || od.nodeType[sub.node] != nodeElement || validate(sub.rc) != nil {
			sub.bad = true
			continue
		}
		n := len(sub.rc.doc.parent)
		for j := range sub.rc.frames {
			if !sub.rc.frames[j].bad {
				n += len(sub.rc.frames[j].parent)
			}
		}
		if rc.maxNodes > 0 && total+n > rc.maxNodes {
			sub.bad = true
			continue
		}
		total += n
	}
	return nil
}

// validateDoc validates documents[k], d.
func validateDoc(rc *rawCapture, d *rawDoc, k int) error {
	docPath := "/documents/" + strconv.Itoa(k)
	nodesPath, layoutPath := docPath+"/nodes/", docPath+"/layout/"
	if !d.hasNodes {
		return Malformed(docPath+"/nodes", "missing")
	}
	if !d.hasLayout {
		return Malformed(docPath+"/layout", "missing")
	}
	nstrDoc := int32(rc.strs.len())
	for _, v := range []struct {
		name string
		i    int32
	}{{"documentURL", d.url}, {"frameId", d.frameID}} {
		if v.i < -1 || v.i >= nstrDoc {
			return Malformed(docPath+"/"+v.name, "string index "+strconv.Itoa(int(v.i))+" out of range [0, "+strconv.Itoa(int(nstrDoc))+")")
		}
	}
	for _, req := range []struct {
		name string
		has  bool
	}{{"parentIndex", d.hasParent}, {"nodeType", d.hasType}, {"nodeName", d.hasName}} {
		if !req.has {
			return Malformed(nodesPath+req.name, "missing")
		}
	}
	n := len(d.parent)
	if rc.maxNodes > 0 && n > rc.maxNodes {
		return readbound.TooManyNodes(pkgName, rc.maxNodes)
	}
	if n == 0 {
		return Malformed(nodesPath+"parentIndex", "no nodes: the document node is missing")
	}
	same := func(path string, has bool, got int) error {
		if has && got != n {
			return Malformed(path, "length "+strconv.Itoa(got)+", want "+strconv.Itoa(n)+" like parentIndex")
		}
		return nil
	}
	attrLen := 0
	if d.hasAttrs {
		attrLen = len(d.attrStart) - 1
	}
	for _, e := range []error{
		same(nodesPath+"nodeType", true, len(d.nodeType)),
		same(nodesPath+"nodeName", true, len(d.nodeName)),
		same(nodesPath+"nodeValue", d.hasValue, len(d.nodeValue)),
		same(nodesPath+"backendNodeId", d.hasBackend, len(d.backend)),
		same(nodesPath+"attributes", d.hasAttrs, attrLen),
	} {
		if e != nil {
			return e
		}
	}
	nstr := int32(rc.strs.len())
	str := func(path string, i int, v int32, allowNone bool) error {
		if v >= 0 && v < nstr || allowNone && v == -1 {
			return nil
		}
		return Malformed(path+"/"+strconv.Itoa(i), "string index "+strconv.Itoa(int(v))+" out of range [0, "+strconv.Itoa(int(nstr))+")")
	}
	for i := 0; i < n; i++ {
		p := d.parent[i]
		switch {
		case i == 0 && p != -1:
			return Malformed(nodesPath+"parentIndex/0", "the first node must be the root, with parent -1")
		case i == 0:
		case p == -1:
			return Malformed(nodesPath+"parentIndex/"+strconv.Itoa(i), "a second root")
		case p < 0 || int(p) >= n:
			return Malformed(nodesPath+"parentIndex/"+strconv.Itoa(i), "parent index "+strconv.Itoa(int(p))+" out of range")
		case int(p) >= i:
			return Malformed(nodesPath+"parentIndex/"+strconv.Itoa(i), "parent "+strconv.Itoa(int(p))+" does not precede its child")
		}
		switch t := d.nodeType[i]; {
		case i == 0 && t != nodeDocument:
			return Malformed(nodesPath+"nodeType/0", "the root must be a document node (type 9)")
		case i == 0:
		case t == nodeDocument:
			return Malformed(nodesPath+"nodeType/"+strconv.Itoa(i), "a document node below the root")
		case t == nodeElement, t == nodeText, t == nodeCDATA, t == nodeProcInstr, t == nodeComment, t == nodeDoctype, t == nodeDocFragment:
		default:
			return Malformed(nodesPath+"nodeType/"+strconv.Itoa(i), "unsupported node type "+strconv.Itoa(int(t)))
		}
		if err := str(nodesPath+"nodeName", i, d.nodeName[i], false); err != nil {
			return err
		}
		if d.hasValue {
			if err := str(nodesPath+"nodeValue", i, d.nodeValue[i], true); err != nil {
				return err
			}
		}
		if d.hasAttrs {
			a := d.attrs[d.attrStart[i]:d.attrStart[i+1]]
			if len(a)%2 != 0 {
				return Malformed(nodesPath+"attributes/"+strconv.Itoa(i), "odd number of entries: attributes come in name, value pairs")
			}
			for k, v := range a {
				if v < -1 || v >= nstr || (v == -1 && k%2 == 0) {
					return str(nodesPath+"attributes/"+strconv.Itoa(i), k, v, k%2 == 1)
				}
			}
		}
	}
	nodeIdx := func(path string, idx []int32) error {
		for k, v := range idx {
			if v < 0 || int(v) >= n {
				return Malformed(path+"/"+strconv.Itoa(k), "node index "+strconv.Itoa(int(v))+" out of range")
			}
		}
		return nil
	}
	for _, r := range []struct {
		name string
		r    *rareStrings
	}{{"shadowRootType", &d.shadow}, {"pseudoType", &d.pseudo}, {"inputValue", &d.inputValue}, {"textValue", &d.textValue}} {
		if !r.r.present {
			continue
		}
		path := nodesPath + r.name
		if len(r.r.value) != len(r.r.index) {
			return Malformed(path+"/value", "length "+strconv.Itoa(len(r.r.value))+", want "+strconv.Itoa(len(r.r.index))+" like index")
		}
		if err := nodeIdx(path+"/index", r.r.index); err != nil {
			return err
		}
		for k, v := range r.r.value {
			if err := str(path+"/value", k, v, true); err != nil {
				return err
			}
		}
	}
	if err := nodeIdx(nodesPath+"inputChecked/index", d.checked.index); err != nil {
		return err
	}
	if err := nodeIdx(nodesPath+"optionSelected/index", d.optionSelected.index); err != nil {
		return err
	}
	if d.contentDoc.present {
		path := nodesPath + "contentDocumentIndex"
		if len(d.contentDoc.value) != len(d.contentDoc.index) {
			return Malformed(path+"/value", "length "+strconv.Itoa(len(d.contentDoc.value))+", want "+strconv.Itoa(len(d.contentDoc.index))+" like index")
		}
		if err := nodeIdx(path+"/index", d.contentDoc.index); err != nil {
			return err
		}
		for k, v := range d.contentDoc.value {
			// A frame's document is another entry of documents; it can
			// never be the main document itself.
			if v < 1 || int(v) >= rc.docCount {
				return Malformed(path+"/value/"+strconv.Itoa(k), "document index "+strconv.Itoa(int(v))+" out of range [1, "+strconv.Itoa(rc.docCount)+")")
			}
		}
	}
	if !d.hasLayoutNode {
		return Malformed(layoutPath+"nodeIndex", "missing")
	}
	if !d.hasStyles {
		return Malformed(layoutPath+"styles", "missing")
	}
	if got := len(d.styleStart) - 1; got != len(d.layoutNode) {
		return Malformed(layoutPath+"styles", "length "+strconv.Itoa(got)+", want "+strconv.Itoa(len(d.layoutNode))+" like nodeIndex")
	}
	if err := nodeIdx(layoutPath+"nodeIndex", d.layoutNode); err != nil {
		return err
	}
	for j := 0; j+1 < len(d.styleStart); j++ {
		for k, v := range d.styles[d.styleStart[j]:d.styleStart[j+1]] {
			if v < -1 || v >= nstr {
				return str(layoutPath+"styles/"+strconv.Itoa(j), k, v, true)
			}
		}
	}
	return nil
}
