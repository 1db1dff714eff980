package style

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot/internal/csstoken"

	"github.com/andybalholm/cascadia"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// token is one CSS token, as media query lists are read (package csstoken).
type token = csstoken.Token

// tokenize runs the CSS tokenizer over src. It is one linear pass.
func tokenize(src string) []token { return csstoken.Tokenize(src) }

// closer returns the token that closes a block opened by t, or 0.
func closer(t token) byte {
	switch t.Type {
	case css.LeftParenthesisToken, css.FunctionToken:
		return ')'
	case css.LeftBracketToken:
		return ']'
	case css.LeftBraceToken:
		return '}'
	}
	return 0
}

// closes reports whether t closes a block expecting c.
func closes(t token, c byte) bool {
	switch t.Type {
	case css.RightParenthesisToken:
		return c == ')'
	case css.RightBracketToken:
		return c == ']'
	case css.RightBraceToken:
		return c == '}'
	}
	return false
}

// blocks tracks nesting the way CSS Syntax consumes simple blocks: a closing
// token only closes the innermost block of its own kind; any other closing
// token is an ordinary token.
type blocks struct{ stack []byte }

func (b *blocks) depth() int { return len(b.stack) }

// step updates the nesting for t and reports whether t opened or closed a block.
func (b *blocks) step(t token) {
	if c := closer(t); c != 0 {
		b.stack = append(b.stack, c)
		return
	}
	if n := len(b.stack); n > 0 && closes(t, b.stack[n-1]) {
		b.stack = b.stack[:n-1]
	}
}

// skipBlock returns the index just past the block that toks[i] opens (or the
// end of toks when the block is never closed, as CSS Syntax allows at EOF).
func skipBlock(toks []token, i int) int {
	var b blocks
	b.step(toks[i])
	for i++; i < len(toks); i++ {
		b.step(toks[i])
		if b.depth() == 0 {
			return i + 1
		}
	}
	return len(toks)
}

// rawRule is a style rule as read: its prelude (the selector list) and the
// tokens of its block, and the cascade layer it belongs to. A conditional
// group rule nested in a style rule (@media, @supports, @layer) is read as
// a rule for "&" whose block is the group's, with at and atPrelude set: it
// applies, to the enclosing selectors, when the group does.
type rawRule struct {
	prelude   []token
	block     []token
	layer     int32
	at        string
	atPrelude []token
}

// skipAtRule returns the index past the at-rule starting at i: through its
// ';' or its top-level {} block.
func skipAtRule(toks []token, i int) int {
	var b blocks
	for i++; i < len(toks); i++ {
		t := toks[i]
		if b.depth() == 0 {
			if t.Type == css.SemicolonToken {
				return i + 1
			}
			if t.Type == css.LeftBraceToken {
				return skipBlock(toks, i)
			}
		}
		b.step(t)
	}
	return len(toks)
}

// rawDecl is one declaration as read.
type rawDecl struct {
	name      string // lower case
	value     []token
	important bool
}

// readDecls reads the declarations of a style rule's block or a style
// attribute. Nested rules and at-rules are skipped whole.
func readDecls(toks []token) []rawDecl {
	segs, _ := readBlock(toks)
	var out []rawDecl
	for _, s := range segs {
		out = append(out, s...)
	}
	return out
}

// readBlock reads the declarations of a style rule's block and the style
// rules nested in it. Conditional group rules (@media, @supports, @layer)
// nested in it come back as rules too (see rawRule); other nested at-rules
// are skipped whole. The declarations
// come in segments, split where a nested rule stands: segs[0] holds those
// before the first nested rule, segs[k] those after rules[k-1]. CSS Nesting
// gives each later segment a place of its own in the cascade, after the
// nested rule before it (a nested declarations rule), so len(segs) is
// always len(rules)+1.
func readBlock(toks []token) (segs [][]rawDecl, rules []rawRule) {
	var out []rawDecl
	for i := 0; i < len(toks); {
		for i < len(toks) && (toks[i].Type == css.WhitespaceToken || toks[i].Type == css.SemicolonToken) {
			i++
		}
		if i >= len(toks) {
			break
		}
		if toks[i].Type == css.AtKeywordToken {
			name := atName(toks[i])
			j := atPrelude(toks, i, false)
			if j < len(toks) && toks[j].Type == css.LeftBraceToken && (name == "media" || name == "supports" || name == "layer") {
				end := skipBlock(toks, j)
				blockEnd := end
				if blockEnd > j+1 && toks[blockEnd-1].Type == css.RightBraceToken {
					blockEnd--
				}
				rules = append(rules, rawRule{prelude: []token{{Type: css.DelimToken, Data: "&"}}, block: toks[j+1 : blockEnd], at: name, atPrelude: toks[i+1 : j]})
				segs = append(segs, out)
				out = nil
				i = end
				continue
			}
			i = skipAtRule(toks, i)
			continue
		}
		custom := toks[i].Type == css.CustomPropertyNameToken ||
			(toks[i].Type == css.IdentToken && strings.HasPrefix(toks[i].Data, "--"))
		var b blocks
		start := i
		nested := false
		for i < len(toks) {
			t := toks[i]
			if b.depth() == 0 {
				if t.Type == css.SemicolonToken {
					break
				}
				if t.Type == css.LeftBraceToken && !custom {
					// A nested style rule: it ends with its block.
					end := skipBlock(toks, i)
					blockEnd := end
					if blockEnd > i+1 && toks[blockEnd-1].Type == css.RightBraceToken {
						blockEnd--
					}
					rules = append(rules, rawRule{prelude: toks[start:i], block: toks[i+1 : blockEnd]})
					segs = append(segs, out)
					out = nil
					i = end
					nested = true
					break
				}
			}
			b.step(t)
			i++
		}
		if nested {
			continue
		}
		if d, ok := parseDecl(toks[start:i]); ok {
			out = append(out, d)
		}
	}
	return append(segs, out), rules
}

// Nesting limits, see the package documentation.
const (
	// MaxNesting is the deepest style rule nesting applied.
	MaxNesting = 16
	// MaxNestedSelectorBytes bounds a nested rule's selector once the
	// selectors of the rules around it are written into it.
	MaxNestedSelectorBytes = 1 << 12
)

// tokenText writes tokens back as text.
func tokenText(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.Data)
	}
	return b.String()
}

// splitSelectors splits a selector list at its top-level commas, as text.
func splitSelectors(prelude []token) []string {
	var out []string
	var b blocks
	start := 0
	for i := 0; i <= len(prelude); i++ {
		if i < len(prelude) && (b.depth() > 0 || prelude[i].Type != css.CommaToken) {
			b.step(prelude[i])
			continue
		}
		out = append(out, strings.TrimSpace(tokenText(prelude[start:i])))
		start = i + 1
	}
	return out
}

// nestSelectors resolves a nested rule's selector list against the
// selectors of its parent (CSS Nesting), as flat selectors: "&" is replaced
// by each parent selector in turn, and a selector without "&" is relative to
// each parent (a leading combinator joins to it). CSS gives "&" the weight
// of :is(parents), the heaviest parent; here each resolved selector weighs
// what its own parent does. ok is false when the result grows past
// MaxNestedSelectorBytes.
func nestSelectors(prelude []token, parents []string) ([]string, bool) {
	var out []string
	size := 0
	var b blocks
	start := 0
	prelude = trimSpace(prelude)
	for i := 0; i <= len(prelude); i++ {
		if i < len(prelude) && (b.depth() > 0 || prelude[i].Type != css.CommaToken) {
			b.step(prelude[i])
			continue
		}
		sel := trimSpace(prelude[start:i])
		start = i + 1
		amp := false
		for _, t := range sel {
			if t.Type == css.DelimToken && t.Data == "&" {
				amp = true
				break
			}
		}
		for _, p := range parents {
			var sb strings.Builder
			if !amp {
				sb.WriteString(p + " ")
			}
			for _, t := range sel {
				if t.Type == css.DelimToken && t.Data == "&" {
					sb.WriteString(p)
				} else {
					sb.WriteString(t.Data)
				}
			}
			size += sb.Len() + 2
			if size > MaxNestedSelectorBytes {
				return nil, false
			}
			out = append(out, sb.String())
		}
	}
	return out, true
}

// parseDecl parses "name : value [!important]".
func parseDecl(toks []token) (rawDecl, bool) {
	toks = trimSpace(toks)
	if len(toks) < 2 || (toks[0].Type != css.IdentToken && toks[0].Type != css.CustomPropertyNameToken) {
		return rawDecl{}, false
	}
	d := rawDecl{name: domtree.ToLowerASCII(unescapeIdent(toks[0].Data))}
	if toks[0].Type == css.CustomPropertyNameToken || strings.HasPrefix(d.name, "--") {
		d.name = unescapeIdent(toks[0].Data) // custom property names keep their case
	}
	rest := trimSpace(toks[1:])
	if len(rest) == 0 || rest[0].Type != css.ColonToken {
		return rawDecl{}, false
	}
	v := trimSpace(rest[1:])
	// !important: a '!' delimiter, then the ident important, at the end.
	if n := len(v); n >= 2 && v[n-1].Type == css.IdentToken && strings.EqualFold(v[n-1].Data, "important") {
		j := n - 2
		if v[j].Type == css.WhitespaceToken {
			j--
		}
		if j >= 0 && v[j].Type == css.DelimToken && v[j].Data == "!" {
			d.important = true
			v = trimSpace(v[:j])
		}
	}
	d.value = v
	return d, true
}

func trimSpace(toks []token) []token {
	for len(toks) > 0 && toks[0].Type == css.WhitespaceToken {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1].Type == css.WhitespaceToken {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// keywords returns a declaration value's words, lower-cased, when it is only
// identifiers separated by whitespace; anything else (numbers, functions such
// as var(), strings) makes the value unusable here.
func keywords(v []token) ([]string, bool) {
	var words []string
	for _, t := range v {
		switch t.Type {
		case css.WhitespaceToken:
		case css.IdentToken:
			words = append(words, domtree.ToLowerASCII(unescapeIdent(t.Data)))
		default:
			return nil, false
		}
	}
	return words, len(words) > 0
}

// Selector limits, see the package documentation.
const (
	// MaxCompounds is the most compound selectors one complex selector may
	// chain; longer selectors drop their rule.
	MaxCompounds = 32
	// MaxNestedCombinators is the most combinators allowed inside the
	// functional pseudo-classes of one selector, which the selector library
	// matches by backtracking.
	MaxNestedCombinators = 2
)

// keyKind says which index a selector is filed under.
type keyKind uint8

const (
	keyNone keyKind = iota
	keyID
	keyClass
	keyTag
)

// compound is one compound selector and the combinator joining it to the
// compound on its left (0 for the leftmost).
type compound struct {
	// sel is the selector library's reading, which says the compound is
	// valid and what it weighs; m is what this package matches.
	sel  cascadia.Sel
	m    *cmpd
	comb byte
	// nth are the compound's :nth-child(An+B of S) and :nth-last-child(An+B
	// of S) conditions, which the selector library cannot evaluate; sel
	// already requires the element itself to match each S.
	nth []nthOf
}

// nthOf is one :nth-child(An+B of S) or :nth-last-child(An+B of S): the
// element must be, counting from the first (or last) sibling and counting
// only siblings that match of, at a position An+B for some n >= 0.
type nthOf struct {
	a, b int
	last bool
	of   []*cplx
}

// parseAnB parses the An+B microsyntax (odd, even, an integer, or a step
// with an optional offset), written as text with its whitespace.
func parseAnB(text string) (a, b int, ok bool) {
	s := domtree.ToLowerASCII(strings.Join(strings.Fields(text), ""))
	switch s {
	case "odd":
		return 2, 1, true
	case "even":
		return 2, 0, true
	case "":
		return 0, 0, false
	}
	num := func(t string) (int, bool) {
		if t == "" || len(t) > 9 {
			return 0, false
		}
		v := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			v = v*10 + int(t[i]-'0')
		}
		return v, true
	}
	signed := func(t string) (int, bool) {
		neg := strings.HasPrefix(t, "-")
		t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
		v, ok := num(t)
		if neg {
			v = -v
		}
		return v, ok
	}
	k := strings.IndexByte(s, 'n')
	if k < 0 {
		b, ok = signed(s)
		return 0, b, ok
	}
	switch head := s[:k]; head {
	case "", "+":
		a = 1
	case "-":
		a = -1
	default:
		if a, ok = signed(head); !ok {
			return 0, 0, false
		}
	}
	if tail := s[k+1:]; tail != "" {
		if tail[0] != '+' && tail[0] != '-' {
			return 0, 0, false
		}
		if b, ok = signed(tail); !ok {
			return 0, 0, false
		}
	}
	return a, b, true
}

// at reports whether position pos (from 1) is An+B for some n >= 0.
func (q *nthOf) at(pos int) bool {
	d := pos - q.b
	if q.a == 0 {
		return d == 0
	}
	return d%q.a == 0 && d/q.a >= 0
}

// match reports whether n's position among the siblings matching q.of is
// An+B. Each sibling tried costs a step, besides what matching it costs;
// when the budget runs out the answer is false.
//
// Unlike the plain positional pseudo-classes (position.go), this count is
// not kept: it depends on S as well as on the parent, so keeping it would
// take a number per child for every such selector, for a form pages rarely
// use. Its cost stays what it is, every earlier (or later) sibling tried
// against S, and the budget bounds it: a table striped with
// :nth-child(2n of tr) still costs steps quadratic in its rows.
func (q *nthOf) match(n *html.Node, m *matcher) bool {
	pos := 1
	for s := n; ; {
		if q.last {
			s = s.NextSibling
		} else {
			s = s.PrevSibling
		}
		if s == nil {
			break
		}
		if s.Type != html.ElementNode {
			continue
		}
		if !m.charge(1) {
			return false
		}
		m.work++
		if m.matchGroup(q.of, s, nil) {
			pos++
		}
		if m.spent() {
			return false
		}
	}
	return q.at(pos)
}

// nthOfArgs finds, for the function token toks[i] of :nth-child( or
// :nth-last-child(, the "of" keyword at the top level of its argument;
// it returns the An+B text before it and the index of the first token of
// S after it. ok is false when there is no "of".
func nthOfArgs(toks []token, i int) (anb string, sStart int, ok bool) {
	end := skipBlock(toks, i)
	var b blocks
	for j := i + 1; j < end-1; j++ {
		t := toks[j]
		if b.depth() == 0 && t.Type == css.IdentToken && domtree.EqualFold(t.Data, "of") {
			k := j + 1
			for k < end-1 && toks[k].Type == css.WhitespaceToken {
				k++
			}
			return tokenText(toks[i+1 : j]), k, true
		}
		b.step(t)
	}
	return "", 0, false
}

// complexSel is one complex selector, compounds left to right.
type complexSel struct {
	parts []compound
	spec  cascadia.Specificity
	// costly marks selectors whose compounds search other elements by
	// themselves (:has, nested combinators); they weigh more in MatchBudget.
	costly  bool
	key     keyKind
	keyText string
}

// neverPseudo are pseudo-classes a page at rest never matches: user action,
// and states only script or the user can reach.
var neverPseudo = map[string]bool{
	"hover": true, "active": true, "focus": true, "focus-within": true, "focus-visible": true,
	"visited": true, "target": true, "target-within": true, "modal": true, "popover-open": true,
	"fullscreen": true, "picture-in-picture": true, "autofill": true, "-webkit-autofill": true,
	"user-invalid": true, "user-valid": true,
}

// statePseudo are pseudo-classes answered from the states the caller
// computes (Options.States).
var statePseudo = map[string]State{
	"checked": Checked, "open": Open, "required": Required, "optional": Optional, "empty": Empty,
	"read-write": ReadWrite, "placeholder-shown": PlaceholderShown, "indeterminate": Indeterminate,
}

// negatedStatePseudo are pseudo-classes that match exactly the elements
// without a state: :read-only is every element that is not :read-write.
var negatedStatePseudo = map[string]State{"read-only": ReadWrite, "defined": Undefined}

// stateSel is the selector text for a state test, or for its absence when
// not is true. It is written as a :contains(), which the selector library
// parses and weighs as one pseudo-class, and which no style sheet can
// spell itself: rejected drops every rule that uses :contains. The
// compound parser reads it back as a state test (simState).
func stateSel(s State, not bool) string {
	name := "state"
	if not {
		name = "notstate"
	}
	return ":contains(" + name + strconv.Itoa(int(s)) + ")"
}

// dirArgument returns the direction of a ":dir(" whose function token is
// toks[i] ("ltr" or "rtl", lower case) and the index of its ")"; ok is false
// when the argument is not one identifier.
func dirArgument(toks []token, i int) (dir string, end int, ok bool) {
	j := i + 1
	if j < len(toks) && toks[j].Type == css.WhitespaceToken {
		j++
	}
	if j >= len(toks) || toks[j].Type != css.IdentToken {
		return "", 0, false
	}
	dir = domtree.ToLowerASCII(unescapeIdent(toks[j].Data))
	j++
	if j < len(toks) && toks[j].Type == css.WhitespaceToken {
		j++
	}
	if j >= len(toks) || toks[j].Type != css.RightParenthesisToken {
		return "", 0, false
	}
	return dir, j, true
}

// legacyPseudoElements may be written with one colon.
var legacyPseudoElements = map[string]bool{"before": true, "after": true, "first-line": true, "first-letter": true}

// parseSelectors turns a rule's prelude into complex selectors. ok is false
// when the selector list is invalid, which drops the whole rule as CSS
// requires. Selectors for pseudo-elements are valid but match no element and
// are left out.
func parseSelectors(prelude []token) ([]complexSel, bool) {
	prelude = trimSpace(prelude)
	if len(prelude) == 0 {
		return nil, false
	}
	var out []complexSel
	// Split on top-level commas.
	var b blocks
	start := 0
	for i := 0; i <= len(prelude); i++ {
		if i == len(prelude) || (b.depth() == 0 && prelude[i].Type == css.CommaToken) {
			cs, pseudoElement, ok := parseComplex(trimSpace(prelude[start:i]))
			if !ok {
				return nil, false
			}
			if !pseudoElement {
				out = append(out, cs)
			}
			start = i + 1
			continue
		}
		b.step(prelude[i])
	}
	return out, true
}

// parseComplex parses one complex selector. Its text is rewritten, one
// compound at a time, into what the selector library parses and weighs as
// CSS does (complexParser.rewrite), and each compound is then compiled
// (complexParser.compile).
func parseComplex(toks []token) (cs complexSel, pseudoElement, ok bool) {
	if len(toks) == 0 || rejected(toks) {
		return cs, false, false
	}
	p := complexParser{toks: toks, cur: &complexPart{}}
	if !p.rewrite() {
		return cs, false, false
	}
	if p.pseudoElement {
		return p.cs, true, true
	}
	if !p.compile() {
		return cs, false, false
	}
	return p.cs, false, true
}

// complexPart is one compound of a complex selector as it is rewritten.
type complexPart struct {
	text    strings.Builder
	comb    byte
	key     keyKind
	keyText string
	n       int                  // tokens at depth 0
	zero    cascadia.Specificity // weight of top-level :where() arguments, taken off
	nth     []nthOf
	plus    cascadia.Specificity // weight the text does not show (:nth-child of S)
}

// blockDebt is what the rewrite owes when an open block closes.
type blockDebt struct {
	paren bool // one more ")"
	where int  // for a top-level :where(), where its argument starts in the text; else -1
	// nth, for a top-level :nth-child(An+B of S), waits for S, which
	// starts in the text at nthStart.
	nth      *nthOf
	nthStart int
}

// complexParser holds the state of parseComplex over toks; i is the token
// being read.
type complexParser struct {
	toks          []token
	i             int
	cs            complexSel
	parts         []*complexPart
	cur           *complexPart
	pending       byte // the combinator before the next compound, 0 for none
	b             blocks
	extra         []blockDebt // one per open block
	nested        int         // combinators inside functional pseudo-classes
	pseudoElement bool
}

// rewrite reads every token into the compounds' text; false when the
// selector is invalid or unsupported.
func (p *complexParser) rewrite() bool {
	for p.i = 0; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		if p.b.depth() == 0 {
			skip, ok := p.topLevel(t)
			if !ok {
				return false
			}
			if skip {
				continue
			}
		}
		if t.Type == css.DelimToken && t.Data == "&" || t.Type == css.DelimToken && t.Data == "|" {
			return false // nesting and namespace selectors are not supported
		}
		if p.b.depth() == 0 {
			p.noteKey(t)
			p.cur.n++
		}
		if t.Type == css.ColonToken {
			done, ok := p.pseudo()
			if !ok {
				return false
			}
			if done {
				continue
			}
		}
		// HTML compares the values of some attributes case-insensitively
		// in attribute selectors: add the i flag where none is given.
		if t.Type == css.RightBracketToken && p.b.depth() > 0 && caseInsensitiveValue(p.toks, p.i) {
			p.cur.text.WriteString(" i")
		}
		if !p.step(t) {
			return false
		}
		if t.Type == css.WhitespaceToken {
			p.cur.text.WriteByte(' ')
		} else {
			p.cur.text.WriteString(t.Data)
		}
	}
	if p.pending != 0 || p.cur.n == 0 || p.b.depth() != 0 {
		return false
	}
	p.parts = append(p.parts, p.cur)
	return true
}

// topLevel reads t outside any block: white space and combinators are
// taken (skip), and a token after a combinator starts the next compound.
func (p *complexParser) topLevel(t token) (skip, ok bool) {
	switch {
	case t.Type == css.WhitespaceToken:
		if p.cur.n > 0 && p.pending == 0 {
			p.pending = ' '
		}
		return true, true
	case t.Type == css.DelimToken && (t.Data == ">" || t.Data == "+" || t.Data == "~"):
		if p.cur.n == 0 || (p.pending != 0 && p.pending != ' ') {
			return false, false
		}
		p.pending = t.Data[0]
		return true, true
	case t.Type == css.ColumnToken:
		return false, false
	}
	if p.pending != 0 {
		p.parts = append(p.parts, p.cur)
		p.cur = &complexPart{comb: p.pending}
		p.pending = 0
		if len(p.parts) >= MaxCompounds {
			return false, false
		}
	}
	return false, true
}

// noteKey sets the key of the compound from its own top-level simple
// selectors: its id, else its first class, else its tag.
func (p *complexParser) noteKey(t token) {
	if strings.ContainsRune(t.Data, '\\') {
		return
	}
	cur, toks, i := p.cur, p.toks, p.i
	switch {
	case t.Type == css.HashToken && cur.key != keyID:
		cur.key, cur.keyText = keyID, t.Data[1:]
	case t.Type == css.IdentToken && cur.n == 0:
		cur.key, cur.keyText = keyTag, strings.ToLower(t.Data)
	case t.Type == css.DelimToken && t.Data == "." && i+1 < len(toks) && toks[i+1].Type == css.IdentToken &&
		!strings.ContainsRune(toks[i+1].Data, '\\') && (cur.key == keyNone || cur.key == keyTag):
		cur.key, cur.keyText = keyClass, toks[i+1].Data
	}
}

// pseudo reads the colon at p.i: it notes a pseudo-element, and rewrites
// the pseudo-classes the selector library does not know, or knows
// otherwise, into ones it does. done is true when the rewrite took the
// pseudo-class's tokens; false, the colon is written as it is.
func (p *complexParser) pseudo() (done, ok bool) {
	toks, i := p.toks, p.i
	// Pseudo-elements: "::name" or a legacy one-colon name.
	if i+1 < len(toks) && toks[i+1].Type == css.ColonToken {
		p.pseudoElement = true
	} else if i+1 < len(toks) && toks[i+1].Type == css.IdentToken && legacyPseudoElements[strings.ToLower(toks[i+1].Data)] {
		p.pseudoElement = true
	}
	if i+1 >= len(toks) || (i > 0 && toks[i-1].Type == css.ColonToken) {
		return false, true
	}
	nt := toks[i+1]
	name := strings.ToLower(nt.Data)
	if nt.Type == css.IdentToken {
		if text, ok := identPseudo(name); ok {
			p.cur.text.WriteString(text)
			p.i++
			return true, true
		}
		return false, true
	}
	if nt.Type != css.FunctionToken {
		return false, true
	}
	switch name {
	case "dir(":
		return p.dir(), true
	case "is(", "where(", "-webkit-any(":
		p.openIs(nt, name == "where(")
		return true, true
	case "nth-child(", "nth-last-child(":
		if p.b.depth() == 0 {
			return p.openNthOf(nt, name == "nth-last-child(")
		}
	case "has(":
		return p.openHas(nt), true
	}
	return false, true
}

// identPseudo is the rewrite of the pseudo-class :name, when it has one.
func identPseudo(name string) (string, bool) {
	switch {
	case neverPseudo[name]:
		// :nth-child(0) matches nothing and weighs like a pseudo-class.
		return ":nth-child(0)", true
	case name == "any-link" || name == "-webkit-any-link":
		return ":link", true
	case name == "scope":
		return ":root", true
	case statePseudo[name] != 0:
		return stateSel(statePseudo[name], false), true
	case negatedStatePseudo[name] != 0:
		return stateSel(negatedStatePseudo[name], true), true
	}
	return "", false
}

// dir rewrites ":dir(X)". The caller marks right-to-left elements; every
// other element is left-to-right. Another direction matches nothing. An
// argument that is not one identifier is left to the selector library.
func (p *complexParser) dir() bool {
	dir, end, ok := dirArgument(p.toks, p.i+1)
	if !ok {
		return false
	}
	switch dir {
	case "ltr":
		p.cur.text.WriteString(stateSel(RTL, true))
	case "rtl":
		p.cur.text.WriteString(stateSel(RTL, false))
	default:
		p.cur.text.WriteString(":nth-child(0)")
	}
	p.i = end
	return true
}

// openIs opens ":is(X)", which matches like :not(:not(X)) and weighs like
// X; ":where(X)" weighs nothing, so a top-level one has X's weight taken
// off again when its block closes.
func (p *complexParser) openIs(fn token, where bool) {
	at := -1
	if where && p.b.depth() == 0 {
		at = p.cur.text.Len() + len(":not(:not(")
	}
	p.cur.text.WriteString(":not(:not(")
	p.b.step(fn)
	p.extra = append(p.extra, blockDebt{paren: true, where: at})
	p.i++
}

// openNthOf opens a top-level ":nth-child(An+B of S)": the element matches
// S, which weighs what S does, and the pseudo-class weighs one more; the
// position is checked while matching (compound.nth). A plain An+B is left
// to the selector library (done false).
func (p *complexParser) openNthOf(fn token, last bool) (done, ok bool) {
	anb, sStart, hasOf := nthOfArgs(p.toks, p.i+1)
	if !hasOf {
		return false, true
	}
	a, b, ok := parseAnB(anb)
	if !ok || sStart >= len(p.toks) || p.toks[sStart].Type == css.RightParenthesisToken {
		return false, false
	}
	p.cs.costly = true
	p.cur.plus = p.cur.plus.Add(cascadia.Specificity{0, 1, 0})
	p.cur.text.WriteString(":not(:not(")
	p.b.step(fn)
	p.extra = append(p.extra, blockDebt{paren: true, where: -1,
		nth: &nthOf{a: a, b: b, last: last}, nthStart: p.cur.text.Len()})
	p.i = sStart - 1
	return true, true
}

// openHas marks a ":has(" costly, and rewrites ":has(> X)" as
// ":haschild(X)", as the selector library reads it; any other :has() is
// left to the library.
func (p *complexParser) openHas(fn token) bool {
	p.cs.costly = true
	j := p.i + 2
	if j < len(p.toks) && p.toks[j].Type == css.WhitespaceToken {
		j++
	}
	if j >= len(p.toks) || p.toks[j].Type != css.DelimToken || p.toks[j].Data != ">" {
		return false
	}
	p.cur.text.WriteString(":haschild(")
	p.b.step(fn)
	p.extra = append(p.extra, blockDebt{where: -1})
	p.i = j
	return true
}

// step tracks blocks through t, paying what the rewrite owes when one
// closes.
func (p *complexParser) step(t token) bool {
	before := p.b.depth()
	p.b.step(t)
	switch {
	case p.b.depth() > before:
		p.extra = append(p.extra, blockDebt{where: -1})
	case p.b.depth() < before && len(p.extra) > 0:
		d := p.extra[len(p.extra)-1]
		p.extra = p.extra[:len(p.extra)-1]
		return p.pay(d)
	}
	return true
}

// pay settles the debt of a closed block: a top-level :where()'s weight
// taken off, an :nth-child(of S)'s S compiled, the :is() rewrite's extra
// parenthesis.
func (p *complexParser) pay(d blockDebt) bool {
	cur := p.cur
	if d.where >= 0 {
		if g, err := cascadia.ParseGroup(cur.text.String()[d.where:]); err == nil {
			var most cascadia.Specificity
			for _, sel := range g {
				if sp := sel.Specificity(); most.Less(sp) {
					most = sp
				}
			}
			cur.zero = cur.zero.Add(most)
		}
	}
	if d.nth != nil {
		text := cur.text.String()[d.nthStart:]
		if _, err := cascadia.ParseGroup(text); err != nil {
			return false
		}
		g, inner, ok := parseGroupText(text)
		if !ok {
			return false
		}
		p.nested += inner
		d.nth.of = g
		cur.nth = append(cur.nth, *d.nth)
	}
	if d.paren {
		cur.text.WriteString(")")
	}
	return true
}

// compile parses each compound's rewritten text, with the selector library
// for its weight and with parseCompound for matching, and sums the weight
// and the key of the selector.
func (p *complexParser) compile() bool {
	cs := &p.cs
	for _, part := range p.parts {
		sel, err := cascadia.Parse(part.text.String())
		if err != nil || sel.PseudoElement() != "" {
			return false
		}
		m, inner, searches, ok := parseCompound(part.text.String())
		if !ok {
			return false
		}
		p.nested += inner
		cs.costly = cs.costly || searches
		cs.parts = append(cs.parts, compound{sel: sel, m: m, comb: part.comb, nth: part.nth})
		sp := sel.Specificity()
		for k := range sp {
			sp[k] -= part.zero[k]
		}
		sp = sp.Add(part.plus)
		cs.spec = cs.spec.Add(sp)
	}
	if p.nested > MaxNestedCombinators {
		return false
	}
	last := p.parts[len(p.parts)-1]
	cs.key, cs.keyText = last.key, last.keyText
	return true
}

// caseInsensitiveAttrs are the attributes whose values attribute selectors
// match ASCII case-insensitively on HTML elements (HTML Standard, section
// "Case-sensitivity of selectors").
var caseInsensitiveAttrs = map[string]bool{
	"accept": true, "accept-charset": true, "align": true, "alink": true, "axis": true, "bgcolor": true,
	"charset": true, "checked": true, "clear": true, "codetype": true, "color": true, "compact": true,
	"declare": true, "defer": true, "dir": true, "direction": true, "disabled": true, "enctype": true,
	"face": true, "frame": true, "hreflang": true, "http-equiv": true, "lang": true, "language": true,
	"link": true, "media": true, "method": true, "multiple": true, "nohref": true, "noresize": true,
	"noshade": true, "nowrap": true, "readonly": true, "rel": true, "rev": true, "rules": true,
	"scope": true, "scrolling": true, "selected": true, "shape": true, "target": true, "text": true,
	"type": true, "valign": true, "valuetype": true, "vlink": true,
}

// caseInsensitiveValue reports whether the attribute selector that the "]"
// at toks[end] closes compares a value of a case-insensitive attribute and
// carries no i or s flag of its own.
func caseInsensitiveValue(toks []token, end int) bool {
	start := end - 1
	for start >= 0 && toks[start].Type != css.LeftBracketToken {
		if toks[start].Type == css.RightBracketToken {
			return false
		}
		start--
	}
	if start < 0 {
		return false
	}
	var inner []token
	for _, t := range toks[start+1 : end] {
		if t.Type != css.WhitespaceToken {
			inner = append(inner, t)
		}
	}
	if len(inner) < 3 || inner[0].Type != css.IdentToken || !caseInsensitiveAttrs[strings.ToLower(inner[0].Data)] {
		return false
	}
	// name op value, with no flag after the value.
	return len(inner) == 3 || (len(inner) == 4 && inner[1].Type == css.DelimToken && inner[1].Data == "=")
}

// unescapeIdent resolves the escapes of an identifier token's text as CSS
// Syntax does: a backslash and one to six hex digits (and one whitespace
// after them) is that code point, with zero, surrogates and values past
// U+10FFFF read as U+FFFD; a backslash before anything else is that
// character. So "dis\70 lay" is the property display, as in a browser.
func unescapeIdent(s string) string {
	if !strings.ContainsRune(s, '\\') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		i++
		j, v := i, rune(0)
		for j < len(s) && j-i < 6 && isHex(s[j]) {
			v = v*16 + hexVal(s[j])
			j++
		}
		if j == i {
			// Not hex: the next character stands for itself.
			r, size := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r)
			i += size
			continue
		}
		if v == 0 || (v >= 0xD800 && v <= 0xDFFF) || v > utf8.MaxRune {
			v = utf8.RuneError
		}
		b.WriteRune(v)
		i = j
		if i < len(s) && s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i += 2
		} else if i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f') {
			i++
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c-'a') + 10
	}
	return rune(c-'A') + 10
}
