// Saves the page at URL as a bare DOMSnapshot capture that domsnap reads,
// with the steps docs/saving-captures.md shows for Playwright (Chromium
// only: the capture is a DevTools protocol command):
//
//   node capture.mjs URL DIR [STYLES]
//
// The capture is written to DIR/page.capture.json. STYLES, a comma-separated
// list (possibly empty), replaces the computed styles asked for. The browser
// is the system Chromium: $DOMSNAP_CHROME, else /usr/bin/chromium.
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const [url, dir, styles] = process.argv.slice(2);
if (!url || !dir) {
  console.error('usage: node capture.mjs URL DIR [STYLES]');
  process.exit(2);
}
process.chdir(dir);
const browser = await chromium.launch({
  executablePath: process.env.DOMSNAP_CHROME || '/usr/bin/chromium',
  // Chromium's sandbox needs an unprivileged user; CI runs as root.
  chromiumSandbox: process.getuid() !== 0,
});
try {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  if (styles === undefined) {
    const client = await page.context().newCDPSession(page);
    const capture = await client.send('DOMSnapshot.captureSnapshot', {
      computedStyles: ['display', 'visibility'],
    });
    await writeFile('page.capture.json', JSON.stringify(capture));
    await client.detach();
  } else {
    const client = await page.context().newCDPSession(page);
    const capture = await client.send('DOMSnapshot.captureSnapshot', {
      computedStyles: styles === '' ? [] : styles.split(','),
    });
    await writeFile('page.capture.json', JSON.stringify(capture));
    await client.detach();
  }
} finally {
  await browser.close();
}
