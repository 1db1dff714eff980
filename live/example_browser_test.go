//go:build browser

package live_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/domsnap/domsnap/live"
)

// ExampleSession_Act opens a page, reads its page view, clicks the control
// the view lists by its action reference, and reads the page view of the
// observation the action took, through package live alone.
func ExampleSession_Act() {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><h1>Basket</h1><p id="n">0 items</p>`+
			`<button onclick="document.getElementById('n').textContent = '1 item'">Add one</button></body></html>`)
	}))
	defer web.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := live.Launch(ctx, live.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	tab, err := b.NewPage(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer tab.Close()
	if _, err := tab.Goto(ctx, web.URL, live.UntilLoad, time.Now().Add(30*time.Second)); err != nil {
		log.Fatal(err)
	}
	s, err := live.NewSession(tab, live.SessionOptions{Browser: b.Version()})
	if err != nil {
		log.Fatal(err)
	}

	o, _, err := s.Observe(ctx, live.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	add := o.Controls[0]
	fmt.Println(add.Role, add.Name, "|", o.Text)

	res, err := s.Act(ctx, o.Revision, add.Ref, live.Action{Kind: live.ActClick}, live.ActOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Outcome, "|", res.Observation.Text)
	// Output:
	// button Add one | Basket 0 items Add one
	// done | Basket 1 item Add one
}
