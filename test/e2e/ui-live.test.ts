/**
 * The environment's pages are current whoever changes the environment (issue 25): with the Deploy
 * tab open, a deployment started from the CLI (the built `bin/hearth env deploy`, against the same
 * server) appears at once, is followed, holds Deploy back while it runs, and the header status goes
 * Deploying, then Operational, without the page being reloaded; the Nodes tab shows the model's
 * labels (Ready). Then the Deploy tab runs a graph other than the default one on a chosen node and
 * shows the run, and the history lists it with its graph type. Debian's Chromium against a real
 * `hearth serve` (simulated nodes: their runs are simulations); screenshots in test-results/.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { needsBrowser, resultsDir } from '../support/browser.js';
import { hearthBin } from '../support/serve.js';
import { makeEnvironment, startUi, waitOrSay, type UiSession } from '../support/ui.js';

const run = promisify(execFile);
/** The page as one sees it (the window, not the whole long page), beside the whole-page shot. */
const seen = (p: Page, name: string) => p.screenshot({ path: join(resultsDir, `ui-${name}-window.png`) });

describe('web UI: an environment always current', { skip: needsBrowser.skip, timeout: 300_000 }, () => {
  let ui: UiSession;
  before(async () => {
    ui = await startUi();
  });
  after(async () => {
    await ui?.close();
  });

  test('a deployment started from the CLI shows in the open Deploy tab; a non-default graph runs from the UI', async () => {
    const env = await makeEnvironment(ui, 'live');
    // 40 simulated nodes: their simulated run takes seconds, time enough to see it running.
    const { ids } = await ui.call<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 40, prefix: 'live' } });
    await ui.call('POST', `/clusters/${env.id}/nodes`, { assignments: ids.map((id, i) => ({ node_id: id, roles: i < 3 ? ['controller', 'database', 'messaging'] : ['compute'] })) });

    const p = await ui.page(`#/env/${env.id}/deploy`);
    const dialogs: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    // What the page asks about each run: a running dry run is followed on its live stream, not
    // read whole again and again (it was every 300 ms: 40 MB a look at 200,000 tasks; issue 30).
    const asked: string[] = [];
    p.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (/^\/api\/v1\/deployments\/\d+\/(tasks|events)$/.test(path)) asked.push(path);
    });
    const header = p.locator('[data-testid="env-status"]');
    // A wait that fails says what the header showed, and what the page showed and said.
    const headerSays = async () => `the header showed: ${(await header.count()) ? JSON.stringify(`${await header.getAttribute('data-status')}: ${await header.innerText()}`) : '(no header)'}`;
    await waitOrSay(ui, p, p.locator('[data-testid="env-status"][data-status="new"]'), {}, headerSays);
    await waitOrSay(ui, p, p.locator('text=No deployment yet.'), {}, headerSays);
    const deploy = p.locator('.deploy .actions button.primary');
    await waitOrSay(ui, p, p.locator('.deploy .actions button.primary:enabled'), {}, headerSays);
    // Marks this page: a reload would lose it.
    await p.evaluate('window.__notReloaded = true');
    await ui.shot(p, 'live-1-before');

    // From the CLI, as another operator would, while the page stays open.
    const cli = run(process.execPath, [hearthBin, 'env', 'deploy', 'live', '--no-wait', '--server', ui.server.url, '--token', ui.server.token], { timeout: 60_000 });
    const status = p.locator('.deployment p[data-status]');
    await waitOrSay(ui, p, p.locator('.deployment p[data-status="running"]'), { timeout: 20_000 }, headerSays);
    assert.match(await status.innerText(), /^Dry run \d+ running/);
    await waitOrSay(ui, p, p.locator('[data-testid="env-status"][data-status="deploying"]'), { timeout: 10_000 }, headerSays);
    assert.match(await header.innerText(), /Deploying/);
    assert.equal(await deploy.isDisabled(), true, 'Deploy is held back while a run is running');
    await ui.shot(p, 'live-2-started-from-the-cli');
    await seen(p, 'live-2-started-from-the-cli');
    const { stdout } = await cli;
    const started = Number(/(\d+)/.exec(stdout)?.[1]);

    await waitOrSay(ui, p, p.locator('.deployment p[data-status="succeeded"]'), { timeout: 120_000 }, headerSays);
    assert.match(await status.innerText(), new RegExp(`^Dry run ${started} succeeded`));
    await waitOrSay(ui, p, p.locator('[data-testid="env-status"][data-status="operational"]'), { timeout: 10_000 }, headerSays);
    assert.match(await header.innerText(), /Operational/);
    await p.locator(`table.history tr[data-deployment="${started}"]`).waitFor();
    await p.locator('.deploy .actions button.primary:has-text("Redeploy"):enabled').waitFor({ timeout: 10_000 });
    await ui.shot(p, 'live-3-ended');
    await seen(p, 'live-3-ended');
    assert.equal(await p.evaluate('window.__notReloaded'), true, 'the page was not reloaded');
    const ofRun = (what: string) => asked.filter((a) => a === `/api/v1/deployments/${started}/${what}`).length;
    console.log(`# asked of dry run ${started}: ${ofRun('tasks')} whole task lists, ${ofRun('events')} live streams`);
    assert.ok(ofRun('events') >= 1, `the running dry run was followed on its live stream: ${asked.join(', ')}`);
    assert.ok(ofRun('tasks') <= 3, `its whole task list was read when it appeared and when it ended, not again and again: ${asked.join(', ')}`);
    assert.deepEqual(dialogs, []);

    // The Nodes tab: the model's words (Ready: deployed and healthy), not 'deployed'.
    await p.click('nav.tabs a:has-text("Nodes")');
    const firstStatus = p.locator('table.roles-table tbody tr td[data-status]').first();
    await firstStatus.waitFor();
    assert.equal(await firstStatus.getAttribute('data-status'), 'ready');
    assert.equal((await firstStatus.innerText()).trim(), 'Ready');
    await ui.shot(p, 'live-4-nodes');

    // Another graph, on one node chosen, from the Deploy tab.
    await p.click('nav.tabs a:has-text("Deploy")');
    await p.locator('[data-testid="graph-run"] summary').click();
    // The graphs are listed once the page has fetched them: read the options after they came.
    await waitOrSay(ui, p, p.locator('#graph-run-type option[value="deletion"]'), { state: 'attached', timeout: 20_000 }, headerSays);
    const options = await p.locator('#graph-run-type option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    assert.ok(options.includes('default') && options.includes('deletion'), `graph types listed: ${options.join(', ')}`);
    await p.selectOption('#graph-run-type', 'deletion');
    await p.locator('[data-testid="graph-run"] input[type="radio"]').nth(1).check();
    const chosen = `live-${ids[3]}`;
    await p.locator('[data-testid="graph-run"] .graph-run-nodes label').filter({ hasText: new RegExp(`^\\s*${chosen}\\s*$`) }).locator('input').check();
    await ui.shot(p, 'live-5-graph-run-form');
    await seen(p, 'live-5-graph-run-form');
    await p.click('[data-testid="graph-run"] button:has-text("Run the deletion graph")');
    await p.locator('.deployment p[data-status="succeeded"]:has-text("of the deletion graph")').waitFor({ timeout: 60_000 });
    assert.match(dialogs.at(-1) ?? '', new RegExp(`^Run the deletion graph of live on ${chosen}\\?`));
    const runId = Number(/Dry run (\d+)/.exec(await status.innerText())![1]);
    assert.ok(runId > started);
    const row = p.locator(`table.history tr[data-deployment="${runId}"]`);
    await row.waitFor();
    assert.equal((await row.locator('td').first().innerText()).trim(), 'deletion');
    // Only the node chosen ran it.
    const runs = await ui.call<Array<{ node: string }>>('GET', `/deployments/${runId}/tasks`);
    assert.ok(runs.length > 0);
    assert.deepEqual([...new Set(runs.map((t) => t.node))].filter((n) => n !== 'master' && n !== 'sync'), [String(ids[3])]);
    // A graph other than the default one leaves the environment's status as it was. The header is
    // redrawn from the environment's own answer, which can come a moment after the run's (CI saw
    // "Deploying" once, read in that moment): waited for, then read.
    await waitOrSay(ui, p, header.filter({ hasText: 'Operational' }), { timeout: 20_000 }, headerSays);
    assert.match(await header.innerText(), /Operational/);
    await ui.shot(p, 'live-6-graph-run');
    await seen(p, 'live-6-graph-run');
  });
});
