// Package csstoken turns CSS text into the token list the offline cascade
// reads: the tokens of github.com/tdewolff/parse/v2/css, comments dropped and
// each run of whitespace one token. Style sheets, declarations, selectors
// (package style) and media query lists (package media) are all read from
// it, so the two never tokenize the same text differently.
//
// # Limits
//
// Tokenize is one linear pass over its input and keeps one token per
// lexer token, so time and memory are linear in the text.
//
// # Concurrency
//
// Tokenize is a pure function; it may be called from any goroutine.
package csstoken
