package capture

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/testkit/hostile"
	"github.com/domsnap/domsnap/limits"
)

func TestStyleValues(t *testing.T) {
	for v, want := range map[string]bool{
		"block": true, "BLOCK": true, "inline flow-root": true, "block math": true, "inline list-item": true,
		"table-cell": true, "-webkit-box": true, "none": true, "contents": true, "  inline  ": true,
		"visible": false, "hidden": false, "collapse": false, "": false, " ": false, "blocky": false,
		"block flow list-item": true, "block flow list-item x": false, "block flow list-item grid": false,
	} {
		if got := isDisplayValue(v); got != want {
			t.Errorf("isDisplayValue(%q) = %t, want %t", v, got, want)
		}
	}
	for v, want := range map[string]bool{
		"visible": true, "hidden": true, "collapse": true, "Hidden": true,
		"": false, "block": false, "visible ": false, "none": false,
	} {
		if got := isVisibilityValue(v); got != want {
			t.Errorf("isVisibilityValue(%q) = %t, want %t", v, got, want)
		}
	}
}

func BenchmarkCheckStyles(b *testing.B) {
	for _, n := range []int{500, 5000, 50000} {
		var buf bytes.Buffer
		if err := hostile.Capture(&buf, n); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		rc, err := decodeRaw(data, limits.MaxTreeNodes)
		if err != nil {
			b.Fatal(err)
		}
		sc, _ := styleColumns(nil)
		b.Run("nodes="+strconv.Itoa(n), func(b *testing.B) {
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if err := checkStyles(rc, sc); err != nil {
					b.Fatal(err)
				}
			}
			check := time.Since(start)
			start = time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := buildCapture(rc, sc); err != nil {
					b.Fatal(err)
				}
			}
			build := time.Since(start)
			b.ReportMetric(float64(check)/float64(build), "check_share")
		})
	}
}

func TestDisplayClass(t *testing.T) {
	for v, want := range map[string]domtree.Display{
		"inline": domtree.DisplayInline, "inline-block": domtree.DisplayInline, "inline-table": domtree.DisplayInline,
		"inline-flex": domtree.DisplayInline, "inline-grid": domtree.DisplayInline, "INLINE": domtree.DisplayInline,
		"inline flow-root": domtree.DisplayInline, "flow-root inline": domtree.DisplayInline, "ruby": domtree.DisplayInline,
		"math": domtree.DisplayInline, "-webkit-inline-box": domtree.DisplayInline, "-webkit-inline-flex": domtree.DisplayInline,
		"inline list-item": domtree.DisplayInline, "ruby base": domtree.DisplayInline,
		"block": domtree.DisplayBlock, "block math": domtree.DisplayBlock, "list-item": domtree.DisplayBlock,
		"table-cell": domtree.DisplayBlock, "table-row": domtree.DisplayBlock, "ruby-text": domtree.DisplayBlock,
		"flex": domtree.DisplayBlock, "grid": domtree.DisplayBlock, "contents": domtree.DisplayBlock,
		"-webkit-box": domtree.DisplayBlock, "flow-root": domtree.DisplayBlock, "inline-": domtree.DisplayBlock,
		"": domtree.DisplayBlock, "none": domtree.DisplayNone, " none ": domtree.DisplayNone,
	} {
		if got := displayClass(v); got != want {
			t.Errorf("displayClass(%q) = %s, want %s", v, got, want)
		}
	}
}
