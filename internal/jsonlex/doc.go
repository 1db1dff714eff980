// Package jsonlex is the one JSON reader of domsnap: a lexer over a byte
// slice that the request decoder and the capture decoders (wire captures,
// saved snapshot envelopes, the scrub) drive token by token for the fixed
// shapes they read.
//
// It builds no generic value, uses no reflection and never recurses: a
// value a caller does not need is skipped by SkipValue, which keeps its
// nesting on an explicit stack, so hostile depth costs memory in
// proportion to the input and never call-stack depth.
//
// The lexer knows the JSON grammar of RFC 8259 and nothing of domsnap's
// error codes. Every failure is an *Error holding the byte offset where
// reading stopped and the JSON pointer the caller was reading, which the
// caller passes in as it descends; each decoder maps these errors to its
// own code (invalid_request, malformed_snapshot). How strict a string must
// be is the caller's choice: Decode turns bytes that are not UTF-8 and lone
// surrogate escapes into U+FFFD, as encoding/json does, and DecodeStrict
// refuses them; everything else is checked here, once.
//
// # Limits
//
// Work is linear in the input; the only memory kept is SkipValue's stack
// of one byte per open container and the strings a caller asks for.
package jsonlex
