package mcp

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/profile"
)

// Bounds of a principals file (docs/reference.md#principals).
const (
	// maxPrincipals is the most principals one file may name.
	maxPrincipals = 1024
	// maxPrincipalsBytes bounds the file.
	maxPrincipalsBytes = 1 << 20
)

// principal is one hosted caller: a name for the log, the SHA-256 of its
// bearer token, and what its sessions may do.
type principal struct {
	// Name is the principal's name as the log shows it: 1 to 64 characters
	// of [a-z0-9._-], not starting with a dot.
	Name string
	// Profile, when set, is the profile every session of the principal
	// browses with, within the profile's origins.
	Profile string
	// AllowOrigins limit where the principal's sessions may go when it has
	// no profile; empty allows every http and https origin.
	AllowOrigins []string
	// MaxSessions is the most sessions the principal may have alive at
	// once.
	MaxSessions int

	sum    [sha256.Size]byte
	policy *Policy
}

// Principals is a checked principals file.
type Principals struct {
	list []*principal
}

// principalJSON is one entry of the file as written.
type principalJSON struct {
	Name         string   `json:"name"`
	TokenSHA256  string   `json:"token_sha256"`
	Profile      string   `json:"profile,omitempty"`
	AllowOrigins []string `json:"allow_origins,omitempty"`
	MaxSessions  *int     `json:"max_sessions,omitempty"`
}

// ReadPrincipals reads a principals file: a regular file (a named pipe or a
// device is refused at once, never waited on), the owner's alone, of at
// most 1 MiB. No message quotes the file's content beyond a principal's
// position and name.
func ReadPrincipals(path string) (*Principals, error) {
	bad := func(msg string) error { return errcode.New(errcode.InvalidRequest, pkg, "", "--principals: "+msg) }
	if path == "" {
		return nil, bad("a principals file is required")
	}
	data, err := readOwnerFile(path, maxPrincipalsBytes, bad, "the file is larger than "+strconv.Itoa(maxPrincipalsBytes)+" bytes")
	if err != nil {
		return nil, err
	}
	p, err := parsePrincipals(data)
	if err != nil {
		return nil, bad(messageOf(err))
	}
	return p, nil
}

// parsePrincipals checks the content of a principals file:
// {"principals": [{"name", "token_sha256", "profile" or "allow_origins",
// "max_sessions"}...]}. Names and token digests are unique; max_sessions is
// 1 to MaxMaxSessions (1 when absent).
func parsePrincipals(data []byte) (*Principals, error) {
	var doc struct {
		Principals []principalJSON `json:"principals"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "not a principals object (name, token_sha256, profile or allow_origins, max_sessions)")
	}
	if dec.More() {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "more than one JSON value")
	}
	if len(doc.Principals) == 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "no principals")
	}
	if len(doc.Principals) > maxPrincipals {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "more than "+strconv.Itoa(maxPrincipals)+" principals")
	}
	out := &Principals{}
	names := map[string]bool{}
	sums := map[[sha256.Size]byte]bool{}
	for i, e := range doc.Principals {
		at := func(msg string) error {
			return errcode.New(errcode.InvalidRequest, pkg, "", "principal "+strconv.Itoa(i)+": "+msg)
		}
		if profile.CheckName(e.Name) != nil {
			return nil, at("the name must be 1 to 64 characters of a-z, 0-9, '.', '_' and '-', not starting with a dot")
		}
		if names[e.Name] {
			return nil, at("the name " + errcode.Quote(e.Name) + " is given twice")
		}
		names[e.Name] = true
		raw, err := hex.DecodeString(e.TokenSHA256)
		if err != nil || len(raw) != sha256.Size {
			return nil, at("token_sha256 must be 64 hexadecimal digits (sha256sum of the token)")
		}
		p := &principal{Name: e.Name, Profile: e.Profile, AllowOrigins: e.AllowOrigins}
		copy(p.sum[:], raw)
		if sums[p.sum] {
			return nil, at("its token_sha256 is another principal's")
		}
		sums[p.sum] = true
		if e.Profile != "" {
			if len(e.AllowOrigins) != 0 {
				return nil, at("profile and allow_origins exclude each other: a profile's origins are its binding")
			}
			if profile.CheckName(e.Profile) != nil {
				return nil, at("profile is not a valid profile name")
			}
		}
		if p.policy, err = NewPolicy(e.AllowOrigins); err != nil {
			return nil, at("allow_origins: " + messageOf(err))
		}
		p.MaxSessions = 1
		if e.MaxSessions != nil {
			p.MaxSessions = *e.MaxSessions
		}
		if p.MaxSessions < 1 || p.MaxSessions > MaxMaxSessions {
			return nil, at("max_sessions must be 1 to " + strconv.Itoa(MaxMaxSessions))
		}
		out.list = append(out.list, p)
	}
	return out, nil
}

// lookup returns the principal whose token is token, nil when none is. It
// compares the token's SHA-256 with every principal's in constant time
// and looks at all of them whatever matched, so how long it takes tells
// nothing of which principal, if any, the token belongs to.
func (ps *Principals) lookup(token []byte) *principal {
	sum := sha256.Sum256(token)
	var found *principal
	for _, p := range ps.list {
		if subtle.ConstantTimeCompare(sum[:], p.sum[:]) == 1 {
			found = p
		}
	}
	return found
}

// byName returns the principal named name, nil when none is.
func (ps *Principals) byName(name string) *principal {
	for _, p := range ps.list {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// messageOf is a coded error's own message, without its package and code,
// for a message that nests it.
func messageOf(err error) string {
	var e *errcode.Error
	if errors.As(err, &e) {
		return e.Detail()
	}
	return "invalid"
}
