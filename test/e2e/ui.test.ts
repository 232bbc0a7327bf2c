/**
 * The web UI end to end: a real `hearth serve` (built CLI, embedded database, bundled release),
 * real corpus plugins registered from temporary copies, and Debian's Chromium driven by
 * playwright-core. Every test saves a screenshot under test-results/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { corpusPath, corpusRoot } from '../support/corpus.js';
import { launchBrowser, needsBrowser, resultsDir } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/serve.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';

const skip = needsBrowser.skip || (corpusRoot ? false : 'HEARTH_CORPUS not set: UI tests with corpus plugins skipped');

describe('web UI', { skip, timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;

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

  async function page(): Promise<Page> {
    const p = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    // The token the server printed, as a person would paste it.
    await p.goto(`${server.url}/#token=${server.token}`);
    return p;
  }

  const shot = (p: Page, name: string) => p.screenshot({ path: join(resultsDir, `ui-${name}.png`), fullPage: true });

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    for (const plugin of ['fuel-plugin-contrail', 'fuel-plugin-murano', 'fuel-plugin-openstack-telemetry']) {
      await call('POST', '/plugins/folders', { path: copyWithReleaseFolders(corpusPath('plugins', plugin)) });
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the wizard shows why choices are disabled, never lets an invalid one be chosen, and names the plugins it enables', async () => {
    const p = await page();
    await p.click('text=New environment');
    await p.fill('#env-name', 'with-murano');
    await p.click('button:has-text("Next")');

    // Compute: the bundled release's hypervisors exclude each other, and the reason is in words.
    const qemu = p.locator('[data-component="hypervisor:qemu"]');
    await qemu.locator('input[aria-disabled="true"]').waitFor();
    assert.match(await qemu.locator('.why').innerText(), /cannot be used with/);
    await qemu.locator('input').click({ force: true });
    assert.equal(await qemu.locator('input').isChecked(), false, 'a disabled choice cannot be chosen');

    await p.click('button:has-text("Next")');
    // Networking: network core plugins are radio buttons. Contrail (a real plugin) has roles without a
    // disk layout, which Fuel 9.0 accepted (issue 26): it is offered as a choice, not chosen by default.
    const contrail = p.locator('[data-component="network:neutron:contrail"]');
    await contrail.waitFor();
    assert.equal(await contrail.locator('input').getAttribute('type'), 'radio');
    assert.match(await contrail.innerText(), /plugin contrail/);
    assert.notEqual(await contrail.locator('input').getAttribute('aria-disabled'), 'true');
    assert.equal(await contrail.locator('input').isChecked(), false);
    const ml2 = p.locator('[data-component="network:neutron:core:ml2"] input');
    assert.equal(await ml2.isChecked(), true, 'ML2 stays the default choice');
    // ML2 drivers are checkboxes under ML2; the two segmentations exclude each other, with the reason tied to the input.
    const tun = p.locator('[data-component="network:neutron:ml2:tun"]');
    await tun.locator('input[aria-disabled="true"]').waitFor();
    assert.match(await tun.locator('.why').innerText(), /VLAN or tunnelling/);
    const reasonId = await tun.locator('input').getAttribute('aria-describedby');
    assert.equal(await p.locator(`#${reasonId}`).count(), 1, 'the reason is tied to the input for screen readers');
    await shot(p, 'wizard-networking');

    await p.click('button:has-text("Next")');
    await p.click('button:has-text("Next")');
    // Additional services: a plugin's component; choosing it enables the plugin.
    const murano = p.locator('[data-component="additional_service:detach-murano"]');
    await murano.waitFor();
    await murano.locator("input").click();
    await p.waitForFunction(`document.querySelector('[data-component="additional_service:detach-murano"] input')?.checked === true`);
    await p.click('button:has-text("Next")');
    await p.locator('h3:has-text("Plugins that will be enabled")').waitFor();
    const review = await p.locator('.review').innerText();
    assert.match(review, /detach-murano 1\.2\.0/);
    await shot(p, 'wizard-review');
    await p.click('button:has-text("Create environment")');
    await p.waitForFunction(`/^#\\/env\\/\\d+\\/nodes/.test(location.hash) || document.querySelector('.problems') !== null`);
    assert.match(await p.evaluate('location.hash') as string, /^#\/env\/\d+\/nodes/, await p.locator('main').innerText());
    const clusters = await call<Array<{ name: string; components: string[]; plugins: unknown }>>('GET', '/clusters');
    const created = clusters.find((c) => c.name === 'with-murano');
    assert.ok(created?.components.includes('additional_service:detach-murano'));
    assert.deepEqual(Object.keys(created?.plugins as object), ['detach-murano']);
    await p.close();
  });

  test('role assignment shows a conflict before saving and refuses to save it', async () => {
    const release = (await call<Array<{ id: string }>>('GET', '/releases'))[0];
    // The release's default components: KVM, ML2 with VLAN, Cinder LVM (no Ceph, so no OSD nodes needed).
    const catalog = await call<Array<{ name: string; default?: boolean }>>('GET', `/releases/${encodeURIComponent(release.id)}/components`);
    const cluster = await call<{ id: number }>('POST', '/clusters', { name: 'roles', release_id: release.id, components: catalog.filter((c) => c.default).map((c) => c.name) });
    const p = await page();
    await p.goto(`${server.url}/#/env/${cluster.id}/nodes`);
    await p.fill('#node-count', '2');
    await p.click('button:has-text("Add nodes")');
    const boxes = p.locator('table.roles-table tbody tr').first();
    await boxes.waitFor();
    await boxes.locator('input[aria-label^="controller on"]').check();
    // The conflicting role is disabled before it is clicked, with the reason tied to it.
    const compute = boxes.locator('input[aria-label^="compute on"]');
    await p.waitForFunction(`document.querySelector('table.roles-table tbody tr input[aria-label^="compute on"]')?.getAttribute('aria-disabled') === 'true'`);
    assert.match(await p.locator(`#${await compute.getAttribute('aria-describedby')}`).innerText(), /Compute cannot be combined with Controller/);
    await compute.click({ force: true });
    assert.equal(await compute.isChecked(), false, 'a conflicting role cannot be ticked');
    await shot(p, 'roles-conflict');
    assert.equal(await p.locator('.problems[role="alert"]').count(), 0);
    await p.click('button:has-text("Save roles")');
    await p.locator('text=Saved.').waitFor();
    const nodes = await call<Array<{ pending_roles: string[] }>>('GET', `/clusters/${cluster.id}/nodes`);
    assert.ok(nodes.some((n) => n.pending_roles.includes('controller')));
    await p.close();
  });

  test('a plugin whose roles are assigned cannot be disabled, and the settings say why', async () => {
    const clusters = await call<Array<{ id: number; name: string }>>('GET', '/clusters');
    const cluster = clusters.find((c) => c.name === 'with-murano');
    assert.ok(cluster, 'the wizard test created it');
    const { ids } = await call<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 1, prefix: 'murano' } });
    await call('POST', `/clusters/${cluster.id}/nodes`, { assignments: [{ node_id: ids[0], roles: ['murano-node'] }] });
    const p = await page();
    await p.goto(`${server.url}/#/env/${cluster.id}/settings`);
    const section = p.locator('fieldset.plugin', { hasText: /murano/i }).first();
    await section.waitFor();
    // The server's reason is shown before any click, and the box cannot be unticked.
    const box = section.locator('legend input[type="checkbox"]');
    assert.equal(await box.getAttribute('aria-disabled'), 'true');
    assert.match(await p.locator(`#${await box.getAttribute('aria-describedby')}`).innerText(), /cannot be disabled: nodes hold its roles: murano-\d+/);
    await box.click({ force: true });
    assert.equal(await box.isChecked(), true);
    await shot(p, 'plugin-cannot-be-disabled');
    const attributes = await call<{ editable: Record<string, { metadata?: { enabled?: boolean } }> }>('GET', `/clusters/${cluster.id}/attributes`);
    const pluginSection = Object.entries(attributes.editable).find(([name]) => /murano/i.test(name));
    assert.equal(pluginSection?.[1].metadata?.enabled, true, 'nothing changed on the server');
    await p.close();
  });

  test('the graph view draws every node, highlights the critical path and finds tasks', async () => {
    const cluster = (await call<Array<{ id: number; name: string }>>('GET', '/clusters')).find((c) => c.name === 'roles')!;
    const p = await page();
    await p.goto(`${server.url}/#/env/${cluster.id}/graph`);
    const summary = p.locator('[data-testid="graph-summary"]');
    await summary.waitFor({ timeout: 60_000 });
    assert.match(await summary.innerText(), /\d+ nodes, \d+ tasks/);
    assert.ok((await p.locator('rect.bar').count()) > 10);
    assert.ok((await p.locator('rect.bar.critical').count()) > 0);
    await p.fill('#graph-search', 'keystone');
    assert.match(await p.locator('[role="status"]').first().innerText(), /\d+ matching tasks/);
    await p.click('button[aria-label="Zoom in"]');
    await shot(p, 'graph');
    await p.close();
  });

  test('a deployment runs to the end with progress per node', async () => {
    const cluster = (await call<Array<{ id: number; name: string }>>('GET', '/clusters')).find((c) => c.name === 'roles')!;
    // Complete the environment the role test started: the release needs database and messaging, and a compute node.
    const nodes = await call<Array<{ id: number; pending_roles: string[] }>>('GET', `/clusters/${cluster.id}/nodes`);
    const controller = nodes.find((n) => n.pending_roles.includes('controller'))!;
    const other = nodes.find((n) => n !== controller)!;
    await call('POST', `/clusters/${cluster.id}/nodes`, { assignments: [{ node_id: controller.id, roles: ['controller', 'database', 'messaging'] }, { node_id: other.id, roles: ['compute'] }] });
    const p = await page();
    await p.goto(`${server.url}/#/env/${cluster.id}/deploy`);
    p.on('dialog', (d) => void d.accept());
    await p.click('button:has-text("Deploy changes")');
    const status = p.locator('p[data-status]');
    await p.locator('p[data-status], .problems').first().waitFor();
    assert.equal(await p.locator('.problems').count(), 0, await p.locator('main').innerText());
    await p.waitForFunction(`document.querySelector('p[data-status]')?.getAttribute('data-status') !== 'running'`, undefined, { timeout: 120_000 });
    await shot(p, 'deploy');
    const state = await status.getAttribute('data-status');
    assert.equal(state, 'succeeded', await status.innerText());
    assert.ok((await p.locator('table tbody tr').count()) >= 1);
    const deployed = await call<Array<{ roles: string[]; pending_roles: string[] }>>('GET', `/clusters/${cluster.id}/nodes`);
    assert.ok(deployed.some((n) => n.roles.includes('controller')), 'pending roles became roles');
    await p.close();
  });
});

describe('web UI without a release', { skip: needsBrowser.skip, timeout: 120_000 }, () => {
  test('says what to do and offers no environment creation', async () => {
    const server = await startServer({ args: ['--no-bundled-release'] });
    const browser = await launchBrowser();
    try {
      const p = await browser.newPage();
      await p.goto(`${server.url}/`);
      await p.locator('text=No release is installed').waitFor();
      assert.equal(await p.locator('text=New environment').count(), 0);
      assert.match(await p.locator('.notice').innerText(), /release plugin/);
      await p.screenshot({ path: join(resultsDir, 'ui-no-release.png') });
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
