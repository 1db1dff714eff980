package profile

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

const pkg = "profile"

// MaxNameBytes is the longest profile name.
const MaxNameBytes = 64

// MaxOrigins bounds the origins one profile is bound to.
const MaxOrigins = 64

// maxBindingBytes bounds a binding file: MaxOrigins origins of a long host
// name each fit well within it.
const maxBindingBytes = 64 << 10

// Folder and file names inside the profiles folder.
const (
	// Dir is the profiles folder's name inside the state folder.
	Dir = "profiles"
	// bindingExt ends the binding file beside a profile's folder.
	bindingExt = ".json"
	// lockFile, inside a profile's folder, is what a lease locks; its
	// modification time is the profile's last use.
	lockFile = "domsnap.lock"
	// tempPrefix starts the temporary name a binding is written under.
	tempPrefix = ".tmp-"
)

// CheckName refuses a name that is not 1 to MaxNameBytes characters of
// [a-z0-9._-] or that starts with a dot, with invalid_request.
func CheckName(name string) error {
	bad := func(why string) error {
		return errcode.New(errcode.InvalidRequest, pkg, "", "a profile name "+why+", got "+errcode.Quote(name))
	}
	if name == "" || len(name) > MaxNameBytes {
		return bad("is 1 to " + strconv.Itoa(MaxNameBytes) + " characters")
	}
	if name[0] == '.' {
		return bad("must not start with a dot")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return bad("holds only a-z, 0-9, '.', '_' and '-'")
		}
	}
	return nil
}

// Store is the profiles folder of one state folder.
type Store struct {
	dir string
}

// Open opens the profiles folder of the state folder stateDir. The folder
// is created (the owner's alone) by the first Create, not here, so a state
// folder that never held a profile gets none; one that exists is made the
// owner's alone.
func Open(stateDir string) (*Store, error) {
	dir := filepath.Join(stateDir, Dir)
	if _, err := os.Lstat(dir); err == nil {
		if err := checkFolder(dir); err != nil {
			return nil, err
		}
	}
	return &Store{dir: dir}, nil
}

// checkFolder makes dir, which must be a real folder and not a link, the
// owner's alone.
func checkFolder(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return ioError("reading a profile folder", err)
	}
	if !fi.IsDir() {
		return errcode.New(errcode.InvalidRequest, pkg, "", errcode.Quote(dir)+" is not a folder")
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return ioError("restricting a profile folder to its owner", err)
		}
	}
	return nil
}

// Dir is the profiles folder.
func (s *Store) Dir() string { return s.dir }

// Profile is one profile: its name, folder and binding.
type Profile struct {
	Name string
	// Folder is the Chromium user-data folder.
	Folder string
	// Origins are the exact origins the profile may be used on, canonical,
	// sorted and without repeats.
	Origins []string
}

// binding is the file beside a profile's folder.
type binding struct {
	Origins []string `json:"origins"`
}

// Info is what List tells of a profile: never anything from inside the
// browser's files.
type Info struct {
	Name    string
	Origins []string
	// LastUse is when the profile was last leased, zero when never.
	LastUse time.Time
}

func (s *Store) folder(name string) string  { return filepath.Join(s.dir, name) }
func (s *Store) binding(name string) string { return filepath.Join(s.dir, name+bindingExt) }

// Create makes the profile name bound to origins, or binds an existing one
// to origins anew (a person signing in again says again where it is for).
// Its folder is created the owner's alone. origins are canonicalised; at
// least one is required.
func (s *Store) Create(name string, origins []string) (*Profile, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	canon, err := canonical(origins)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, ioError("creating the profiles folder", err)
	}
	if err := checkFolder(s.dir); err != nil {
		return nil, err
	}
	dir := s.folder(name)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, ioError("creating the profile folder", err)
	}
	if err := checkFolder(dir); err != nil {
		return nil, err
	}
	data, _ := json.Marshal(binding{Origins: canon})
	if err := writeAtomic(s.dir, s.binding(name), append(data, '\n')); err != nil {
		return nil, err
	}
	return &Profile{Name: name, Folder: dir, Origins: canon}, nil
}

// canonical checks and canonicalises origins, sorted without repeats.
func canonical(origins []string) ([]string, error) {
	if len(origins) == 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a profile is bound to at least one origin")
	}
	out := make([]string, 0, len(origins))
	for _, o := range origins {
		c, err := ParseOrigin(o)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	sort.Strings(out)
	out = slices.Compact(out)
	if len(out) > MaxOrigins {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a profile is bound to at most "+strconv.Itoa(MaxOrigins)+" origins")
	}
	return out, nil
}

// writeAtomic writes data to path (mode 0600) through a temporary file in
// dir and a rename, so the file is whole or absent after a crash.
func writeAtomic(dir, path string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return ioError("writing the profile's binding", err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return ioError("writing the profile's binding", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return ioError("writing the profile's binding", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return ioError("writing the profile's binding", err)
	}
	if err := f.Close(); err != nil {
		return ioError("writing the profile's binding", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return ioError("writing the profile's binding", err)
	}
	return nil
}

// Get returns the profile name: unknown_profile when it does not exist (no
// folder or no binding). A binding that is not the owner's alone, or does
// not hold what Create writes, is refused.
func (s *Store) Get(name string) (*Profile, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(s.folder(name))
	if err != nil || !fi.IsDir() {
		return nil, unknownProfile()
	}
	origins, err := s.readBinding(name)
	if err != nil {
		return nil, err
	}
	if err := checkFolder(s.folder(name)); err != nil {
		return nil, err
	}
	return &Profile{Name: name, Folder: s.folder(name), Origins: origins}, nil
}

// unknownProfile is the error of a name no profile has. It never names
// what does exist.
func unknownProfile() error {
	return errcode.New(errcode.UnknownProfile, pkg, "", "no such profile; create it with `domsnap profile login`")
}

// readBinding reads and checks the binding file of name. It is opened
// without following a link and without blocking (a named pipe is refused at
// once), and must be a regular file, the owner's alone.
func (s *Store) readBinding(name string) ([]string, error) {
	f, err := os.OpenFile(s.binding(name), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, unknownProfile()
	}
	if err != nil {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's binding cannot be opened")
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's binding is not a regular file")
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's binding is open to group or others; make it the owner's alone (chmod 600)")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBindingBytes+1))
	if err != nil || len(data) > maxBindingBytes {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's binding cannot be read or is too large")
	}
	var b binding
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's binding is not valid; sign in again with `domsnap profile login`")
	}
	origins, err := canonical(b.Origins)
	if err != nil || !slices.Equal(origins, b.Origins) {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the profile's binding is not valid; sign in again with `domsnap profile login`")
	}
	return origins, nil
}

// List returns every profile, by name. A folder without a valid binding is
// not a profile and is left out.
func (s *Store) List() ([]Info, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError("reading the profiles folder", err)
	}
	var out []Info
	for _, e := range ents {
		if !e.IsDir() || CheckName(e.Name()) != nil {
			continue
		}
		origins, err := s.readBinding(e.Name())
		if err != nil {
			continue
		}
		info := Info{Name: e.Name(), Origins: origins}
		if fi, err := os.Lstat(filepath.Join(s.folder(e.Name()), lockFile)); err == nil {
			info.LastUse = fi.ModTime()
		}
		out = append(out, info)
	}
	return out, nil
}

// Remove deletes the profile name, its folder and its binding. A profile
// leased now is profile_busy and stays.
func (s *Store) Remove(name string) error {
	p, err := s.Get(name)
	if err != nil {
		return err
	}
	l, err := p.Lease()
	if err != nil {
		return err
	}
	defer l.Close()
	// The binding goes first: a folder without one is no profile, so a
	// removal cut short leaves nothing that can be used.
	if err := os.Remove(s.binding(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ioError("removing the profile's binding", err)
	}
	if err := os.RemoveAll(p.Folder); err != nil {
		return ioError("removing the profile folder", err)
	}
	return nil
}

func ioError(what string, err error) error {
	return errcode.Wrap(errcode.CaptureFailed, pkg, "", what, err)
}
