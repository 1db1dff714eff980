package media

import (
	"github.com/tdewolff/parse/v2/css"

	"github.com/domsnap/domsnap/snapshot/internal/csstoken"
)

// MaxDepth bounds how deeply parentheses and math functions may nest in one
// query. A condition nested deeper is unknown and a value nested deeper is
// unreadable (so its feature is unknown too): browsers have no such bound,
// but no real style sheet comes near it.
const MaxDepth = 32

// token is one CSS token, as the style sheets are read (package csstoken).
type token = csstoken.Token

// tri is a three-valued truth: the media query specification evaluates
// conditions in Kleene logic, with unknown for what it cannot read.
type tri int8

const (
	no tri = iota
	yes
	unknown
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

func (t tri) not() tri {
	switch t {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

func (t tri) and(u tri) tri {
	if t == no || u == no {
		return no
	}
	if t == unknown || u == unknown {
		return unknown
	}
	return yes
}

func (t tri) or(u tri) tri {
	if t == yes || u == yes {
		return yes
	}
	if t == unknown || u == unknown {
		return unknown
	}
	return no
}

// Match reports whether the media query list src matches screen s. An empty
// list matches, as a missing media attribute does; a list matches when any
// of its queries does, and a query that does not parse matches nothing.
func Match(src string, s Screen) bool {
	toks := csstoken.Tokenize(src)
	queries := splitTop(toks, css.CommaToken)
	if len(queries) == 1 && len(trim(queries[0])) == 0 {
		return true
	}
	for _, q := range queries {
		if r, ok := evalQuery(trim(q), &s); ok && r == yes {
			return true
		}
	}
	return false
}

// closerOf returns the token type that closes a block opened by t, or
// ErrorToken when t opens none.
func closerOf(tt css.TokenType) css.TokenType {
	switch tt {
	case css.LeftParenthesisToken, css.FunctionToken:
		return css.RightParenthesisToken
	case css.LeftBracketToken:
		return css.RightBracketToken
	case css.LeftBraceToken:
		return css.RightBraceToken
	}
	return css.ErrorToken
}

// splitTop splits toks at the separators that stand outside every block.
// A closing token only closes the innermost block of its own kind, as CSS
// Syntax consumes blocks.
func splitTop(toks []token, sep css.TokenType) [][]token {
	var out [][]token
	var stack []css.TokenType
	start := 0
	for i, t := range toks {
		if c := closerOf(t.Type); c != css.ErrorToken {
			stack = append(stack, c)
			continue
		}
		if n := len(stack); n > 0 {
			if t.Type == stack[n-1] {
				stack = stack[:n-1]
			}
			continue
		}
		if t.Type == sep {
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// blockEnd returns the index of the token that closes the block opened at
// toks[i], or len(toks) when the input ends first (which closes it).
func blockEnd(toks []token, i int) int {
	stack := []css.TokenType{closerOf(toks[i].Type)}
	for j := i + 1; j < len(toks); j++ {
		if c := closerOf(toks[j].Type); c != css.ErrorToken {
			stack = append(stack, c)
			continue
		}
		if toks[j].Type == stack[len(stack)-1] {
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j
			}
		}
	}
	return len(toks)
}

func trim(toks []token) []token {
	for len(toks) > 0 && toks[0].Type == css.WhitespaceToken {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1].Type == css.WhitespaceToken {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// lower lower-cases ASCII letters only, as CSS compares keywords.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isIdent(t token, word string) bool {
	return t.Type == css.IdentToken && lower(t.Data) == word
}

// parser reads one query: a cursor over its tokens.
type parser struct {
	toks []token
	i    int
	s    *Screen
}

func (p *parser) skipSpace() {
	for p.i < len(p.toks) && p.toks[p.i].Type == css.WhitespaceToken {
		p.i++
	}
}

// peek returns the next token that is not whitespace, without consuming.
func (p *parser) peek() (token, bool) {
	p.skipSpace()
	if p.i >= len(p.toks) {
		return token{}, false
	}
	return p.toks[p.i], true
}

// evalQuery evaluates one query of a list. ok is false when it does not
// parse.
func evalQuery(toks []token, s *Screen) (tri, bool) {
	if len(toks) == 0 {
		return no, false
	}
	p := &parser{toks: toks, s: s}
	first := toks[0]
	if first.Type == css.IdentToken {
		word := lower(first.Data)
		negate, only := word == "not", word == "only"
		typeAt := 0
		if negate || only {
			p.i = 1
			next, ok := p.peek()
			if !ok {
				return no, false
			}
			if next.Type != css.IdentToken {
				if only {
					return no, false
				}
				// "not (" starts a condition, not a media type.
				p.i = 0
				return p.conditionToEnd(true)
			}
			typeAt = p.i
		}
		mt := lower(toks[typeAt].Data)
		switch mt {
		case "only", "not", "and", "or", "layer":
			return no, false
		}
		p.i = typeAt + 1
		r := triOf(mt == "all" || mt == s.Type)
		if next, ok := p.peek(); ok {
			if !isIdent(next, "and") {
				return no, false
			}
			p.i++
			c, ok := p.conditionToEnd(false)
			if !ok {
				return no, false
			}
			r = r.and(c)
		}
		if negate {
			// not applies to the whole query; an unknown result stays
			// unknown and so does not match.
			r = r.not()
		}
		return r, true
	}
	return p.conditionToEnd(true)
}

// conditionToEnd reads a condition that must run to the end of the query.
func (p *parser) conditionToEnd(allowOr bool) (tri, bool) {
	r, ok := p.condition(allowOr, 0)
	if !ok {
		return no, false
	}
	if _, more := p.peek(); more {
		return no, false
	}
	return r, true
}

// condition reads "not X", or "X and Y and ...", or (when allowOr) "X or Y
// or ...".
func (p *parser) condition(allowOr bool, depth int) (tri, bool) {
	t, ok := p.peek()
	if !ok {
		return no, false
	}
	if isIdent(t, "not") {
		p.i++
		r, ok := p.inParens(depth)
		return r.not(), ok
	}
	r, ok := p.inParens(depth)
	if !ok {
		return no, false
	}
	joiner := ""
	for {
		save := p.i
		t, more := p.peek()
		if !more || t.Type != css.IdentToken {
			p.i = save
			return r, true
		}
		word := lower(t.Data)
		if word != "and" && word != "or" {
			p.i = save
			return r, true
		}
		if (joiner != "" && word != joiner) || (word == "or" && !allowOr) {
			return no, false // and and or mixed without parentheses
		}
		joiner = word
		p.i++
		c, ok := p.inParens(depth)
		if !ok {
			return no, false
		}
		if word == "and" {
			r = r.and(c)
		} else {
			r = r.or(c)
		}
	}
}

// inParens reads a parenthesised condition or feature, or any other
// parenthesised or functional text, which is unknown.
func (p *parser) inParens(depth int) (tri, bool) {
	t, ok := p.peek()
	if !ok {
		return no, false
	}
	switch t.Type {
	case css.FunctionToken:
		p.i = blockEnd(p.toks, p.i) + 1
		return unknown, true
	case css.LeftParenthesisToken:
	default:
		return no, false
	}
	end := blockEnd(p.toks, p.i)
	inner := trim(p.toks[p.i+1 : min(end, len(p.toks))])
	p.i = end + 1
	if depth >= MaxDepth {
		return unknown, true
	}
	// A nested condition, if the text is one; else a feature, or unknown.
	if len(inner) > 0 && (inner[0].Type == css.LeftParenthesisToken || inner[0].Type == css.FunctionToken || isIdent(inner[0], "not")) {
		q := &parser{toks: inner, s: p.s}
		if r, ok := q.condition(true, depth+1); ok {
			if _, more := q.peek(); !more {
				return r, true
			}
		}
	}
	return p.s.feature(inner), true
}
