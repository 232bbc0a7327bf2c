/**
 * The whole operator's walk in the web UI, in one test (issue 16, "Done means"): two real corpus
 * plugins installed from packages, an environment made in the wizard, 20 nodes with roles given in
 * bulk (3 controllers, 15 computes, 2 storage), a setting and a plugin's setting changed, a plugin
 * whose role is assigned refused with the reason, a (dry-run) deployment watched to the end, a
 * task's output read, the graph looked at, and the environment deleted. Debian's Chromium against
 * a real `hearth serve`; a screenshot per step in test-results/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { needsBrowser } from '../support/browser.js';
import { corpusRoot } from '../support/corpus.js';
import type { Page } from 'playwright-core';
import { buildCorpusPackage, startUi, type UiSession } from '../support/ui.js';

const skip = needsBrowser.skip || (corpusRoot ? false : 'HEARTH_CORPUS not set: UI tests with corpus plugins skipped');

interface ApiNode {
  id: number;
  name: string;
  roles: string[];
  pending_roles: string[];
}

describe('web UI: the whole walk', { skip, timeout: 600_000 }, () => {
  let ui: UiSession;
  // The walk closes its page at its end: a page still open here is where it stopped, shown for the failure.
  let walking: Page | undefined;
  before(async () => {
    ui = await startUi();
  });
  after(async () => {
    if (walking && !walking.isClosed()) {
      console.log(`the walk stopped here: ${await ui.explain(walking).catch((e: Error) => e.message)}`);
      await ui.shot(walking, 'walk-stopped').catch(() => undefined);
    }
    await ui?.close();
  });

  test('install, create, 20 nodes in bulk, settings, a refusal, deploy, output, graph, delete', async () => {
    const packages = [buildCorpusPackage('fuel-plugin-murano'), buildCorpusPackage('fuel-plugin-cinder-netapp')];
    const p = await ui.page('#/plugins');
    walking = p;
    const dialogs: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    const step = (name: string) => ui.shot(p, `walk-${name}`);

    // 1. Two plugins from their packages.
    for (const [file, title] of [
      [packages[0], /Installed Murano plugin 1\.2\.0/],
      [packages[1], /Installed Cinder and NetApp integration 6\.0\.1/],
    ] as const) {
      await p.setInputFiles('#plugin-upload', file);
      await p.locator('.upload-result', { hasText: title }).waitFor();
    }
    await p.locator('article[data-plugin="cinder_netapp"]').waitFor();
    await step('1-plugins');

    // 2. The wizard, choosing a component of each plugin.
    await p.click('a:has-text("Environments")');
    await p.click('text=New environment');
    await p.fill('#env-name', 'walk');
    await p.click('button:has-text("Next")');
    await p.click('button:has-text("Next")');
    await p.click('button:has-text("Next")');
    await p.locator('[data-component="storage:block:backend:netapp"] input').click();
    await p.waitForFunction(`document.querySelector('[data-component="storage:block:backend:netapp"] input')?.checked === true`);
    await p.click('button:has-text("Next")');
    await p.locator('[data-component="additional_service:detach-murano"] input').click();
    await p.waitForFunction(`document.querySelector('[data-component="additional_service:detach-murano"] input')?.checked === true`);
    await p.click('button:has-text("Next")');
    const review = await p.locator('.review').innerText();
    assert.match(review, /detach-murano 1\.2\.0/);
    assert.match(review, /cinder_netapp 6\.0\.1/);
    await step('2-review');
    await p.click('button:has-text("Create environment")');
    await p.waitForFunction(`/^#\\/env\\/\\d+\\/nodes/.test(location.hash)`);
    const id = Number(/#\/env\/(\d+)/.exec((await p.evaluate('location.hash')) as string)![1]);

    // 3. Twenty nodes.
    await p.fill('#node-count', '20');
    await p.click('button:has-text("Add nodes")');
    await p.locator('table.roles-table tbody tr').nth(19).waitFor();
    const names = await p.locator('table.roles-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-node') ?? ''));
    assert.equal(new Set(names).size, 20);

    // 4. Roles in bulk: 3 controllers (with database, messaging, and Murano on the first), 15 computes, 2 storage.
    const panel = p.locator('fieldset.roles-panel');
    const select = async (list: string[], on: boolean) => {
      for (const n of list) await p.getByLabel(`Select ${n}`, { exact: true }).setChecked(on);
    };
    const give = async (list: string[], roles: string[]) => {
      await select(list, true);
      for (const r of roles) await panel.locator(`[data-role="${r}"] input`).check();
      await select(list, false);
    };
    await give(names.slice(0, 3), ['controller', 'database', 'messaging']);
    await give(names.slice(0, 1), ['murano-node']);
    await give(names.slice(3, 18), ['compute']);
    await give(names.slice(18), ['cinder']);
    await p.locator('[data-testid="no-roles"]').waitFor({ state: 'detached' });
    await step('4-roles');
    await p.click('button:has-text("Save roles")');
    await p.locator('[role="status"]:has-text("Saved.")').waitFor();
    const nodes = await ui.call<ApiNode[]>('GET', `/clusters/${id}/nodes`);
    const count = (role: string) => nodes.filter((n) => n.pending_roles.includes(role)).length;
    assert.deepEqual([count('controller'), count('compute'), count('cinder'), count('murano-node')], [3, 15, 2, 1]);

    // 5. A setting and a plugin's setting.
    await p.click('nav.tabs a:has-text("Settings")');
    await p.getByLabel('OpenStack debug logging').check();
    const netapp = p.locator('fieldset.plugin', { hasText: /NetApp/ });
    await netapp.getByLabel('1st NetApp Backend Username').fill('cinder-admin');
    await p.click('button:has-text("Save settings")');
    await p.locator('[role="status"]:has-text("Saved.")').waitFor();
    const attributes = await ui.call<{ editable: Record<string, Record<string, { value?: unknown }>> }>('GET', `/clusters/${id}/attributes`);
    assert.equal(attributes.editable.common.debug.value, true);
    assert.equal(attributes.editable.cinder_netapp.netapp_login1.value, 'cinder-admin');

    // 6. Murano's role is assigned: disabling it is refused before any click, with the reason.
    const murano = p.locator('fieldset.plugin', { hasText: /Murano/ });
    const box = murano.locator('legend input[type="checkbox"]');
    assert.equal(await box.getAttribute('aria-disabled'), 'true');
    assert.equal(await p.locator(`#${await box.getAttribute('aria-describedby')}`).innerText(), `It cannot be disabled: nodes hold its roles: ${names[0]}.`);
    await box.click({ force: true });
    assert.equal(await box.isChecked(), true);
    await step('6-settings');

    // 7. Deploy (a dry run: the nodes are simulated), watched to the end.
    await p.click('nav.tabs a:has-text("Deploy")');
    await p.click('button:has-text("Deploy changes")');
    assert.match(dialogs[dialogs.length - 1], /^Deploy walk\? The default graph runs on 20 nodes; 20 of them get new roles\. The nodes are simulated, so this is a dry run: nothing runs on machines\.$/);
    await p.waitForFunction(`document.querySelector('p[data-status]')?.getAttribute('data-status') === 'succeeded'`, undefined, { timeout: 120_000 });
    await step('7-deployed');
    assert.equal(await p.locator('table.per-node tbody tr').count(), 21, '20 nodes and Hearth\'s own steps');

    // 8. A task's output.
    const row = p.locator('table.tasks tbody tr[data-state="ready"]').first();
    await row.locator('button.output-toggle').click();
    const task = await row.getAttribute('data-task');
    await p.locator(`tr.task-output[data-output-of="${task}"] p`, { hasText: 'This was a dry run: the task did not run on a machine, so it has no output.' }).first().waitFor();

    // 9. The graph.
    await p.click('nav.tabs a:has-text("Graph")');
    await p.locator('[data-testid="graph-summary"]').waitFor({ timeout: 60_000 });
    assert.match(await p.locator('[data-testid="graph-summary"]').innerText(), /^21 nodes, \d+ tasks/);
    assert.ok((await p.locator('text.node-label').allTextContents()).some((l) => l.startsWith(`${names[0]} · `)));
    await step('9-graph');

    // 10. Delete the environment.
    await p.click('button:has-text("Delete environment…")');
    await p.locator('h1#envs-title').waitFor();
    assert.match(dialogs[dialogs.length - 1], /^Delete walk\?/);
    assert.equal((await ui.call<Array<{ name: string }>>('GET', '/clusters')).length, 0);
    await step('10-deleted');
    await p.close();
  });
});
