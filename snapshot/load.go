package snapshot

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
)

// FormatName is the format of a saved snapshot envelope (docs/reference.md#saved-snapshots).
const FormatName = "domsnap-snapshot/1"

// pkgName names this package in its errors.
const pkgName = "snapshot"

// MaxDecompressedBytes caps what a gzip-compressed input may expand to. It
// is limits.MaxInputBytes: a compressed input is bounded like any other.
const MaxDecompressedBytes = limits.MaxInputBytes

// inputBounds are the sizes an input is refused beyond. Load uses the
// contract's (contractBounds); tests pass small ones to probe each bound
// just under, at and just over it without allocating the real sizes.
type inputBounds struct {
	// bytes bounds the input and, separately, what its gzip expands to.
	bytes int64
	// nodes bounds the tree.
	nodes int
}

func contractBounds() inputBounds {
	return inputBounds{bytes: limits.MaxInputBytes, nodes: limits.MaxTreeNodes}
}

// maxRevisionBytes bounds a recorded revision. Live revisions are short
// ("r1.<session>.n<navigation>.o<sequence>"); anything longer is not one.
const maxRevisionBytes = 128

// sniffBytes is how much of an input is looked at for binary bytes, as the
// MIME Sniffing Standard's resource header.
const sniffBytes = 1024

// Format is the kind of input Load recognised.
type Format uint8

const (
	// FormatHTML is an HTML file.
	FormatHTML Format = iota + 1
	// FormatCapture is a bare captureSnapshot result.
	FormatCapture
	// FormatEnvelope is a saved snapshot with its envelope.
	FormatEnvelope
)

func (f Format) String() string {
	switch f {
	case FormatHTML:
		return "html"
	case FormatCapture:
		return "capture"
	case FormatEnvelope:
		return "envelope"
	}
	return "invalid"
}

// LoadOptions says how to read an input whose format does not say.
type LoadOptions struct {
	// Charset overrides the HTML encoding sniffing (HTMLOptions.Charset).
	Charset string
	// ComputedStyles are the computed styles a bare capture requested, in
	// order; nil means DefaultComputedStyles. An envelope records its own.
	ComputedStyles []string
}

// Input is a loaded input: its tree and what identifies it.
type Input struct {
	Tree *domtree.Tree
	// Revision is the envelope's recorded revision, else FileRevision of
	// the input bytes.
	Revision string
	Format   Format
	// Charset is the encoding an HTML file was decoded with; "" otherwise.
	Charset string
	// Gzip reports whether the input was gzip-compressed.
	Gzip bool
	// StyleSheetsDropped is HTMLInfo.StyleSheetsDropped for an HTML file:
	// its style sheets cost more matching than the offline cascade allows
	// and were not applied.
	StyleSheetsDropped bool
	// Envelope is the envelope's metadata for FormatEnvelope, nil
	// otherwise. Its Capture is nil: the capture's bytes hold form values,
	// and nothing of them is kept beyond the tree.
	Envelope *Envelope
}

// Envelope is a saved snapshot (docs/reference.md#saved-snapshots).
type Envelope struct {
	Format     string
	Revision   string
	CapturedAt string
	Browser    string
	// ComputedStyles are the styles the capture requested, in order; nil
	// is written as DefaultComputedStyles.
	ComputedStyles []string
	// Capture is the captureSnapshot result as the protocol returned it.
	// WriteSnapshot writes it through ScrubCapture, so a saved file holds
	// it without form control values (docs/reference.md#form-columns wins over section
	// 13's "exactly as returned").
	Capture json.RawMessage

	// scrubSum is the SHA-256 of the capture ScrubEnvelope made, when
	// hasScrubSum; see Envelope.scrubbed.
	scrubSum    [32]byte
	hasScrubSum bool
}

// FileRevision is the revision of an HTML file or a bare capture:
// "r1.file." and the first 16 hex digits of the SHA-256 of the bytes.
func FileRevision(data []byte) string {
	sum := sha256.Sum256(data)
	return "r1.file." + hex.EncodeToString(sum[:8])
}

// Load reads an input of any supported format: gzip (by its magic bytes)
// around one of the others, a saved snapshot envelope, a bare capture, or
// HTML. A JSON object that is neither envelope nor capture, a format name
// other than FormatName, and binary data are unsupported_input.
//
// An input of more than limits.MaxInputBytes, a gzip stream expanding to
// more, and a tree of more than limits.MaxTreeNodes nodes are refused with
// unsupported_input ("too_large"), the stream as it expands and the tree
// before it is built whenever its size can be known first. A Charset that
// is not an encoding label is invalid_request whatever the input holds.
func Load(data []byte, opts LoadOptions) (*Input, error) {
	return load(data, opts, contractBounds())
}

func load(data []byte, opts LoadOptions, b inputBounds) (*Input, error) {
	if err := CheckCharset(opts.Charset); err != nil {
		return nil, err
	}
	if int64(len(data)) > b.bytes {
		return nil, readbound.TooLarge("input", b.bytes)
	}
	in := &Input{}
	body := data
	if isGzip(data) {
		var err error
		if body, err = gunzip(data, b.bytes); err != nil {
			return nil, err
		}
		if isGzip(body) {
			return nil, errcode.New(errcode.UnsupportedInput, pkgName, "", "gzip inside gzip")
		}
		in.Gzip = true
	}
	switch sniff(body) {
	case FormatEnvelope:
		env, capt, err := decodeEnvelope(body)
		if err != nil {
			return nil, err
		}
		// The styles are the envelope's own, refused as they are; only
		// the capture's errors are paths under /capture.
		if err := capture.CheckStyles(env.ComputedStyles); err != nil {
			return nil, err
		}
		if in.Tree, err = capture.Decode(capt, env.ComputedStyles, b.nodes); err != nil {
			return nil, underCapture(err)
		}
		in.Format, in.Revision, in.Envelope = FormatEnvelope, env.Revision, env
		return in, nil
	case FormatCapture:
		t, err := capture.Decode(body, opts.ComputedStyles, b.nodes)
		if err != nil {
			return nil, err
		}
		in.Tree, in.Format, in.Revision = t, FormatCapture, FileRevision(data)
		return in, nil
	case FormatHTML:
		t, info, err := parseHTML(body, HTMLOptions{Charset: opts.Charset}, b.nodes)
		if err != nil {
			return nil, err
		}
		in.Tree, in.Format, in.Revision, in.Charset = t, FormatHTML, FileRevision(data), info.Charset
		in.StyleSheetsDropped = info.StyleSheetsDropped
		return in, nil
	}
	return nil, sniffError(body)
}

func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// CheckHead refuses, from the first bytes of an input alone, what Load
// would refuse as binary data whatever followed them: not gzip, not JSON,
// and a binary byte in the first 1,024 bytes. A reader of a stream calls
// it on the stream's head so that, say, /dev/zero is refused at once
// instead of after 256 MiB.
func CheckHead(head []byte) error {
	if len(head) > sniffBytes {
		head = head[:sniffBytes]
	}
	if isGzip(head) || (capture.NewScanner(head)).Peek() == '{' || !isBinary(head) {
		return nil
	}
	return errcode.New(errcode.UnsupportedInput, pkgName, "", "binary data: not HTML, JSON or gzip")
}

// gunzip decompresses at most limit bytes; more is refused rather than cut,
// since a cut snapshot is not the snapshot. The stream is read twice: once
// to count what it expands to, with nothing kept, and once into a buffer of
// exactly that size. A bomb is refused after limit+1 bytes of counting and
// no allocation, and an accepted input costs its own size, never a buffer
// grown past it.
func gunzip(data []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "gzip header unreadable", err)
	}
	n, err := io.Copy(io.Discard, io.LimitReader(zr, limit+1))
	if n > limit {
		return nil, readbound.TooLarge("gzip output", limit)
	}
	if err != nil {
		return nil, errcode.Wrap(errcode.MalformedSnapshot, pkgName, "", "gzip stream corrupt or truncated", err)
	}
	if err := zr.Reset(bytes.NewReader(data)); err != nil {
		return nil, errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "gzip header unreadable", err)
	}
	out := make([]byte, n)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, errcode.Wrap(errcode.MalformedSnapshot, pkgName, "", "gzip stream corrupt or truncated", err)
	}
	return out, nil
}

// sniff decides the format: a JSON object is an envelope when its first
// recognised member is "format", a capture when it is "documents" or
// "strings"; anything not starting with '{' is HTML unless it has binary
// bytes. Zero means unsupported, with sniffError saying why.
func sniff(b []byte) Format {
	s := capture.NewScanner(b)
	if s.Peek() != '{' {
		if isBinary(b) {
			return 0
		}
		return FormatHTML
	}
	more, err := s.ObjectStart("")
	for err == nil && more {
		var k jsonlex.Span
		if k, err = s.Key(""); err != nil {
			break
		}
		switch s.Decode(k) {
		case "format":
			return FormatEnvelope
		case "documents", "strings":
			return FormatCapture
		}
		if err = s.SkipValue(""); err == nil {
			more, err = s.ObjectNext("")
		}
	}
	return 0
}

// sniffError explains why sniff recognised nothing.
func sniffError(b []byte) error {
	s := capture.NewScanner(b)
	if s.Peek() != '{' {
		return errcode.New(errcode.UnsupportedInput, pkgName, "", "binary data: not HTML, JSON or gzip")
	}
	if err := s.SkipValue(""); err != nil {
		return capture.Coded(err) // JSON that is not even well-formed: malformed_snapshot
	}
	if err := s.End(); err != nil {
		return capture.Coded(err)
	}
	return errcode.New(errcode.UnsupportedInput, pkgName, "", "a JSON object that is neither a saved snapshot nor a capture")
}

// isBinary applies the MIME Sniffing Standard's binary data bytes to the
// resource header. A UTF-16 byte-order mark makes it text.
func isBinary(b []byte) bool {
	if len(b) >= 2 && (b[0] == 0xfe && b[1] == 0xff || b[0] == 0xff && b[1] == 0xfe) {
		return false
	}
	if len(b) > sniffBytes {
		b = b[:sniffBytes]
	}
	for _, c := range b {
		if c <= 0x08 || c == 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f) {
			return true
		}
	}
	return false
}

// underCapture moves the path of an error inside an envelope's capture
// below /capture.
func underCapture(err error) error {
	var e *errcode.Error
	if errors.As(err, &e) && e.Code == errcode.MalformedSnapshot {
		e.Path = "/capture" + e.Path
	}
	return err
}

// decodeEnvelope reads an envelope and returns its metadata and the bytes
// of its capture, which the caller decodes.
func decodeEnvelope(data []byte) (*Envelope, []byte, error) {
	s := capture.NewScanner(data)
	env := &Envelope{}
	var capt []byte
	var hasFormat, hasRevision bool
	err := s.Object("", true, func(name, p string, _ []byte) (err error) {
		switch name {
		case "format":
			hasFormat = true
			env.Format, err = s.StringValue(p)
		case "revision":
			hasRevision = true
			env.Revision, err = s.StringValue(p)
		case "captured_at":
			env.CapturedAt, err = s.StringValue(p)
		case "browser":
			env.Browser, err = s.StringValue(p)
		case "computed_styles":
			env.ComputedStyles, err = s.StringArray(p)
		case "capture":
			if s.Peek() != '{' {
				return s.WrongType(p, "an object")
			}
			capt, err = s.RawValue(p)
		default:
			// Later versions may add members; this version reads none.
			err = s.SkipValue(p)
		}
		return err
	})
	if err == nil {
		err = s.End()
	}
	if err != nil {
		return nil, nil, capture.Coded(err)
	}
	if !hasFormat || env.Format != FormatName {
		return nil, nil, errcode.New(errcode.UnsupportedInput, pkgName, "/format", "unknown snapshot format "+errcode.Quote(env.Format)+", want "+strconv.Quote(FormatName))
	}
	if !hasRevision {
		return nil, nil, capture.Malformed("/revision", "missing")
	}
	if err := checkEnvelope(env); err != nil {
		return nil, nil, err
	}
	if capt == nil {
		return nil, nil, capture.Malformed("/capture", "missing")
	}
	return env, capt, nil
}

// checkEnvelope checks the metadata both ways: what Load accepts and what
// WriteSnapshot writes.
func checkEnvelope(env *Envelope) error {
	if !validRevision(env.Revision) {
		return capture.Malformed("/revision", "not a revision: "+errcode.Quote(env.Revision))
	}
	if env.CapturedAt != "" {
		if _, err := time.Parse(time.RFC3339, env.CapturedAt); err != nil {
			return capture.Malformed("/captured_at", "not an RFC 3339 time: "+errcode.Quote(env.CapturedAt))
		}
	}
	return nil
}

// validRevision accepts what docs/reference.md#revisions calls a revision: "r1." and
// then letters, digits, '.', '-' and '_' only, so a recorded revision can
// carry no URL or page content into a result.
func validRevision(r string) bool {
	if len(r) <= len("r1.") || len(r) > maxRevisionBytes || r[:3] != "r1." {
		return false
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
