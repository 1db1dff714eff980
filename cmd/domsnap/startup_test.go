package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/argcheck"
)

// maxInitBytes bounds what the command's package initialisers allocate
// before main runs, which every subcommand and every process of a batch
// pays. It measured 350 KB (x/net/html's entity table the largest part);
// a dependency that compiles schemas or builds tables at init (a general
// JSON Schema validator did: 1.7 MB) pushes it over.
const maxInitBytes = 512 << 10

// TestStartupAllocations counts, with the runtime's init trace, the bytes
// allocated by the initialisers of the packages the command links. The
// count is deterministic for a given build, unlike the time they take.
// The test binary links those packages and a few of its own, so the
// trace is filtered to the command's dependencies (go list).
func TestStartupAllocations(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if deps["github.com/santhosh-tekuri/jsonschema/v6"] {
		t.Error("the command links a validator that compiles every draft's meta-schema at init")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace bytes.Buffer
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("running the test binary: %v\n%s", err, trace.String())
	}
	// Lines read "init PKG @T ms, C ms clock, B bytes, A allocs".
	total, seen := 0, 0
	sc := bufio.NewScanner(&trace)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("unreadable trace line %q", sc.Text())
		}
		if deps[f[1]] {
			total += n
			seen++
		}
	}
	// The runtime and x/net/html always initialise something, so an empty
	// trace means it was not read, not that start-up is free.
	if seen < 10 {
		t.Fatalf("only %d initialisers in the trace:\n%s", seen, trace.String())
	}
	if total > maxInitBytes {
		t.Errorf("the command's initialisers allocate %d bytes, more than %d", total, maxInitBytes)
	}
	t.Logf("%d initialisers, %d bytes", seen, total)
}

// TestExtractCompilesNoSchema: an offline extract never compiles a tool
// schema; only the tool server does.
func TestExtractCompilesNoSchema(t *testing.T) {
	before := argcheck.Compilations()
	r := runCmd(t, "", append(append([]string{"extract"}, exampleArgs...), example)...)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = runCmd(t, "", "inventory", example)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := argcheck.Compilations() - before; got != 0 {
		t.Errorf("extract and inventory compiled %d schemas", got)
	}
}
