package mcp

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/domsnap/domsnap/errcode"
)

// The bounds of the token: long enough not to be guessed, short enough for
// any header.
const (
	minTokenBytes = 16
	maxTokenBytes = 4096
)

// ReadToken reads the bearer token from path: the file must be a regular
// file (a named pipe or a device is refused at once, never waited on), the
// owner's alone (no permission for group or others) and hold one token of
// minTokenBytes to maxTokenBytes visible ASCII characters, white space
// around it ignored. No message quotes the file's content.
func ReadToken(path string) ([]byte, error) {
	bad := func(msg string) error { return errcode.New(errcode.InvalidRequest, pkg, "", "--token-file: "+msg) }
	if path == "" {
		return nil, bad("a token file is required with --http")
	}
	// Room for white space around the longest token.
	data, err := readOwnerFile(path, maxTokenBytes+64, bad, "the token is longer than "+strconv.Itoa(maxTokenBytes)+" bytes")
	if err != nil {
		return nil, err
	}
	tok := bytes.TrimSpace(data)
	if len(tok) < minTokenBytes || len(tok) > maxTokenBytes {
		return nil, bad("the token must be " + strconv.Itoa(minTokenBytes) + " to " + strconv.Itoa(maxTokenBytes) + " bytes, got " + strconv.Itoa(len(tok)))
	}
	for _, c := range tok {
		if c < 0x21 || c > 0x7e {
			return nil, bad("the token must be visible ASCII characters, with no space inside")
		}
	}
	return tok, nil
}

// readOwnerFile reads the small file at path that a secret lives in (a
// token, the principals): it must be a regular file, the owner's alone, of
// at most limit bytes, else bad says why (tooLong when it is larger). It is
// opened without blocking: a named pipe with no writer would hold a plain
// open, and start-up with it, for ever; what was opened is then checked,
// not what the name held before. No message quotes the content.
func readOwnerFile(path string, limit int, bad func(string) error, tooLong string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, bad("cannot open " + errcode.Quote(path))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, bad(errcode.Quote(path) + " is not a regular file")
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, bad(fmt.Sprintf("%s is open to group or others (mode %04o); make it the owner's alone (chmod 600)", errcode.Quote(path), perm))
	}
	// One byte more than the limit tells a file that is too long.
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, bad("cannot read " + errcode.Quote(path))
	}
	if len(data) > limit {
		return nil, bad(tooLong)
	}
	return data, nil
}
