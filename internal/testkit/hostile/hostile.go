package hostile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"strconv"
)

// GzipBomb returns a gzip stream that expands to head followed by n copies
// of fill. It is built of gzip members, which a reader joins into one
// stream: one member of head, then one member of 1 MiB of fill compressed
// once and repeated, then one for the remainder. A 256 MiB bomb is about
// 260 KB and takes no time to make.
func GzipBomb(head string, n int64, fill byte) []byte {
	member := func(b []byte) []byte {
		var out bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return out.Bytes()
	}
	const block = 1 << 20
	out := member([]byte(head))
	if n >= block {
		out = append(out, bytes.Repeat(member(bytes.Repeat([]byte{fill}, block)), int(n/block))...)
	}
	return append(out, member(bytes.Repeat([]byte{fill}, int(n%block)))...)
}

// Repeat writes head, then unit n times, then tail, through gzip when
// compress is set. Repeat(w, "", "<i></i>", "", 3_000_000, true) is 21 MB
// of elements in about 30 KB.
func Repeat(w io.Writer, head, unit, tail string, n int, compress bool) error {
	var zw *gzip.Writer
	if compress {
		var err error
		if zw, err = gzip.NewWriterLevel(w, gzip.BestCompression); err != nil {
			return err
		}
		w = zw
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(head)
	for i := 0; i < n; i++ {
		bw.WriteString(unit)
	}
	bw.WriteString(tail)
	if err := bw.Flush(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

// Reopened is a page on which the HTML parser makes many more nodes than
// there are tags: formatting elements, each with its own attribute so that
// none replaces another, are left open inside a paragraph; every further
// "<p>x" closes the paragraph and with it those elements, and its text
// re-opens a copy of each. The page has about fonts + 2*reps tokens and
// about fonts*reps nodes.
func Reopened(fonts, reps int) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html><p>")
	for i := 0; i < fonts; i++ {
		b.WriteString(`<font id=f` + strconv.Itoa(i) + `>`)
	}
	for i := 0; i < reps; i++ {
		b.WriteString("<p>x")
	}
	return b.Bytes()
}

// Capture writes a bare captureSnapshot result whose main document holds
// nodes nodes: a document, an html element and text nodes under it, each
// with a layout object.
func Capture(w io.Writer, nodes int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	list := func(name string, first, second, rest string) {
		bw.WriteString(`"` + name + `":[`)
		for i := 0; i < nodes; i++ {
			if i > 0 {
				bw.WriteByte(',')
			}
			switch i {
			case 0:
				bw.WriteString(first)
			case 1:
				bw.WriteString(second)
			default:
				bw.WriteString(rest)
			}
		}
		bw.WriteString(`]`)
	}
	bw.WriteString(`{"documents":[{"nodes":{`)
	list("parentIndex", "-1", "0", "1")
	bw.WriteByte(',')
	list("nodeType", "9", "1", "3")
	bw.WriteByte(',')
	list("nodeName", "0", "1", "2")
	bw.WriteByte(',')
	list("nodeValue", "-1", "-1", "3")
	bw.WriteString(`},"layout":{"nodeIndex":[`)
	for i := 1; i < nodes; i++ {
		if i > 1 {
			bw.WriteByte(',')
		}
		bw.WriteString(strconv.Itoa(i))
	}
	bw.WriteString(`],"styles":[`)
	for i := 1; i < nodes; i++ {
		if i > 1 {
			bw.WriteByte(',')
		}
		bw.WriteString(`[4,5]`)
	}
	bw.WriteString(`]}}],"strings":["#document","HTML","#text","x","block","visible"]}`)
	return bw.Flush()
}
