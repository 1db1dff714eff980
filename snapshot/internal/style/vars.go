package style

import (
	"strings"

	"github.com/tdewolff/parse/v2/css"
)

// Limits of var() substitution, see the package documentation.
const (
	// MaxVarTokens bounds the tokens of one custom property's value after
	// substitution; a longer one is invalid. No display or visibility value
	// comes near it, so the bound changes no result that analysis reads.
	MaxVarTokens = 1 << 12
	// MaxVarDepth bounds how many custom properties one substitution may
	// pass through, each referring to the next; longer chains are invalid.
	MaxVarDepth = 64
	// VarSteps bounds the tokens all substitutions of one document may
	// produce. When it is spent in a document with author sheets, they are
	// dropped as for MatchSteps and styles computed again; when style
	// attributes alone spend it, substitutions after that point are
	// invalid.
	VarSteps = 1 << 22
)

// propCustom marks a custom property declaration (decl.custom names it);
// it lies past numProps, so "all" never reaches it.
const propCustom = numProps

// customDecl is the winning declaration of one custom property on one
// element: its value tokens, or a CSS-wide keyword.
type customDecl struct {
	kind valueKind
	toks []token
}

// varScope holds the custom properties an element declares itself; the
// rest it inherits through parent. Elements that declare none share their
// parent's scope. Values are substituted lazily, only when a display or
// visibility value asks for them, and remembered.
type varScope struct {
	parent *varScope
	own    map[string]customDecl
	done   map[string]resolved
	// active are the properties being substituted right now, in order,
	// to find cycles; cyclic marks those found in one.
	active []string
	cyclic map[string]bool
}

// resolved is a custom property's computed value; ok is false for the
// guaranteed-invalid value (undefined, initial, in a cycle, or a var()
// that failed).
type resolved struct {
	toks []token
	ok   bool
}

// varError records why a substitution failed.
type varError uint8

const (
	varOK varError = iota
	varInvalid
	varSpent // VarSteps ran out
)

// substituter performs var() substitution for one element.
type substituter struct {
	e   *Engine
	err varError
}

// lookup returns the computed value of custom property name in scope s.
func (v *substituter) lookup(s *varScope, name string, depth int) resolved {
	for ; s != nil; s = s.parent {
		d, ok := s.own[name]
		if !ok {
			continue
		}
		switch d.kind {
		case valInherit, valUnset, valRevert:
			// Custom properties inherit; reverting author styles leaves
			// the inherited value too.
			continue
		case valInitial:
			return resolved{}
		}
		return v.resolve(s, name, d.toks, depth)
	}
	return resolved{}
}

// resolve computes custom property name declared in s with value toks.
func (v *substituter) resolve(s *varScope, name string, toks []token, depth int) resolved {
	if r, ok := s.done[name]; ok {
		return r
	}
	for i, a := range s.active {
		if a == name {
			// A cycle: every property in it is invalid.
			if s.cyclic == nil {
				s.cyclic = map[string]bool{}
			}
			for _, c := range s.active[i:] {
				s.cyclic[c] = true
			}
			return resolved{}
		}
	}
	s.active = append(s.active, name)
	out, ok := v.substitute(s, toks, depth+1)
	s.active = s.active[:len(s.active)-1]
	r := resolved{toks: out, ok: ok && !s.cyclic[name]}
	if !r.ok {
		r.toks = nil
	}
	if v.err != varSpent {
		if s.done == nil {
			s.done = map[string]resolved{}
		}
		s.done[name] = r
	}
	return r
}

// substitute replaces every var() in toks, looked up in scope s. ok is
// false when a var() names an invalid property and has no fallback (or an
// invalid one), or a bound is reached.
func (v *substituter) substitute(s *varScope, toks []token, depth int) ([]token, bool) {
	if depth > MaxVarDepth {
		v.err = varInvalid
		return nil, false
	}
	if v.e.varSteps < 0 {
		v.err = varSpent
		return nil, false
	}
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Type != css.FunctionToken || !strings.EqualFold(t.Data, "var(") {
			out = append(out, t)
		} else {
			end := skipBlock(toks, i)
			name, fallback, hasFallback, ok := varArgs(toks[i+1 : end])
			if !ok {
				return nil, false
			}
			i = end - 1
			r := v.lookup(s, name, depth)
			if !r.ok {
				if !hasFallback {
					return nil, false
				}
				if r.toks, r.ok = v.substitute(s, fallback, depth+1); !r.ok {
					return nil, false
				}
			}
			out = append(out, r.toks...)
		}
		if len(out) > MaxVarTokens {
			return nil, false
		}
	}
	v.e.varSteps -= len(out)
	if v.e.varSteps < 0 {
		v.err = varSpent
		return nil, false
	}
	return out, true
}

// varArgs reads the inside of var( ... ), with its closing parenthesis if
// present: a custom property name, then optionally a comma and a fallback
// (which may be empty).
func varArgs(toks []token) (name string, fallback []token, hasFallback, ok bool) {
	if n := len(toks); n > 0 && toks[n-1].Type == css.RightParenthesisToken {
		toks = toks[:n-1]
	}
	toks = trimSpace(toks)
	if len(toks) == 0 {
		return "", nil, false, false
	}
	t := toks[0]
	if t.Type != css.CustomPropertyNameToken && !(t.Type == css.IdentToken && strings.HasPrefix(t.Data, "--")) {
		return "", nil, false, false
	}
	name = unescapeIdent(t.Data)
	rest := trimSpace(toks[1:])
	if len(rest) == 0 {
		return name, nil, false, true
	}
	if rest[0].Type != css.CommaToken {
		return "", nil, false, false
	}
	return name, trimSpace(rest[1:]), true, true
}

// validVars reports whether every var() in a value is well formed, as the
// parser requires of a declaration that uses one: a custom property name
// first, then a comma or the end. One pass: var() in fallbacks are met in
// turn.
func validVars(v []token) bool {
	for i := 0; i < len(v); i++ {
		if v[i].Type != css.FunctionToken || !strings.EqualFold(v[i].Data, "var(") {
			continue
		}
		j := i + 1
		for j < len(v) && v[j].Type == css.WhitespaceToken {
			j++
		}
		if j >= len(v) || (v[j].Type != css.CustomPropertyNameToken && !(v[j].Type == css.IdentToken && strings.HasPrefix(v[j].Data, "--"))) {
			return false
		}
		j++
		for j < len(v) && v[j].Type == css.WhitespaceToken {
			j++
		}
		if j < len(v) && v[j].Type != css.CommaToken && v[j].Type != css.RightParenthesisToken {
			return false
		}
	}
	return true
}

// substituteVars replaces the display and visibility winners that use
// var() by their substituted values, in scope s. A value that is invalid
// after substitution makes the declaration behave as unset: display
// becomes its initial value, visibility inherits.
func (e *Engine) substituteVars(w *[numProps]winner, s *varScope) {
	for _, p := range [...]property{propDisplay, propVisibility} {
		x := &w[p]
		if !x.set || x.val.kind != valVar {
			continue
		}
		v := substituter{e: e}
		toks, ok := v.substitute(s, x.val.raw, 0)
		val := value{kind: valUnset}
		if ok {
			name := "display"
			if p == propVisibility {
				name = "visibility"
			}
			if ds := parseDecls([]rawDecl{{name: name, value: trimSpace(toks)}}); len(ds) == 1 && ds[0].val.kind != valVar {
				val = ds[0].val
			}
		}
		x.val = val
		if v.err == varSpent && !e.SheetsDropped && len(e.rules) > 0 {
			e.m.steps = -1 // the sheets cost too much: OverBudget
		}
	}
}
