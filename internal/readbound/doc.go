// Package readbound reads a whole input into memory without ever holding
// more than a bound: the bytes are counted as they arrive, at most one byte
// past the bound is read, and then the input is refused. Memory never grows
// past the bound to find out that an input is too large.
//
// # Limits
//
// Every refusal for size is errcode.TooLarge: unsupported_input whose cause
// is errcode.ErrTooLarge (test it with errors.Is), with "too_large" in its
// message. A regular file larger than the bound is refused from its size,
// before a byte is read; a smaller one is read into a buffer of exactly its
// size. A stream (standard input, a pipe, a device) is read in chunks that
// are joined once at its end, so a stream that never ends costs the bound
// and no more.
//
// A caller can give a Check of a stream's first bytes, made as soon as they
// arrive: a stream that can only be refused (binary bytes where text was
// expected) is then refused after its first chunk rather than its bound.
//
// # Files that are not files
//
// A directory is refused before it is read. Anything else that is not a
// regular file (a named pipe, a character device such as /dev/zero, a
// socket) is opened without blocking, so that a named pipe with no writer
// cannot hang the caller: it reads as empty, and an empty stream from such a
// file is refused. A pipe's writer must therefore have opened it before the
// reader does, as process substitution and shell redirections do.
//
// Every file is opened that way and judged by what was opened, not by what
// its name held a moment before, so a file swapped for a named pipe in
// between cannot hang the caller either.
//
// # Concurrency
//
// The functions keep no state between calls.
package readbound
