package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/domsnap/domsnap/internal/jsonlex"
)

// Tools is the file of the tool server's argument and answer definitions.
const Tools = "tools.schema.json"

// ToolFiles holds the published schemas of the tool server, one input and
// one output file per tool under tools/, each self-contained: every
// reference is local (#/$defs/...). They are generated from the schema
// files by Bundle (the tests check they are current), because clients
// such as the Node SDK refuse a tool schema that refers to another file.
//
//go:embed tools/*.json
var ToolFiles embed.FS

// Tool names the published schema files of one tool.
type Tool struct {
	Name   string
	Input  string // file under ToolFiles
	Output string // file under ToolFiles
	// inFile, inPtr and outFile, outPtr are where Bundle starts.
	inFile, inPtr, outFile, outPtr string
}

// ToolSchemas lists the tools of the server in the order they are
// published.
func ToolSchemas() []Tool {
	t := func(name, outFile, outPtr string) Tool {
		return Tool{Name: name, Input: "tools/" + name + ".input.json", Output: "tools/" + name + ".output.json",
			inFile: Tools, inPtr: "/$defs/" + name + ".input", outFile: outFile, outPtr: outPtr}
	}
	return []Tool{
		t("browser_navigate", Tools, "/$defs/browser_navigate.output"),
		t("browser_observe", Projection, ""),
		t("browser_artifact", Observation, ""),
		t("snapshot_observe", Projection, ""),
		t("browser_act", Tools, "/$defs/browser_act.output"),
		t("browser_download", Tools, "/$defs/browser_download.output"),
	}
}

// BundleInput and BundleOutput build the tool's published schemas from
// the schema files. An input schema is what a client loads to register the
// server, so it is lean: the definitions it copies from other files (the
// extract request's) keep every rule and lose their prose, which documents
// those files and which a tool's own description and the tools file's
// short notes cover.
func (t Tool) BundleInput() ([]byte, error)  { return bundle(t.inFile, t.inPtr, true) }
func (t Tool) BundleOutput() ([]byte, error) { return Bundle(t.outFile, t.outPtr) }

// Bundle returns the schema at pointer ptr ("" for the whole file) of the
// named schema file as one self-contained document: every schema it refers
// to, in its own file or another, is copied under $defs with a name made of
// the file's stem and the pointer ("result.cell"), and the references point
// there. The output is indented JSON with sorted keys, so it is the same
// bytes on every run.
func Bundle(file, ptr string) ([]byte, error) { return bundle(file, ptr, false) }

// bundle is Bundle; lean drops the descriptions of what it copies from
// files other than file.
func bundle(file, ptr string, lean bool) ([]byte, error) {
	b := &bundler{docs: map[string]any{}, defs: map[string]any{}, root: file, lean: lean}
	root, err := b.resolve(file, ptr)
	if err != nil {
		return nil, err
	}
	root = deepCopy(root)
	m, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema: %s#%s is not an object", file, ptr)
	}
	delete(m, "$id")
	delete(m, "$defs")
	if err := b.rewrite(m, file); err != nil {
		return nil, err
	}
	m["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	if len(b.defs) > 0 {
		m["$defs"] = b.defs
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type bundler struct {
	docs map[string]any
	defs map[string]any
	// root is the file bundled; with lean, what comes from other files
	// loses its descriptions.
	root string
	lean bool
}

func (b *bundler) doc(file string) (any, error) {
	if d, ok := b.docs[file]; ok {
		return d, nil
	}
	data, err := Files.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var d any
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("schema: %s: %w", file, err)
	}
	b.docs[file] = d
	return d, nil
}

// resolve follows a JSON pointer into a file.
func (b *bundler) resolve(file, ptr string) (any, error) {
	v, err := b.doc(file)
	if err != nil {
		return nil, err
	}
	if ptr == "" {
		return v, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("schema: %s#%s: not a JSON pointer", file, ptr)
	}
	for _, tok := range jsonlex.SplitPointer(ptr) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("schema: %s#%s: no such member", file, ptr)
		}
		if v, ok = m[tok]; !ok {
			return nil, fmt.Errorf("schema: %s#%s: no such member", file, ptr)
		}
	}
	return v, nil
}

// rewrite points every $ref under v, written in file, at a local
// definition, copying the definitions in as it goes. Schemas are small
// and their nesting fixed, so a recursive walk is fine here.
func (b *bundler) rewrite(v any, file string) error {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "$ref" {
				ref, ok := x.(string)
				if !ok {
					return errors.New("schema: a $ref that is not a string in " + file)
				}
				name, err := b.define(ref, file)
				if err != nil {
					return err
				}
				v[k] = "#/$defs/" + name
				continue
			}
			if err := b.rewrite(x, file); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range v {
			if err := b.rewrite(x, file); err != nil {
				return err
			}
		}
	}
	return nil
}

// define copies the target of ref (relative to file) under $defs once and
// returns its name.
func (b *bundler) define(ref, file string) (string, error) {
	target, ptr, _ := strings.Cut(ref, "#")
	if target == "" {
		target = file
	}
	if strings.Contains(target, "/") {
		return "", fmt.Errorf("schema: %s refers outside the schema folder: %s", file, ref)
	}
	name := strings.TrimSuffix(target, ".schema.json")
	if ptr != "" {
		p := strings.TrimPrefix(ptr, "/$defs/")
		name += "." + strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", ".")
	}
	if _, ok := b.defs[name]; ok {
		return name, nil
	}
	v, err := b.resolve(target, ptr)
	if err != nil {
		return "", err
	}
	v = deepCopy(v)
	if m, ok := v.(map[string]any); ok && ptr == "" {
		for _, k := range []string{"$schema", "$id", "$defs", "title"} {
			delete(m, k)
		}
	}
	if b.lean && target != b.root {
		stripDescriptions(v)
	}
	b.defs[name] = true // a placeholder while its own references are copied
	if err := b.rewrite(v, target); err != nil {
		return "", err
	}
	b.defs[name] = v
	return name, nil
}

// stripDescriptions removes every "description" keyword under v, which is
// a copy. A property named description is kept: only a keyword beside
// other keywords is prose.
func stripDescriptions(v any) {
	switch v := v.(type) {
	case map[string]any:
		if d, ok := v["description"].(string); ok && d != "" {
			delete(v, "description")
		}
		for k, x := range v {
			if k == "properties" {
				if props, ok := x.(map[string]any); ok {
					for _, p := range props {
						stripDescriptions(p)
					}
					continue
				}
			}
			stripDescriptions(x)
		}
	case []any:
		for _, x := range v {
			stripDescriptions(x)
		}
	}
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}
