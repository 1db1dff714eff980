package capture

import (
	"math"
	"strconv"

	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/internal/readbound"
)

// decodeRaw reads the wire JSON of a captureSnapshot result into a
// rawCapture. Only documents[0]'s node and layout tables and the string
// table are kept; everything else, including the tables that hold form
// control values, is checked for syntax and dropped.
//
// maxNodes bounds every per-node table as it is read: a table longer than
// that is refused before the rest of it is held.
func decodeRaw(data []byte, maxNodes int) (*rawCapture, error) {
	return decodeRawWith(data, maxNodes, nil)
}

// extraMember is one more top-level member a reader requires beside the
// tables (a bounded capture's horizon): read reads its value at path p.
type extraMember struct {
	name string
	read func(s *Scanner, p string) error
}

// decodeRawWith is decodeRaw that also requires extra, when not nil, once.
func decodeRawWith(data []byte, maxNodes int, extra *extraMember) (*rawCapture, error) {
	return decodeRawAs(data, maxNodes, extra, false)
}

// decodeRawAs is decodeRawWith; sub says the capture is an out-of-process
// frame's inside another (subframesMember), whose own subframes member,
// were it there, is dropped unread: only one level is read.
func decodeRawAs(data []byte, maxNodes int, extra *extraMember, sub bool) (*rawCapture, error) {
	if len(data) > math.MaxInt32 {
		return nil, Malformed("", "capture larger than 2 GiB")
	}
	s := &Scanner{Lexer: jsonlex.Lexer{Data: data}, maxItems: maxNodes}
	rc := &rawCapture{maxNodes: maxNodes}
	var haveDocs, haveStrings, haveExtra bool
	// Only the members read are refused when repeated: the others are
	// dropped unread, as encoding/json would.
	err := s.Object("", false, func(name, p string, _ []byte) error {
		switch {
		case name == "documents":
			if haveDocs {
				return dup(p)
			}
			haveDocs = true
			return decodeDocuments(s, rc)
		case name == "strings":
			if haveStrings {
				return dup(p)
			}
			haveStrings = true
			return decodeStrings(s, rc)
		case name == assignedSlotsMember:
			if rc.hasAssignedSlots {
				return dup(p)
			}
			rc.hasAssignedSlots = true
			var err error
			rc.assignedSlots, err = s.int32Array(p, nil)
			return err
		case name == subframesMember && !sub:
			if rc.hasSubs {
				return dup(p)
			}
			rc.hasSubs = true
			return decodeSubframes(s, rc, p)
		case name == shadowHostsMember:
			if rc.hasShadowHosts {
				return dup(p)
			}
			rc.hasShadowHosts = true
			var err error
			rc.shadowHosts, err = s.int32Array(p, nil)
			return err
		case name == frameShadowHostsMember:
			if rc.hasFrameShadowHosts {
				return dup(p)
			}
			rc.hasFrameShadowHosts = true
			var err error
			rc.frameShadowHosts, err = s.int32Array(p, nil)
			return err
		case name == frameAssignedSlotsMember:
			if rc.hasFrameAssignedSlots {
				return dup(p)
			}
			rc.hasFrameAssignedSlots = true
			var err error
			rc.frameAssignedSlots, err = s.int32Array(p, nil)
			return err
		case extra != nil && name == extra.name:
			if haveExtra {
				return dup(p)
			}
			haveExtra = true
			return extra.read(s, p)
		}
		return s.SkipValue(p)
	})
	if err == nil {
		err = s.End()
	}
	if err != nil {
		return nil, Coded(err)
	}
	if !haveDocs {
		return nil, Malformed("/documents", "missing")
	}
	if !haveStrings {
		return nil, Malformed("/strings", "missing")
	}
	if extra != nil && !haveExtra {
		return nil, Malformed("/"+extra.name, "missing")
	}
	rc.strs.data = data
	return rc, nil
}

func decodeStrings(s *Scanner, rc *rawCapture) error {
	const path = "/strings"
	spans := make([]span, 0, 64)
	err := s.Elements(path, func(i int) error {
		sp, err := s.StringSpan(jsonlex.AppendIndex(path, i))
		if err != nil {
			return err
		}
		spans = append(spans, span{int32(sp.Start), int32(sp.End), sp.Esc})
		return nil
	})
	rc.strs.spans = spans
	return err
}

func decodeDocuments(s *Scanner, rc *rawCapture) error {
	return s.Elements("/documents", func(i int) error {
		path := jsonlex.AppendIndex("/documents", i)
		rc.docCount++
		if i == 0 {
			return decodeDocument(s, &rc.doc, path)
		}
		// Frame documents are read for the composed tree the page view
		// walks (buildComposed); the light tree never holds them. One
		// that cannot be read is left out, as it always was: it is
		// checked for its syntax alone and counted as a frame not read.
		if s.Peek() != '{' {
			return s.WrongType(path, "an object")
		}
		start := s.Pos
		rc.frames = append(rc.frames, rawDoc{})
		d := &rc.frames[len(rc.frames)-1]
		if decodeDocument(s, d, path) != nil {
			*d = rawDoc{url: -1, frameID: -1, bad: true}
			s.Pos = start
			return s.SkipValue(path)
		}
		return nil
	})
}

func decodeDocument(s *Scanner, d *rawDoc, path string) error {
	d.url, d.frameID = -1, -1
	return s.Object(path, false, func(name, p string, _ []byte) (err error) {
		switch name {
		case "documentURL":
			d.url, err = s.Int32(p)
			return err
		case "frameId":
			d.frameID, err = s.Int32(p)
			return err
		case "nodes":
			if d.hasNodes {
				return dup(p)
			}
			d.hasNodes = true
			return decodeNodes(s, d, p)
		case "layout":
			if d.hasLayout {
				return dup(p)
			}
			d.hasLayout = true
			return decodeLayout(s, d, p)
		}
		// URLs, titles, text boxes, scroll offsets: nothing the tree holds.
		return s.SkipValue(p)
	})
}

func decodeNodes(s *Scanner, d *rawDoc, path string) error {
	return s.Object(path, true, func(name, p string, _ []byte) (err error) {
		// A null table is an absent one, as encoding/json reads it:
		// mafredri/cdp's types marshal empty tables as null.
		switch name {
		case "parentIndex":
			d.parent, err = s.int32Array(p, d.parent)
			d.hasParent = d.parent != nil
		case "nodeType":
			d.nodeType, err = s.int32Array(p, d.nodeType)
			d.hasType = d.nodeType != nil
		case "nodeName":
			d.nodeName, err = s.int32Array(p, d.nodeName)
			d.hasName = d.nodeName != nil
		case "nodeValue":
			d.nodeValue, err = s.int32Array(p, d.nodeValue)
			d.hasValue = d.nodeValue != nil
		case "backendNodeId":
			d.backend, err = s.int64Array(p)
			d.hasBackend = d.backend != nil
		case "attributes":
			d.attrs, d.attrStart, err = s.int32Arrays(p)
			d.hasAttrs = d.attrStart != nil
		case "shadowRootType":
			err = s.rareTable(p, &d.shadow.present, &d.shadow.index, &d.shadow.value)
		case "pseudoType":
			err = s.rareTable(p, &d.pseudo.present, &d.pseudo.index, &d.pseudo.value)
		case "inputChecked":
			err = s.rareTable(p, &d.checked.present, &d.checked.index, nil)
		case "contentDocumentIndex":
			err = s.rareTable(p, &d.contentDoc.present, &d.contentDoc.index, &d.contentDoc.value)
		case "inputValue":
			// The form control tables are read for their indexes only, so
			// that an inconsistent one is refused like any other table;
			// the strings they point at are never decoded.
			err = s.rareTable(p, &d.inputValue.present, &d.inputValue.index, &d.inputValue.value)
		case "textValue":
			err = s.rareTable(p, &d.textValue.present, &d.textValue.index, &d.textValue.value)
		case "optionSelected":
			err = s.rareTable(p, &d.optionSelected.present, &d.optionSelected.index, nil)
		default:
			// The tables the tree has no use for.
			err = s.SkipValue(p)
		}
		return err
	})
}

func decodeLayout(s *Scanner, d *rawDoc, path string) error {
	return s.Object(path, true, func(name, p string, _ []byte) (err error) {
		switch name {
		case "nodeIndex":
			d.layoutNode, err = s.int32Array(p, nil)
			d.hasLayoutNode = d.layoutNode != nil
		case "styles":
			d.styles, d.styleStart, err = s.int32Arrays(p)
			d.hasStyles = d.styleStart != nil
		default:
			// Bounds, layout text, paint orders and the rest describe
			// geometry and rendered text: the tree needs none of it.
			err = s.SkipValue(p)
		}
		return err
	})
}

// null reads a null where one may stand for an absent table.
func (s *Scanner) null(path string) (bool, error) {
	if s.Peek() != 'n' {
		return false, nil
	}
	return true, s.Literal("null", path)
}

// int32Array reads an array of integers, appending to dst. A null gives nil.
func (s *Scanner) int32Array(path string, dst []int32) ([]int32, error) {
	if isNull, err := s.Null(path); isNull || err != nil {
		return nil, err
	}
	more, err := s.ArrayStart(path)
	if err != nil {
		return nil, err
	}
	dst = dst[:0]
	for more {
		v, err := s.Int32("")
		if err != nil {
			return nil, reindex(err, path, len(dst))
		}
		dst = append(dst, v)
		if len(dst) > s.maxItems && s.maxItems > 0 {
			return nil, readbound.TooManyNodes(pkgName, s.maxItems)
		}
		// The common case, a comma right after the number, skips the
		// general space handling.
		if s.Pos < len(s.Data) && s.Data[s.Pos] == ',' {
			s.Pos++
			continue
		}
		if more, err = s.ArrayNext(path); err != nil {
			return nil, err
		}
	}
	if dst == nil {
		dst = []int32{}
	}
	return dst, nil
}

func (s *Scanner) int64Array(path string) ([]int64, error) {
	if isNull, err := s.Null(path); isNull || err != nil {
		return nil, err
	}
	more, err := s.ArrayStart(path)
	if err != nil {
		return nil, err
	}
	dst := []int64{}
	for more {
		v, err := s.Int64("")
		if err != nil {
			return nil, reindex(err, path, len(dst))
		}
		dst = append(dst, v)
		if len(dst) > s.maxItems && s.maxItems > 0 {
			return nil, readbound.TooManyNodes(pkgName, s.maxItems)
		}
		if more, err = s.ArrayNext(path); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// int32Arrays reads an array of integer arrays into one flat slice and the
// start offset of each inner array (plus a final end offset). Paths are
// built only when an error needs one: this runs once per node.
func (s *Scanner) int32Arrays(path string) (flat, start []int32, err error) {
	if isNull, err := s.Null(path); isNull || err != nil {
		return nil, nil, err
	}
	more, err := s.ArrayStart(path)
	if err != nil {
		return nil, nil, err
	}
	flat = []int32{}
	start = []int32{0}
	for more {
		outer := len(start) - 1
		// A null inner array is an empty one (mafredri/cdp marshals an
		// element without attributes so).
		isNull, err := s.Null("")
		in := false
		if err == nil && !isNull {
			in, err = s.ArrayStart("")
		}
		if err != nil {
			return nil, nil, reindex(err, path, outer)
		}
		base := len(flat)
		for in {
			v, err := s.Int32("")
			if err != nil {
				return nil, nil, reindex(err, path+"/"+strconv.Itoa(outer), len(flat)-base)
			}
			flat = append(flat, v)
			if s.Pos < len(s.Data) && s.Data[s.Pos] == ',' {
				s.Pos++
				continue
			}
			if in, err = s.ArrayNext(""); err != nil {
				return nil, nil, reindex(err, path, outer)
			}
		}
		if len(flat) > math.MaxInt32 {
			return nil, nil, Malformed(path+"/"+strconv.Itoa(outer), "too many values")
		}
		start = append(start, int32(len(flat)))
		if len(start)-1 > s.maxItems && s.maxItems > 0 {
			return nil, nil, readbound.TooManyNodes(pkgName, s.maxItems)
		}
		if more, err = s.ArrayNext(path); err != nil {
			return nil, nil, err
		}
	}
	return flat, start, nil
}

// rareFields reads the members of a Rare*Data object: "index" always,
// "value" when wantValue.
func (s *Scanner) rareFields(path string, wantValue bool) (index, value []int32, err error) {
	var hasIndex, hasValue bool
	err = s.Object(path, false, func(name, p string, _ []byte) (err error) {
		switch {
		case name == "index":
			if hasIndex {
				return dup(p)
			}
			hasIndex = true
			index, err = s.int32Array(p, nil)
		case name == "value" && wantValue:
			if hasValue {
				return dup(p)
			}
			hasValue = true
			value, err = s.int32Array(p, nil)
		default:
			err = s.SkipValue(p)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if !hasIndex {
		return nil, nil, Malformed(path+"/index", "missing")
	}
	if wantValue && !hasValue {
		return nil, nil, Malformed(path+"/value", "missing")
	}
	return index, value, nil
}

// rareTable reads one of the rare tables into its parts: a null one is
// absent and leaves present false. value is nil for a table without values
// (RareBooleanData). Duplicates were refused by the caller.
func (s *Scanner) rareTable(path string, present *bool, index, value *[]int32) error {
	if isNull, err := s.Null(path); isNull || err != nil {
		return err
	}
	*present = true
	var v []int32
	var err error
	*index, v, err = s.rareFields(path, value != nil)
	if value != nil {
		*value = v
	}
	return err
}

// reindex gives a lexer error raised with an empty path the path of
// element i of the array at path.
func reindex(err error, path string, i int) error {
	if e, ok := err.(*jsonlex.Error); ok && e.Pointer == "" {
		e.Pointer = jsonlex.AppendIndex(path, i)
	}
	return err
}

// decodeSubframes reads the subframes member: an array of
// {"owner":[document,node],"capture":{...}}, each the capture of an
// out-of-process frame's document and the frame owner it belongs under.
// One that cannot be read is kept as bad (counted as a frame not read),
// never the whole capture's failure.
func decodeSubframes(s *Scanner, rc *rawCapture, path string) error {
	return s.Elements(path, func(i int) error {
		p := jsonlex.AppendIndex(path, i)
		sub := rawSub{doc: -1, node: -1}
		err := s.Object(p, true, func(name, mp string, _ []byte) error {
			switch name {
			case "owner":
				v, err := s.int32Array(mp, nil)
				if err == nil && len(v) == 2 {
					sub.doc, sub.node = v[0], v[1]
				}
				return err
			case "capture":
				raw, err := s.RawValue(mp)
				if err != nil {
					return err
				}
				if sub.rc, err = decodeRawAs(raw, rc.maxNodes, nil, true); err != nil {
					sub.rc = nil
				}
				return nil
			}
			return s.SkipValue(mp)
		})
		if err != nil {
			return err
		}
		sub.bad = sub.rc == nil || sub.doc < 0 || sub.node < 0
		rc.subs = append(rc.subs, sub)
		return nil
	})
}
