// Package axcompare measures how the page view's controls
// (docs/reference.md#the-page-view) agree with Chromium's accessibility
// tree. Given a page's capture and Accessibility.getFullAXTree of the same
// tab, it takes the observation of that capture, and for every control the
// observation lists finds the element Chromium computed (by the backend node
// id the capture recorded) and compares the role and the name. Loading the
// page and asking the browser are its callers' steps, so that this kit
// imports nothing that talks to a browser and stays below package live.
//
// Agreement is counted, not assumed: Compare says for each control whether
// the roles and the names are the same, and Classify names the rule of the
// reference that explains a difference, or "" when none does. The browser
// test of package live holds the fixtures to a floor of agreement and every
// difference to a rule; devtools/axfidelity runs it over real pages.
//
// Names are compared after collapsing runs of white space and trimming, since
// both sides normalise spacing and only the words matter to a reader. No
// value a control holds is read on either side: the page's bytes hold no
// typed text, and a result records only roles, names and the kind of
// Chromium's name source.
package axcompare
