package mcp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/ownerstamp"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/live"
)

// DefaultMaxDownloadBytes bounds one download unless Config says
// otherwise.
const DefaultMaxDownloadBytes int64 = 64 << 20

// downloadsDir, in the state folder, holds the sessions' download folders,
// each named downloadPrefix and more.
const (
	downloadsDir   = "downloads"
	downloadPrefix = "session-"
)

// downloadSettle bounds how long an action waits for the downloads it
// began to finish, within its own deadline, before it answers: a download
// still under way is reported without its size, and browser_download
// reads it once it is done.
const downloadSettle = 10 * time.Second

// allowDownloads lets the session's new browser context save downloads
// into a folder of the session's own below the state folder's downloads
// folder (owner-only), bounded by --max-download-bytes, MaxDownloads and,
// for the finished files, the store's bound. A failure leaves downloads
// refused, as the context was made.
func (ss *session) allowDownloads(ctx context.Context, bctx *live.BrowserContext) {
	s := ss.srv
	parent := filepath.Join(s.stateDir, downloadsDir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return
	}
	dir, err := os.MkdirTemp(parent, downloadPrefix)
	if err != nil {
		return
	}
	ownerstamp.Mark(dir)
	f := &downloadFolder{dir: dir, store: s.store}
	dls, err := bctx.AllowDownloads(ctx, live.DownloadOptions{Dir: dir, MaxBytes: s.cfg.MaxDownloadBytes,
		MaxCount: limits.MaxDownloads, Admit: f.admit})
	if err != nil {
		os.RemoveAll(dir)
		return
	}
	f.dls = dls
	ss.mu.Lock()
	ss.downloads = f
	ss.mu.Unlock()
}

// downloadFolder is a browser context's downloads and the folder they are
// saved in, with the bytes the store holds for them.
type downloadFolder struct {
	dir   string
	dls   *live.Downloads
	store interface {
		Hold(int64) bool
		Unhold(int64)
	}
	held atomic.Int64
	// reported counts the downloads browser_act answers have listed.
	reported int
}

// admit counts a finished file in the store's bound.
func (f *downloadFolder) admit(n int64) bool {
	if !f.store.Hold(n) {
		return false
	}
	f.held.Add(n)
	return true
}

// dispose stops the downloads, removes their folder and gives their room
// back to the store. The context's pages are gone or going.
func (f *downloadFolder) dispose() {
	f.dls.Close()
	os.RemoveAll(f.dir)
	f.store.Unhold(f.held.Load())
}

// report lists the downloads begun since the last report (by this action,
// or after the previous one answered), once at least want began and those
// begun ended, or deadline passed. The calls of a session run one at a time, so reported needs no
// lock.
func (f *downloadFolder) report(ctx context.Context, want int, deadline time.Time) []downloadReport {
	list, next := f.dls.Settle(ctx, f.reported, want, deadline)
	f.reported = next
	return reportDownloads(list)
}

// downloadReport is one download in browser_act's answer.
type downloadReport struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Bytes     *int64 `json:"bytes,omitempty"`
	SHA256    string `json:"sha256,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	Status    string `json:"status,omitempty"`
}

// reportDownloads is the answer's downloads: saved ones with their size,
// digest and type; the others with why they were not saved, or
// in_progress when the action's wait ended first.
func reportDownloads(list []live.Download) []downloadReport {
	var out []downloadReport
	for _, d := range list {
		r := downloadReport{ID: d.ID, Name: d.Name, Status: d.Status}
		switch {
		case d.Path != "":
			b := d.Bytes
			r.Bytes, r.SHA256, r.MediaType = &b, d.SHA256, d.MediaType
		case d.Status == "":
			r.Status = "in_progress"
		}
		out = append(out, r)
	}
	return out
}

type downloadArgs struct {
	ID         string `json:"id"`
	Offset     int64  `json:"offset"`
	ModelBytes int    `json:"model_bytes"`
}

// downloadHead is browser_download's structured answer: which download,
// which part of it the answer's second content holds, and where the rest
// starts (absent at the end).
type downloadHead struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	MediaType  string `json:"media_type"`
	Bytes      int64  `json:"bytes"`
	SHA256     string `json:"sha256"`
	Offset     int64  `json:"offset"`
	Length     int64  `json:"length"`
	NextOffset *int64 `json:"next_offset,omitempty"`
	Encoding   string `json:"encoding"`
}

// downloadOverhead is what an answer's first content, the head, may take
// of model_bytes; the bytes of the file get the rest.
const downloadOverhead = 768

// browserDownload is browser_download: a part of a saved download, read
// from the session's own folder and nothing else. Text (a text media type
// whose part is valid UTF-8, cut at a character's end) is answered as
// text; anything else as a base64 blob. The file is never opened any other
// way, nor run.
func browserDownload(ctx context.Context, s *Server, ss *session, raw []byte) (*sdk.CallToolResult, error) {
	var a downloadArgs
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	budget, err := s.budget(a.ModelBytes)
	if err != nil {
		return nil, err
	}
	ss.mu.Lock()
	f := ss.downloads
	ss.mu.Unlock()
	unknown := errcode.New(errcode.InvalidRequest, pkg, "/id", "no saved download of this session has that id")
	if f == nil {
		return nil, unknown
	}
	d, ok := f.dls.Get(a.ID)
	if !ok || d.Path == "" {
		return nil, unknown
	}
	if a.Offset > d.Bytes {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "/offset", "the offset is past the download's end")
	}
	text := strings.HasPrefix(d.MediaType, "text/") || d.MediaType == "application/json"
	room := int64(budget - downloadOverhead)
	if !text {
		room = room / 4 * 3
	}
	file, err := os.Open(d.Path)
	if err != nil {
		return nil, errcode.New(errcode.UnsupportedInput, pkg, "", "the download's file cannot be read")
	}
	defer file.Close()
	part := make([]byte, min(room, d.Bytes-a.Offset))
	n, err := file.ReadAt(part, a.Offset)
	if err != nil && err != io.EOF {
		return nil, errcode.New(errcode.UnsupportedInput, pkg, "", "the download's file cannot be read")
	}
	part = part[:n]
	if text {
		// Cut at a character's end; a part that is still no UTF-8 (the
		// file is not what its type says) goes as a blob, which base64
		// makes a third longer.
		cut := part
		for k := 0; k < utf8.UTFMax && len(cut) > 0 && !utf8.Valid(cut); k++ {
			cut = cut[:len(cut)-1]
		}
		if utf8.Valid(cut) && (len(cut) > 0 || n == 0) {
			part = cut
		} else {
			text = false
			part = part[:min(int64(len(part)), room/4*3)]
		}
	}
	h := downloadHead{ID: d.ID, Name: d.Name, MediaType: d.MediaType, Bytes: d.Bytes, SHA256: d.SHA256,
		Offset: a.Offset, Length: int64(len(part)), Encoding: "text"}
	if next := a.Offset + int64(len(part)); next < d.Bytes {
		h.NextOffset = &next
	}
	var body sdk.Content
	if text {
		body = &sdk.TextContent{Text: string(part)}
	} else {
		h.Encoding = "base64"
		body = &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "domsnap:download/" + d.ID, MIMEType: d.MediaType,
			Blob: part}}
	}
	head, _ := json.Marshal(h)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(head)}, body}, StructuredContent: json.RawMessage(head)}, nil
}
