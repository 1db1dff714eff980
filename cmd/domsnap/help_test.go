package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/mcp"
	"github.com/domsnap/domsnap/profile"
	"github.com/domsnap/domsnap/snapshot"
)

// TestCommandHelp: "domsnap help CMD" and "domsnap CMD -h" print the same
// help on standard output, with the usage line, the flags and at least two
// examples, and exit 0.
func TestCommandHelp(t *testing.T) {
	if len(commands) < 5 {
		t.Fatalf("command table has %d entries", len(commands))
	}
	for _, cmd := range commands {
		t.Run(cmd.name, func(t *testing.T) {
			viaHelp := runCmd(t, "", "help", cmd.name)
			for _, r := range []result{viaHelp, runCmd(t, "", cmd.name, "-h"), runCmd(t, "", cmd.name, "--help")} {
				if r.code != exitOK || r.stderr != "" {
					t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
				}
				if r.stdout != viaHelp.stdout {
					t.Errorf("help differs:\n%s\n---\n%s", r.stdout, viaHelp.stdout)
				}
			}
			out := viaHelp.stdout
			if !strings.HasPrefix(out, "usage: domsnap "+cmd.name) {
				t.Errorf("help does not start with the usage line:\n%s", out)
			}
			_, ex, ok := strings.Cut(out, "\nexamples:\n")
			if !ok || strings.Count(ex, "  domsnap "+cmd.name) < 2 {
				t.Errorf("help has fewer than two examples:\n%s", out)
			}
			if !strings.Contains(out, "\nflags:\n") {
				t.Errorf("help lists no flags:\n%s", out)
			}
		})
	}
}

func TestExtractHelpExplainsColumnsAndTypes(t *testing.T) {
	r := runCmd(t, "", "help", "extract")
	for _, want := range []string{"string", "integer", "number", "boolean", "column k is the k-th visible cell",
		"column 0 is the item's text", "0 label, 1 role, 2 disabled, 3 checked, 4 required",
		"-field", "-max-width", "-computed-styles", "-format", "docs/reference.md"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("extract help lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestOverview(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "help"}} {
		r := runCmd(t, "", args...)
		if r.code != exitOK || r.stderr != "" || !strings.HasPrefix(r.stdout, "usage: domsnap COMMAND") {
			t.Errorf("%v: exit %d %q %q", args, r.code, r.stdout, r.stderr)
		}
		for _, cmd := range commands {
			if !strings.Contains(r.stdout, "\n  "+cmd.name+" ") {
				t.Errorf("%v: overview does not list %s", args, cmd.name)
			}
		}
	}
	// With no arguments at all the overview is a usage error.
	if r := runCmd(t, ""); r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, "usage: domsnap COMMAND") {
		t.Errorf("no arguments: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestMistakesGetSuggestions: a mistyped command or flag is answered with
// the closest known name, on standard error, with exit 2; a word close to
// nothing gets no guess.
func TestMistakesGetSuggestions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // the first line of stderr
	}{
		{[]string{"extrct", "page.html"}, `usage: unknown command "extrct"; did you mean extract?`},
		{[]string{"inventroy"}, `usage: unknown command "inventroy"; did you mean inventory?`},
		{[]string{"verison"}, `usage: unknown command "verison"; did you mean version?`},
		{[]string{"frobnicate"}, `usage: unknown command "frobnicate"`},
		{[]string{"help", "captur"}, `usage: unknown command "captur"; did you mean capture?`},
		{[]string{"extract", "--kin", "table", example}, `usage: unknown flag "-kin"; did you mean --kind?`},
		{[]string{"extract", example, "--formt", "table"}, `usage: unknown flag "-formt"; did you mean --format?`},
		{[]string{"extract", "--selector", "x", example}, `usage: unknown flag "-selector"`},
		{[]string{"inventory", "--charst", "utf-8", example}, `usage: unknown flag "-charst"; did you mean --charset?`},
		{[]string{"capture", "--chrom", "x", "http://127.0.0.1:1/", "-o", "x"}, `usage: unknown flag "-chrom"; did you mean --chrome?`},
		{[]string{"parity", "--know", "x", "a.html"}, `usage: unknown flag "-know"; did you mean --known?`},
		{[]string{"version", "--browsr"}, `usage: unknown flag "-browsr"; did you mean --browser?`},
		{[]string{"extract", "--format", "tabel", "--kind", "table", "--field", "a:0:string", example}, `usage: --format must be json, table or csv, got "tabel"; did you mean table?`},
	} {
		r := runCmd(t, "", c.args...)
		first, rest, _ := strings.Cut(r.stderr, "\n")
		if r.code != exitUsage || first != c.want || r.stdout != "" {
			t.Errorf("%v: exit %d, stderr first line %q, want %q", c.args, r.code, first, c.want)
		}
		// After the problem, the command's usage line and where its help is
		// (or, for an unknown command, the list of commands).
		if !strings.Contains(rest, "domsnap help") {
			t.Errorf("%v: no pointer to the help: %q", c.args, rest)
		}
	}
}

// TestURLWithoutLive: a URL given as INPUT is refused before anything is
// read, with a hint that fits the command.
func TestURLWithoutLive(t *testing.T) {
	for _, c := range []struct {
		args []string
		hint string
	}{
		{[]string{"extract", "--kind", "table", "--field", "a:0:string", "https://example.test/prices"}, "add --live"},
		{[]string{"extract", "HTTP://example.test/", "--kind", "table", "--field", "a:0:string"}, "add --live"},
		{[]string{"inventory", "http://example.test/"}, "add --live"},
		{[]string{"parity", "https://example.test/a.html"}, "local HTML files"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "is a URL, not a file") || !strings.Contains(r.stderr, c.hint) {
			t.Errorf("%v: exit %d, stderr %q", c.args, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "no such file") {
			t.Errorf("%v: the URL was opened as a file: %q", c.args, r.stderr)
		}
	}
	// A plain file name with a colon is not a URL.
	if r := runCmd(t, "", "extract", "--kind", "table", "--field", "a:0:string", "c:missing.html"); r.code != exitFailure || strings.Contains(r.stderr, "URL") {
		t.Errorf("c:missing.html: exit %d, %q", r.code, r.stderr)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"kind", "kind", 0}, {"kin", "kind", 1}, {"kidn", "kind", 2},
		{"extrct", "extract", 1}, {"", "rows", 4}, {"format", "", 6}, {"flaw", "lawn", 2},
		{strings.Repeat("a", 65), "a", 64},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestSuggestionThreshold: a guess needs at most two edits, and fewer
// edits than half the word's length: cases under, at and over both.
func TestSuggestionThreshold(t *testing.T) {
	known := []string{"kind", "index", "rows", "chrome"}
	for _, c := range []struct {
		got, want string
	}{
		{"rows", "rows"},     // 0 edits
		{"row", "rows"},      // 1 edit in 3 letters
		{"ro", ""},           // 2 edits in 2 letters
		{"chrm", ""},         // 2 edits in 4 letters: exactly half, refused
		{"chrme", "chrome"},  // 1 edit
		{"cxrxme", "chrome"}, // 2 edits in 6 letters
		{"indxe", "index"},   // 2 edits in 5 letters
		{"cxrxmx", ""},       // 3 edits
		{"zzzzzz", ""},
	} {
		want := ""
		if c.want != "" {
			want = "; did you mean --" + c.want + "?"
		}
		if got := suggestion(c.got, known, "--"); got != want {
			t.Errorf("suggestion(%q) = %q, want %q", c.got, got, want)
		}
	}
}

// TestHelpNumbersNameTheirLimits reads every command's help and ties each
// number in it to the constant it states: every claim below must be in the
// help, spelled from its constant, and once the claims, the examples and
// the flags' own "(default ...)" are taken out no digit may be left. A
// bound changed in package limits (or mcp, live, snapshot) without the
// help, or a number written into the help that no claim ties to a
// constant, fails here.
func TestHelpNumbersNameTheirLimits(t *testing.T) {
	var help strings.Builder
	for _, args := range append([][]string{{"help"}}, commandHelpArgs()...) {
		r := runCmd(t, "", args...)
		if r.code != exitOK {
			t.Fatalf("%v: exit %d %q", args, r.code, r.stderr)
		}
		text, _, _ := strings.Cut(r.stdout, "\nexamples:\n")
		help.WriteString(text + "\n")
	}
	text := regexp.MustCompile(`\(default [^)]*\)`).ReplaceAllString(help.String(), "")

	itoa := strconv.Itoa
	formColumns := "0 label, 1 role, 2 disabled, 3 checked, 4 required"
	claims := []struct {
		phrase string
		// holds is false when a number written out by hand no longer
		// equals the constant it names.
		holds bool
	}{
		{"up to " + itoa(limits.MaxFields) + " fields", true},
		{"column " + itoa(limits.MaxListColumn) + " is the item's text (the only column)", limits.MaxListColumn == 0},
		{formColumns, strings.Count(formColumns, ",")+1 == limits.MaxFormColumn+1 &&
			strings.HasPrefix(formColumns, "0 ") && strings.Contains(formColumns, ", "+itoa(limits.MaxFormColumn)+" ")},
		{"plus or minus 2^53-1", 1<<53-1 == limits.MaxSafeInteger},
		{"collection, 0 to " + itoa(limits.MaxCollectionIndex), true},
		{"rows returned, " + itoa(limits.MinRowLimit) + " to " + itoa(limits.MaxRowLimit), true},
		{"analysed at once, 1 to " + itoa(limits.MaxJobs), true},
		{"before the snapshot, at most " + live.MaxSettle.String(), true},
		{"(at most " + limits.MaxLiveTimeout.String() + ")", true},
		{"no request in flight for " + live.NetworkIdleQuiet.String(), true},
		{"load but at most " + live.LoadGrace.String() + " after dom_ready", true},
		{"HTTP status of " + itoa(minErrorStatus) + " or more", true},
		{"(1 to " + itoa(mcp.MaxMaxSessions) + ")", true},
		{"(" + mcp.IdleTimeoutRange() + ")", true},
		{"finish for up to " + mcp.DrainTimeout.String(), true},
		{"exits with status " + itoa(exitUsage), true},
		{"window may stay open (at most " + maxLoginTimeout.String() + ")", true},
		{"NAME is 1 to " + itoa(profile.MaxNameBytes), true},
		{"a-z, 0-9,", true},
		{snapshot.FormatName + " envelope", true},
		{"Exit status: " + itoa(exitOK) + " a result was printed", true},
		{itoa(exitUsage) + " usage or invalid_request", true},
		{itoa(exitRevision) + " expected revision refused, " + itoa(exitFailure) + " anything else", true},
		{"exit status is then " + itoa(exitFailure) + " when any input failed", true},
		{"The exit status is " + itoa(exitFailure), true},
		// Not bounds: indices count from zero, 0 is the width that means no
		// cutting, an integer's grammar, and the file mode the token file
		// must have (owner only).
		{"from 0", true},
		{"(0: never cut)", true},
		{"-?(0|[1-9][0-9]*)", true},
		{"(mode 600; required; SIGHUP reads it again)", true},
		{"(mode 600; SIGHUP reads it again)", true},
	}
	for _, c := range claims {
		if !c.holds {
			t.Errorf("the help says %q, which its constant no longer allows", c.phrase)
		}
		if !strings.Contains(text, c.phrase) {
			t.Errorf("the help does not say %q", c.phrase)
		}
		text = strings.ReplaceAll(text, c.phrase, "")
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.ContainsAny(line, "0123456789") {
			t.Errorf("a number in the help that no claim ties to its constant: %q", line)
		}
	}
}

// commandHelpArgs asks for every command's help.
func commandHelpArgs() [][]string {
	var out [][]string
	for _, cmd := range commands {
		out = append(out, []string{"help", cmd.name})
	}
	return out
}
