package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Schema is a compiled input schema. It is immutable and safe for
// concurrent use.
type Schema struct {
	root *node
}

// node is one schema object. Pointers left nil mean the keyword is absent.
type node struct {
	types    []string
	konst    *any
	enum     []any
	ref      string
	refNode  *node
	props    map[string]*node
	propKeys []string // sorted, for a deterministic order
	required []string
	noExtra  bool // additionalProperties: false
	extra    *node
	items    *node
	minItems *int
	maxItems *int
	minLen   *int
	maxLen   *int
	pattern  *regexp.Regexp
	minimum  *big.Rat
	maximum  *big.Rat
	not      *node
	allOf    []*node
	ifS      *node
	thenS    *node
	elseS    *node
}

// compilations counts Compile calls, for tests that show a command pays
// for schemas only when it serves tools.
var compilations atomic.Int64

// Compilations is how many schemas Compile has been asked for in this
// process.
func Compilations() int64 { return compilations.Load() }

// Compile reads one input schema document. Every $ref must name an entry
// of the document's own $defs.
func Compile(doc []byte) (*Schema, error) {
	compilations.Add(1)
	v, err := Decode(doc)
	if err != nil {
		return nil, err
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("argcheck: the schema is not an object")
	}
	c := &compiler{defs: map[string]*node{}}
	if d, ok := top["$defs"]; ok {
		dm, ok := d.(map[string]any)
		if !ok {
			return nil, errors.New("argcheck: $defs is not an object")
		}
		c.raw = dm
	}
	root, err := c.node(top, "#")
	if err != nil {
		return nil, err
	}
	return &Schema{root: root}, nil
}

type compiler struct {
	raw  map[string]any
	defs map[string]*node
}

// annotations are keywords that change nothing about validity.
var annotations = map[string]bool{"$schema": true, "$defs": true, "description": true, "default": true, "title": true}

func (c *compiler) def(name string) (*node, error) {
	if n, ok := c.defs[name]; ok {
		return n, nil
	}
	raw, ok := c.raw[name]
	if !ok {
		return nil, fmt.Errorf("argcheck: $ref to a missing definition %q", name)
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("argcheck: definition %q is not an object", name)
	}
	// Entered before compiling so that a definition may refer to itself.
	n := &node{}
	c.defs[name] = n
	built, err := c.node(m, "#/$defs/"+name)
	if err != nil {
		return nil, err
	}
	*n = *built
	return n, nil
}

func (c *compiler) node(m map[string]any, at string) (*node, error) {
	n := &node{}
	sub := func(k string) (*node, error) {
		sm, ok := m[k].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("argcheck: %s/%s is not a schema object", at, k)
		}
		return c.node(sm, at+"/"+k)
	}
	count := func(k string) (*int, error) {
		num, ok := m[k].(json.Number)
		if !ok {
			return nil, fmt.Errorf("argcheck: %s/%s is not a number", at, k)
		}
		i, err := strconv.Atoi(num.String())
		if err != nil || i < 0 {
			return nil, fmt.Errorf("argcheck: %s/%s is not a count", at, k)
		}
		return &i, nil
	}
	bound := func(k string) (*big.Rat, error) {
		num, ok := m[k].(json.Number)
		if !ok {
			return nil, fmt.Errorf("argcheck: %s/%s is not a number", at, k)
		}
		r, ok := new(big.Rat).SetString(num.String())
		if !ok {
			return nil, fmt.Errorf("argcheck: %s/%s is not a number", at, k)
		}
		return r, nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var err error
	for _, k := range keys {
		val := m[k]
		switch k {
		case "type":
			switch t := val.(type) {
			case string:
				n.types = []string{t}
			case []any:
				for _, x := range t {
					s, ok := x.(string)
					if !ok {
						return nil, fmt.Errorf("argcheck: %s/type holds a non-string", at)
					}
					n.types = append(n.types, s)
				}
			default:
				return nil, fmt.Errorf("argcheck: %s/type is neither a string nor an array", at)
			}
			for _, t := range n.types {
				switch t {
				case "null", "boolean", "object", "array", "number", "integer", "string":
				default:
					return nil, fmt.Errorf("argcheck: %s/type names an unknown type %q", at, t)
				}
			}
		case "const":
			v := val
			n.konst = &v
		case "enum":
			e, ok := val.([]any)
			if !ok {
				return nil, fmt.Errorf("argcheck: %s/enum is not an array", at)
			}
			n.enum = e
		case "$ref":
			r, _ := val.(string)
			name, ok := strings.CutPrefix(r, "#/$defs/")
			if !ok || strings.Contains(name, "/") {
				return nil, fmt.Errorf("argcheck: %s/$ref is not a local definition", at)
			}
			n.ref = name
			if n.refNode, err = c.def(name); err != nil {
				return nil, err
			}
		case "properties":
			pm, ok := val.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("argcheck: %s/properties is not an object", at)
			}
			n.props = map[string]*node{}
			for name, ps := range pm {
				psm, ok := ps.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("argcheck: %s/properties/%s is not a schema object", at, name)
				}
				if n.props[name], err = c.node(psm, at+"/properties/"+name); err != nil {
					return nil, err
				}
				n.propKeys = append(n.propKeys, name)
			}
			sort.Strings(n.propKeys)
		case "required":
			r, ok := val.([]any)
			if !ok {
				return nil, fmt.Errorf("argcheck: %s/required is not an array", at)
			}
			for _, x := range r {
				s, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("argcheck: %s/required holds a non-string", at)
				}
				n.required = append(n.required, s)
			}
		case "additionalProperties":
			switch a := val.(type) {
			case bool:
				n.noExtra = !a
			case map[string]any:
				if n.extra, err = c.node(a, at+"/additionalProperties"); err != nil {
					return nil, err
				}
			default:
				return nil, fmt.Errorf("argcheck: %s/additionalProperties is neither a boolean nor a schema", at)
			}
		case "items":
			n.items, err = sub(k)
		case "minItems":
			n.minItems, err = count(k)
		case "maxItems":
			n.maxItems, err = count(k)
		case "minLength":
			n.minLen, err = count(k)
		case "maxLength":
			n.maxLen, err = count(k)
		case "pattern":
			p, ok := val.(string)
			if !ok {
				return nil, fmt.Errorf("argcheck: %s/pattern is not a string", at)
			}
			if n.pattern, err = regexp.Compile(p); err != nil {
				return nil, fmt.Errorf("argcheck: %s/pattern: %w", at, err)
			}
		case "minimum":
			n.minimum, err = bound(k)
		case "maximum":
			n.maximum, err = bound(k)
		case "not":
			n.not, err = sub(k)
		case "allOf":
			all, ok := val.([]any)
			if !ok || len(all) == 0 {
				return nil, fmt.Errorf("argcheck: %s/allOf is not a non-empty array", at)
			}
			for i, x := range all {
				xm, ok := x.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("argcheck: %s/allOf/%d is not a schema object", at, i)
				}
				s, err := c.node(xm, at+"/allOf/"+strconv.Itoa(i))
				if err != nil {
					return nil, err
				}
				n.allOf = append(n.allOf, s)
			}
		case "if":
			n.ifS, err = sub(k)
		case "then":
			n.thenS, err = sub(k)
		case "else":
			n.elseS, err = sub(k)
		default:
			if !annotations[k] {
				return nil, fmt.Errorf("argcheck: %s uses the keyword %q, which this checker does not know", at, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// Decode reads one JSON value with numbers kept exact, refusing anything
// after it.
func Decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("argcheck: something follows the JSON value")
	}
	return v, nil
}

// Validate checks v, a value from Decode. It reports whether v is valid
// and, when not, the JSON pointer of the first innermost failure ("" for
// the top level).
func (s *Schema) Validate(v any) (ok bool, at string) {
	var path []string
	fail, loc := s.root.check(v, path)
	if !fail {
		return true, ""
	}
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(tok)
	}
	return false, b.String()
}

// check returns whether v fails n and, if so, where the first innermost
// failure lies. The path slice is extended with copies, so the location
// returned is never overwritten by a later sibling.
func (n *node) check(v any, path []string) (bool, []string) {
	if n.types != nil && !hasType(n.types, v) {
		return true, path
	}
	if n.konst != nil && !equal(v, *n.konst) {
		return true, path
	}
	if n.enum != nil {
		found := false
		for _, e := range n.enum {
			if equal(v, e) {
				found = true
				break
			}
		}
		if !found {
			return true, path
		}
	}
	var first []string
	failed := false
	note := func(bad bool, at []string) {
		if bad && !failed {
			failed, first = true, at
		}
	}
	if n.refNode != nil {
		note(n.refNode.check(v, path))
	}
	switch v := v.(type) {
	case map[string]any:
		for _, r := range n.required {
			if _, ok := v[r]; !ok {
				note(true, path)
				break
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		extra := false
		for _, k := range keys {
			if ps, ok := n.props[k]; ok {
				note(ps.check(v[k], child(path, k)))
			} else if n.extra != nil {
				note(n.extra.check(v[k], child(path, k)))
			} else if n.noExtra {
				extra = true
			}
		}
		note(extra, path)
	case []any:
		if n.minItems != nil && len(v) < *n.minItems {
			note(true, path)
		}
		if n.maxItems != nil && len(v) > *n.maxItems {
			note(true, path)
		}
		if n.items != nil {
			for i, x := range v {
				note(n.items.check(x, child(path, strconv.Itoa(i))))
			}
		}
	case string:
		if n.minLen != nil || n.maxLen != nil {
			runes := utf8.RuneCountInString(v)
			note(n.minLen != nil && runes < *n.minLen, path)
			note(n.maxLen != nil && runes > *n.maxLen, path)
		}
		if n.pattern != nil && !n.pattern.MatchString(v) {
			note(true, path)
		}
	case json.Number:
		if n.minimum != nil || n.maximum != nil {
			r, ok := new(big.Rat).SetString(v.String())
			if ok {
				note(n.minimum != nil && r.Cmp(n.minimum) < 0, path)
				note(n.maximum != nil && r.Cmp(n.maximum) > 0, path)
			}
		}
	}
	if n.not != nil {
		if bad, _ := n.not.check(v, path); !bad {
			note(true, path)
		}
	}
	for _, a := range n.allOf {
		note(a.check(v, path))
	}
	if n.ifS != nil {
		if bad, _ := n.ifS.check(v, path); !bad {
			if n.thenS != nil {
				note(n.thenS.check(v, path))
			}
		} else if n.elseS != nil {
			note(n.elseS.check(v, path))
		}
	}
	return failed, first
}

// child is path with one more token, in a fresh array. Tokens are not
// escaped: every member a failure can lie under is a property the schema
// names, none of which holds "~" or "/".
func child(path []string, tok string) []string {
	out := make([]string, len(path)+1)
	copy(out, path)
	out[len(path)] = tok
	return out
}

func hasType(types []string, v any) bool {
	for _, t := range types {
		switch v := v.(type) {
		case nil:
			if t == "null" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		case json.Number:
			if t == "number" || (t == "integer" && isInteger(v)) {
				return true
			}
		}
	}
	return false
}

// isInteger is true for a number with no fractional part, however written
// (1.0 and 1e3 are integers to JSON Schema).
func isInteger(n json.Number) bool {
	r, ok := new(big.Rat).SetString(n.String())
	return ok && r.IsInt()
}

// equal is JSON equality: numbers by value, objects by members, arrays in
// order.
func equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		ra, ok1 := new(big.Rat).SetString(a.String())
		rb, ok2 := new(big.Rat).SetString(bn.String())
		return ok1 && ok2 && ra.Cmp(rb) == 0
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !equal(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, x := range a {
			y, ok := bm[k]
			if !ok || !equal(x, y) {
				return false
			}
		}
		return true
	}
	return false
}
