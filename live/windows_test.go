package live

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/domsnap/domsnap/limits"
)

// TestWindowKeeperBound: with its first page counted, a session reserves
// places for windows just under, at, and not over MaxPages; a place given
// back (a window not adopted, a page closed) can be taken again.
func TestWindowKeeperBound(t *testing.T) {
	k := &windowKeeper{}
	k.held.Store(1)
	for n := 2; n <= limits.MaxPages; n++ {
		if !k.reserve() {
			t.Fatalf("page %d of %d refused", n, limits.MaxPages)
		}
	}
	if k.reserve() {
		t.Fatalf("page %d reserved past MaxPages", limits.MaxPages+1)
	}
	k.release()
	if !k.reserve() {
		t.Fatal("a released place could not be taken again")
	}
	k.add(&Page{})
	k.drop()
	if !k.reserve() {
		t.Fatal("a dropped page's place could not be taken again")
	}
	if got := k.held.Load(); got != limits.MaxPages {
		t.Fatalf("held %d, want %d", got, limits.MaxPages)
	}
}

// TestWindowKeeperProperty: over random runs of reservations, releases,
// adoptions, takes and closes, the places held are the session's pages
// plus those pending, never more than MaxPages, and take hands each
// adopted window over once.
func TestWindowKeeperProperty(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		r := rand.New(rand.NewSource(seed))
		k := &windowKeeper{}
		k.held.Store(1)
		pages, pending, adopted := 1, 0, 0
		for step := 0; step < 200; step++ {
			switch r.Intn(5) {
			case 0:
				ok := k.reserve()
				if ok != (pages+pending+adopted < limits.MaxPages) {
					t.Fatalf("seed %d step %d: reserve %v with %d pages, %d pending, %d adopted", seed, step, ok, pages, pending, adopted)
				}
				if ok {
					pending++
				}
			case 1:
				if pending > 0 {
					k.release()
					pending--
				}
			case 2:
				if pending > 0 {
					k.add(&Page{})
					pending--
					adopted++
				}
			case 3:
				if pending == 0 {
					got := k.take(context.Background(), time.Now())
					if len(got) != adopted {
						t.Fatalf("seed %d step %d: took %d, want %d", seed, step, len(got), adopted)
					}
					pages += adopted
					adopted = 0
				}
			case 4:
				if pages > 1 {
					k.drop()
					pages--
				}
			}
			if got := int(k.held.Load()); got != pages+pending+adopted || got > limits.MaxPages {
				t.Fatalf("seed %d step %d: held %d, want %d", seed, step, got, pages+pending+adopted)
			}
		}
	}
}
