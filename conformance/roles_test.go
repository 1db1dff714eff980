//go:build conformance

package conformance

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
)

type roleCase struct {
	Source       string  `json:"source"`
	Testname     string  `json:"testname"`
	Target       string  `json:"target"`
	TargetIndex  int     `json:"target_index"`
	Tag          string  `json:"tag"`
	ExpectedRole *string `json:"expected_role"`
	ExpectedName *string `json:"expected_name"`
	Page         string  `json:"page"`
}

// nameCase is one line of wpt-accname/name-cases.jsonl, read by the role
// suite (chromium156_role) and the label-name suite.
type nameCase struct {
	Source          string   `json:"source"`
	Testname        string   `json:"testname"`
	Target          string   `json:"target"`
	TargetIndex     int      `json:"target_index"`
	ExpectedName    string   `json:"expected_name"`
	Features        []string `json:"features"`
	Chromium156Name string   `json:"chromium156_name"`
	Chromium156Role string   `json:"chromium156_role"`
	Page            string   `json:"page"`
}

func TestRoles(t *testing.T) {
	dir := filepath.Join(suiteDir(t), "wpt-accname")
	cases := readJSONL[roleCase](t, filepath.Join(dir, "role-cases.jsonl"))
	cache := map[string]*domtree.Tree{}
	var total, agree, nameOnly int
	var unexplained []string
	seen := map[string]bool{}
	for _, c := range cases {
		if c.ExpectedRole == nil && c.Target != ".ex-generic" {
			if c.ExpectedName == nil {
				t.Fatalf("%s: case %q has neither a role nor a name", c.Page, c.Testname)
			}
			nameOnly++ // a name case: the name suite measures it
			continue
		}
		n := rolesTarget(t, cache, dir, c.Page, c.Target, c.TargetIndex)
		if got := n.AttrValue("data-testname"); got != c.Testname {
			t.Fatalf("%s %s[%d]: found %q, want the case %q", c.Page, c.Target, c.TargetIndex, got, c.Testname)
		}
		total++
		want := "generic"
		if c.Target != ".ex-generic" {
			if c.ExpectedRole == nil {
				t.Fatalf("%s: case %q has no expected_role", c.Page, c.Testname)
			}
			want = *c.ExpectedRole
		}
		got := aria.Role(n)
		ok := rolesAgree(want, c.Target == ".ex-generic", got)
		key := "wpt:" + c.Testname
		reason, listed := roleDivergences[key]
		seen[key] = true
		switch {
		case ok && listed:
			t.Errorf("%s now agrees (role %q): remove it from the divergence table (%s)", key, got, reason)
		case ok:
			agree++
		case !listed:
			unexplained = append(unexplained, key+": want "+want+", got "+quoteRole(got))
		}
	}
	if total+nameOnly != len(cases) {
		t.Fatalf("counted %d role and %d name cases of %d", total, nameOnly, len(cases))
	}
	if total == 0 {
		t.Fatal("no role case was run")
	}
	t.Logf("wpt expected_role: %d of %d role cases agree (%d listed divergences); %d name-only lines left to the name suite",
		agree, total, total-agree, nameOnly)

	names := readJSONL[nameCase](t, filepath.Join(dir, "name-cases.jsonl"))
	var ctotal, cagree int
	for _, c := range names {
		n := rolesTarget(t, cache, dir, c.Page, c.Target, c.TargetIndex)
		if got := n.AttrValue("data-testname"); got != c.Testname {
			t.Fatalf("%s %s[%d]: found %q, want the case %q", c.Page, c.Target, c.TargetIndex, got, c.Testname)
		}
		ctotal++
		got := aria.Role(n)
		key := "chromium:" + c.Testname
		reason, listed := roleDivergences[key]
		seen[key] = true
		ok := rolesAgree(c.Chromium156Role, false, got)
		switch {
		case ok && listed:
			t.Errorf("%s now agrees (role %q): remove it from the divergence table (%s)", key, got, reason)
		case ok:
			cagree++
		case !listed:
			unexplained = append(unexplained, key+": want "+c.Chromium156Role+", got "+quoteRole(got))
		}
	}
	if ctotal == 0 {
		t.Fatal("no name case was run")
	}
	t.Logf("chromium156_role: %d of %d name-case targets agree (%d listed divergences)", cagree, ctotal, ctotal-cagree)

	sort.Strings(unexplained)
	for _, u := range unexplained {
		t.Errorf("unlisted divergence: %s", u)
	}
	var stale []string
	for k := range roleDivergences {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("divergence table names a case the suites do not have: %s", k)
	}
}

// rolesAgree compares a computed role with a suite's. A ".ex-generic"
// target accepts generic or none, and the suites read presentation as its
// synonym none and an element with no role at all as ignored, which
// computes to none as well.
func rolesAgree(want string, generic bool, got string) bool {
	if generic {
		switch got {
		case "generic", "none", "presentation", "":
			return true
		}
		return false
	}
	if got == "presentation" {
		got = "none"
	}
	return want == got
}

func quoteRole(r string) string {
	if r == "" {
		return `"" (no role)`
	}
	return r
}
