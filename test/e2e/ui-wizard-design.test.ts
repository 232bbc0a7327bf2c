/**
 * The wizard as the component-registry design describes it (issue 28, items 1, 6, 7), in a real
 * browser on a real server: switching release selects the new release's defaults; Neutron services
 * are checkboxes beside the ML2 radio; choices are ordered by weight. The second release is a
 * release plugin made by `createPlugin` with the design's subtypes in its components.yaml.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, needsBrowser, resultsDir } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/serve.js';
import { createPlugin } from '../../src/package/create/index.js';

const COMPONENTS = `- name: 'hypervisor:qemu'
  label: 'QEMU'
  default: true
- name: 'network:neutron:core:ml2'
  label: 'ML2'
  default: true
- name: 'network:neutron:ml2:ovs'
  label: 'Open vSwitch'
  default: true
  requires: [{name: 'network:neutron:core:ml2'}]
- name: 'network:neutron:service:lbaas'
  label: 'LBaaS'
  weight: 20
- name: 'network:neutron:service:fwaas'
  label: 'FWaaS'
  weight: 10
- name: 'network:neutron:ipam:builtin'
  label: 'Built-in IPAM'
- name: 'storage:block:lvm'
  label: 'LVM'
  default: true
`;

describe('wizard, as the components design describes it', { skip: needsBrowser.skip, timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  const work = mkdtempSync(join(tmpdir(), 'hearth-wizard-design-'));

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const checked = (p: Page, name: string) => p.locator(`[data-component="${name}"] input`).isChecked();

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const made = createPlugin('designrel', { parentDir: work, releasePlugin: true });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, 'designrel-release', 'metadata', 'components.yaml'), COMPONENTS);
    await call('POST', '/plugins/folders', { path: made.dir });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test("switching release selects the new release's defaults; services are checkboxes beside ML2, in weight order", async () => {
    const releases = await call<Array<{ id: string; name: string }>>('GET', '/releases');
    const bundled = releases.find((r) => r.name !== 'designrel');
    const design = releases.find((r) => r.name === 'designrel');
    assert.ok(bundled && design, JSON.stringify(releases));

    const p = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const asked: URL[] = [];
    p.on('request', (r) => {
      if (r.url().includes('/components/state')) asked.push(new URL(r.url()));
    });
    await p.goto(`${server.url}/#token=${server.token}`);
    await p.click('text=New environment');
    await p.fill('#env-name', 'design-env');
    await p.selectOption('#env-release', bundled.id);
    await p.click('button:has-text("Next")');
    await p.locator('[data-component="hypervisor:kvm"]').waitFor();
    assert.equal(await checked(p, 'hypervisor:kvm'), true, "the bundled release's default hypervisor");
    await p.click('button:has-text("Back")');

    // Another release: its own defaults, not the previous release's.
    await p.selectOption('#env-release', design.id);
    await p.click('button:has-text("Next")');
    await p.locator('[data-component="hypervisor:qemu"]').waitFor();
    await p.waitForFunction(`document.querySelector('[data-component="hypervisor:qemu"] input')?.checked === true`);
    assert.equal(await p.locator('[data-component="hypervisor:kvm"]').count(), 0);

    await p.click('button:has-text("Next")');
    const lbaas = p.locator('[data-component="network:neutron:service:lbaas"]');
    await lbaas.waitFor();
    // The engine is asked about the pane shown (issue 30), and no choice stays "Checking…" once it answered.
    await p.waitForFunction(`document.querySelectorAll('.choice[aria-busy="true"]').length === 0`);
    assert.ok(asked.length > 0 && asked.every((u) => u.searchParams.has('pane')), asked.join('\n'));
    assert.equal(asked[asked.length - 1].searchParams.get('pane'), 'network');
    assert.equal(await checked(p, 'network:neutron:core:ml2'), true);
    assert.equal(await checked(p, 'network:neutron:ml2:ovs'), true);
    assert.equal(await p.locator('[data-component="network:neutron:core:ml2"] input').getAttribute('type'), 'radio');
    assert.equal(await lbaas.locator('input').getAttribute('type'), 'checkbox', 'a Neutron service is a checkbox, not a core radio');
    assert.equal(await p.locator('[data-component="network:neutron:ipam:builtin"] input').getAttribute('type'), 'checkbox');
    // Weight orders the choices: FWaaS (10) before LBaaS (20), though listed after it.
    const order = await p.locator('fieldset[data-group="network:service"] [data-component]').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-component')));
    assert.deepEqual(order, ['network:neutron:service:fwaas', 'network:neutron:service:lbaas']);
    assert.equal(await lbaas.locator('input').getAttribute('aria-disabled'), null, await lbaas.innerText());
    await lbaas.locator('input').click();
    await p.waitForFunction(`document.querySelector('[data-component="network:neutron:service:lbaas"] input')?.checked === true`);
    assert.equal(await checked(p, 'network:neutron:core:ml2'), true, 'choosing a service keeps ML2');
    await p.screenshot({ path: join(resultsDir, 'ui-wizard-design-network.png'), fullPage: true });

    await p.click('button:has-text("Next")');
    await p.click('button:has-text("Next")');
    await p.click('button:has-text("Next")');
    await p.locator('.review').waitFor();
    await p.click('button:has-text("Create environment")');
    await p.waitForFunction(`/^#\\/env\\/\\d+\\/nodes/.test(location.hash) || document.querySelector('.problems') !== null`);
    assert.match((await p.evaluate('location.hash')) as string, /^#\/env\/\d+\/nodes/, await p.locator('main').innerText());
    const created = (await call<Array<{ name: string; release_id: string; components: string[] }>>('GET', '/clusters')).find((c) => c.name === 'design-env');
    assert.equal(created?.release_id, design.id);
    assert.deepEqual(created?.components, ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs', 'network:neutron:service:lbaas', 'storage:block:lvm']);
    await p.close();
  });
});
