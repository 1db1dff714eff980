//go:build browser

package realapps

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// TestDjangoEndsWithTest: the shop serves its changelist, signed in, and
// when the test that started it ends, no process of it is left and its
// folder is gone.
func TestDjangoEndsWithTest(t *testing.T) {
	var dir string
	t.Run("serve", func(t *testing.T) {
		var url string
		url, dir = startDjango(t)
		c := &http.Client{Timeout: time.Minute}
		resp, err := c.Get(url + "/admin/shop/product/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "Product 15") || !strings.Contains(string(body), "45 products") {
			t.Fatalf("changelist: %d, %d bytes", resp.StatusCode, len(body))
		}
		if ps, err := leftover.Processes(dir); err != nil || len(ps) == 0 {
			t.Fatalf("the shop's processes are not found by their folder (%v): the check below would prove nothing", err)
		}
	})
	ps, err := leftover.Processes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 0 {
		t.Errorf("left running: %+v", ps)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the shop's folder is left: %v", err)
	}
}
