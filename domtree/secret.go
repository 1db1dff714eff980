package domtree

// InputValueSecret is the secret rule of docs/reference.md#form-columns for
// an input element's value attribute: the value is data a person typed or a
// page pre-filled, and is never read, unless the input is a button (its
// type is button, submit or reset, ASCII case-insensitively), whose value
// is its caption. typ is the value of the element's first type attribute,
// "" when it has none.
//
// This is the one copy of the rule: the tree builder, the capture decoder
// (which never even decodes a secret value) and the scrub of saved
// captures all ask it.
func InputValueSecret(typ string) bool {
	return !(EqualFold(typ, "button") || EqualFold(typ, "submit") || EqualFold(typ, "reset"))
}
