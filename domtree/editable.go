package domtree

// EditingHost reports whether a contenteditable attribute's value makes its
// element an editing host: the empty string, "true" or "plaintext-only",
// ASCII case-insensitively. "false" and every other value do not (an
// unknown value inherits editability from the parent, which matters only
// to the offline :read-write state; analysis never enters an editable
// element, so what lies inside one is never read either way).
//
// This is the one copy of the rule: the cell walks, the offline style
// states and the scrub of saved captures all ask it.
func EditingHost(value string) bool {
	return value == "" || EqualFold(value, "true") || EqualFold(value, "plaintext-only")
}

// EditingHost reports whether n is an element whose first contenteditable
// attribute makes it an editing host.
func (n Node) EditingHost() bool {
	v, ok := n.Attr("contenteditable")
	return ok && EditingHost(v)
}
