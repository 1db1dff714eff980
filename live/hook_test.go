package live

import (
	"context"
	"testing"

	"github.com/mafredri/cdp"

	"github.com/domsnap/domsnap/internal/livehook"
)

// TestHooksInstalled: this package's init installs the hooks, and they
// reach the page they are given; a value that is not a *Page is a misuse
// and panics rather than reaching anything.
func TestHooksInstalled(t *testing.T) {
	c := &cdp.Client{}
	p := &Page{client: c}
	if got := livehook.Client(p); got != c {
		t.Errorf("livehook.Client = %p, want the page's client %p", got, c)
	}
	for name, f := range map[string]func(){
		"Client":   func() { livehook.Client(struct{}{}) },
		"Capture":  func() { livehook.Capture(context.Background(), "page", nil) },
		"Evaluate": func() { livehook.Evaluate(context.Background(), (*Browser)(nil), "0") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("livehook.%s took a value that is not a *Page", name)
				}
			}()
			f()
		}()
	}
}
