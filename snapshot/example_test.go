package snapshot_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// A minimal capture: a document with one <p> element holding text. The
// layout table gives the paragraph display: block.
const capture = `{"documents":[{"nodes":{
  "parentIndex":[-1,0,1],"nodeType":[9,1,3],"nodeName":[0,1,2],"nodeValue":[-1,-1,3]},
  "layout":{"nodeIndex":[0,1,2],"styles":[[],[4,5],[4,5]]}}],
 "strings":["#document","P","#text","Hello","block","visible"]}`

func ExampleDecodeCapture() {
	tree, err := snapshot.DecodeCapture([]byte(capture), snapshot.CaptureOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := tree.At(1)
	fmt.Println(p.Name(), p.Display(), p.FirstChild().Data())
	// Output: p block Hello
}

func ExampleDecodeCapture_malformed() {
	broken := strings.Replace(capture, `"parentIndex":[-1,0,1]`, `"parentIndex":[-1,0,7]`, 1)
	_, err := snapshot.DecodeCapture([]byte(broken), snapshot.CaptureOptions{})
	fmt.Println(err)
	_, err = snapshot.DecodeCapture([]byte(capture[:40]), snapshot.CaptureOptions{})
	fmt.Println(err)
	// A syntax error also says where in the bytes reading stopped.
	var e *errcode.Error
	if errors.As(err, &e) {
		off, _ := e.ByteOffset()
		fmt.Printf("%q at byte %d\n", e.Pointer().Tokens(), off)
	}
	// Output:
	// snapshot: malformed_snapshot: /documents/0/nodes/parentIndex/2: parent index 7 out of range
	// snapshot: malformed_snapshot: /documents/0/nodes: unexpected end of input, expected ':' (byte 40)
	// ["documents" "0" "nodes"] at byte 40
}

func ExampleWriteSnapshot() {
	var file bytes.Buffer
	env := snapshot.Envelope{Revision: "r1.ab12.n1.o3", CapturedAt: "2026-11-30T08:00:00Z", Capture: []byte(capture)}
	if err := snapshot.WriteSnapshot(&file, env, true); err != nil {
		fmt.Println(err)
		return
	}
	in, err := snapshot.Load(file.Bytes(), snapshot.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Format, in.Gzip, in.Revision, in.Tree.Len())
	// Output: envelope true r1.ab12.n1.o3 3
}

func ExampleFileRevision() {
	fmt.Println(snapshot.FileRevision([]byte("<p>Hello</p>")))
	// Output: r1.file.d0a26d23e9d8e053
}
