// Package cdpreply hands a captureSnapshot reply, as mafredri/cdp's protocol
// types hold it, to the capture decoder (internal/capture) without copying
// its tables. It is the one place the decoder meets the CDP client's types,
// kept apart so that the decoder, and package snapshot above it, never link
// that client: only live (and tests comparing the two ways in) import it.
package cdpreply
