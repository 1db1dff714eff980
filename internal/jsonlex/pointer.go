package jsonlex

import (
	"strconv"
	"strings"
)

// AppendKey returns the JSON pointer (RFC 6901) of member name inside the
// object at path: '~' is written "~0" and '/' "~1". It is the only place
// domsnap escapes a pointer token.
func AppendKey(path, name string) string {
	n := 0
	for i := 0; i < len(name); i++ {
		if name[i] == '~' || name[i] == '/' {
			n++
		}
	}
	if n == 0 {
		return path + "/" + name
	}
	b := make([]byte, 0, len(path)+1+len(name)+n)
	b = append(b, path...)
	b = append(b, '/')
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, name[i])
		}
	}
	return string(b)
}

// AppendIndex returns the JSON pointer of element i of the array at path.
func AppendIndex(path string, i int) string {
	return path + "/" + strconv.Itoa(i)
}

// SplitPointer returns the reference tokens of a JSON pointer, unescaped:
// nil for "" (the whole document). It is AppendKey's inverse, and the
// only place domsnap unescapes a pointer token.
func SplitPointer(p string) []string {
	if p == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range toks {
		if strings.IndexByte(t, '~') >= 0 {
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
	}
	return toks
}
