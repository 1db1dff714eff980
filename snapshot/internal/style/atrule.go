package style

import (
	"strings"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot/internal/media"

	"github.com/tdewolff/parse/v2/css"
)

// sheetContext is what reading the style sheets of one document shares:
// the screen media queries are evaluated against and the cascade layers
// declared so far.
type sheetContext struct {
	screen media.Screen
	layers *layers
	// steps counts the tokens readRules looks at, to show its cost is
	// linear in the sheet.
	steps int
}

func newSheetContext() *sheetContext {
	return &sheetContext{screen: media.Reference(), layers: newLayers()}
}

// atName returns an at-keyword token's name, lower case, escapes resolved.
func atName(t token) string {
	return domtree.ToLowerASCII(unescapeIdent(strings.TrimPrefix(t.Data, "@")))
}

// atPrelude finds the end of the prelude of the at-rule at toks[i]: the
// index of its first top-level ';' or '{', or len(toks). Inside a group
// (nested), a top-level '}' ends it too: it closes the group.
func atPrelude(toks []token, i int, nested bool) int {
	var b blocks
	j := i + 1
	for ; j < len(toks); j++ {
		t := toks[j]
		if b.depth() == 0 && (t.Type == css.SemicolonToken || t.Type == css.LeftBraceToken || (nested && t.Type == css.RightBraceToken)) {
			return j
		}
		b.step(t)
	}
	return j
}

// groupApplies decides a conditional group rule met in a style sheet or
// nested in a style rule: @media by its query list against the screen,
// @supports by its condition, and @layer blocks always, with the layer they
// put their rules in (a sub-layer of the enclosing one). ok is false for a
// group whose rules never apply: a false condition, a prelude that does not
// parse, or an at-rule that is not one of these (@scope, @container,
// @starting-style and the like are not applied).
func (c *sheetContext) groupApplies(name string, prelude []token, layer int32) (inner int32, ok bool) {
	switch name {
	case "media":
		return layer, media.Match(tokenText(prelude), c.screen)
	case "supports":
		return layer, supportsCondition(prelude)
	case "layer":
		prelude = trimSpace(prelude)
		if len(prelude) == 0 {
			return c.layers.child(layer, ""), true
		}
		parts, ok := layerName(prelude)
		if !ok {
			return 0, false
		}
		return c.layers.path(layer, parts), true
	}
	return 0, false
}

// declareLayers reads a @layer statement: a comma-separated list of layer
// names, each declared in order under layer. A list with an invalid name
// declares nothing.
func (c *sheetContext) declareLayers(prelude []token, layer int32) {
	var names [][]string
	for _, part := range splitTop(prelude, css.CommaToken) {
		parts, ok := layerName(trimSpace(part))
		if !ok {
			return
		}
		names = append(names, parts)
	}
	for _, parts := range names {
		c.layers.path(layer, parts)
	}
}

// layerName reads "name" or "name.sub.sub", written without whitespace.
// CSS-wide keywords are reserved and make the name invalid.
func layerName(toks []token) ([]string, bool) {
	var parts []string
	for i := 0; i < len(toks); i++ {
		if i%2 == 1 {
			if toks[i].Type != css.DelimToken || toks[i].Data != "." || i+1 >= len(toks) {
				return nil, false
			}
			continue
		}
		if toks[i].Type != css.IdentToken {
			return nil, false
		}
		name := unescapeIdent(toks[i].Data)
		if _, wide := cssWide[domtree.ToLowerASCII(name)]; wide || domtree.EqualFold(name, "default") {
			return nil, false
		}
		parts = append(parts, name)
	}
	return parts, len(parts) > 0
}

// splitTop splits tokens at the separators outside every block.
func splitTop(toks []token, sep css.TokenType) [][]token {
	var out [][]token
	var b blocks
	start := 0
	for i, t := range toks {
		if b.depth() == 0 && t.Type == sep {
			out = append(out, toks[start:i])
			start = i + 1
			continue
		}
		b.step(t)
	}
	return append(out, toks[start:])
}

// readRules reads the style rules of a style sheet in order, with the
// cascade layer each belongs to. The rules of a @media block whose query
// matches the screen, of a @supports block whose condition holds and of a
// @layer block are read where they stand, as if the block were not there
// (apart from the layer), to any depth: a stack of open groups replaces
// recursion, and a '}' where a rule could start closes the innermost, as
// CSS Syntax reads a block's rules. Every token is looked at a bounded
// number of times. @layer statements declare their layers. Every other
// at-rule, and every block whose condition fails, is skipped whole;
// @import loads nothing. c may be nil for a sheet read on its own.
func readRules(toks []token, c *sheetContext) []rawRule {
	if c == nil {
		c = newSheetContext()
	}
	var rules []rawRule
	layers := []int32{rootLayer} // the open groups' layers, outermost first
	for i := 0; i < len(toks); {
		c.steps++
		nested := len(layers) > 1
		layer := layers[len(layers)-1]
		t := toks[i]
		switch t.Type {
		case css.WhitespaceToken, css.CDOToken, css.CDCToken:
			i++
			continue
		case css.RightBraceToken:
			if nested {
				layers = layers[:len(layers)-1]
				i++
				continue
			}
			// At the top level a stray '}' starts a qualified rule, whose
			// selector is then invalid; so does a stray ';'.
		case css.AtKeywordToken:
			j := atPrelude(toks, i, nested)
			c.steps += j - i
			if j >= len(toks) || toks[j].Type == css.RightBraceToken {
				i = j // runs to the end of its block: dropped
				continue
			}
			prelude := toks[i+1 : j]
			name := atName(t)
			if toks[j].Type == css.SemicolonToken {
				if name == "layer" {
					c.declareLayers(trimSpace(prelude), layer)
				}
				i = j + 1
				continue
			}
			if inner, ok := c.groupApplies(name, prelude, layer); ok {
				layers = append(layers, inner)
				i = j + 1
				continue
			}
			next := skipBlock(toks, j)
			c.steps += next - j
			i = next
			continue
		}
		// A qualified rule: the prelude runs to the first top-level '{'.
		var b blocks
		start := i
		for i < len(toks) && (b.depth() > 0 || (toks[i].Type != css.LeftBraceToken && !(nested && i > start && toks[i].Type == css.RightBraceToken))) {
			b.step(toks[i])
			i++
		}
		c.steps += i - start
		if i >= len(toks) || toks[i].Type != css.LeftBraceToken {
			continue // no block before the group or the sheet ends: dropped
		}
		end := skipBlock(toks, i)
		c.steps += end - i
		blockEnd := end
		if blockEnd > i+1 && toks[blockEnd-1].Type == css.RightBraceToken {
			blockEnd--
		}
		rules = append(rules, rawRule{prelude: toks[start:i], block: toks[i+1 : blockEnd], layer: layer})
		i = end
	}
	return rules
}
