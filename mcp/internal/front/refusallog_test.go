package front

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"
)

// lines collects what a refusalLog writes, and signals each line.
type lines struct {
	mu    sync.Mutex
	all   []string
	wrote chan struct{}
}

func newLines() *lines { return &lines{wrote: make(chan struct{}, 1024)} }

func (l *lines) logf(format string, args ...any) {
	l.mu.Lock()
	l.all = append(l.all, fmt.Sprintf(format, args...))
	l.mu.Unlock()
	select {
	case l.wrote <- struct{}{}:
	default:
	}
}

func (l *lines) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.all...)
}

var heldLine = regexp.MustCompile(`^refused (\d+) more requests (.+) since \d\d:\d\d:\d\d, not logged one by one$`)

// tally counts the refusals lines account for, by kind: one for each
// line of its own, and the count of each line that counts held-back ones.
func tally(t *testing.T, all []string) (single, held map[string]int) {
	t.Helper()
	single, held = map[string]int{}, map[string]int{}
	for _, s := range all {
		if m := heldLine.FindStringSubmatch(s); m != nil {
			n, _ := strconv.Atoi(m[1])
			held[m[2]] += n
			continue
		}
		single[s[len("refused one "):]]++
	}
	return single, held
}

// TestRefusalLogBounded: of 1,000 refusals of one kind and 3 of another
// within a window, the first burst of each get a line; the rest are
// counted in one line when the log is closed; a refusal after closing is
// written in full.
func TestRefusalLogBounded(t *testing.T) {
	out := newLines()
	l := newRefusalLog(out.logf, time.Hour, 5)
	for i := 0; i < 1000; i++ {
		l.printf("with a wrong token", "refused one %s", "with a wrong token")
	}
	for i := 0; i < 3; i++ {
		l.printf("from a foreign Origin", "refused one %s", "from a foreign Origin")
	}
	if n := len(out.get()); n != 5+3 {
		t.Fatalf("%d lines before closing, want 8: %q", n, out.get())
	}
	l.close()
	l.printf("with a wrong token", "refused one %s", "with a wrong token")
	all := out.get()
	if len(all) != 5+3+1+1 {
		t.Fatalf("%d lines, want 10: %q", len(all), all)
	}
	single, held := tally(t, all)
	if single["with a wrong token"] != 6 || held["with a wrong token"] != 995 || single["from a foreign Origin"] != 3 || held["from a foreign Origin"] != 0 {
		t.Fatalf("single %v held %v", single, held)
	}
}

// TestRefusalLogWindow: the count of the refusals held back is written
// when the window ends (flush, which the window's timer calls), and the
// next window writes lines in full again.
func TestRefusalLogWindow(t *testing.T) {
	out := newLines()
	l := newRefusalLog(out.logf, time.Hour, 2)
	defer l.close()
	for i := 0; i < 7; i++ {
		l.printf("with a wrong token", "refused one %s", "with a wrong token")
	}
	l.flush("with a wrong token")
	if single, held := tally(t, out.get()); single["with a wrong token"] != 2 || held["with a wrong token"] != 5 {
		t.Fatalf("single %v held %v after the first window", single, held)
	}
	for i := 0; i < 3; i++ {
		l.printf("with a wrong token", "refused one %s", "with a wrong token")
	}
	l.close()
	if single, held := tally(t, out.get()); single["with a wrong token"] != 4 || held["with a wrong token"] != 6 {
		t.Fatalf("single %v held %v after the second window (%q)", single, held, out.get())
	}
}

// TestRefusalLogTimer: the count comes by itself once the window is over,
// without another refusal, and every refusal is accounted for.
func TestRefusalLogTimer(t *testing.T) {
	out := newLines()
	l := newRefusalLog(out.logf, 50*time.Millisecond, 2)
	for i := 0; i < 7; i++ {
		l.printf("with a wrong token", "refused one %s", "with a wrong token")
	}
	deadline := time.After(10 * time.Second)
	for {
		if _, held := tally(t, out.get()); held["with a wrong token"] > 0 {
			break
		}
		select {
		case <-out.wrote:
		case <-deadline:
			t.Fatalf("no count after the window: %q", out.get())
		}
	}
	l.close()
	if single, held := tally(t, out.get()); single["with a wrong token"]+held["with a wrong token"] != 7 {
		t.Fatalf("single %v held %v: not every refusal is counted", single, held)
	}
}
