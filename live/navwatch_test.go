package live

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
)

func cdpEvent(method, params string) string {
	return `{"method":"` + method + `","params":` + params + `}`
}

// TestGotoNetworkIdleAfterQuickRequests: a page whose requests all ended by
// the time the wait reads their events is idle once its quiet period has
// passed. Every request's start and end are already received, each on a
// stream of its own, when the wait begins; read in any order but the
// browser's, some end is taken before its start, that request stays counted
// in flight, and the wait runs to its deadline.
func TestGotoNetworkIdleAfterQuickRequests(t *testing.T) {
	const requests = 40
	ev := cdpEvent
	life := func(name string) string {
		return ev("Page.lifecycleEvent", `{"frameId":"F","loaderId":"L","name":"`+name+`","timestamp":1}`)
	}
	events := []string{
		ev("Network.requestWillBeSent", `{"requestId":"L","loaderId":"L","type":"Document","frameId":"F"}`),
		ev("Network.responseReceived", `{"requestId":"L","loaderId":"L","type":"Document","frameId":"F","response":{"status":200}}`),
		ev("Network.loadingFinished", `{"requestId":"L"}`),
		mainNav,
		life("init"),
	}
	for i := range requests {
		id := fmt.Sprintf(`"R%d"`, i)
		events = append(events,
			ev("Network.requestWillBeSent", `{"requestId":`+id+`,"loaderId":"L","type":"Image","frameId":"F"}`),
			ev("Network.loadingFinished", `{"requestId":`+id+`}`))
	}
	events = append(events, life("DOMContentLoaded"), life("load"))
	p := fakePage(t, &fakeCDP{
		events:  map[string][]string{"Page.navigate": events},
		replies: map[string]string{"Page.navigate": `"result":{"frameId":"F","loaderId":"L"}`},
	})
	// The deadline only bounds the test when the wait is wrong; the
	// assertion is on what the wait reports, not on how long it took.
	nav, err := p.Goto(context.Background(), "http://x/", UntilNetworkIdle, time.Now().Add(10*NetworkIdleQuiet))
	if err != nil || nav.WaitTimedOut || !nav.LoadComplete || nav.Status != 200 {
		t.Fatalf("%+v %v; want an idle network after the load, status 200", nav, err)
	}
}

// TestCommitForgetsReplacedRequests: the requests of the documents a
// commit replaced no longer count in flight (the browser reports no end
// for them), but the new document's own request, still being read, does.
func TestCommitForgetsReplacedRequests(t *testing.T) {
	sent := func(id, loader, typ string) string {
		return cdpEvent("Network.requestWillBeSent", `{"requestId":"`+id+`","loaderId":"`+loader+`","type":"`+typ+`","frameId":"F"}`)
	}
	p := fakePage(t, &fakeCDP{
		events: map[string][]string{"Page.navigate": {
			sent("old", "L0", "Fetch"), sent("L", "L", "Document"), mainNav,
		}},
		replies: map[string]string{"Page.navigate": `"result":{"frameId":"F","loaderId":"L"}`},
	})
	ctx := context.Background()
	w, err := p.openNavWatch(ctx, "F", func(_ string, err error) error { return err })
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if _, err := p.client.Page.Navigate(ctx, page.NewNavigateArgs("http://x/")); err != nil {
		t.Fatal(err)
	}
	if err := w.drain(); err != nil {
		t.Fatal(err)
	}
	if !w.committed || len(w.inflight) != 1 || w.inflight["L"] != network.LoaderID("L") {
		t.Fatalf("committed %v, in flight %v; want only the new document's request", w.committed, w.inflight)
	}
}
