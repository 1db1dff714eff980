package mcp

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/ownerstamp"
	"github.com/domsnap/domsnap/limits"
)

// DefaultMaxUploadBytes bounds one uploaded file unless Config says
// otherwise.
const DefaultMaxUploadBytes int64 = 64 << 20

// uploadPrefix starts the name of a session's folder of staged uploads.
const uploadPrefix = "domsnap-upload-"

// stage makes the file rel names below the upload root ready for a file
// input: the path is checked as snapshot_observe's are (rootDir.open), and
// the file, read through the descriptor that was checked, is copied into
// a folder of the session's own that only its owner can read. The browser
// reads the file when the page submits or reads it, maybe long after the
// action; the copy is what it reads, so a file swapped or changed below
// the root after the check changes nothing. The copy keeps the file's own
// name, which the page sees as a person's upload shows it, and goes with
// the session. No error names the path or the file.
func (ss *session) stage(ctx context.Context, rel string) (string, error) {
	s := ss.srv
	if s.uploads == nil {
		return "", errcode.New(errcode.PathRefused, pkg, "", "uploads are off: the server was started without --upload-root")
	}
	f, fi, err := s.uploads.open(rel, s.cfg.MaxUploadBytes)
	if err != nil {
		return "", err
	}
	defer f.Close()
	dir, err := ss.uploadFolder()
	if err != nil {
		return "", err
	}
	one, err := os.MkdirTemp(dir, "u")
	if err != nil {
		return "", errcode.New(errcode.CaptureFailed, pkg, "", "the session's upload folder cannot take another file")
	}
	dst := filepath.Join(one, fi.Name())
	if err := copyBounded(ctx, dst, f, s.cfg.MaxUploadBytes); err != nil {
		os.RemoveAll(one)
		return "", err
	}
	return dst, nil
}

// uploadFolder is the session's folder of staged uploads, made (owner-only)
// on its first upload. At most limits.MaxUploads files are staged per
// session, so a session cannot fill the disk with copies.
func (ss *session) uploadFolder() (string, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.ended {
		return "", errcode.New(errcode.SessionExpired, pkg, "", "the session has ended")
	}
	if ss.uploaded >= limits.MaxUploads {
		return "", errcode.TooLarge(pkg, "the session has uploaded "+strconv.Itoa(limits.MaxUploads)+" files, the most it may")
	}
	if ss.uploadDir == "" {
		dir, err := os.MkdirTemp("", uploadPrefix)
		if err != nil {
			return "", errcode.New(errcode.CaptureFailed, pkg, "", "the session's upload folder cannot be made")
		}
		// A server killed outright leaves the folder; the next server
		// removes it (sweepSessionFolders).
		ownerstamp.Mark(dir)
		ss.uploadDir = dir
	}
	ss.uploaded++
	return ss.uploadDir, nil
}

// unstage takes back a staged copy the page never received: the copy's
// own folder goes and the session may upload one more file.
func (ss *session) unstage(path string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.uploadDir == "" || filepath.Dir(filepath.Dir(path)) != ss.uploadDir {
		return
	}
	os.RemoveAll(filepath.Dir(path))
	ss.uploaded--
}

// removeUploads removes the session's staged uploads, once it has ended
// and its browser context, whose pages could still read them, is gone.
func (ss *session) removeUploads() {
	ss.mu.Lock()
	dir := ss.uploadDir
	ss.uploadDir = ""
	ss.mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
}

// copyBounded copies src into a new owner-only file dst, at most max
// bytes, in chunks between which ctx is asked. A source that grew past max
// since it was checked is too large.
func copyBounded(ctx context.Context, dst string, src io.Reader, max int64) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errcode.New(errcode.CaptureFailed, pkg, "", "the upload's copy cannot be made")
	}
	defer out.Close()
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return errcode.Wrap(errcode.Cancelled, pkg, "", "context done while copying the upload", err)
		}
		k, err := io.CopyN(out, src, readChunk)
		n += k
		if n > max {
			return tooLarge(max)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return errcode.New(errcode.UnsupportedInput, pkg, "", "the file cannot be read, or its copy written")
		}
	}
	if err := out.Close(); err != nil {
		return errcode.New(errcode.CaptureFailed, pkg, "", "the upload's copy cannot be written")
	}
	return nil
}

// maxSweep bounds how many stale session folders a server removes as it
// starts, in each place.
const maxSweep = 16

// sweepSessionFolders removes the upload and download folders that
// sessions of a server that has ended left behind: a server removes its
// sessions' folders as they end, and one killed outright cannot.
func sweepSessionFolders(stateDir string) {
	ownerstamp.Sweep(os.TempDir(), uploadPrefix, maxSweep, nil)
	ownerstamp.Sweep(filepath.Join(stateDir, downloadsDir), downloadPrefix, maxSweep, nil)
}
