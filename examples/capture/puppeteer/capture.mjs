// Saves the page at URL as a bare DOMSnapshot capture that domsnap reads,
// with the steps docs/saving-captures.md shows for Puppeteer:
//
//   node capture.mjs URL DIR [STYLES]
//
// The capture is written to DIR/page.capture.json. STYLES, a comma-separated
// list (possibly empty), replaces the computed styles asked for; it is there
// to show that domsnap refuses a capture taken with the wrong ones. The
// browser is the system Chromium: $DOMSNAP_CHROME, else /usr/bin/chromium.
import { writeFile } from 'node:fs/promises';
import puppeteer from 'puppeteer-core';

const [url, dir, styles] = process.argv.slice(2);
if (!url || !dir) {
  console.error('usage: node capture.mjs URL DIR [STYLES]');
  process.exit(2);
}
process.chdir(dir);
const browser = await puppeteer.launch({
  executablePath: process.env.DOMSNAP_CHROME || '/usr/bin/chromium',
  // Chromium's sandbox needs an unprivileged user; CI runs as root.
  args: process.getuid() === 0 ? ['--no-sandbox'] : [],
});
try {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  if (styles === undefined) {
    const client = await page.createCDPSession(); // older releases: page.target().createCDPSession()
    const capture = await client.send('DOMSnapshot.captureSnapshot', {
      computedStyles: ['display', 'visibility'],
    });
    await writeFile('page.capture.json', JSON.stringify(capture));
    await client.detach();
  } else {
    const client = await page.createCDPSession();
    const capture = await client.send('DOMSnapshot.captureSnapshot', {
      computedStyles: styles === '' ? [] : styles.split(','),
    });
    await writeFile('page.capture.json', JSON.stringify(capture));
    await client.detach();
  }
} finally {
  await browser.close();
}
