package domtree

// Kind is a node's kind.
type Kind uint8

// Node kinds. The zero Kind belongs to the invalid zero Node.
const (
	KindInvalid Kind = iota
	Document
	Doctype
	Element
	Text
	Comment
)

var kindNames = [...]string{"invalid", "document", "doctype", "element", "text", "comment"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Display is the class of an element's computed display that analysis needs.
type Display uint8

const (
	// DisplayInline is an inline-level display: inline, inline-block,
	// inline-table, inline-flex, inline-grid, or any display whose outer type
	// is inline. It is the zero value, as inline is CSS's initial display.
	DisplayInline Display = iota
	// DisplayBlock is every other rendered display: block, list-item, table
	// parts, flex, grid, contents and so on. It separates text with spaces.
	DisplayBlock
	// DisplayNone means the element is not rendered: display none, or live, no
	// layout object (and not display: contents with rendered descendants).
	DisplayNone
)

var displayNames = [...]string{"inline", "block", "none"}

func (d Display) String() string {
	if int(d) < len(displayNames) {
		return displayNames[d]
	}
	return "invalid"
}

// Visibility is an element's computed, already inherited visibility.
type Visibility uint8

const (
	// Visible is computed visibility: visible. It is the zero value.
	Visible Visibility = iota
	// Hidden is computed visibility: hidden or collapse.
	Hidden
)

func (v Visibility) String() string {
	if v == Hidden {
		return "hidden"
	}
	return "visible"
}

// Flags record what a source saw on an element that the tree deliberately
// leaves out: content that is present but never entered (docs/reference.md#the-tree).
type Flags uint8

const (
	// ShadowHost: the element hosts a shadow root (open, closed or declarative).
	ShadowHost Flags = 1 << iota
	// FrameOwner: the element owns a frame content document.
	FrameOwner
	// TemplateContents: the element is a template with a contents fragment.
	TemplateContents
)

// Attr is one attribute, name lower-cased.
type Attr struct {
	Name  string
	Value string
}

// ElementInfo is what a source computed for one element.
type ElementInfo struct {
	Display    Display
	Visibility Visibility
	// Checked is the checked state of a checkbox or radio input: live, the
	// browser's state; offline, the checked attribute as the source resolved it.
	Checked bool
	Flags   Flags
	// BackendNodeID is the browser's backend node id, 0 when the source has none.
	BackendNodeID int64
}
