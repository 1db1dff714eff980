package front

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/domsnap/domsnap/profile"
)

// ownOrigins are the origins a request may name in its Origin header: the
// listening address's, and for a loopback one each loopback name of it.
func ownOrigins(addr net.Addr) map[string]bool {
	own := map[string]bool{}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return own
	}
	hosts := []string{host}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		hosts = []string{"127.0.0.1", "localhost", "::1"}
	}
	for _, h := range hosts {
		if o, ok := profile.OriginOf(&url.URL{Scheme: "http", Host: net.JoinHostPort(h, port)}); ok {
			own[o] = true
		}
	}
	return own
}

func (f *Front[P]) ownOrigin(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return false
	}
	o, ok := profile.OriginOf(u)
	return ok && f.own[o]
}

// foreignHost reports whether a request reached a loopback listener under
// a Host that is not loopback: a page's script whose name was rebound to
// 127.0.0.1 (DNS rebinding) sends its own name as Host. It refuses at least
// what the SDK's handler refuses (a host it reads as loopback and this
// does not, such as one with an IPv6 zone, is refused here).
func foreignHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !loopbackHostPort(local.String()) {
		return false
	}
	return !loopbackHostPort(r.Host)
}

// loopbackHostPort is LoopbackHost of a host:port, or of a bare host.
func loopbackHostPort(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	return LoopbackHost(host)
}

// LoopbackHost reports whether host names the loopback interface:
// localhost, or an address in 127.0.0.0/8 or ::1. The address check of
// the configuration and the Host check of each request share it.
func LoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
