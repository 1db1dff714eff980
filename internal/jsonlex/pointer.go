package jsonlex

import "strconv"

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
