package style

// layers is the tree of cascade layers of one document, in the order CSS
// Cascade 5 gives them: a layer's place is fixed by its first declaration
// (a @layer statement or block, in any style sheet), sub-layers are ordered
// inside their parent, and a layer's own rules come after all of its
// sub-layers. The root stands for the rules outside every layer, which
// therefore come last. Names are case-sensitive; every anonymous layer is
// a layer of its own.
type layers struct {
	parent   []int32
	children [][]int32
	named    []map[string]int32
	rank     []int32 // filled by finish
}

// rootLayer is the id of the unlayered rules.
const rootLayer int32 = 0

func newLayers() *layers {
	return &layers{parent: []int32{-1}, children: [][]int32{nil}, named: []map[string]int32{nil}}
}

// child returns the sub-layer of p called name, declaring it when it is
// new; an empty name declares a new anonymous layer.
func (l *layers) child(p int32, name string) int32 {
	if name != "" {
		if id, ok := l.named[p][name]; ok {
			return id
		}
	}
	id := int32(len(l.parent))
	l.parent = append(l.parent, p)
	l.children = append(l.children, nil)
	l.named = append(l.named, nil)
	l.children[p] = append(l.children[p], id)
	if name != "" {
		if l.named[p] == nil {
			l.named[p] = map[string]int32{}
		}
		l.named[p][name] = id
	}
	return id
}

// path declares the dotted layer name parts under p and returns the last.
func (l *layers) path(p int32, parts []string) int32 {
	for _, s := range parts {
		p = l.child(p, s)
	}
	return p
}

// finish numbers the layers in cascade order, from 1 for the weakest up to
// the root, the strongest for normal declarations. Zero is left for what
// comes before every layer (presentational hints). The walk is iterative:
// layers nest as deeply as the sheets do.
func (l *layers) finish() {
	l.rank = make([]int32, len(l.parent))
	next := int32(1)
	type frame struct {
		id   int32
		kids int
	}
	stack := []frame{{id: rootLayer}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.kids < len(l.children[top.id]) {
			c := l.children[top.id][top.kids]
			top.kids++
			stack = append(stack, frame{id: c})
			continue
		}
		l.rank[top.id] = next
		next++
		stack = stack[:len(stack)-1]
	}
}
