package readbound

import (
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/domsnap/domsnap/errcode"
)

const pkgName = "readbound"

// chunkBytes is the size of each piece a stream is read in. A stream's
// memory is its chunks, so it never exceeds the bound by more than one
// chunk's slack; 1 MiB keeps the number of pieces of a 256 MiB input small.
const chunkBytes = 1 << 20

// TooLarge is the refusal of an input of more than limit bytes; what names
// it ("input", "request", "gzip output").
func TooLarge(what string, limit int64) *errcode.Error {
	return errcode.TooLarge(pkgName, "the "+what+" holds more than "+strconv.FormatInt(limit, 10)+" bytes")
}

// TooManyNodes is the refusal of a tree of more than limit nodes, TooLarge's
// counterpart for the parsed size: every source of a tree (a capture, an
// HTML file) refuses with it, in the name of pkg, the package the caller
// called.
func TooManyNodes(pkg string, limit int) *errcode.Error {
	return errcode.TooLarge(pkg, "the tree would hold more than "+strconv.Itoa(limit)+" nodes")
}

// All reads r to its end and returns its bytes, or TooLarge when r holds
// more than limit bytes. At most limit+1 bytes are read from r. sizeHint,
// when positive and within the bound, is the expected size: the bytes are
// then read into one buffer of that size plus one, and a stream that keeps
// its word is never copied.
func All(r io.Reader, limit, sizeHint int64, what string) ([]byte, error) {
	return AllChecked(r, limit, sizeHint, what, nil)
}

// HeadBytes is how much of a stream's first bytes a Check sees.
const HeadBytes = 1024

// Check looks at the first HeadBytes bytes of a stream (fewer when the
// stream is shorter) and refuses it with an error, so a stream that can
// only be refused, such as /dev/zero as an HTML file, is not read to its
// bound first.
type Check func(head []byte) error

// AllChecked is All with a check of the head of a stream of unknown size,
// made as soon as the first chunk has arrived. An input of known size
// (sizeHint) is read whole first: it costs no more than its size.
func AllChecked(r io.Reader, limit, sizeHint int64, what string, check Check) ([]byte, error) {
	if limit < 0 {
		panic("readbound: negative limit")
	}
	lr := io.LimitReader(r, limit+1)
	if sizeHint > 0 && sizeHint <= limit {
		buf := make([]byte, 0, sizeHint+1)
		for {
			n, err := lr.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				return buf, nil
			}
			if err != nil {
				return nil, readError(what, err)
			}
			if len(buf) == cap(buf) {
				break // the hint was short; go on in chunks
			}
		}
		return chunks(lr, [][]byte{buf}, int64(len(buf)), limit, what, nil)
	}
	return chunks(lr, nil, 0, limit, what, check)
}

// chunks reads the rest of lr in pieces of chunkBytes, on top of the pieces
// already read (total bytes), and joins them once at the end.
func chunks(lr io.Reader, pieces [][]byte, total, limit int64, what string, check Check) ([]byte, error) {
	for {
		if total > limit {
			return nil, TooLarge(what, limit)
		}
		c := make([]byte, min(chunkBytes, limit+1-total))
		n, err := io.ReadFull(lr, c)
		if n > 0 {
			pieces = append(pieces, c[:n])
			total += int64(n)
		}
		if check != nil {
			// The first chunk is in (or the stream ended before it).
			var head []byte
			if len(pieces) > 0 {
				head = pieces[0][:min(len(pieces[0]), HeadBytes)]
			}
			if cerr := check(head); cerr != nil {
				return nil, cerr
			}
			check = nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, readError(what, err)
		}
	}
	if total > limit {
		return nil, TooLarge(what, limit)
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	out := make([]byte, 0, total)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out, nil
}

func readError(what string, err error) error {
	return errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "cannot read the "+what, err)
}

// File reads the named file whole, bounded by limit as All is. A directory
// is refused; a file that is not a regular file is opened without blocking
// (see the package documentation) and must not read as empty.
func File(name string, limit int64, what string) ([]byte, error) {
	return FileChecked(name, limit, what, nil)
}

// FileChecked is File with a Check of the head of a file that is not a
// regular file (a regular one is read whole, at the cost of its size).
func FileChecked(name string, limit int64, what string, check Check) ([]byte, error) {
	// The name is looked at first, so that a missing file is reported as
	// callers have always seen it; then it is opened without blocking
	// whatever it is, and judged by what was opened: the name could have
	// been swapped for a named pipe in between, and a plain open of that
	// waits for a writer. On a regular file or a directory the flag
	// changes nothing.
	if _, err := os.Stat(name); err != nil {
		return nil, openError(err)
	}
	if afterStat != nil {
		afterStat(name)
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, openError(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, openError(err)
	}
	switch mode := st.Mode(); {
	case mode.IsDir():
		return nil, errcode.New(errcode.UnsupportedInput, pkgName, "", "the "+what+" is a directory, not a file")
	case mode.IsRegular():
		if st.Size() > limit {
			return nil, TooLarge(what, limit)
		}
		// The file may grow while it is read: the read is bounded all
		// the same, and the size is only a hint.
		return All(f, limit, max(st.Size(), 1), what)
	}
	data, err := AllChecked(f, limit, 0, what, check)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errcode.New(errcode.UnsupportedInput, pkgName, "",
			"the "+what+" is not a regular file and read as empty (a named pipe with no writer?)")
	}
	return data, nil
}

// afterStat, when set, runs between looking at a name and opening it:
// tests swap the file there.
var afterStat func(name string)

// openError passes the operating system's error on as it is, as
// os.ReadFile would: a file that cannot be opened is no fault of its
// content, so it carries no code of the contract.
func openError(err error) error { return err }
