package htmlsource

import (
	"bytes"
	"io"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/domtree"
)

// htmlPrepass is what one run of the tokenizer over the decoded text learns
// before the parser builds anything.
type htmlPrepass struct {
	// tokens counts the tokens that make nodes: start tags, text runs,
	// comments and doctypes. It is a full count only when the text could
	// hold more than the bound (see htmlScan).
	tokens int
	// over is true when tokens passed the bound; the run stopped there.
	over bool
	// nameStart and nameEnd span the document's doctype name in the text
	// when it spells "html" in another case; both are 0 otherwise.
	nameStart, nameEnd int
	// edits are the spans the parser reads differently (html_edit.go), in
	// text order, the doctype name among them.
	edits []htmlEdit
}

// htmlScan tokenizes text once, without building anything, counting the
// tokens that become nodes and stopping as soon as there are more than
// maxNodes: a page with more tags, text runs and comments than a tree may
// hold nodes is refused before the parser allocates its tree. (The tree
// can still hold more nodes than there were tokens, since the parser
// re-opens formatting elements and adds implied ones; the built tree is
// counted again.) It also finds the doctype, if any, that the parser will
// take for the document's.
//
// Counting is skipped when the text cannot hold more node tokens than the
// bound: every tag, comment and doctype token starts at a "<" of its own,
// and the tokenizer never returns two text tokens in a row, so there are at
// most 2*count("<")+1 of them. Then the tokenizer runs only as far as the
// doctype search needs, unless the text may hold a token the parser must
// read edited (htmlMayEdit): those are found only by tokenizing it all.
func htmlScan(text []byte, maxNodes int) htmlPrepass {
	var p htmlPrepass
	count := 2*bytes.Count(text, []byte("<"))+1 > maxNodes || htmlMayEdit(text)
	z := html.NewTokenizer(bytes.NewReader(text))
	offset := 0
	initial := true // no token yet other than comments and whitespace
	for {
		if !initial && !count {
			return p
		}
		tt := z.Next()
		if tt == html.ErrorToken {
			return p
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken, html.TextToken, html.CommentToken, html.DoctypeToken:
			p.tokens++
			if p.tokens > maxNodes {
				p.over = true
				return p
			}
		}
		if tt == html.CommentToken {
			if e, ok := htmlTokenEdit(raw, offset); ok {
				p.edits = append(p.edits, e)
			}
		}
		if initial {
			switch {
			case tt == html.CommentToken:
			case tt == html.TextToken && len(bytes.Trim(raw, " \t\n\f\r")) == 0:
			case tt == html.DoctypeToken:
				p.nameStart, p.nameEnd = htmlDoctypeName(raw, offset)
				if p.nameEnd != 0 {
					p.edits = append(p.edits, htmlEdit{p.nameStart, p.nameEnd, editLowerName})
				}
				initial = false
			default:
				initial = false
			}
		}
		offset += len(raw)
	}
}

// htmlDoctypeName finds the name in the raw bytes of a doctype token that
// starts at offset, and returns its span in the text when the name is
// "html" in a case other than lower case. Those are the doctypes that
// golang.org/x/net/html (v0.62.0) takes for quirks mode, comparing the name
// before lower-casing it, where the HTML Standard's tokenizer lower-cases it
// first and then finds no quirk.
func htmlDoctypeName(raw []byte, offset int) (int, int) {
	const open = len("<!doctype")
	if len(raw) < open || !domtree.EqualFold(string(raw[:open]), "<!doctype") {
		return 0, 0
	}
	i := open
	for i < len(raw) && isHTMLSpace(raw[i]) {
		i++
	}
	j := i
	for j < len(raw) && !isHTMLSpace(raw[j]) && raw[j] != '>' {
		j++
	}
	name := string(raw[i:j])
	if name == "html" || !domtree.EqualFold(name, "html") {
		return 0, 0
	}
	return offset + i, offset + j
}

// htmlMayEdit reports whether text may hold a token that htmlTokenEdit
// changes: "</>", or a comment while the text has an "&" somewhere. A
// comment token starts at "<!" (other than a doctype), "<?", or "</" not
// followed by a letter. The answer may be yes for text that holds none (the
// "<" may sit in a script, say): then the full scan finds nothing to edit.
func htmlMayEdit(text []byte) bool {
	amp := bytes.IndexByte(text, '&') >= 0
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '<')
		if j < 0 || i+j+1 >= len(text) {
			return false
		}
		i += j + 1
		switch text[i] {
		case '/':
			if i+1 < len(text) && text[i+1] == '>' {
				return true
			}
			if amp && (i+1 >= len(text) || !isASCIILetter(text[i+1])) {
				return true
			}
		case '?':
			if amp {
				return true
			}
		case '!':
			const doctype = "doctype"
			if amp && !(len(text)-i-1 >= len(doctype) && domtree.EqualFold(string(text[i+1:i+1+len(doctype)]), doctype)) {
				return true
			}
		}
	}
}

func isASCIILetter(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z'
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// htmlReader gives the parser the text with the prepass's edits applied:
// the doctype name written in lower case, as the Standard's tokenizer reads
// it, so the parser's quirks mode agrees with a browser's and with
// htmlQuirks; and the comment fixes of html_edit.go. The text itself, which
// may be the caller's bytes, is not changed.
func htmlReader(text []byte, p htmlPrepass) io.Reader {
	if len(p.edits) == 0 {
		return bytes.NewReader(text)
	}
	return &htmlEditReader{text: text, edits: p.edits}
}
