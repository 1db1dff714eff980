package live

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mafredri/cdp/protocol/browser"
	"github.com/mafredri/cdp/protocol/target"

	domsnap "github.com/domsnap/domsnap"
)

// DownloadOptions say where a browser context saves its downloads and how
// much it may save.
type DownloadOptions struct {
	// Dir is the folder the files go into, which the caller made
	// (owner-only) and removes. Each file is named by the browser's id for
	// the download, never by a name the page chose.
	Dir string
	// MaxBytes bounds one download: a bigger one is cancelled and its
	// file removed.
	MaxBytes int64
	// MaxCount bounds how many downloads are saved; later ones are
	// cancelled.
	MaxCount int
	// Admit, when set, is asked for room for each finished file's bytes
	// (the tool server counts them in its store's bound); a file it
	// refuses is removed as too large.
	Admit func(bytes int64) bool
}

// The states of a download that was not saved.
const (
	// DownloadTooLarge: it passed MaxBytes and was cancelled.
	DownloadTooLarge = "too_large"
	// DownloadTooMany: MaxCount downloads were saved already.
	DownloadTooMany = "too_many"
	// DownloadFailed: the browser or the page cancelled it, or the
	// network failed it.
	DownloadFailed = "failed"
)

// Download is one download of a browser context.
type Download struct {
	// ID is the download's id within its context: d1, d2, ...
	ID string
	// Name is the name the page suggested, reduced to its last path part,
	// control characters made spaces, bounded as a cell summary, "download"
	// when nothing is left. It is page content: untrusted.
	Name string
	// Bytes, SHA256 (hex) and MediaType (sniffed from the bytes, with the
	// name's extension for text) describe the saved file.
	Bytes     int64
	SHA256    string
	MediaType string
	// Status is "" for a saved file, else why it was not saved.
	Status string
	// Path is the saved file, "" when none was saved.
	Path string

	guid    string
	done    bool
	foreign bool
}

// Downloads follows the downloads of one browser context. The browser
// saves them into DownloadOptions.Dir; nothing saved is ever opened by the
// package except to hash it and to read it when asked.
type Downloads struct {
	c    *BrowserContext
	opts DownloadOptions
	stop context.CancelFunc
	done chan struct{}

	mu    sync.Mutex
	list  []*Download
	byID  map[string]*Download
	saved int
	// ids counts the ids given: a download is given one once it is judged
	// this context's own.
	ids int
	// changed is closed and replaced whenever a download is judged or
	// ends.
	changed chan struct{}
}

// downloadCallTimeout bounds one protocol call about a download.
const downloadCallTimeout = 5 * time.Second

// AllowDownloads lets the context's pages download into o.Dir, within its
// bounds, and follows what they download until Close.
func (c *BrowserContext) AllowDownloads(ctx context.Context, o DownloadOptions) (*Downloads, error) {
	b := c.b
	life, stop := context.WithCancel(b.life)
	begin, err := b.client.Browser.DownloadWillBegin(life)
	if err != nil {
		stop()
		return nil, callError(ctx, "Browser.downloadWillBegin", err)
	}
	progress, err := b.client.Browser.DownloadProgress(life)
	if err != nil {
		begin.Close()
		stop()
		return nil, callError(ctx, "Browser.downloadProgress", err)
	}
	args := browser.NewSetDownloadBehaviorArgs("allowAndName").SetBrowserContextID(browser.ContextID(c.reply.BrowserContextID)).
		SetDownloadPath(o.Dir).SetEventsEnabled(true)
	if err := b.client.Browser.SetDownloadBehavior(ctx, args); err != nil {
		begin.Close()
		progress.Close()
		stop()
		return nil, callError(ctx, "Browser.setDownloadBehavior", err)
	}
	d := &Downloads{c: c, opts: o, stop: stop, done: make(chan struct{}), byID: map[string]*Download{}, changed: make(chan struct{})}
	go d.follow(life, begin, progress)
	return d, nil
}

// follow reads the browser's download events until life ends.
func (d *Downloads) follow(life context.Context, begin browser.DownloadWillBeginClient, progress browser.DownloadProgressClient) {
	defer close(d.done)
	defer begin.Close()
	defer progress.Close()
	for {
		select {
		case <-begin.Ready():
			ev, err := begin.Recv()
			if err != nil {
				return
			}
			d.began(life, ev)
		case <-progress.Ready():
			ev, err := progress.Recv()
			if err != nil {
				return
			}
			d.progressed(life, ev)
		case <-life.Done():
			return
		}
	}
}

// mine reports whether the frame that began a download is one of this
// context's: a page's main frame is a target of its own, whose context the
// browser names. A frame that is no target (a subframe in its page's
// process) is judged when the download ends, by where its file went.
func (d *Downloads) mine(life context.Context, frame string) (known, ours bool) {
	ctx, cancel := context.WithTimeout(life, downloadCallTimeout)
	defer cancel()
	info, err := d.c.b.client.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs().SetTargetID(target.ID(frame)))
	if err != nil {
		return false, false
	}
	return true, info.TargetInfo.BrowserContextID != nil && *info.TargetInfo.BrowserContextID == d.c.reply.BrowserContextID
}

func (d *Downloads) began(life context.Context, ev *browser.DownloadWillBeginReply) {
	// The download is listed before it is judged, so that an answer
	// settling the downloads its action began waits for this one too:
	// judging asks the browser, which a busy machine answers late.
	dl := &Download{Name: downloadName(ev.SuggestedFilename), guid: ev.GUID}
	d.mu.Lock()
	d.list = append(d.list, dl)
	d.mu.Unlock()
	known, ours := d.mine(life, string(ev.FrameID))
	d.mu.Lock()
	if known && !ours {
		d.mu.Unlock()
		d.forget(dl)
		return
	}
	d.ids++
	dl.ID = "d" + strconv.Itoa(d.ids)
	d.byID[dl.ID] = dl
	over := d.saved+d.pending() > d.opts.MaxCount
	d.tell()
	d.mu.Unlock()
	if over {
		d.cancel(life, dl, DownloadTooMany)
	}
}

// tell wakes the answers waiting in Settle: a download was judged or
// ended. Called with d.mu held.
func (d *Downloads) tell() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// pending counts the downloads begun and not ended, the caller's
// included. Called with d.mu held.
func (d *Downloads) pending() int {
	n := 0
	for _, dl := range d.list {
		if !dl.done {
			n++
		}
	}
	return n
}

func (d *Downloads) find(guid string) *Download {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dl := range d.list {
		if dl.guid == guid {
			return dl
		}
	}
	return nil
}

func (d *Downloads) progressed(life context.Context, ev *browser.DownloadProgressReply) {
	dl := d.find(ev.GUID)
	if dl == nil {
		return
	}
	max := float64(d.opts.MaxBytes)
	switch ev.State {
	case "inProgress":
		if ev.TotalBytes > max || ev.ReceivedBytes > max {
			d.cancel(life, dl, DownloadTooLarge)
		}
	case "completed":
		d.completed(dl)
	case "canceled":
		d.end(dl, DownloadFailed, "")
	}
}

// cancel stops a download and removes what it wrote.
func (d *Downloads) cancel(life context.Context, dl *Download, status string) {
	ctx, cancel := context.WithTimeout(life, downloadCallTimeout)
	defer cancel()
	_ = d.c.b.client.Browser.CancelDownload(ctx, browser.NewCancelDownloadArgs(dl.guid).
		SetBrowserContextID(browser.ContextID(d.c.reply.BrowserContextID)))
	d.end(dl, status, "")
}

// completed hashes and sniffs a finished file, within the bounds: a file
// that came out bigger than MaxBytes (its size was not announced) is
// removed as too large. A download ended already (cancelled as too many
// or too large while the browser was finishing it, which a busy machine
// makes likely) keeps how it ended, and what the browser finished is
// removed: its missing file does not make it another context's.
func (d *Downloads) completed(dl *Download) {
	d.mu.Lock()
	ended, foreign := dl.done, dl.foreign
	d.mu.Unlock()
	if ended {
		if !foreign {
			removeDownload(d.opts.Dir, dl.guid)
		}
		return
	}
	path := filepath.Join(d.opts.Dir, dl.guid)
	f, err := os.Open(path)
	if err != nil {
		// Not in this context's folder: another context's download from
		// a frame that is no target.
		d.forget(dl)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > d.opts.MaxBytes ||
		d.opts.Admit != nil && !d.opts.Admit(fi.Size()) {
		d.end(dl, DownloadTooLarge, "")
		return
	}
	h := sha256.New()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	h.Write(head[:n])
	if _, err := io.Copy(h, io.LimitReader(f, d.opts.MaxBytes)); err != nil {
		d.end(dl, DownloadFailed, "")
		return
	}
	d.mu.Lock()
	dl.Bytes, dl.SHA256, dl.MediaType = fi.Size(), hex.EncodeToString(h.Sum(nil)), mediaType(dl.Name, head[:n])
	d.mu.Unlock()
	d.end(dl, "", path)
}

// end records how a download ended; a download not saved leaves no file.
func (d *Downloads) end(dl *Download, status, path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if dl.done {
		return
	}
	dl.done, dl.Status, dl.Path = true, status, path
	if status == "" {
		d.saved++
	} else {
		removeDownload(d.opts.Dir, dl.guid)
	}
	d.tell()
}

// removeDownload removes the files a download left: its own and the
// browser's partial one.
func removeDownload(dir, guid string) {
	_ = os.Remove(filepath.Join(dir, guid))
	_ = os.Remove(filepath.Join(dir, guid+".crdownload"))
}

// forget drops a download that turned out to be another context's: it
// keeps its place (and its id unused) but is never listed.
func (d *Downloads) forget(dl *Download) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl.done, dl.foreign = true, true
	if dl.ID != "" {
		delete(d.byID, dl.ID)
	}
	d.tell()
}

// Settle waits, until deadline, for at least want downloads to have
// begun since the n-th, and for those begun to end. It returns them in the
// order they began, ended or not (a download still under way has neither
// Status nor Path yet), with the n to ask for next time. A download the
// browser told of and that is not judged yet is neither returned nor
// passed: the next call returns it.
func (d *Downloads) Settle(ctx context.Context, n, want int, deadline time.Time) ([]Download, int) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for {
		d.mu.Lock()
		var out []Download
		open := len(d.list)-n < want
		next := max(n, len(d.list))
		for i, dl := range d.list[min(n, len(d.list)):] {
			open = open || !dl.done
			switch {
			case dl.foreign:
			case dl.ID == "":
				next = min(next, n+i)
			case next > n+i:
				out = append(out, *dl)
			}
		}
		changed := d.changed
		d.mu.Unlock()
		if !open {
			return out, next
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return out, next
		}
	}
}

// Get returns the download with that id.
func (d *Downloads) Get(id string) (Download, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl, ok := d.byID[id]
	if !ok {
		return Download{}, false
	}
	return *dl, true
}

// Close stops following downloads and cancels those under way. The files
// stay for the caller to remove with its folder.
func (d *Downloads) Close() {
	d.mu.Lock()
	var open []*Download
	for _, dl := range d.list {
		if !dl.done {
			open = append(open, dl)
		}
	}
	d.mu.Unlock()
	for _, dl := range open {
		d.cancel(d.c.b.life, dl, DownloadFailed)
	}
	d.stop()
	<-d.done
}

// downloadName is a suggested file name made safe to show: its last path
// part (after / or \), control and format characters made spaces, bounded
// as a cell summary, leading dots dropped, "download" when nothing is left.
func downloadName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, s)
	s, _ = domsnap.SummarizeText(s)
	s = strings.TrimLeft(s, ". ")
	if s == "" {
		return "download"
	}
	return s
}

// textTypes are the text types a name's extension may give a file whose
// bytes sniff as text: a fixed table, so the answer does not depend on
// the machine's own.
var textTypes = map[string]string{
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".json": "application/json",
	".txt": "text/plain", ".md": "text/markdown", ".xml": "text/xml", ".html": "text/html", ".htm": "text/html",
}

// mediaType sniffs the file's first bytes (the WHATWG rules Go follows);
// text keeps the type its name's extension gives (text/csv for .csv) when
// textTypes has one. No parameter is kept.
func mediaType(name string, head []byte) string {
	sniffed, _, err := mime.ParseMediaType(http.DetectContentType(head))
	if err != nil {
		return "application/octet-stream"
	}
	if strings.HasPrefix(sniffed, "text/") {
		if t, ok := textTypes[strings.ToLower(filepath.Ext(name))]; ok {
			return t
		}
	}
	return sniffed
}
