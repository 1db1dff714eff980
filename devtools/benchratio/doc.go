// Command benchratio prints, in one run, the offline HTML path's costs as
// ratios against golang.org/x/net/html doing the least the same job needs
// (`make bench` runs it after the Go benchmarks):
//
//   - in process, snapshot.ParseHTML against html.Parse of the same bytes,
//     for pages of about 1k, 10k and 100k nodes;
//   - in process, snapshot.Load plus domsnap.Extract of the first table
//     against html.Parse plus a walk that reads that table's cells;
//   - whole process, `domsnap extract` against a small program (package
//     baseline beside this one) that parses and walks the same way, on a
//     100k-node table page and on a page whose table follows a long filler
//     (the collection scan stops at limits.MaxScanNodes);
//   - the peak resident set of those processes, at 100k and 1M nodes;
//   - the bytes a built tree keeps per node against the *html.Node tree.
//
// Times are CPU time (user and system, the garbage collector's included),
// which a busy machine disturbs far less than wall time, taken with
// GOMAXPROCS=1 on both sides (so that the collector's idle workers add
// nothing). The two sides run in interleaved pairs, and a time row's ratio
// is the median of the pairs' ratios (ours over the baseline's, lower is
// better); its last column gives the median times and the lowest and
// highest pair ratio. On a shared host CPU time still moves with the
// neighbours (ratios have been seen to move by a quarter from one run to
// the next), so compare commits by rows whose pair range is narrow, or run
// again with more -runs. Nothing here is asserted: the numbers depend on
// the machine, and the ratios are what to compare between commits.
//
// With -pandas it also times pandas.read_html (lxml) on the 100k-node page
// through read_html.py, beside this file, against the in-process
// Load+Extract; that needs python3 with pandas and lxml, which the project
// does not depend on, so it is run by hand:
//
//	make devtools && bin/dev/benchratio -pandas
//
// Other flags: -runs N (default 5), -quick (the 1M-node page left out),
// and -cpuprofile FILE, which writes a CPU profile of ParseHTML on the
// 100k-node page instead of measuring.
package main
