// Command viewcost measures what the page view added to the offline
// command's cost: it builds `domsnap` at a commit from before the page view
// and from the working tree, and times both on the same pages, in
// interleaved pairs, for `inventory --format json` (the observation, which
// now runs the view scan) and `extract` of the first table (which does
// not).
//
//	make devtools && bin/dev/viewcost -base COMMIT [-runs 9] [DIR]
//
// Run it from the repository's root. The pages are generated, as the
// benchmarks' are: a 60-row table followed by paragraphs, at about 1k, 10k
// and 100k nodes, and a 100k-node page of links, buttons and headings in
// sections, where the view scan does its most work (it stops after
// ViewScanNodes nodes). With DIR, every .html file under it is also timed
// and summed, one pair per run over all of them.
//
// Times are CPU time (user and system) of the child process, run with
// GOMAXPROCS=1; each row gives the median of before and after and the
// median of the pairs' ratios (after over before) with the lowest and
// highest pair ratio, which says how noisy the run was. Both builds are made
// without cgo, as make build makes the command, in a temporary folder that
// is removed on every exit path.
package main
