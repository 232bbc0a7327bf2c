/**
 * What operators expect of the web UI past the wizard (issue 16, "Missing"), each walked as a user
 * in Debian's Chromium against a real `hearth serve`: the Plugins page, the Nodes tab, an
 * environment's lifecycle, the Deploy and Graph tabs, forms and wording. Screenshots land in
 * test-results/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { needsBrowser } from '../support/browser.js';
import { corpusRoot } from '../support/corpus.js';
import { makeEnvironment, registerCorpusPlugin, startUi, type UiSession } from '../support/ui.js';

const skip = needsBrowser.skip || (corpusRoot ? false : 'HEARTH_CORPUS not set: UI tests with corpus plugins skipped');

interface ApiNode {
  id: number;
  name: string;
  roles: string[];
  pending_roles: string[];
}

describe('web UI: what operators expect', { skip, timeout: 600_000 }, () => {
  let ui: UiSession;

  before(async () => {
    ui = await startUi();
    for (const plugin of ['fuel-plugin-murano', 'fuel-plugin-contrail', 'fuel-plugin-cinder-netapp', 'fuel-plugin-cinder-netapp@1.2.0-eol']) await registerCorpusPlugin(ui, plugin);
  });
  after(async () => {
    await ui?.close();
  });

  async function addNodes(clusterId: number, roles: string[][]): Promise<ApiNode[]> {
    const { ids } = await ui.call<{ ids: number[] }>('POST', '/nodes', { simulate: { count: roles.length } });
    await ui.call('POST', `/clusters/${clusterId}/nodes`, { assignments: ids.map((id, i) => ({ node_id: id, roles: roles[i] })) });
    return ui.call<ApiNode[]>('GET', `/clusters/${clusterId}/nodes`);
  }

  test('Plugins page: fit per release and why not, install warnings, versions side by side, enable in an existing environment', async () => {
    const env = await makeEnvironment(ui, 'plugins-page');
    const p = await ui.page('#/plugins');
    // Contrail fits: its roles without a disk layout get the layout of their other roles, as in Fuel 9.0 (issue 26).
    const contrail = p.locator('article[data-plugin="contrail"]');
    await contrail.waitFor();
    const contrailFit = contrail.locator('[data-fit]').first();
    assert.equal(await contrailFit.getAttribute('data-fit'), 'yes');
    assert.match(await contrailFit.innerText(), /^Yes: /);
    const murano = p.locator('article[data-plugin="detach-murano"]');
    assert.match(await murano.locator('[data-fit]').first().innerText(), /^Yes: it extends ubuntu\/mitaka-9\.0/);
    // Its warnings from install are kept.
    const installWarnings = murano.locator('details[data-install-findings]');
    await installWarnings.locator('summary').click();
    assert.match(await installWarnings.innerText(), /groups/);
    // Two versions of one plugin, side by side.
    const netapp = p.locator('article[data-plugin="cinder_netapp"]');
    assert.deepEqual(await netapp.locator('thead th').allInnerTexts(), ['Version', '1.2.0', '6.0.1']);
    await ui.shot(p, 'plugins-page');
    // Enabled in an environment that did not choose it in the wizard.
    await murano.locator('button', { hasText: 'Enable or disable it in an environment' }).click();
    const row = murano.locator(`tr[data-env="${env.name}"]`);
    await row.locator('select').selectOption('1.2.0');
    await row.locator('button', { hasText: 'Apply' }).click();
    await row.locator('[role="status"]', { hasText: 'Enabled detach-murano 1.2.0.' }).waitFor();
    const cluster = await ui.call<{ plugins: Record<string, string> }>('GET', `/clusters/${env.id}`);
    assert.equal(cluster.plugins['detach-murano'], 'detach-murano@1.2.0');
    await p.locator(`article[data-plugin="detach-murano"] a:has-text("${env.name}")`).first().waitFor();
    // Disabling it while a node holds its role is refused on the row, with the reason.
    await addNodes(env.id, [['murano-node']]);
    await row.locator('select').selectOption('');
    await row.locator('button', { hasText: 'Apply' }).click();
    assert.match(await row.locator('[role="alert"]').innerText(), /cannot be disabled: nodes hold its roles: node-\d+/);
    await ui.shot(p, 'plugins-page-refused');
    await p.close();
  });

  test('Nodes tab: bulk roles with conflicts disabled before a click, limits said once and ranked, filter, sort, unroled nodes flagged, removal', async () => {
    const env = await makeEnvironment(ui, 'nodes-tab');
    const p = await ui.page(`#/env/${env.id}/nodes`);
    p.on('dialog', (d) => void d.accept());
    await p.fill('#node-count', '6');
    await p.click('button:has-text("Add nodes")');
    await p.locator('table.roles-table tbody tr').nth(5).waitFor();
    assert.match(await p.locator('[data-testid="no-roles"]').innerText(), /^6 nodes have no role and will not be deployed/);
    const names = await p.locator('table.roles-table tbody th[scope="row"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));
    // Three nodes selected, Controller for all of them at once: Compute is disabled before any click, with why.
    for (const name of names.slice(0, 3)) await p.getByLabel(`Select ${name}`, { exact: true }).check();
    const panel = p.locator('fieldset.roles-panel');
    await panel.locator('[data-role="controller"] input').check();
    const compute = panel.locator('[data-role="compute"]');
    assert.equal(await compute.locator('input').getAttribute('aria-disabled'), 'true');
    assert.match(await compute.locator('.why').innerText(), /Compute cannot be combined with Controller \(node-\d+\)/);
    // A role the settings rule out says so, in its own words.
    const monitoring = panel.locator('[data-role="monitoring"]');
    assert.equal(await monitoring.locator('input').getAttribute('aria-disabled'), 'true');
    assert.equal(await monitoring.locator('.why').innerText(), 'Turn on "Monitoring" in the additional components to use this role.');
    await ui.shot(p, 'nodes-bulk');
    // Removed from all of them at once, and given again.
    await panel.locator('[data-role="controller"] input').uncheck();
    await p.locator('[data-testid="no-roles"]', { hasText: /^6 nodes have no role/ }).waitFor();
    await panel.locator('[data-role="controller"] input').check();
    for (const name of names.slice(0, 3)) await p.getByLabel(`Select ${name}`, { exact: true }).uncheck();
    for (const name of names.slice(3)) await p.getByLabel(`Select ${name}`, { exact: true }).check();
    await panel.locator('[data-role="compute"] input').check();
    await p.locator('[data-testid="no-roles"]').waitFor({ state: 'detached' });
    // The role rules' findings: each once, errors before recommendations.
    const notes = p.locator('ul[aria-label="Before deploying"] li');
    await notes.first().waitFor();
    // The list as it settles: it is redrawn as each dry run answers, and on a busy machine answers
    // to the last few clicks may still be arriving. Read it until two looks, 300 ms apart, agree
    // (a list that keeps a duplicate is as settled as any other, and fails below).
    const snapshot = () => notes.evaluateAll((items) => items.map((i) => ({ text: i.textContent ?? '', severity: i.getAttribute('data-severity') ?? '', code: i.getAttribute('data-code') ?? '' })));
    let listed = await snapshot();
    for (const settleBy = Date.now() + 15_000; Date.now() < settleBy; ) {
      await new Promise((r) => setTimeout(r, 300));
      const again = await snapshot();
      if (JSON.stringify(again) === JSON.stringify(listed)) break;
      listed = again;
    }
    const texts = listed.map((l) => l.text);
    assert.equal(new Set(texts).size, texts.length, `each finding once: ${texts.join(' / ')}`);
    assert.ok(texts.some((t) => /^needed to deploy database \(Database\): At least 1 Database node is required/.test(t)), texts.join(' / '));
    const ranks = listed.map((l) => ({ error: 0, warning: 10, info: 20 })[l.severity as 'info'] + (l.code === 'role/too-few' ? 0 : l.code === 'role/below-recommended' ? 2 : 1));
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));
    await p.click('button:has-text("Save roles")');
    await p.locator('[role="status"]:has-text("Saved.")').waitFor();
    let nodes = await ui.call<ApiNode[]>('GET', `/clusters/${env.id}/nodes`);
    assert.equal(nodes.filter((n) => n.pending_roles.includes('controller')).length, 3);
    assert.equal(nodes.filter((n) => n.pending_roles.includes('compute')).length, 3);
    // Filter and sort.
    await p.fill('#node-filter', 'controller');
    await p.locator('[role="status"]:has-text("3 of 6 nodes shown")').waitFor();
    await p.fill('#node-filter', '');
    await p.selectOption('#node-sort', 'role');
    const firstRow = await p.locator('table.roles-table tbody tr').first().getAttribute('data-node');
    assert.ok(nodes.find((n) => n.name === firstRow)?.pending_roles.includes('compute'), 'compute sorts before controller');
    // Removing a node, confirmed, returns it to the pool.
    for (const name of names) await p.getByLabel(`Select ${name}`, { exact: true }).uncheck();
    await p.getByLabel(`Select ${names[5]}`, { exact: true }).check();
    await p.click('button:has-text("Remove selected from the environment")');
    // Never deployed: it leaves at once, and the page says so (a deployed one would be cleaned first).
    await p.locator('[role="status"]', { hasText: new RegExp(`${names[5]}.* left environment .*nothing was deployed on it`) }).waitFor();
    nodes = await ui.call<ApiNode[]>('GET', `/clusters/${env.id}/nodes`);
    assert.equal(nodes.length, 5);
    await p.close();
  });

  test('Lifecycle and Deploy tab: rename checked as you type, deploy watched per node and task, failures first, history, redeploy, reset, delete, each confirmed in words', async () => {
    await makeEnvironment(ui, 'taken-name');
    const env = await makeEnvironment(ui, 'lifecycle');
    await addNodes(env.id, [['controller', 'database', 'messaging'], ['compute'], ['compute']]);
    const p = await ui.page(`#/env/${env.id}/nodes`);
    const dialogs: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    // Rename: the limit and a taken name are said at the field as you type.
    await p.click('button:has-text("Rename…")');
    await p.fill('#env-rename', 'x'.repeat(101));
    assert.match(await p.locator('#env-rename-problem').innerText(), /at most 100 characters; this one has 101/);
    await p.fill('#env-rename', 'taken-name');
    await p.locator('#env-rename-problem:has-text("exists already")').waitFor();
    assert.equal(await p.locator('form.rename button[type="submit"]').isDisabled(), true);
    await p.fill('#env-rename', 'lifecycle-renamed');
    await p.click('form.rename button[type="submit"]');
    await p.locator('h1:has-text("lifecycle-renamed")').waitFor();

    // Deploy: confirmed in words, then watched: progress between 0 and every task is seen.
    await p.click('a:has-text("Deploy")');
    await p.click('button:has-text("Deploy changes")');
    const status = p.locator('p[data-status]');
    await status.waitFor();
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const text = await status.innerText();
      seen.add(text.replace(/\s+/g, ' '));
      if ((await status.getAttribute('data-status')) !== 'running') break;
      await p.waitForTimeout(50);
    }
    assert.match(dialogs[0], /^Deploy lifecycle-renamed\? The default graph runs on 3 nodes; 3 of them get new roles\. The nodes are simulated, so this is a dry run: nothing runs on machines\.$/);
    assert.equal(await status.getAttribute('data-status'), 'succeeded', await status.innerText());
    assert.ok([...seen].some((t) => /running .*— [1-9]\d* of \d+ tasks done/.test(t)), `progress was watchable: ${[...seen].join(' | ')}`);
    const nodes = await ui.call<ApiNode[]>('GET', `/clusters/${env.id}/nodes`);
    assert.deepEqual((await p.locator('table.per-node tbody th').allInnerTexts()).filter((n) => /^node-/.test(n)).sort(), nodes.map((n) => n.name).sort(), 'nodes by name');
    // A failed run lists its failure first, with the node's name; the history keeps both runs.
    await ui.call('POST', `/clusters/${env.id}/deploy`, { simulate_failure: { task: 'keystone' } });
    await p.reload();
    await p.locator('p[data-status="failed"]').waitFor({ timeout: 60_000 });
    assert.match(await p.locator('p[data-status="failed"]').innerText(), /task keystone failed on node-\d+$/, 'the failed node by name, not by id');
    const first = p.locator('table.tasks tbody tr').first();
    assert.equal(await first.getAttribute('data-state'), 'error');
    assert.equal(await first.getAttribute('data-task'), 'keystone');
    assert.equal(await p.locator('table.history tbody tr').count(), 2);
    await ui.shot(p, 'deploy-failed-first');
    await p.locator('table.history tbody tr').nth(1).locator('button').click();
    await p.locator('p[data-status="succeeded"]').waitFor();
    // Redeploy once the environment is deployed with nothing pending.
    await ui.call('POST', `/clusters/${env.id}/deploy`, {});
    for (let i = 0; i < 200 && (await ui.call<{ status: string }>('GET', `/clusters/${env.id}`)).status === 'deploying'; i++) await p.waitForTimeout(100);
    await p.reload();
    await p.locator('button:has-text("Redeploy")').waitFor();

    // Reset: nodes keep their roles as pending; nothing is deployed.
    await p.click('button:has-text("Reset to undeployed…")');
    // The lifecycle's label for `new` (src/core/lifecycle/states.ts), as the API and the CLI say `new`.
    await p.locator('[data-testid="env-status"][data-status="new"]:has-text("New")').waitFor();
    assert.match(dialogs[dialogs.length - 1], /keep their roles as pending roles/);
    const reset = await ui.call<ApiNode[]>('GET', `/clusters/${env.id}/nodes`);
    assert.deepEqual(reset.map((n) => n.roles.length), [0, 0, 0]);
    assert.ok(reset.some((n) => n.pending_roles.includes('controller')));

    // The release says which environments use it, with links.
    await p.goto(`${ui.server.url}/#/releases`);
    await p.locator('table a:has-text("lifecycle-renamed")').waitFor();

    // Delete: confirmed, and the environment is gone.
    await p.goto(`${ui.server.url}/#/env/${env.id}/nodes`);
    await p.click('button:has-text("Delete environment…")');
    await p.locator('h1#envs-title').waitFor();
    assert.match(dialogs[dialogs.length - 1], /^Delete lifecycle-renamed\? .*cannot be undone\.$/);
    const clusters = await ui.call<Array<{ name: string }>>('GET', '/clusters');
    assert.equal(clusters.some((c) => c.name === 'lifecycle-renamed'), false);
    await p.close();
  });

  test('Graph tab: nodes by name and role, a time axis and legend, the critical path explained, DOT, Mermaid, SVG and PNG exports', async () => {
    const env = await makeEnvironment(ui, 'graph-tab');
    const nodes = await addNodes(env.id, [['controller', 'database', 'messaging'], ['compute']]);
    const p = await ui.page(`#/env/${env.id}/graph`);
    await p.locator('[data-testid="graph-summary"]').waitFor({ timeout: 60_000 });
    const labels = await p.locator('text.node-label').allTextContents();
    const controller = nodes.find((n) => n.pending_roles.includes('controller'))!;
    assert.ok(labels.includes(`${controller.name} · controller, database, messaging`), labels.join(' | '));
    assert.ok((await p.locator('g.axis text').allTextContents()).includes('0 min'));
    assert.match(await p.locator('.legend').innerText(), /critical path/);
    await p.locator('.critical-path summary').click();
    assert.match(await p.locator('.critical-path').innerText(), /set how long the deployment takes/);
    await p.locator('.critical-path li button').first().click();
    assert.match(await p.locator('[aria-label="Selected task"]').innerText(), /on the critical path/);
    await ui.shot(p, 'graph-tab');
    const fetched = async (name: string) => {
      const [download] = await Promise.all([p.waitForEvent('download'), p.locator('.exports button', { hasText: new RegExp(`^${name}$`) }).click()]);
      const file = await download.path();
      const { readFileSync } = await import('node:fs');
      return { name: download.suggestedFilename(), bytes: readFileSync(file!) };
    };
    const dot = await fetched('DOT');
    assert.match(dot.name, /^graph-tab-default-graph\.dot$/);
    assert.match(dot.bytes.toString(), /^digraph/);
    assert.match((await fetched('Mermaid')).bytes.toString(), /^flowchart/);
    const svg = (await fetched('SVG')).bytes.toString();
    assert.match(svg, /^<svg /);
    assert.ok(svg.includes(controller.name), 'the SVG names the nodes');
    const png = (await fetched('PNG')).bytes;
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    await p.close();
  });

  test('Forms and wording: names checked at the field as you type, reasons are sentences, limits read as English and say their own message, a favicon', async () => {
    await makeEnvironment(ui, 'form-taken');
    const p = await ui.page('#/new');
    await p.fill('#env-name', 'n'.repeat(101));
    assert.match(await p.locator('#env-name-problem').innerText(), /^A name has at most 100 characters; this one has 101\.$/);
    assert.equal(await p.locator('button:has-text("Next")').isDisabled(), true);
    await p.fill('#env-name', 'form-taken');
    assert.equal(await p.locator('#env-name-problem').innerText(), "An environment named 'form-taken' exists already.");
    await p.fill('#env-name', 'form-new');
    await p.locator('#env-name-problem').waitFor({ state: 'detached' });
    await p.click('button:has-text("Next")');
    const reasons: string[] = [];
    for (let pane = 0; pane < 4; pane++) {
      await p.locator('.choice').first().waitFor();
      reasons.push(...(await p.locator('.choice .why').allInnerTexts()));
      await p.click('button:has-text("Next")');
    }
    assert.ok(reasons.length > 3);
    for (const r of reasons) assert.doesNotMatch(r, /\.[,;]|\.\.|\s\./, `a broken join: ${r}`);
    assert.ok(reasons.some((r) => /^Ceph RBD for ephemeral disks .* requires Ceph RBD for images .*, which is not chosen yet: Ephemeral disks in Ceph need images in Ceph too\./.test(r)), reasons.join('\n'));
    assert.ok(reasons.some((r) => r.includes('(which you chose): Choose one hypervisor. To enable it: unselect KVM')), reasons.join('\n'));
    await ui.shot(p, 'wording-wizard');
    // Limits: English counts, and the Ceph OSD limit's own message.
    const release = (await ui.call<Array<{ id: string }>>('GET', '/releases'))[0].id;
    const env = await ui.call<{ id: number }>('POST', '/clusters', { name: 'wording-ceph', release_id: release, components: ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'] });
    await addNodes(env.id, [['controller'], ['compute']]);
    await p.goto(`${ui.server.url}/#/env/${env.id}/nodes`);
    const notes = p.locator('ul[aria-label="Before deploying"]');
    await notes.waitFor();
    const text = await notes.innerText();
    assert.match(text, /At least 1 Database node is required/);
    assert.doesNotMatch(text, /1 Database nodes/);
    assert.match(text, /There must be at least as many Ceph OSD nodes as the Ceph replication factor\./);
    // A favicon.
    assert.equal(await p.locator('link[rel="icon"]').getAttribute('href'), '/favicon.svg');
    const icon = await fetch(`${ui.server.url}/favicon.svg`);
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /svg/);
    await p.close();
  });
});
