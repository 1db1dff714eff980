package snapshot

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/domsnapshot"
)

// benchSizes are element counts; with a text node each and the document,
// html and body they make captures of about 1k, 10k and 100k nodes.
var benchSizes = []int{500, 5000, 50000}

// BenchmarkDecodeCapture measures DecodeCapture (wire JSON to tree) and,
// in the same run, encoding/json into mafredri/cdp's reply type (which
// builds no tree at all), and reports how many times faster the first is
// as the metric x_vs_encoding_json.
func BenchmarkDecodeCapture(b *testing.B) {
	for _, n := range benchSizes {
		data := flatCapture(n)
		nodes := 3 + 2*n
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := DecodeCapture(data, CaptureOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			ours := time.Since(start)
			b.StopTimer()
			start = time.Now()
			for i := 0; i < b.N; i++ {
				var r domsnapshot.CaptureSnapshotReply
				if err := json.Unmarshal(data, &r); err != nil {
					b.Fatal(err)
				}
			}
			theirs := time.Since(start)
			b.ReportMetric(float64(theirs)/float64(ours), "x_vs_encoding_json")
			b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
		})
	}
}

// BenchmarkEncodingJSON is encoding/json alone, for benchstat comparisons.
func BenchmarkEncodingJSON(b *testing.B) {
	for _, n := range benchSizes {
		data := flatCapture(n)
		b.Run(fmt.Sprintf("nodes=%d", 3+2*n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var r domsnapshot.CaptureSnapshotReply
				if err := json.Unmarshal(data, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFromReply is the tree build from an already decoded reply.
func BenchmarkFromReply(b *testing.B) {
	for _, n := range benchSizes {
		var r domsnapshot.CaptureSnapshotReply
		if err := json.Unmarshal(flatCapture(n), &r); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nodes=%d", 3+2*n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := fromReply(&r, CaptureOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadEnvelope is Load of a gzip-compressed saved snapshot.
func BenchmarkLoadEnvelope(b *testing.B) {
	for _, n := range benchSizes {
		var buf bytesBuffer
		e := Envelope{Revision: "r1.bench.n1.o1", Capture: flatCapture(n)}
		if err := WriteSnapshot(&buf, e, true); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nodes=%d", 3+2*n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Load(buf.b, LoadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type bytesBuffer struct{ b []byte }

func (w *bytesBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
