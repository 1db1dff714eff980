package profile

import (
	"net/url"
	"strings"

	"github.com/domsnap/domsnap/errcode"
)

// OriginOf is u's origin in canonical form (lower-case scheme and host, an
// IPv6 host in brackets, the default port left out), false for a URL that
// is not http or https with a host. Two URLs are same-origin exactly when
// their OriginOf agree.
func OriginOf(u *url.URL) (string, bool) {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Hostname() == "" {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := u.Port()
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// ParseOrigin reads an origin as a person writes one, scheme://host[:port]
// with scheme http or https and nothing after the authority (a trailing
// slash is allowed), and returns it in canonical form.
func ParseOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" || u.ForceQuery {
		return "", errcode.New(errcode.InvalidRequest, pkg, "", "an origin must be scheme://host[:port], got "+errcode.Quote(raw))
	}
	o, ok := OriginOf(u)
	if !ok {
		return "", errcode.New(errcode.InvalidRequest, pkg, "", "an origin must be http or https with a host, got "+errcode.Quote(raw))
	}
	return o, nil
}

// URLOrigin is the origin of a page URL (any path, query or fragment), as
// the login binds it: an http or https URL with a host, and no user name
// or password in it.
func URLOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Opaque != "" {
		return "", errcode.New(errcode.InvalidRequest, pkg, "", "the URL must be an http or https URL without user information")
	}
	o, ok := OriginOf(u)
	if !ok {
		return "", errcode.New(errcode.InvalidRequest, pkg, "", "the URL must be an http or https URL with a host")
	}
	return o, nil
}
