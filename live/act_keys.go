package live

// keyDef is one key of a press action as Input.dispatchKeyEvent describes
// it: the DOM key and code, the Windows virtual key code Chromium's input
// handling reads (and the native one, the same on the platforms the
// protocol emulates), and the text the key types, if any. Enter types "\r",
// which is what makes a text field submit its form.
type keyDef struct {
	name, key, code string
	vk              int
	text            string
}

// keys is the fixed list of keys a press action may name
// (docs/reference.md#acting), in that order.
var keys = []keyDef{
	{"Enter", "Enter", "Enter", 13, "\r"},
	{"Tab", "Tab", "Tab", 9, ""},
	{"Escape", "Escape", "Escape", 27, ""},
	{"Backspace", "Backspace", "Backspace", 8, ""},
	{"Delete", "Delete", "Delete", 46, ""},
	{"Space", " ", "Space", 32, " "},
	{"ArrowUp", "ArrowUp", "ArrowUp", 38, ""},
	{"ArrowDown", "ArrowDown", "ArrowDown", 40, ""},
	{"ArrowLeft", "ArrowLeft", "ArrowLeft", 37, ""},
	{"ArrowRight", "ArrowRight", "ArrowRight", 39, ""},
	{"PageUp", "PageUp", "PageUp", 33, ""},
	{"PageDown", "PageDown", "PageDown", 34, ""},
	{"Home", "Home", "Home", 36, ""},
	{"End", "End", "End", 35, ""},
}

// Keys lists the names a press action accepts.
func Keys() []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.name
	}
	return out
}

func keyByName(name string) (keyDef, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return keyDef{}, false
}
