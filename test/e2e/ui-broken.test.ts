/**
 * The web UI's broken paths of issue 16, each walked as an operator would in Debian's Chromium
 * against a real `hearth serve`: settings that save, a token checked when entered, deployed roles,
 * long environment names, plugin upload, plugin settings as Fuel drew them, and the bundled
 * release's monitoring tasks. Screenshots land in test-results/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { needsBrowser } from '../support/browser.js';
import { corpusRoot } from '../support/corpus.js';
import { buildCorpusPackage, makeEnvironment, registerCorpusPlugin, startUi, type UiSession } from '../support/ui.js';
import { hearthBin } from '../support/serve.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const skip = needsBrowser.skip || (corpusRoot ? false : 'HEARTH_CORPUS not set: UI tests with corpus plugins skipped');

interface ApiNode {
  id: number;
  name: string;
  roles: string[];
  pending_roles: string[];
}
type Editable = Record<string, Record<string, { value?: unknown; metadata?: unknown }>>;

describe('web UI: the operator path that was broken', { skip, timeout: 600_000 }, () => {
  let ui: UiSession;
  let dir: string | undefined;

  before(async () => {
    ui = await startUi();
    await registerCorpusPlugin(ui, 'fuel-plugin-murano');
    await registerCorpusPlugin(ui, 'fuel-plugin-cinder-netapp');
    // A second network core beside ML2 (issue 15 item 7): a plugin made with `hearth plugin create`.
    dir = mkdtempSync(join(tmpdir(), 'hearth-core-'));
    execFileSync(process.execPath, [hearthBin, 'plugin', 'create', 'other-core'], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
    writeFileSync(join(dir, 'other-core', 'components.yaml'), "- name: 'network:neutron:core:other'\n  label: 'Other SDN'\n  description: 'A network core that is not ML2'\n");
    await ui.call('POST', '/plugins/folders', { path: join(dir, 'other-core') });
  });
  after(async () => {
    await ui?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Nodes added through the API, in the environment, with roles. */
  async function addNodes(clusterId: number, roles: string[][]): Promise<ApiNode[]> {
    const { ids } = await ui.call<{ ids: number[] }>('POST', '/nodes', { simulate: { count: roles.length } });
    await ui.call('POST', `/clusters/${clusterId}/nodes`, { assignments: ids.map((id, i) => ({ node_id: id, roles: roles[i] })) });
    return ui.call<ApiNode[]>('GET', `/clusters/${clusterId}/nodes`);
  }

  async function deployAndWait(clusterId: number): Promise<void> {
    const started = await ui.call<{ id: number }>('POST', `/clusters/${clusterId}/deploy`, {});
    for (let i = 0; i < 600; i++) {
      const d = await ui.call<{ status: string }>('GET', `/clusters/${clusterId}/deployments/${started.id}`);
      if (d.status !== 'running') return assert.equal(d.status, 'succeeded');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('the deployment did not finish');
  }

  test('1. a changed setting saves, and a refusal is shown at the plugin it concerns, with the server\'s reason', async () => {
    const env = await makeEnvironment(ui, 'settings-save', ['additional_service:detach-murano']);
    const p = await ui.page(`#/env/${env.id}/settings`);
    const debug = p.getByLabel('OpenStack debug logging');
    await debug.check();
    await p.click('button:has-text("Save settings")');
    await p.locator('[role="status"]:has-text("Saved.")').waitFor();
    const saved = await ui.call<{ editable: Editable }>('GET', `/clusters/${env.id}/attributes`);
    assert.equal(saved.editable.common.debug.value, true, 'the server has the new value');

    // Meanwhile a node takes the plugin's role (another operator, a script): the page does not know yet.
    await addNodes(env.id, [['murano-node']]);
    const murano = p.locator('fieldset.plugin', { hasText: /Murano/ });
    await murano.locator('legend input[type="checkbox"]').uncheck();
    await p.click('button:has-text("Save settings")');
    const reason = murano.locator('.refusal');
    await reason.waitFor();
    assert.match(await reason.innerText(), /nodes hold its roles: node-\d+/);
    assert.equal(await murano.locator('legend input[type="checkbox"]').isChecked(), true, 'the box shows what the server kept');
    await ui.shot(p, 'broken-1-plugin-refused');
    const after = await ui.call<{ plugins: Array<{ name: string; enabled: boolean }> }>('GET', `/clusters/${env.id}/attributes`);
    assert.equal(after.plugins.find((x) => x.name === 'detach-murano')?.enabled, true, 'the plugin stays enabled');
    await p.close();
  });

  test('2. a wrong token is refused when entered, and the page says where the token comes from', async () => {
    const p = await ui.page('#/', { token: null });
    assert.match(await p.locator('header').innerText(), /Admin token/);
    await p.fill('#admin-token', 'not-the-admin-token-at-all');
    await p.click('button:has-text("Sign in")');
    const wrong = p.locator('.token [role="alert"]');
    await wrong.waitFor();
    const text = await wrong.innerText();
    assert.match(text, /not the admin token/i);
    assert.match(text, /HEARTH_ADMIN_TOKEN/);
    assert.match(text, /printed/);
    assert.equal(await p.locator('text=Signed in as admin').count(), 0);
    await ui.shot(p, 'broken-2-wrong-token');
    await p.fill('#admin-token', ui.server.token);
    await p.click('button:has-text("Sign in")');
    await p.locator('text=Signed in as admin').waitFor();
    await p.close();
  });

  test('3. a deployed role cannot be unticked: the box says why, and the server refuses it too', async () => {
    const env = await makeEnvironment(ui, 'deployed-role');
    const nodes = await addNodes(env.id, [['controller', 'database', 'messaging'], ['compute']]);
    await deployAndWait(env.id);
    const controller = nodes.find((n) => n.pending_roles.includes('controller'))!;
    const p = await ui.page(`#/env/${env.id}/nodes`);
    const box = p.locator(`input[aria-label="controller on ${controller.name}"]`);
    await box.waitFor();
    assert.equal(await box.isChecked(), true);
    await box.click({ force: true });
    assert.equal(await box.isChecked(), true, 'a deployed role stays ticked');
    const why = p.locator(`#${await box.getAttribute('aria-describedby')}`);
    assert.match(await why.innerText(), /deployed.*remov/i);
    await ui.shot(p, 'broken-3-deployed-role');
    await assert.rejects(
      ui.call('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: controller.id, roles: ['database', 'messaging'] }] }),
      /deployed.*deletion graph/,
    );
    const still = await ui.call<ApiNode[]>('GET', `/clusters/${env.id}/nodes`);
    assert.ok(still.find((n) => n.id === controller.id)!.roles.includes('controller'));
    await p.close();
  });

  test('4. an environment with a 60-character name gets nodes, and node names are unique', async () => {
    const name = 'an-environment-whose-name-is-long-enough-to-break-node-names';
    assert.ok(name.length >= 60);
    const env = await makeEnvironment(ui, name);
    const p = await ui.page(`#/env/${env.id}/nodes`);
    await p.fill('#node-count', '3');
    await p.click('button:has-text("Add nodes")');
    await p.locator('table.roles-table tbody tr').nth(2).waitFor();
    await p.fill('#node-count', '2');
    await p.click('button:has-text("Add nodes")');
    await p.locator('table.roles-table tbody tr').nth(4).waitFor();
    assert.equal(await p.locator('.problems').count(), 0);
    await ui.shot(p, 'broken-4-long-name');
    const all = await ui.call<ApiNode[]>('GET', '/nodes');
    assert.equal(new Set(all.map((n) => n.name)).size, all.length, `node names are unique: ${all.map((n) => n.name).join(', ')}`);
    await p.close();
  });

  test('5. uploading a package names the plugin, lists its warnings, and the same file again is answered', async () => {
    const file = buildCorpusPackage('fuel-plugin-openstack-telemetry');
    const p = await ui.page('#/plugins');
    await p.setInputFiles('#plugin-upload', file);
    const status = p.locator('.upload-result');
    await status.waitFor();
    const text = await status.innerText();
    assert.match(text, /Installed .*Telemetry.* 1\.0\.2/);
    assert.doesNotMatch(text, /undefined/);
    assert.match(text, /warning/i);
    await ui.shot(p, 'broken-5-upload');
    await p.setInputFiles('#plugin-upload', file);
    await p.locator('[role="alert"]:has-text("already installed")').waitFor();
    await p.close();
  });

  test('6. plugin settings honour hide restrictions live, render every type, and check regex rules before saving', async () => {
    const env = await makeEnvironment(ui, 'netapp', ['storage:block:backend:netapp']);
    const p = await ui.page(`#/env/${env.id}/settings`);
    const netapp = p.locator('fieldset.plugin', { hasText: /NetApp/ });
    await netapp.waitFor();
    const visible = () => netapp.locator('.field:visible').count();
    const first = await visible();
    assert.ok(first > 3 && first < 30, `a handful of NetApp fields for one backend, not 90 (${first})`);
    assert.doesNotMatch(await p.locator('main').innerText(), /\[object Object\]/);
    // No empty boxes: a section whose fields are all hidden is not drawn; descriptions are whole.
    assert.equal(await p.locator('fieldset[data-section="provision"]').count(), 0);
    assert.match(await p.locator('fieldset[data-section="additional_components"]').innerText(), /Prometheus, Alertmanager, Grafana and Loki on Monitoring nodes\./);
    // Choosing SolidFire shows its fields and hides ONTAP's, as the plugin's restrictions say.
    assert.equal(await netapp.getByText('1st NetApp Backend Cluster MVIP (san_ip)').count(), 0);
    await netapp.getByLabel('1st NetApp Backend Storage Family').first().waitFor();
    await netapp.locator('input[type="radio"][value="solidfire"]').first().check();
    await netapp.getByText('1st NetApp Backend Cluster MVIP (san_ip)').waitFor();
    assert.equal(await netapp.getByText('1st NetApp Backend Storage Hostname/IP').count(), 0);
    // A second backend appears when asked for.
    await netapp.getByLabel('NetApp Backends').selectOption('2');
    await netapp.getByText('2nd NetApp Backend Storage Family').first().waitFor();
    await ui.shot(p, 'broken-6-netapp');
    // A value against the field's regex is said at the field, as you type, and nothing is sent.
    const email = p.getByLabel('Email', { exact: true });
    await email.fill('not an email');
    const error = p.locator('.field-error', { hasText: 'Invalid email' });
    await error.waitFor();
    assert.equal(await p.locator('button:has-text("Save settings")').isDisabled(), true);
    await email.fill('ops@example.com');
    await error.waitFor({ state: 'detached' });
    await p.close();
  });

  test('7. without Monitoring, no monitoring task runs, and the graph has no condition it cannot read', async () => {
    const env = await makeEnvironment(ui, 'no-monitoring');
    await addNodes(env.id, [['controller', 'database', 'messaging'], ['compute']]);
    const graph = await ui.call<{ nodes: Array<{ id: string; tasks: Array<{ id: string; skipped?: boolean }> }>; findings: Array<{ message: string }> }>('GET', `/clusters/${env.id}/graphs/default?format=json`);
    assert.deepEqual(graph.findings.filter((f) => /could not be evaluated|does not have/.test(f.message)).map((f) => f.message), []);
    const p = await ui.page(`#/env/${env.id}/graph`);
    await p.locator('[data-testid="graph-summary"]').waitFor({ timeout: 60_000 });
    await p.fill('#graph-search', 'monitoring-agent');
    assert.match(await p.locator('[role="status"]').first().innerText(), /^0 matching tasks/);
    await ui.shot(p, 'broken-7-no-monitoring');
    await p.close();
  });

  test('issue 15 item 7: leaving ML2 for another core and coming back is never a dead end (the wizard shows the engine\'s state)', async () => {
    const p = await ui.page('#/new');
    await p.fill('#env-name', 'ml2-and-back');
    await p.click('button:has-text("Next")');
    await p.click('button:has-text("Next")');
    const other = p.locator('[data-component="network:neutron:core:other"] input');
    const ml2 = p.locator('[data-component="network:neutron:core:ml2"] input');
    await other.click();
    await p.waitForFunction(`document.querySelector('[data-component="network:neutron:core:other"] input')?.checked === true`);
    assert.equal(await ml2.isChecked(), false);
    // The drivers wait for ML2, and say so; ML2 itself stays a choice.
    assert.match(await p.locator('[data-component="network:neutron:ml2:vlan"] .why').innerText(), /requires Neutron with ML2/);
    assert.equal(await ml2.getAttribute('aria-disabled'), null, await p.locator('[data-component="network:neutron:core:ml2"]').innerText());
    await ui.shot(p, 'issue15-7-other-core');
    await ml2.click();
    await p.waitForFunction(`document.querySelector('[data-component="network:neutron:core:ml2"] input')?.checked === true`);
    assert.equal(await other.isChecked(), false);
    await p.close();
  });
});
