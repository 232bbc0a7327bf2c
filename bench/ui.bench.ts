/**
 * The web UI's first screen on loopback (issue 9: under 1 s): from navigation to the environments
 * list drawn with data from the API, in Debian's Chromium against a real `hearth serve`.
 * The baseline is the same browser loading a static page of the same server (/docs).
 * A wizard click (issue 16: the UI keeps its speed): from the click on a component to the page
 * showing the engine's new state for the others (Ceph for images on, so ephemeral Ceph becomes a
 * choice; off again, so it is disabled again), with two real plugins installed.
 */
import { performance } from 'node:perf_hooks';
import { launchBrowser, chromiumPath } from '../test/support/browser.js';
import { startServer } from '../test/support/serve.js';
import { report, summarise } from './harness.js';
import { corpusPath } from '../test/support/corpus.js';
import { copyWithReleaseFolders } from '../test/support/plugin-copy.js';

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

  for (const plugin of ['fuel-plugin-murano', 'fuel-plugin-cinder-netapp']) {
    const response = await fetch(`${server.url}/api/v1/plugins/folders`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ path: copyWithReleaseFolders(corpusPath('plugins', plugin)) }) });
    if (!response.ok) throw new Error(`registering ${plugin}: ${response.status} ${await response.text()}`);
  }
  const page = await browser.newPage();
  await page.goto(`${server.url}/#/new`);
  await page.fill('#env-name', 'bench');
  for (let i = 0; i < 3; i++) await page.click('button:has-text("Next")');
  const images = page.locator('[data-component="storage:image:ceph"] input');
  await images.waitFor();
  const ephemeral = '[data-component="storage:ephemeral:ceph"] input';
  const clicks: number[] = [];
  for (let i = 0; i < 42; i++) {
    const on = i % 2 === 0;
    const t0 = performance.now();
    await images.click();
    await page.waitForFunction(`document.querySelector('${ephemeral}')?.getAttribute('aria-disabled') ${on ? '===' : '!=='} null`, undefined, { polling: 'raf' });
    clicks.push(performance.now() - t0);
  }
  report('web UI wizard click on loopback (two plugins installed)', [{ ...summarise('click to the engine\'s new state drawn', clicks.slice(2)), targetMs: 200 }]);

  // A keystroke in the settings of an environment with NetApp (117 fields, most with restrictions
  // evaluated on every change): from the input event to the next frame, in the page.
  const releaseId = ((await (await fetch(`${server.url}/api/v1/releases`)).json()) as Array<{ id: string }>)[0].id;
  const created = await fetch(`${server.url}/api/v1/clusters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-settings', release_id: releaseId, components: ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm', 'storage:block:backend:netapp'] }),
  });
  const env = (await created.json()) as { id: number };
  await page.goto(`${server.url}/#/env/${env.id}/settings`);
  const field = page.getByLabel('1st NetApp Backend Username');
  await field.waitFor();
  const keystrokes = (await field.evaluate(async (input) => {
    // This runs in the page: the browser's own globals (this file is typed for Node, without the DOM).
    const browser = globalThis as unknown as { HTMLInputElement: { prototype: object }; requestAnimationFrame: (callback: () => void) => number };
    const setter = Object.getOwnPropertyDescriptor(browser.HTMLInputElement.prototype, 'value')!.set!;
    const out: number[] = [];
    for (let i = 0; i < 42; i++) {
      const t0 = performance.now();
      setter.call(input, `admin${i}`);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => browser.requestAnimationFrame(() => r(undefined)));
      out.push(performance.now() - t0);
    }
    return out;
  })) as number[];
  report('web UI settings keystroke (NetApp plugin: 117 fields with restrictions)', [{ ...summarise('input event to the next frame', keystrokes.slice(2)), targetMs: 50 }]);
} finally {
  await browser.close();
  await server.stop();
}
