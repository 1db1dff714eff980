// Package capture holds no code of domsnap's: its folders are complete
// programs that save a page as a bare DOMSnapshot capture with Puppeteer,
// Playwright and chromedp, the snippets of docs/saving-captures.md with their
// versions pinned. Its test (build tag examples, run by make test-examples)
// installs and runs each one against the system Chromium and checks that
// domsnap reads what they save exactly as it reads its own capture.
package capture
