// Package heapcost measures what a built value keeps on the heap, for the
// benchmarks that compare domsnap's tree with golang.org/x/net/html's (the
// htmlsource benchmarks and devtools/benchratio): one measure, so that the
// two report the same thing.
package heapcost
