package htmlsource

import (
	"bytes"
	"io"
)

// Two more tokenizer differences of golang.org/x/net/html (v0.62.0) from the
// HTML Standard, worked around like the doctype name: the prepass notes
// where they are, and htmlReader gives the parser text in which they cannot
// happen, so the tree is the one a browser builds.
//
//   - "</>" is a missing-end-tag-name parse error that emits nothing; x/net/html
//     emits an empty comment for it (so that a caller reading raw tokens sees
//     its bytes), and its parser puts that comment in the tree. The reader
//     leaves the three bytes out. The text on either side then joins into
//     one text node, as in a browser, whose tokenizer emits the characters
//     one by one into the same node.
//   - Character references are not decoded in comments; x/net/html decodes
//     them (it unescapes comment tokens as it does text), so "<!-- &amp; -->"
//     becomes a comment holding "&". The reader writes each "&" of a comment
//     as "&amp;", which the parser decodes back to the "&" it was.
//
// Both are found by the prepass's own tokenizer, which takes the content of
// every <script>, <style>, <title>, <textarea> and the like for raw text,
// as the parser's does outside SVG and MathML. Inside those (where the
// parser reads a <style> or <title> as markup) a comment the prepass does
// not see keeps the parser's own reading.

// htmlEditOp is what the reader does with a span of the text.
type htmlEditOp uint8

const (
	// editLowerName writes "html" for a doctype name in another case.
	editLowerName htmlEditOp = iota + 1
	// editDrop writes nothing: the "</>" of an empty end tag.
	editDrop
	// editEscapeAmp writes the span with every "&" as "&amp;": a comment.
	editEscapeAmp
)

// htmlEdit is one span of the text that the parser reads differently. The
// prepass records at most one per token, in text order, so there are never
// more of them than the node bound.
type htmlEdit struct {
	start, end int
	op         htmlEditOp
}

// htmlTokenEdit is the edit, if any, for one token: its raw bytes, starting
// at offset, are a comment.
func htmlTokenEdit(raw []byte, offset int) (htmlEdit, bool) {
	if string(raw) == "</>" {
		return htmlEdit{offset, offset + len(raw), editDrop}, true
	}
	if bytes.IndexByte(raw, '&') >= 0 {
		return htmlEdit{offset, offset + len(raw), editEscapeAmp}, true
	}
	return htmlEdit{}, false
}

// htmlEditReader reads text with the edits applied, without copying the
// text: only an escaped comment is written anew, one at a time.
type htmlEditReader struct {
	text    []byte
	edits   []htmlEdit
	pos     int
	pending []byte
}

func (r *htmlEditReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.pending) > 0 {
			c := copy(p[n:], r.pending)
			r.pending = r.pending[c:]
			n += c
			continue
		}
		if len(r.edits) > 0 && r.pos == r.edits[0].start {
			e := r.edits[0]
			r.edits = r.edits[1:]
			r.pending = e.apply(r.text[e.start:e.end])
			r.pos = e.end
			continue
		}
		if r.pos >= len(r.text) {
			break
		}
		end := len(r.text)
		if len(r.edits) > 0 {
			end = r.edits[0].start
		}
		c := copy(p[n:], r.text[r.pos:end])
		r.pos += c
		n += c
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// apply is what the reader writes for the span.
func (e htmlEdit) apply(span []byte) []byte {
	switch e.op {
	case editLowerName:
		return []byte("html")
	case editEscapeAmp:
		return bytes.ReplaceAll(span, []byte("&"), []byte("&amp;"))
	}
	return nil
}
