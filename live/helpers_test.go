package live

import (
	"encoding/json"
	"errors"
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// capNode is one node of a capture a test writes: its parent's index, its
// node type, name and (for text) value, its attributes as name, value
// pairs, its computed display ("" for no layout object), its backend node
// id (0 for none) and, for a checkbox, whether it is checked.
type capNode struct {
	parent, typ int
	name, value string
	attrs       []string
	display     string
	backend     int64
	checked     bool
}

// captureTables writes nodes as a DOMSnapshot.captureSnapshot result (the
// tables capture.DecodeCapture and capture.DecodeBounded read), its
// strings interned, every layout object visible; with ids, the nodes'
// backend ids too. extra members are added beside documents and strings.
func captureTables(nodes []capNode, ids bool, extra map[string]any) (json.RawMessage, error) {
	strs, idx := []string{}, map[string]int{}
	str := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(strs)
		strs = append(strs, s)
		return len(strs) - 1
	}
	var parent, typ, name, value, lnode, checked []int
	var backend []int64
	var attrs, styles [][]int
	for i, n := range nodes {
		parent, typ, name, backend = append(parent, n.parent), append(typ, n.typ), append(name, str(n.name)), append(backend, n.backend)
		v := -1
		if n.typ == 3 {
			v = str(n.value)
		}
		a := []int{}
		for _, x := range n.attrs {
			a = append(a, str(x))
		}
		value, attrs = append(value, v), append(attrs, a)
		if n.display != "" {
			lnode, styles = append(lnode, i), append(styles, []int{str(n.display), str("visible")})
		}
		if n.checked {
			checked = append(checked, i)
		}
	}
	tables := map[string]any{"parentIndex": parent, "nodeType": typ, "nodeName": name, "nodeValue": value, "attributes": attrs}
	if ids {
		tables["backendNodeId"] = backend
	}
	if len(checked) > 0 {
		tables["inputChecked"] = map[string]any{"index": checked}
	}
	doc := map[string]any{
		"documents": []any{map[string]any{
			"nodes":  tables,
			"layout": map[string]any{"nodeIndex": lnode, "styles": styles},
		}},
		"strings": strs,
	}
	for k, v := range extra {
		doc[k] = v
	}
	return json.Marshal(doc)
}
