package parity

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/domsnap/domsnap/errcode"
)

// Request values of a Divergence that name no single request.
const (
	// AllRequests lists every request of a fixture, and its inventory.
	AllRequests = -1
	// InventoryRequest is the observation without a request.
	InventoryRequest = -2
)

// Divergence is one row of the divergence table (docs/divergences.md): an
// offline/live difference that is known, with its cause.
type Divergence struct {
	// Fixture is the page's file name without .html.
	Fixture string
	// Request is a request's position among the page's valid requests,
	// counted from 0, or AllRequests or InventoryRequest.
	Request int
	Cause   string
}

// Covers reports whether the row lists request req of fixture: req is a
// Result's Request, -1 for the inventory.
func (d Divergence) Covers(fixture string, req int) bool {
	if d.Fixture != fixture {
		return false
	}
	if req < 0 {
		req = InventoryRequest
	}
	return d.Request == AllRequests || d.Request == req
}

// RequestName is the request column as the table writes it.
func (d Divergence) RequestName() string {
	switch d.Request {
	case AllRequests:
		return "all"
	case InventoryRequest:
		return "inventory"
	}
	return strconv.Itoa(d.Request)
}

// maxTableLine bounds one line of a divergence table; a longer line is no
// table a person wrote.
const maxTableLine = 64 << 10

// ReadDivergences reads the rows of a divergence table: Markdown table rows
// of the form | `fixture` | request | cause |, where request is a number,
// "inventory" or "all". Other lines (prose, the header, other tables without
// a code-quoted first cell) are skipped. A row of the wrong shape is an
// unsupported_input error naming its line.
func ReadDivergences(r io.Reader) ([]Divergence, error) {
	var rows []Divergence
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxTableLine)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") || !strings.HasPrefix(strings.TrimSpace(line[1:]), "`") {
			continue
		}
		bad := func(why string) error {
			return errcode.New(errcode.UnsupportedInput, "live", "", "divergence table line "+strconv.Itoa(n)+": "+why)
		}
		cols := strings.Split(strings.Trim(line, "|"), "|")
		if len(cols) < 3 {
			return nil, bad("want | `fixture` | request | cause |")
		}
		d := Divergence{Fixture: strings.Trim(strings.TrimSpace(cols[0]), "`"), Cause: strings.TrimSpace(strings.Join(cols[2:], "|"))}
		switch req := strings.TrimSpace(cols[1]); req {
		case "all":
			d.Request = AllRequests
		case "inventory":
			d.Request = InventoryRequest
		default:
			v, err := strconv.Atoi(req)
			if err != nil || v < 0 {
				return nil, bad("request " + errcode.Quote(req) + " is not a number, inventory or all")
			}
			d.Request = v
		}
		if d.Fixture == "" || d.Cause == "" {
			return nil, bad("a row needs a fixture and a cause")
		}
		rows = append(rows, d)
	}
	if err := sc.Err(); err != nil {
		return nil, errcode.Wrap(errcode.UnsupportedInput, "live", "", "divergence table", err)
	}
	return rows, nil
}
