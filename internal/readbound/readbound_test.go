package readbound

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// countingReader counts the bytes handed out, so a test can assert how far
// a refused input was read.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// endless is a stream that never ends, like /dev/zero.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

func isTooLarge(err error) bool {
	return errors.Is(err, errcode.ErrTooLarge) && errcode.CodeOf(err) == errcode.UnsupportedInput
}

func TestAllUnderAtOver(t *testing.T) {
	const limit = 3*chunkBytes + 17 // several chunks and a ragged end
	for _, hint := range []int64{0, 5, limit - 1, limit, limit + 1} {
		for _, size := range []int64{0, 1, limit - 1, limit, limit + 1, 2 * limit} {
			src := bytes.Repeat([]byte{'x'}, int(size))
			cr := &countingReader{r: bytes.NewReader(src)}
			got, err := All(cr, limit, hint, "input")
			if size <= limit {
				if err != nil || !bytes.Equal(got, src) {
					t.Fatalf("hint %d size %d: err %v, %d bytes", hint, size, err, len(got))
				}
				continue
			}
			if !isTooLarge(err) || got != nil {
				t.Fatalf("hint %d size %d: want too_large, got %v", hint, size, err)
			}
			if cr.n != limit+1 {
				t.Fatalf("hint %d size %d: read %d bytes, want exactly limit+1 = %d", hint, size, cr.n, limit+1)
			}
		}
	}
}

func TestAllEndlessStream(t *testing.T) {
	for _, limit := range []int64{0, 1, chunkBytes - 1, chunkBytes, chunkBytes + 1} {
		cr := &countingReader{r: endless{}}
		if _, err := All(cr, limit, 0, "input"); !isTooLarge(err) {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if cr.n != limit+1 {
			t.Fatalf("limit %d: read %d bytes", limit, cr.n)
		}
	}
}

func TestAllHintKept(t *testing.T) {
	// A stream that keeps its hint is read into one buffer, not copied.
	src := []byte("0123456789")
	got, err := All(bytes.NewReader(src), 100, int64(len(src)), "input")
	if err != nil || string(got) != string(src) || cap(got) != len(src)+1 {
		t.Fatalf("got %q cap %d err %v", got, cap(got), err)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, syscall.EIO }

func TestAllReadError(t *testing.T) {
	for _, hint := range []int64{0, 4} {
		_, err := All(failing{}, 10, hint, "input")
		if errcode.CodeOf(err) != errcode.UnsupportedInput || isTooLarge(err) {
			t.Fatalf("hint %d: %v", hint, err)
		}
	}
}

func TestFileRegular(t *testing.T) {
	dir := t.TempDir()
	const limit = 100
	for _, size := range []int64{0, limit - 1, limit, limit + 1} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, bytes.Repeat([]byte{'b'}, int(size)), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := File(p, limit, "input")
		if size > limit {
			if !isTooLarge(err) {
				t.Fatalf("size %d: %v", size, err)
			}
			continue
		}
		if err != nil || int64(len(got)) != size {
			t.Fatalf("size %d: %d bytes, %v", size, len(got), err)
		}
	}
	// A huge sparse file is refused from its size, at once.
	p := filepath.Join(dir, "sparse")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := File(p, limit, "input"); !isTooLarge(err) {
		t.Fatalf("sparse: %v", err)
	}
}

func TestFileNotAFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := File(dir, 100, "input"); errcode.CodeOf(err) != errcode.UnsupportedInput || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("directory: %v", err)
	}
	if _, err := File(filepath.Join(dir, "missing"), 100, "input"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	// /dev/zero never ends: refused after limit+1 bytes.
	if _, err := File("/dev/zero", 1000, "input"); !isTooLarge(err) {
		t.Fatalf("/dev/zero: %v", err)
	}
}

func TestFileFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	// No writer: the read must end at once, with a coded error.
	done := make(chan error, 1)
	go func() { _, err := File(p, 100, "input"); done <- err }()
	select {
	case err := <-done:
		if errcode.CodeOf(err) != errcode.UnsupportedInput || !strings.Contains(err.Error(), "empty") {
			t.Fatalf("fifo without writer: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO with no writer hangs")
	}

	// With a writer already there, the bytes are read, and the bound holds.
	for _, c := range []struct {
		data string
		ok   bool
	}{{"<p>hi</p>", true}, {strings.Repeat("z", 101), false}} {
		w := make(chan error, 1)
		go func() {
			// A probe that came before this writer connected closes its end
			// again, and the write fails: write again to the next probe.
			for try := 0; try < 100; try++ {
				f, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err != nil {
					w <- err
					return
				}
				_, err = f.WriteString(c.data)
				f.Close()
				if err == nil {
					break
				}
			}
			w <- nil
		}()
		// Wait until the writer is connected: opening for writing blocks
		// until a reader exists, so probe with a non-blocking reader.
		deadline := time.Now().Add(10 * time.Second)
		var got []byte
		var err error
		for time.Now().Before(deadline) {
			got, err = File(p, 100, "input")
			if err == nil || isTooLarge(err) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if c.ok && (err != nil || string(got) != c.data) {
			t.Fatalf("fifo %q: %q %v", c.data[:3], got, err)
		}
		if !c.ok && !isTooLarge(err) {
			t.Fatalf("fifo over the bound: %v", err)
		}
		select {
		case <-w:
		case <-time.After(10 * time.Second):
			t.Fatal("writer stuck")
		}
	}
}

// TestAllCheckedHead: the check sees the head of a stream as soon as the
// first chunk is in, and its refusal ends the read there.
func TestAllCheckedHead(t *testing.T) {
	refuse := errcode.New(errcode.UnsupportedInput, "test", "", "refused")
	var seen []int
	check := func(head []byte) error {
		seen = append(seen, len(head))
		if bytes.HasPrefix(head, []byte("a")) {
			return refuse
		}
		return nil
	}
	cr := &countingReader{r: endless{}}
	if _, err := AllChecked(cr, 10*chunkBytes, 0, "input", check); err != refuse {
		t.Fatalf("endless stream: %v", err)
	}
	if cr.n != chunkBytes || len(seen) != 1 || seen[0] != HeadBytes {
		t.Fatalf("read %d bytes, check saw %v", cr.n, seen)
	}
	// A short stream, and an empty one, are checked once, whole.
	for _, in := range []string{"b", ""} {
		seen = nil
		got, err := AllChecked(strings.NewReader(in), 100, 0, "input", check)
		if err != nil || string(got) != in || len(seen) != 1 || seen[0] != len(in) {
			t.Fatalf("%q: %q %v, check saw %v", in, got, err, seen)
		}
	}
	// A stream of known size is read whole, unchecked.
	seen = nil
	if got, err := AllChecked(strings.NewReader("abc"), 100, 3, "input", check); err != nil || string(got) != "abc" || seen != nil {
		t.Fatalf("hinted: %q %v %v", got, err, seen)
	}
	// /dev/zero through FileChecked stops after the first chunk.
	seen = nil
	zero := func(head []byte) error {
		seen = append(seen, len(head))
		return refuse
	}
	if _, err := FileChecked("/dev/zero", 10*chunkBytes, "input", zero); err != refuse || len(seen) != 1 {
		t.Fatalf("/dev/zero: %v %v", err, seen)
	}
}

// TestFileSwappedForFIFO: a regular file swapped for a named pipe between
// the look at its name and the open is read as what was opened, a pipe
// with no writer, and refused at once instead of waiting for a writer.
func TestFileSwappedForFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(p, []byte("<p>hi</p>"), 0o600)
	afterStat = func(name string) {
		os.Remove(name)
		if err := syscall.Mkfifo(name, 0o600); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterStat = nil }()
	done := make(chan error, 1)
	go func() { _, err := File(p, 100, "input"); done <- err }()
	select {
	case err := <-done:
		if errcode.CodeOf(err) != errcode.UnsupportedInput || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("swapped for a pipe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("a file swapped for a pipe hangs the read")
		// Let the read end, so the test does.
		if w, err := os.OpenFile(p, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		<-done
	}
}
