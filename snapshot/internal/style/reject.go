package style

import (
	"strings"

	"github.com/tdewolff/parse/v2/css"
)

// libraryOnlyPseudo are pseudo-classes the selector library accepts and
// Chromium does not: its text and regular-expression matches, :haschild
// (its own spelling of :has(> x)) and :input. A selector using one is
// invalid in a browser, so its whole rule is dropped here too; applying it
// would hide content that a browser shows.
var libraryOnlyPseudo = map[string]bool{
	"contains": true, "containsown": true, "matches": true, "matchesown": true,
	"haschild": true, "input": true,
}

// rejected reports whether Chromium rejects the complex selector toks, on
// grounds the selector library does not check: a pseudo-class only the
// library knows, an attribute operator only it knows (!= and #=), a :has()
// inside a :has() at any depth, or a pseudo-element inside a :has(). It
// also rejects functional pseudo-classes nested deeper than
// MaxSelectorNesting, a bound of this package, not of Chromium.
func rejected(toks []token) bool {
	// open holds, per open block, whether it is a :has( argument.
	var open []bool
	hasDepth := 0
	inBracket := 0
	for i, t := range toks {
		switch t.Type {
		case css.FunctionToken, css.LeftParenthesisToken, css.LeftBracketToken, css.LeftBraceToken:
			isHas := t.Type == css.FunctionToken && i > 0 && toks[i-1].Type == css.ColonToken &&
				strings.EqualFold(unescapeIdent(t.Data), "has(")
			if isHas {
				if hasDepth > 0 {
					return true
				}
				hasDepth++
			}
			if t.Type == css.LeftBracketToken {
				inBracket++
			}
			open = append(open, isHas)
			if len(open) > MaxSelectorNesting {
				return true
			}
			continue
		case css.RightParenthesisToken, css.RightBracketToken, css.RightBraceToken:
			if len(open) > 0 {
				if open[len(open)-1] {
					hasDepth--
				}
				open = open[:len(open)-1]
			}
			if t.Type == css.RightBracketToken && inBracket > 0 {
				inBracket--
			}
			continue
		case css.DelimToken:
			if inBracket > 0 && (t.Data == "!" || t.Data == "#") {
				return true
			}
			continue
		case css.ColonToken:
		default:
			continue
		}
		if i+1 >= len(toks) || (i > 0 && toks[i-1].Type == css.ColonToken) {
			continue
		}
		next := toks[i+1]
		if next.Type == css.ColonToken {
			if hasDepth > 0 {
				return true // ::pseudo-element inside :has()
			}
			continue
		}
		name := strings.TrimSuffix(strings.ToLower(unescapeIdent(next.Data)), "(")
		if next.Type != css.IdentToken && next.Type != css.FunctionToken {
			continue
		}
		if libraryOnlyPseudo[name] {
			return true
		}
		if hasDepth > 0 && next.Type == css.IdentToken && legacyPseudoElements[name] {
			return true
		}
	}
	return false
}
