package realapps

import (
	"embed"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed all:django
var djangoSite embed.FS

// DjangoPython is the interpreter the shop runs on: Debian's, which is the
// one python3-django installs Django for (make install-browser installs
// the package).
const DjangoPython = "/usr/bin/python3"

// Products is how many products the shop starts with; its changelist
// shows ProductsPerPage of them to a page.
const (
	Products        = 45
	ProductsPerPage = 15
)

// Django starts the shop in t's temporary folder and returns its base URL
// (no trailing slash). The admin interface is at /admin/, the product
// changelist at /admin/shop/product/; every request is signed in as the
// shop's clerk. The products are "Product 01" to "Product 45", priced
// 3.50, 6.50, and so on. The test fails when Django is missing.
func Django(t testing.TB) string {
	t.Helper()
	url, _ := startDjango(t)
	return url
}

// startDjango is Django that also returns the folder the shop runs in,
// which every process of it carries in its environment.
func startDjango(t testing.TB) (url, dir string) {
	t.Helper()
	if err := exec.Command(DjangoPython, "-c", "import django").Run(); err != nil {
		t.Fatalf("Django is not installed for %s (%v): make install-browser installs python3-django", DjangoPython, err)
	}
	dir = t.TempDir()
	site, err := fs.Sub(djangoSite, "django")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, site); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(DjangoPython, "serve.py")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SHOP_DB="+filepath.Join(dir, "shop.sqlite3"), "PYTHONDONTWRITEBYTECODE=1")
	return "http://127.0.0.1:" + startChild(t, cmd), dir
}
