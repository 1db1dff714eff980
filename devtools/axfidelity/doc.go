// Command axfidelity compares the page view's controls with Chromium's
// accessibility tree on a folder of saved pages, for a person to run by hand
// (docs/real-pages.md says where pages come from; they are never committed):
//
//	make devtools && bin/dev/axfidelity [-chrome PATH] [-limit N] [-timeout 30s] [-detail] DIR...
//
// For every .html and .htm file under each DIR, in sorted order, one
// headless Chromium loads the page in a fresh tab, the tab is captured and
// observed as a live session does, and every control the page view lists is
// paired with Chromium's node for the same element (package
// internal/testkit/axcompare). It prints the counts of controls, of roles and
// names that agree, and of each class of difference, "unexplained" for those
// no class of axcompare explains.
//
// Without -detail the output holds counts only. -detail adds one line per
// differing control: the page's path, the class, both roles, both names cut
// to 64 bytes, and where Chromium's name came from. Names are page text, so
// -detail output is for the person running it, not for a report.
//
// A page that fails or passes its deadline (-timeout) is counted as an
// error and the run goes on with a fresh browser. The exit status is 0 when
// the run completed, 2 on bad usage or when no browser starts.
package main
