/**
 * The web UI's first screen on loopback (issue 9: under 1 s): from navigation to the environments
 * list drawn with data from the API, in Debian's Chromium against a real `hearth serve`.
 * The baseline is the same browser loading a static page of the same server (/docs).
 */
import { performance } from 'node:perf_hooks';
import { launchBrowser, chromiumPath } from '../test/support/browser.js';
import { startServer } from '../test/support/serve.js';
import { report, summarise } from './harness.js';

if (!chromiumPath) {
  console.log('Chromium is not installed (apt-get install chromium): UI benchmark skipped');
  process.exit(0);
}
const server = await startServer();
const browser = await launchBrowser();
try {
  const first: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 12; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    let t0 = performance.now();
    await page.goto(`${server.url}/docs`, { waitUntil: 'load' });
    baseline.push(performance.now() - t0);
    t0 = performance.now();
    await page.goto(`${server.url}/`);
    await page.locator('h1#envs-title').waitFor();
    await page.locator('text=New environment').waitFor();
    first.push(performance.now() - t0);
    await context.close();
  }
  const base = summarise('static page (/docs), fresh browser context', baseline.slice(2));
  report('web UI first screen on loopback', [
    base,
    { ...summarise('first screen: environments list with data, fresh browser context', first.slice(2)), targetMs: 1000, baselineMs: base.medianMs },
  ]);
} finally {
  await browser.close();
  await server.stop();
}
