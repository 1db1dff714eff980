package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/taskpages"
)

func main() {
	domsnap := flag.String("domsnap", "", "the domsnap binary (required)")
	playwright := flag.String("playwright", "", "Playwright MCP's cli.js (required)")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the Chromium binary both servers run")
	runs := flag.Int("runs", 3, "how many times each task runs")
	flag.StringVar(&dumpDir, "dump", "", "write every answer of the first run into this folder, to read them")
	flag.StringVar(&dsView, "view", "", "the view domsnap's browser_observe and browser_act calls ask for: full, changes or none (default: the server's)")
	flag.Parse()
	if _, ok := map[string]bool{"": true, "full": true, "changes": true, "none": true}[dsView]; *domsnap == "" || *runs < 1 || !ok {
		fmt.Fprintln(os.Stderr, "usage: actbench -domsnap BIN [-playwright CLI.JS] [-chromium BIN] [-runs N] [-view full|changes|none]")
		os.Exit(2)
	}
	if err := run(*domsnap, *playwright, *chromium, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "actbench:", err)
		os.Exit(1)
	}
}

// dumpDir, when set, receives every answer of the first run.
var dumpDir string

// dsView is the view domsnap's observe and act calls name, "" for none.
var dsView string

// agent is one server, its client session, and what the current task got.
type agent struct {
	name  string
	cs    *sdk.ClientSession
	bytes int
	calls int
	// view is domsnap's page view as the agent holds it: the latest answer
	// with a full view, with every answer of changes since applied to it.
	view page
	// task and run name the answers written to dumpDir.
	task string
	run  int
}

// call calls a tool and returns its answer's text; an error result fails.
func (a *agent) call(ctx context.Context, tool string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	t0 := time.Now()
	res, err := a.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	took := time.Since(t0)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", a.name, tool, err)
	}
	var sb strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			sb.WriteString(t.Text)
		}
	}
	a.bytes += sb.Len()
	a.calls++
	if dumpDir != "" && a.run == 0 {
		fmt.Fprintf(os.Stderr, "%s %s %d %s: %d bytes in %v\n", a.name, a.task, a.calls, tool, sb.Len(), took.Round(time.Millisecond))
		name := fmt.Sprintf("%s-%s-%02d-%s.txt", a.name, a.task, a.calls, tool)
		if err := os.WriteFile(filepath.Join(dumpDir, name), []byte(sb.String()), 0o600); err != nil {
			return "", err
		}
	}
	if res.IsError {
		return "", fmt.Errorf("%s %s: error result: %.300s", a.name, tool, sb.String())
	}
	return sb.String(), nil
}

// task is one scripted task on one server.
type task struct {
	name string
	run  func(ctx context.Context, a *agent, base string) error
}

func run(domsnapBin, playwrightCLI, chromium string, runs int) error {
	web := httptest.NewServer(taskpages.Handler())
	defer web.Close()
	ctx := context.Background()
	profile, err := os.MkdirTemp("", "actbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)

	servers := []struct {
		name  string
		cmd   *exec.Cmd
		tasks []task
	}{
		{"domsnap", exec.Command(domsnapBin, "mcp", "--state-dir", profile+"/state", "--chrome", chromium), domsnapTasks},
		{"playwright", exec.Command("node", playwrightCLI, "--headless", "--isolated", "--no-sandbox", "--executable-path", chromium,
			"--output-dir", profile+"/pw"), playwrightTasks},
	}
	if playwrightCLI == "" {
		servers = servers[:1]
	}
	type row struct {
		server, task string
		bytes, calls int
		times        []time.Duration
	}
	var rows []row
	for _, s := range servers {
		s.cmd.Stderr = os.Stderr
		c := sdk.NewClient(&sdk.Implementation{Name: "actbench", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: s.cmd, TerminateDuration: 10 * time.Second}, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		a := &agent{name: s.name, cs: cs, task: "launch"}
		// Launch the browser before anything is timed.
		if _, err := a.call(ctx, "browser_navigate", map[string]any{"url": web.URL + "/items"}); err != nil {
			cs.Close()
			return err
		}
		for _, t := range s.tasks {
			r := row{server: s.name, task: t.name}
			for i := 0; i < runs; i++ {
				a.bytes, a.calls, a.task, a.run = 0, 0, t.name, i
				t0 := time.Now()
				if err := t.run(ctx, a, web.URL); err != nil {
					cs.Close()
					return fmt.Errorf("%s: %w", t.name, err)
				}
				r.times = append(r.times, time.Since(t0))
				if i > 0 && (a.bytes != r.bytes || a.calls != r.calls) {
					fmt.Fprintf(os.Stderr, "note: %s %s: run %d got %d bytes in %d calls, run 1 %d in %d\n", s.name, t.name, i+1, a.bytes, a.calls, r.bytes, r.calls)
				}
				if i == 0 {
					r.bytes, r.calls = a.bytes, a.calls
				}
			}
			rows = append(rows, r)
		}
		if err := cs.Close(); err != nil {
			return fmt.Errorf("%s: closing: %w", s.name, err)
		}
	}
	fmt.Printf("%-10s %-14s %6s %8s  %s\n", "server", "task", "calls", "bytes", "wall time: median (min-max)")
	for _, r := range rows {
		slices.Sort(r.times)
		fmt.Printf("%-10s %-14s %6d %8d  %.2fs (%.2f-%.2f)\n", r.server, r.task, r.calls, r.bytes,
			r.times[len(r.times)/2].Seconds(), r.times[0].Seconds(), r.times[len(r.times)-1].Seconds())
	}
	return nil
}

// --- domsnap ---

// page is what the domsnap tasks read of an answer.
type page struct {
	Revision string
	Text     string
	Controls []dsControl
	// Changes is the page view told as changes since an earlier answer;
	// dsPage applies them, so a task reads Controls and Text.
	Changes *struct {
		Since           string
		Controls        []dsControl
		ControlsRemoved []int `json:"controls_removed"`
		Text            *string
	}
	Extraction *struct {
		Rows []struct {
			Header bool
			Cells  []struct{ Value any }
		}
	}
}

type dsControl struct {
	Ref, Role, Name string
	In              *struct {
		Kind     string
		Position int
	}
}

func decodePage(text string) (page, error) {
	var p page
	err := json.Unmarshal([]byte(text), &p)
	return p, err
}

// refNumber splits an action reference a<sequence>.<n>.
func refNumber(ref string) (seq, n string) {
	seq, n, _ = strings.Cut(strings.TrimPrefix(ref, "a"), ".")
	return seq, n
}

// applyChanges gives p the page view of held with p's changes applied: the
// controls held keep their numbers under p's sequence, those removed go,
// those changed or added come in; the text is p's when it changed.
func applyChanges(held, p page) (page, error) {
	c := p.Changes
	if c.Since != held.Revision {
		return page{}, fmt.Errorf("changes since %s, the view held is %s", c.Since, held.Revision)
	}
	seq := p.Revision[strings.LastIndex(p.Revision, ".o")+2:]
	gone := map[string]bool{}
	for _, n := range c.ControlsRemoved {
		gone[fmt.Sprint(n)] = true
	}
	changed := map[string]dsControl{}
	for _, x := range c.Controls {
		_, n := refNumber(x.Ref)
		changed[n] = x
	}
	p.Controls = nil
	for _, x := range held.Controls {
		_, n := refNumber(x.Ref)
		if gone[n] {
			continue
		}
		if y, ok := changed[n]; ok {
			x = y
			delete(changed, n)
		}
		x.Ref = "a" + seq + "." + n
		p.Controls = append(p.Controls, x)
	}
	for _, x := range c.Controls {
		if _, n := refNumber(x.Ref); changed[n].Ref != "" {
			p.Controls = append(p.Controls, x)
		}
	}
	p.Text = held.Text
	if c.Text != nil {
		p.Text = *c.Text
	}
	p.Changes = nil
	return p, nil
}

// ref finds a control by role and name.
func (p page) ref(role, name string) (string, error) {
	for _, c := range p.Controls {
		if c.Role == role && c.Name == name {
			return c.Ref, nil
		}
	}
	return "", fmt.Errorf("no %s %q on the page", role, name)
}

// dsPage calls a domsnap tool, with the view asked for on the tools that
// take one, and returns the page view the agent then holds.
func (a *agent) dsPage(ctx context.Context, tool string, args map[string]any) (page, error) {
	if dsView != "" && (tool == "browser_act" || tool == "browser_observe") {
		args["view"] = dsView
	}
	text, err := a.call(ctx, tool, args)
	if err != nil {
		return page{}, err
	}
	p, err := decodePage(text)
	if err != nil {
		return page{}, err
	}
	switch {
	case p.Changes != nil:
		if p, err = applyChanges(a.view, p); err != nil {
			return page{}, err
		}
	case p.Controls == nil:
		// No view: the one held stays, its numbers under the new
		// revision's sequence (an element keeps its number).
		held := a.view
		held.Revision, held.Extraction, held.Controls = p.Revision, p.Extraction, nil
		seq := p.Revision[strings.LastIndex(p.Revision, ".o")+2:]
		for _, x := range a.view.Controls {
			_, n := refNumber(x.Ref)
			x.Ref = "a" + seq + "." + n
			held.Controls = append(held.Controls, x)
		}
		a.view = held
		return held, nil
	}
	a.view = p
	return p, nil
}

// dsAct acts on the control of that role and name of p.
func (a *agent) dsAct(ctx context.Context, p page, action, role, name string, more map[string]any) (page, error) {
	args := map[string]any{"expected_revision": p.Revision, "action": action}
	if role != "" {
		ref, err := p.ref(role, name)
		if err != nil {
			return page{}, err
		}
		args["ref"] = ref
	}
	for k, v := range more {
		args[k] = v
	}
	return a.dsPage(ctx, "browser_act", args)
}

// dsRows extracts the item table's rows under p's revision; the answer is
// the latest observation, whose controls the next action names.
func (a *agent) dsRows(ctx context.Context, p page) (page, int, error) {
	var fields []any
	for i, n := range []string{"name", "color", "price", "in_stock"} {
		typ := "string"
		if n == "price" {
			typ = "number"
		}
		fields = append(fields, map[string]any{"name": n, "column": i, "type": typ})
	}
	got, err := a.dsPage(ctx, "browser_observe", map[string]any{"extract": map[string]any{
		"expected_revision": p.Revision, "kind": "table", "index": 0, "row_limit": 20, "fields": fields}})
	if err != nil {
		return page{}, 0, err
	}
	if got.Extraction == nil {
		return page{}, 0, errors.New("no extraction")
	}
	n := 0
	for _, r := range got.Extraction.Rows {
		if !r.Header {
			n++
		}
	}
	return got, n, nil
}

// dsPages opens url and reads its rows over 3 pages from the page views'
// text, following the Next control of role next: want rows in all, or
// with want -1 as many as the page says it lists.
func (a *agent) dsPages(ctx context.Context, url, next string, want int) error {
	p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": url})
	if err != nil {
		return err
	}
	seen := strings.Count(p.Text, "Widget ")
	for i := 0; i < 2; i++ {
		if p, err = a.dsAct(ctx, p, "click", next, "Next", nil); err != nil {
			return err
		}
		seen += strings.Count(p.Text, "Widget ")
	}
	if want < 0 {
		want = listed(p.Text)
	}
	if seen != want {
		return fmt.Errorf("saw %d rows of %d", seen, want)
	}
	return nil
}

var domsnapTasks = []task{
	// The rows are read from the page view's text, as Playwright's are read
	// from its snapshot.
	{"paginate", func(ctx context.Context, a *agent, base string) error {
		return a.dsPages(ctx, base+"/items", "link", taskpages.Items)
	}},
	// The rows are read as typed rows, four columns each, with
	// browser_observe's extract on every page.
	{"paginate-typed", func(ctx context.Context, a *agent, base string) error {
		p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": base + "/items"})
		if err != nil {
			return err
		}
		total := 0
		for i := 0; ; i++ {
			got, n, err := a.dsRows(ctx, p)
			if err != nil {
				return err
			}
			total += n
			if i == 2 {
				break
			}
			if p, err = a.dsAct(ctx, got, "click", "link", "Next", nil); err != nil {
				return err
			}
		}
		if total != taskpages.Items {
			return fmt.Errorf("read %d rows", total)
		}
		return nil
	}},
	{"search", func(ctx context.Context, a *agent, base string) error {
		p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": base + "/search"})
		if err != nil {
			return err
		}
		if p, err = a.dsAct(ctx, p, "type", "searchbox", "Search items", map[string]any{"text": "widget 4"}); err != nil {
			return err
		}
		_, err = a.dsAct(ctx, p, "press", "searchbox", "Search items", map[string]any{"key": "Enter"})
		return err
	}},
	{"filter", func(ctx context.Context, a *agent, base string) error {
		p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": base + "/filter"})
		if err != nil {
			return err
		}
		if p, err = a.dsAct(ctx, p, "select", "combobox", "Color", map[string]any{"option": "Blue"}); err != nil {
			return err
		}
		if p, err = a.dsAct(ctx, p, "check", "checkbox", "In stock only", nil); err != nil {
			return err
		}
		_, err = a.dsAct(ctx, p, "click", "button", "Apply", nil)
		return err
	}},
	{"catalog", func(ctx context.Context, a *agent, base string) error {
		return a.dsPages(ctx, base+"/catalog", "button", taskpages.Items)
	}},
	{"admin-pages", func(ctx context.Context, a *agent, base string) error {
		// The checkbox's label is not text; the link is. The back office
		// lists fewer items once a delete task ran, as its text says.
		return a.dsPages(ctx, base+"/admin/items", "link", -1)
	}},
	{"admin-add", func(ctx context.Context, a *agent, base string) error {
		p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": base + "/admin/items/add"})
		if err != nil {
			return err
		}
		for _, step := range []struct {
			action, role, name string
			more               map[string]any
		}{
			{"type", "textbox", "Name", map[string]any{"text": "Widget 46"}},
			{"select", "combobox", "Color", map[string]any{"option": "Blue"}},
			{"type", "textbox", "Price", map[string]any{"text": "12.50"}},
			{"select", "combobox", "Supplier", map[string]any{"option": "Globex"}},
			{"check", "checkbox", "In stock", nil},
			{"type", "textbox", "Description", map[string]any{"text": "A blue widget."}},
			{"click", "button", "Save", nil},
		} {
			if p, err = a.dsAct(ctx, p, step.action, step.role, step.name, step.more); err != nil {
				return err
			}
		}
		if !strings.Contains(p.Text, "The item was added.") {
			return errors.New("no word that the item was added")
		}
		return nil
	}},
	{"admin-delete", func(ctx context.Context, a *agent, base string) error {
		p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": base + "/admin/items"})
		if err != nil {
			return err
		}
		// The first two items still listed: every run deletes two.
		var picks []string
		for _, c := range p.Controls {
			if c.Role == "checkbox" && strings.HasPrefix(c.Name, "Select Widget ") && len(picks) < 2 {
				picks = append(picks, c.Name)
			}
		}
		if len(picks) < 2 {
			return errors.New("fewer than two items left")
		}
		for _, name := range picks {
			if p, err = a.dsAct(ctx, p, "check", "checkbox", name, nil); err != nil {
				return err
			}
		}
		if p, err = a.dsAct(ctx, p, "select", "combobox", "Action", map[string]any{"option": "Delete selected items"}); err != nil {
			return err
		}
		if p, err = a.dsAct(ctx, p, "click", "button", "Go", nil); err != nil {
			return err
		}
		if p, err = a.dsAct(ctx, p, "click", "button", "Yes, I'm sure", nil); err != nil {
			return err
		}
		if !strings.Contains(p.Text, "The items were deleted.") {
			return errors.New("no word that the items were deleted")
		}
		return nil
	}},
	{"details", func(ctx context.Context, a *agent, base string) error {
		p, err := a.dsPage(ctx, "browser_navigate", map[string]any{"url": base + "/items"})
		if err != nil {
			return err
		}
		ref := ""
		for _, c := range p.Controls {
			if c.Name == "Details" && c.In != nil && c.In.Kind == "table" && c.In.Position == 4 {
				ref = c.Ref
			}
		}
		if ref == "" {
			return errors.New("no Details link in row 4")
		}
		_, err = a.dsPage(ctx, "browser_act", map[string]any{"expected_revision": p.Revision, "action": "click", "ref": ref})
		return err
	}},
}

// --- Playwright MCP ---

// pwStep makes one call and then takes a snapshot, and returns the
// snapshot's text.
func (a *agent) pwStep(ctx context.Context, tool string, args map[string]any) (string, error) {
	if _, err := a.call(ctx, tool, args); err != nil {
		return "", err
	}
	return a.call(ctx, "browser_snapshot", map[string]any{})
}

var itemCount = regexp.MustCompile(`(\d+) items`)

// listed is how many items the back office says it lists.
func listed(text string) int {
	n := 0
	if m := itemCount.FindStringSubmatch(text); m != nil {
		fmt.Sscan(m[1], &n)
	}
	return n
}

var refLine = regexp.MustCompile(`- (\w+) "([^"]*)"[^\n]*\[ref=(\w+)\]`)

// pwRef finds the ref of the element of that role and name in a snapshot,
// the first after the line holding after when after is not empty.
func pwRef(snap, role, name, after string) (string, error) {
	if after != "" {
		i := strings.Index(snap, after)
		if i < 0 {
			return "", fmt.Errorf("%q is not in the snapshot", after)
		}
		snap = snap[i:]
	}
	for _, m := range refLine.FindAllStringSubmatch(snap, -1) {
		if m[1] == role && m[2] == name {
			return m[3], nil
		}
	}
	return "", fmt.Errorf("no %s %q in the snapshot", role, name)
}

func (a *agent) pwClick(ctx context.Context, snap, role, name, after string) (string, error) {
	ref, err := pwRef(snap, role, name, after)
	if err != nil {
		return "", err
	}
	return a.pwStep(ctx, "browser_click", map[string]any{"element": role + " " + name, "target": ref})
}

// pwPages opens url and reads its rows over 3 pages from the snapshots,
// counting the lines that start with row, following the Next element of
// role next: want rows in all, or with want -1 as many as the page says
// it lists.
func (a *agent) pwPages(ctx context.Context, url, next, row string, want int) error {
	snap, err := a.pwStep(ctx, "browser_navigate", map[string]any{"url": url})
	if err != nil {
		return err
	}
	seen := strings.Count(snap, row)
	for i := 0; i < 2; i++ {
		if snap, err = a.pwClick(ctx, snap, next, "Next", ""); err != nil {
			return err
		}
		seen += strings.Count(snap, row)
	}
	if want < 0 {
		want = listed(snap)
	}
	if seen != want {
		return fmt.Errorf("saw %d rows of %d", seen, want)
	}
	return nil
}

var playwrightTasks = []task{
	{"paginate", func(ctx context.Context, a *agent, base string) error {
		return a.pwPages(ctx, base+"/items", "link", `- cell "Widget `, taskpages.Items)
	}},
	{"search", func(ctx context.Context, a *agent, base string) error {
		snap, err := a.pwStep(ctx, "browser_navigate", map[string]any{"url": base + "/search"})
		if err != nil {
			return err
		}
		ref, err := pwRef(snap, "searchbox", "Search items", "")
		if err != nil {
			return err
		}
		if _, err = a.pwStep(ctx, "browser_type", map[string]any{"element": "Search items", "target": ref, "text": "widget 4"}); err != nil {
			return err
		}
		_, err = a.pwStep(ctx, "browser_press_key", map[string]any{"key": "Enter"})
		return err
	}},
	{"filter", func(ctx context.Context, a *agent, base string) error {
		snap, err := a.pwStep(ctx, "browser_navigate", map[string]any{"url": base + "/filter"})
		if err != nil {
			return err
		}
		ref, err := pwRef(snap, "combobox", "Color", "")
		if err != nil {
			return err
		}
		if snap, err = a.pwStep(ctx, "browser_select_option", map[string]any{"element": "Color", "target": ref, "values": []string{"Blue"}}); err != nil {
			return err
		}
		if snap, err = a.pwClick(ctx, snap, "checkbox", "In stock only", ""); err != nil {
			return err
		}
		_, err = a.pwClick(ctx, snap, "button", "Apply", "")
		return err
	}},
	{"catalog", func(ctx context.Context, a *agent, base string) error {
		return a.pwPages(ctx, base+"/catalog", "button", `- cell "Widget `, taskpages.Items)
	}},
	{"admin-pages", func(ctx context.Context, a *agent, base string) error {
		return a.pwPages(ctx, base+"/admin/items", "link", `- link "Widget `, -1)
	}},
	{"admin-add", func(ctx context.Context, a *agent, base string) error {
		snap, err := a.pwStep(ctx, "browser_navigate", map[string]any{"url": base + "/admin/items/add"})
		if err != nil {
			return err
		}
		for _, step := range []struct{ tool, role, name, arg string }{
			{"browser_type", "textbox", "Name", "Widget 46"},
			{"browser_select_option", "combobox", "Color", "Blue"},
			{"browser_type", "textbox", "Price", "12.50"},
			{"browser_select_option", "combobox", "Supplier", "Globex"},
			{"browser_click", "checkbox", "In stock", ""},
			{"browser_type", "textbox", "Description", "A blue widget."},
			{"browser_click", "button", "Save", ""},
		} {
			ref, err := pwRef(snap, step.role, step.name, "")
			if err != nil {
				return err
			}
			args := map[string]any{"element": step.role + " " + step.name, "target": ref}
			switch step.tool {
			case "browser_type":
				args["text"] = step.arg
			case "browser_select_option":
				args["values"] = []string{step.arg}
			}
			if snap, err = a.pwStep(ctx, step.tool, args); err != nil {
				return err
			}
		}
		if !strings.Contains(snap, "The item was added.") {
			return errors.New("no word that the item was added")
		}
		return nil
	}},
	{"admin-delete", func(ctx context.Context, a *agent, base string) error {
		snap, err := a.pwStep(ctx, "browser_navigate", map[string]any{"url": base + "/admin/items"})
		if err != nil {
			return err
		}
		var picks []string
		for _, m := range refLine.FindAllStringSubmatch(snap, -1) {
			if m[1] == "checkbox" && strings.HasPrefix(m[2], "Select Widget ") && len(picks) < 2 {
				picks = append(picks, m[2])
			}
		}
		if len(picks) < 2 {
			return errors.New("fewer than two items left")
		}
		for _, name := range picks {
			if snap, err = a.pwClick(ctx, snap, "checkbox", name, ""); err != nil {
				return err
			}
		}
		ref, err := pwRef(snap, "combobox", "Action", "")
		if err != nil {
			return err
		}
		if snap, err = a.pwStep(ctx, "browser_select_option", map[string]any{"element": "Action", "target": ref, "values": []string{"Delete selected items"}}); err != nil {
			return err
		}
		if snap, err = a.pwClick(ctx, snap, "button", "Go", ""); err != nil {
			return err
		}
		if snap, err = a.pwClick(ctx, snap, "button", "Yes, I'm sure", ""); err != nil {
			return err
		}
		if !strings.Contains(snap, "The items were deleted.") {
			return errors.New("no word that the items were deleted")
		}
		return nil
	}},
	{"details", func(ctx context.Context, a *agent, base string) error {
		snap, err := a.pwStep(ctx, "browser_navigate", map[string]any{"url": base + "/items"})
		if err != nil {
			return err
		}
		_, err = a.pwClick(ctx, snap, "link", "Details", `- cell "Widget 4"`)
		return err
	}},
}
