package mcp

import (
	"net/url"
	"strings"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/profile"
)

const pkg = "mcp"

// Policy says where the main frame may go: http and https URLs only, and
// with allowed origins only those. The page's subresources are not its
// business.
type Policy struct {
	origins map[string]bool // empty: every http or https origin
}

// NewPolicy reads allowed origins, each scheme://host[:port] with scheme
// http or https and nothing after the authority.
func NewPolicy(origins []string) (*Policy, error) {
	p := &Policy{origins: map[string]bool{}}
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" {
			return nil, errcode.New(errcode.InvalidRequest, pkg, "", "an allowed origin must be scheme://host[:port], got "+errcode.Quote(o))
		}
		origin, ok := originOf(u)
		if !ok {
			return nil, errcode.New(errcode.InvalidRequest, pkg, "", "an allowed origin must be http or https with a host, got "+errcode.Quote(o))
		}
		p.origins[origin] = true
	}
	return p, nil
}

// originOf is the URL's origin in canonical form, false for a URL that is
// not http or https with a host (profile.OriginOf: one rule for what an
// origin is, for policies and profiles alike).
func originOf(u *url.URL) (string, bool) { return profile.OriginOf(u) }

// Allow reports whether the main frame may load raw.
func (p *Policy) Allow(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	origin, ok := originOf(u)
	if !ok {
		return false
	}
	return len(p.origins) == 0 || p.origins[origin]
}

// check is Allow as an error: navigation_refused, with no URL in the
// message.
func (p *Policy) check(raw string) error {
	if p.Allow(raw) {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
		return errcode.New(errcode.NavigationRefused, pkg, "", "only http and https URLs may be opened")
	}
	if u.Hostname() == "" {
		return errcode.New(errcode.NavigationRefused, pkg, "", "the URL has no host")
	}
	return errcode.New(errcode.NavigationRefused, pkg, "", "the URL's origin is not one the server allows")
}
