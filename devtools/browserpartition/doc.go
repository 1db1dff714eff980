// Command browserpartition runs the real-Chromium test partition (docs/reference.md#browser-tests) and is what `make test-browser` runs.
//
// It finds Chromium (--chrome, $DOMSNAP_CHROME, then the usual paths),
// launches it once to observe its version, finds every package that has
// tests behind the `browser` build tag, and runs them all with
// `go test -tags browser -json`. It writes two files under reports/:
// browser-junit.xml (through github.com/jstemmer/go-junit-report/v2) and
// browser-report.json, the content-free report.
//
// With -busy n (make test-browser-load), n busy loops, each on a thread of
// its own, keep cores busy from before Chromium's first launch until the
// run ends, so that a case that depends on how busy the machine is fails
// here rather than at random in CI. They are threads of this process, so
// they end with it however it ends, and the report says how many ran.
//
// The partition fails, and never passes quietly, when Chromium is missing or
// does not start, when a filter was given (it takes no test selection at all,
// not on the command line and not through GOFLAGS), when any test or subtest
// was skipped, when nothing ran or a browser package ran nothing, and when any
// test failed.
//
// # Security
//
// The JSON report is built only from what identifies and measures a case:
// the package import path, the top-level test name (subtest names are
// dropped, because they carry parameter values such as page names), the
// outcome and the duration, with counts, versions and the source revision.
// It never copies test output, failure text, URLs, page content or
// credentials, and before it is written it is checked for URLs and for any
// line of the tests' output. The JUnit file is the conventional place for
// failure output and may contain it; so may the terminal, which gets the last
// lines of each failed test's output after all tests ran, followed by the
// failed tests' names, so that a log read from its end says what failed.
package main
