package style

import (
	"slices"
	"strings"

	"github.com/domsnap/domsnap/domtree"

	"github.com/tdewolff/parse/v2/css"
)

// maxSupportsDepth bounds the nesting of parentheses in one @supports
// condition; a part nested deeper is not supported. No real sheet comes
// near it.
const maxSupportsDepth = 32

// supportsCondition evaluates the prelude of a @supports rule as Chromium
// 156 would where that can be decided from data: "not", "and" and "or"
// (never mixed without parentheses), selector() by this package's selector
// parser (a selector it would drop is not supported), and a declaration by
// whether Chromium knows the property (a generated table) and, for display
// and visibility, whether the value is valid; any value of another known
// property counts as valid. Any other parenthesised or functional text,
// font-tech() and font-format() included, is false, so "not" of it is
// true. A prelude that does not parse drops the rule: false.
func supportsCondition(prelude []token) bool {
	r, ok := supportsToEnd(trimSpace(prelude), 0)
	return ok && r
}

// supportsToEnd evaluates a whole condition; ok is false when toks is not
// one.
func supportsToEnd(toks []token, depth int) (result, ok bool) {
	if len(toks) == 0 || depth > maxSupportsDepth {
		return false, false
	}
	i := 0
	next := func() (token, bool) {
		for i < len(toks) && toks[i].Type == css.WhitespaceToken {
			i++
		}
		if i >= len(toks) {
			return token{}, false
		}
		return toks[i], true
	}
	t, _ := next()
	if t.Type == css.IdentToken && domtree.EqualFold(t.Data, "not") {
		i++
		r, ok := supportsInParens(toks, &i, depth)
		if _, more := next(); !ok || more {
			return false, false
		}
		return !r, true
	}
	r, ok := supportsInParens(toks, &i, depth)
	if !ok {
		return false, false
	}
	joiner := ""
	for {
		t, more := next()
		if !more {
			return r, true
		}
		if t.Type != css.IdentToken {
			return false, false
		}
		word := domtree.ToLowerASCII(t.Data)
		if (word != "and" && word != "or") || (joiner != "" && word != joiner) {
			return false, false
		}
		joiner = word
		i++
		c, ok := supportsInParens(toks, &i, depth)
		if !ok {
			return false, false
		}
		if word == "and" {
			r = r && c
		} else {
			r = r || c
		}
	}
}

// supportsInParens evaluates "( condition )", "( declaration )",
// "selector( ... )" or other parenthesised or functional text (false) at
// toks[*i], moving *i past it.
func supportsInParens(toks []token, i *int, depth int) (result, ok bool) {
	for *i < len(toks) && toks[*i].Type == css.WhitespaceToken {
		*i++
	}
	if *i >= len(toks) {
		return false, false
	}
	t := toks[*i]
	if t.Type != css.LeftParenthesisToken && t.Type != css.FunctionToken {
		return false, false
	}
	end := skipBlock(toks, *i)
	innerEnd := end
	if innerEnd > *i+1 && closes(toks[innerEnd-1], ')') {
		innerEnd--
	}
	inner := trimSpace(toks[*i+1 : innerEnd])
	*i = end
	if t.Type == css.FunctionToken {
		if domtree.EqualFold(t.Data, "selector(") {
			return supportsSelector(inner), true
		}
		return false, true
	}
	if r, ok := supportsToEnd(inner, depth+1); ok {
		return r, true
	}
	if d, ok := parseDecl(inner); ok {
		return supportsDecl(d), true
	}
	return false, true
}

// supportsSelector: one complex selector that the selector parser keeps.
func supportsSelector(toks []token) bool {
	if len(toks) == 0 || len(splitTop(toks, css.CommaToken)) != 1 {
		return false
	}
	_, ok := parseSelectors(toks)
	return ok
}

// supportsDecl decides a declaration in a @supports condition.
func supportsDecl(d rawDecl) bool {
	if strings.HasPrefix(d.name, "--") {
		return true // any value, even none, is a valid custom property
	}
	if _, known := slices.BinarySearch(knownProperties[:], d.name); !known || len(d.value) == 0 {
		return false
	}
	if usesVar(d.value) {
		return true // valid until computed
	}
	if d.name != "display" && d.name != "visibility" {
		return true // the value is not checked
	}
	return len(parseDecls([]rawDecl{d})) > 0
}

// usesVar reports whether a value holds a var() anywhere.
func usesVar(v []token) bool {
	for _, t := range v {
		if t.Type == css.FunctionToken && domtree.EqualFold(t.Data, "var(") {
			return true
		}
	}
	return false
}
