/**
 * The web UI on real hosts (issue 17): Debian's Chromium against a real `hearth serve` whose SSH
 * key is authorized on test hosts 14 and 15. Through the UI only: Hearth's key shown and copied,
 * an address with no host refused in the SSH error's words (nothing added), two hosts added by
 * address with their facts, roles given, a mixed environment refused with the server's reason, a
 * real deployment followed live (a task's output seen while it runs), stopped, resumed, a failed
 * task listed first with its exit status, a task's real output read, facts refreshed, a changed
 * host key shown and accepted, and a host gone off the network shown offline. A screenshot per
 * step in test-results/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { needsBrowser } from '../support/browser.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';
import { startUi, type UiSession } from '../support/ui.js';

const hosts = testHosts();
const skip = needsBrowser.skip || (hosts && hosts.addresses.length >= 15 ? false : `${HOSTS_NOTE} (this test needs hosts 14 and 15)`);
// An address on the test network where no host answers.
const NOBODY = '10.77.0.200';

// Real shell tasks: a controller task that waits for the test's word (so the run is watched and
// stopped while it runs, however loaded the machine), a compute waiting for it across nodes, and a
// check that fails without failing the deployment.
const GRAPH = `
- id: prepare
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "echo preparing $(hostname); echo a note on stderr >&2; mkdir -p /var/lib/hearth && hostname > /var/lib/hearth/ui-prepared", timeout: 60}
- id: controller-setup
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [prepare]
  parameters: {cmd: "echo controller $(hostname) configured", timeout: 60}
- id: slow-sync
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [controller-setup]
  parameters: {cmd: "echo tick-1; for i in $(seq 200); do [ -e /tmp/ui-go ] && break; sleep 0.25; done; echo tick-2", timeout: 60}
- id: controller-finish
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [slow-sync]
  parameters: {cmd: "echo finished > /var/lib/hearth/ui-finished; echo controller finished", timeout: 60}
- id: compute-join
  type: shell
  version: 2.1.0
  roles: [compute]
  requires: [prepare]
  cross-depends: [{name: slow-sync, role: [controller]}]
  parameters: {cmd: "echo compute $(hostname) joined the cloud | tee /var/lib/hearth/ui-joined", timeout: 60}
- id: optional-check
  type: shell
  version: 2.1.0
  roles: [compute]
  requires: [compute-join]
  fail_on_error: false
  parameters: {cmd: "echo optional check found nothing to do; exit 3", timeout: 60}
`;

describe('web UI: real nodes and a real deployment', { skip, timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-ui-real-'));
  let ui: UiSession;
  let clusterId = 0;
  let graphFile = '';
  const [ctlAddress, cmpAddress] = hosts ? [hosts.addresses[13], hosts.addresses[14]] : ['', ''];

  before(async () => {
    for (const i of [14, 15]) await onHost(i, 'rm -rf /var/lib/hearth/* /etc/hearth/* /etc/astute.yaml /tmp/ui-go');
    const data = join(dir, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    // Reads need the token too, so the live stream is seen to carry it (EventSource could not).
    ui = await startUi({ dataDir: data, env: { HEARTH_NODE_CHECK_SECONDS: '0' }, args: ['--no-bundled-release', '--protect-reads'] });
    const made = createPlugin('uireal', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    graphFile = join(made.dir!, 'uireal-release', 'graphs', 'deployment.yaml');
    writeFileSync(graphFile, GRAPH);
    await ui.call('POST', '/plugins/folders', { path: made.dir });
    const [release] = await ui.call<Array<{ id: string }>>('GET', '/releases');
    clusterId = (await ui.call<{ id: number }>('POST', '/clusters', { name: 'real-ui', release_id: release.id, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).id;
  });
  after(async () => {
    await ui?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('add hosts (and refuse one that is not there), deploy for real, watch, stop, resume, read output, accept a new host key', async () => {
    const p = await ui.page(`#/env/${clusterId}/nodes`);
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url });
    const dialogs: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    const step = (name: string) => ui.shot(p, `real-${name}`);

    // 1. Hearth's public key, with one line on where it goes, copied with the button.
    const key = p.locator('#ssh-public-key');
    await key.waitFor();
    assert.equal(await key.inputValue(), hosts!.key.public);
    assert.match(await p.locator('.ssh-key .note').innerText(), /authorized_keys of the SSH user on every node/);
    await p.click('.ssh-key button:has-text("Copy")');
    await p.locator('.ssh-key [role="status"]:has-text("Copied.")').waitFor();
    assert.equal(await p.evaluate('navigator.clipboard.readText()'), hosts!.key.public);
    await p.locator('text=No nodes in this environment yet').waitFor();
    await step('1-empty');

    // 2. An address where no host answers: the form says it is connecting, then the SSH error in words; nothing is added.
    await p.fill('#node-address', NOBODY);
    await p.click('button:has-text("Connect and add")');
    await p.locator(`[data-testid="connecting"]:has-text("Connecting to ${NOBODY} over SSH")`).waitFor();
    assert.equal(await p.locator('#node-address').isDisabled(), true, 'the form waits while Hearth connects');
    const refusal = p.locator('.problems[data-code="node/unreachable"]');
    await refusal.waitFor({ timeout: 60_000 });
    assert.match(await refusal.innerText(), /The node was not added: Hearth could not connect to it/);
    assert.match(await refusal.locator('[data-testid="ssh-error"]').innerText(), new RegExp(`^Cannot reach ${NOBODY.replace(/\./g, '\\.')}: the node cannot be reached`));
    assert.match(await refusal.innerText(), /What to do: check the address and port/);
    assert.deepEqual(await ui.call('GET', '/nodes'), [], 'nothing was added');
    await step('2-unreachable');

    // 3. Two real hosts by address: each answers with its facts; the details open on the new node.
    await p.fill('#node-address', ctlAddress);
    await p.click('button:has-text("Connect and add")');
    await p.locator('[data-testid="node-added"]:has-text("Added hearth-test-14")').waitFor({ timeout: 60_000 });
    assert.equal(await p.locator('.problems').count(), 0, 'the earlier refusal is gone');
    const details = p.locator('section.node-details[data-node="hearth-test-14"]');
    await details.waitFor();
    const [{ id: ctlId }] = await ui.call<Array<{ id: number }>>('GET', '/nodes');
    const apiNode = await ui.call<{ host_key_fingerprint: string; facts: { interfaces: Array<{ name: string; mac: string }> } }>('GET', `/nodes/${ctlId}`);
    assert.equal(await details.locator('[data-testid="host-key"]').innerText(), apiNode.host_key_fingerprint);
    assert.match(apiNode.host_key_fingerprint, /^SHA256:/);
    const facts = await details.locator('[data-testid="facts"]').innerText();
    assert.match(facts, /Hostname\s+hearth-test-14/);
    assert.match(facts, /Operating system\s+Debian GNU\/Linux/);
    assert.match(facts, /Memory\s+\d+(\.\d)? GiB/);
    const eth0 = details.locator('table.interfaces tbody tr', { hasText: 'eth0' });
    assert.match(await eth0.innerText(), new RegExp(`${apiNode.facts.interfaces.find((i) => i.name === 'eth0')!.mac}.*${ctlAddress.replace(/\./g, '\\.')}/24`, 's'));
    assert.ok((await details.locator('table.disks tbody tr').count()) >= 1);
    assert.match(await details.locator('[data-testid="node-status"]').innerText(), /^Discovered: a real host Hearth reaches, nothing deployed on it$/);
    await step('3-first-node');

    await p.fill('#node-address', cmpAddress);
    await p.fill('#node-ssh-user', 'root');
    await p.fill('#node-ssh-port', '22');
    await p.click('button:has-text("Connect and add")');
    await p.locator('[data-testid="node-added"]:has-text("Added hearth-test-15")').waitFor({ timeout: 60_000 });
    await p.locator(`table.roles-table tr[data-node="hearth-test-15"] .address:has-text("${cmpAddress}")`).waitFor();
    assert.equal(await p.locator('table.roles-table tr[data-node="hearth-test-14"] .badge:has-text("simulated")').count(), 0);

    // A host Hearth knows cannot be added again by address; taken out of the environment, it waits in
    // the list of nodes in no environment, and comes back from there.
    await p.fill('#node-address', cmpAddress);
    await p.click('button:has-text("Connect and add")');
    const known = p.locator('.problems[data-code="node/address-taken"]');
    await known.waitFor({ timeout: 60_000 });
    assert.match(await known.innerText(), new RegExp(`Hearth knows this host already\\n+${cmpAddress.replace(/\./g, '\\.')}:22 is node \\d+ \\('hearth-test-15'\\) already\\.`));
    await p.check('input[aria-label="Select hearth-test-15"]');
    await p.click('button:has-text("Remove selected from the environment")');
    assert.match(dialogs[dialogs.length - 1], /^Remove 1 node \(hearth-test-15\) from real-ui\?/);
    const pooled = p.locator('.node-pool li[data-node="hearth-test-15"]');
    await pooled.waitFor();
    assert.match(await pooled.innerText(), new RegExp(`hearth-test-15\\s+${cmpAddress.replace(/\./g, '\\.')}\\s+Discovered`));
    // The pool and the roles table reload apart: the row leaves the table within moments, not necessarily first.
    await p.locator('table.roles-table tr[data-node="hearth-test-15"]').waitFor({ state: 'detached', timeout: 15_000 });
    await step('3b-pool');
    await pooled.locator('input[type="checkbox"]').check();
    await p.click('.node-pool button:has-text("Add selected to real-ui")');
    await p.locator('table.roles-table tr[data-node="hearth-test-15"]').waitFor();
    assert.equal(await p.locator('.node-pool').count(), 0, 'no node is left outside an environment');

    // 4. A simulated node beside them is marked so, and a real deployment refuses it by name.
    await p.fill('#node-count', '1');
    await p.click('button:has-text("Add nodes")');
    const paper = p.locator('table.roles-table tbody tr', { has: p.locator('.badge:has-text("simulated")') });
    await paper.waitFor();
    const paperName = (await paper.getAttribute('data-node'))!;
    await p.check('input[aria-label="controller on hearth-test-14"]');
    await p.check('input[aria-label="compute on hearth-test-15"]');
    await p.check(`input[aria-label="compute on ${paperName}"]`);
    await p.click('button:has-text("Save roles")');
    await p.locator('[role="status"]:has-text("Saved.")').waitFor();
    await step('4-nodes-with-roles');
    await p.click('nav.tabs a:has-text("Deploy")');
    await p.locator(`[data-testid="mixed-nodes"]:has-text("${paperName}")`).waitFor();
    await p.click('button:has-text("Deploy changes")');
    const refused = p.locator('.problems:has-text("Deployment refused")');
    await refused.waitFor();
    assert.match(await refused.innerText(), new RegExp(`simulated node '${paperName}'.*a real deployment needs real hosts`));
    assert.match(await refused.innerText(), /What to do: Deploy with --dry-run/);
    await step('5-refused-simulated');
    const paperId = (await ui.call<Array<{ id: number; name: string }>>('GET', `/clusters/${clusterId}/nodes`)).find((n) => n.name === paperName)!.id;
    await ui.call('POST', `/clusters/${clusterId}/nodes/unassign`, { node_ids: [paperId] });

    // A task naming a file the release does not hold: refused before anything runs, with the list.
    writeFileSync(graphFile, `${GRAPH}\n- id: needs-manifest\n  type: puppet\n  version: 2.1.0\n  roles: [compute]\n  parameters: {puppet_manifest: site/missing.pp, puppet_modules: modules, timeout: 60}\n`);
    await ui.call('POST', '/plugins/uireal@1.0.0/sync');
    await p.reload();
    await p.click('button:has-text("Deploy changes")');
    const missing = p.locator('.problems:has-text("Deployment refused")');
    await missing.waitFor();
    assert.match(await missing.locator('li').first().innerText(), /needs-manifest.*site\/missing\.pp/);
    assert.equal((await onHost(15, 'ls /var/lib/hearth/ui-prepared 2>/dev/null || echo untouched')).trim(), 'untouched', 'nothing ran');
    await step('5b-refused-missing-file');
    writeFileSync(graphFile, GRAPH);
    await ui.call('POST', '/plugins/uireal@1.0.0/sync');
    await p.reload();

    // 5. Deploy for real; the slow task's output is seen while it runs; stop it there.
    await p.click('button:has-text("Deploy changes")');
    assert.match(dialogs[dialogs.length - 1], /^Deploy real-ui\? The default graph runs on 2 nodes; 2 of them get new roles\. It runs for real, over SSH, on the hosts\.$/);
    const status = p.locator('p[data-status]');
    await p.locator('p[data-status="running"][data-mode="real"]').waitFor();
    assert.match(await status.innerText(), /^Deployment \d+ running \(real, over SSH on the hosts\)/);
    const slow = p.locator('table.tasks tbody tr[data-task="slow-sync"]');
    await p.locator('table.tasks tbody tr[data-task="slow-sync"][data-state="running"]').waitFor({ timeout: 120_000 });
    await slow.locator('button.output-toggle').click();
    // The output is a row of its own, the width of the table, below the task's row.
    const slowOutput = p.locator('table.tasks tbody tr.task-output[data-output-of="slow-sync"]');
    await slowOutput.locator('pre[data-live]:has-text("tick-1")').waitFor({ timeout: 60_000 });
    assert.doesNotMatch(await slowOutput.locator('pre').innerText(), /tick-2/, 'seen while it runs, before its end');
    await step('6-live-output');
    await p.click('button:has-text("Stop the deployment")');
    assert.match(dialogs[dialogs.length - 1], /^Stop deploying real-ui\?/);
    await p.locator('[role="status"]:has-text("Stop requested")').waitFor();
    assert.equal(await p.locator('button:has-text("Stopping")').isDisabled(), true, 'a stop is asked once');
    // The running task is let finish: tell it to.
    await onHost(14, 'touch /tmp/ui-go');
    await p.locator('p[data-status="stopped"]').waitFor({ timeout: 120_000 });
    // The running task was let finish; what depended on it never started.
    await slowOutput.locator('pre:has-text("tick-2")').waitFor();
    assert.equal(await slow.getAttribute('data-state'), 'ready');
    for (const t of ['controller-finish', 'compute-join']) assert.equal(await p.locator(`table.tasks tbody tr[data-task="${t}"]`).getAttribute('data-state'), 'skipped', t);
    assert.equal((await onHost(14, 'cat /var/lib/hearth/ui-finished 2>/dev/null || echo none')).trim(), 'none');
    await step('7-stopped');

    // 6. Resume: only what the stopped run did not finish runs.
    const stoppedId = Number(/Deployment (\d+)/.exec(await status.innerText())![1]);
    await p.click(`button:has-text("Resume deployment ${stoppedId}")`);
    assert.match(dialogs[dialogs.length - 1], new RegExp(`^Resume deploying real-ui\\? Only what deployment ${stoppedId} did not finish runs`));
    await p.locator(`p[data-status]:not([data-status="running"]):not(:has-text("Deployment ${stoppedId} "))`).waitFor({ timeout: 120_000 });
    assert.equal(await status.getAttribute('data-status'), 'succeeded', await status.innerText());
    assert.match(await p.locator('table.tasks tbody tr[data-task="prepare"]').first().innerText(), new RegExp(`done in deployment ${stoppedId}`));
    assert.equal((await onHost(14, 'cat /var/lib/hearth/ui-finished')).trim(), 'finished');

    // 7. Failures first, with the exit status; a task's real output, stdout and stderr, read on the page.
    const first = p.locator('table.tasks tbody tr').first();
    assert.equal(await first.getAttribute('data-task'), 'optional-check');
    assert.equal(await first.getAttribute('data-state'), 'error');
    assert.match(await first.innerText(), /failed \(exit 3\), 1 attempt/);
    const join_ = p.locator('table.tasks tbody tr[data-task="compute-join"]');
    assert.match(await join_.innerText(), /hearth-test-15\s+compute-join/);
    assert.match(await join_.innerText(), /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/s, 'start and end shown, with the date, 24-hour');
    assert.match(await p.locator('table.history tbody tr').first().innerText(), /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/, 'the history too');
    await join_.locator('button.output-toggle').click();
    await p.locator('tr.task-output[data-output-of="compute-join"] pre:has-text("compute hearth-test-15 joined the cloud")').waitFor();
    const prepare = p.locator('table.tasks tbody tr[data-task="prepare"]', { hasText: 'hearth-test-15' });
    assert.equal(await onHost(15, 'cat /var/lib/hearth/ui-joined'), 'compute hearth-test-15 joined the cloud\n');
    await step('8-output');
    await p.locator('table.history tbody tr').nth(1).locator('button').click();
    await p.locator(`p[data-status="stopped"]:has-text("Deployment ${stoppedId} ")`).waitFor();
    await prepare.locator('button.output-toggle').click();
    const prepared = p.locator('tr.task-output[data-output-of="prepare"][data-node="hearth-test-15"] pre');
    await prepared.filter({ hasText: 'preparing hearth-test-15' }).waitFor();
    assert.match(await prepared.innerText(), /a note on stderr/);

    // 8. Refresh facts, then a changed host key: shown with both fingerprints, accepted from the page.
    await p.click('nav.tabs a:has-text("Nodes")');
    await p.click('table.roles-table tr[data-node="hearth-test-15"] th button.link');
    const node15 = p.locator('section.node-details[data-node="hearth-test-15"]');
    // The page says what the API says, in the lifecycle's words (docs/lifecycle.md): after the run
    // the node is deployed, `ready`, or `error` by the model's rule that any failed task of its own
    // (here optional-check, fail_on_error: false) makes it so; never the obsolete `deployed`.
    const id15 = (await ui.call<Array<{ id: number; name: string }>>('GET', `/clusters/${clusterId}/nodes`)).find((n) => n.name === 'hearth-test-15')!.id;
    const after15 = (await ui.call<{ status: string }>('GET', `/nodes/${id15}`)).status;
    assert.ok(after15 === 'ready' || after15 === 'error', `hearth-test-15 after the run: ${after15}`);
    await node15.locator(`[data-testid="node-status"][data-status="${after15}"]`).waitFor();
    await node15.locator('button:has-text("Refresh facts")').click();
    await node15.locator('[role="status"]:has-text("Facts gathered again.")').waitFor({ timeout: 60_000 });
    const before15 = await node15.locator('[data-testid="host-key"]').innerText();
    execFileSync(new URL('../../scripts/test-hosts.sh', import.meta.url).pathname, ['rekey', '15'], { timeout: 60_000 });
    await node15.locator('button:has-text("Refresh facts")').click();
    const changed = node15.locator('[data-testid="host-key-changed"]');
    await changed.waitFor({ timeout: 60_000 });
    const words = await changed.innerText();
    assert.match(words, new RegExp(`Hearth recorded ${before15.replace(/[+/]/g, '\\$&')}, and the host now presents SHA256:`));
    const presented = /now presents (SHA256:[A-Za-z0-9+/]{43})/.exec(words)![1];
    assert.notEqual(presented, before15);
    await step('9-host-key-changed');
    await changed.locator(`button:has-text("Accept the new key ${presented}")`).click();
    assert.match(dialogs[dialogs.length - 1], /Do this only if you know the host was reinstalled/);
    await node15.locator(`[role="status"]:has-text("Accepted the new host key ${presented}")`).waitFor({ timeout: 60_000 });
    // The node is read again after the answer: the recorded key shown becomes the accepted one.
    await node15.locator('[data-testid="host-key"]', { hasText: presented }).waitFor();
    assert.equal(await changed.count(), 0);
    // Who accepted it, and when, as the API records it: a key accepted is a decision someone answers for.
    const accepted = await ui.call<{ host_key_accepted_by: string | null; host_key_accepted_at: string | null }>('GET', `/nodes/${id15}`);
    assert.ok(accepted.host_key_accepted_by && accepted.host_key_accepted_at, JSON.stringify(accepted));
    const acceptedWords = await node15.locator('[data-testid="host-key-accepted"]').innerText();
    const at = new Date(accepted.host_key_accepted_at);
    const two = (n: number) => String(n).padStart(2, '0');
    const local = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
    assert.equal(acceptedWords.trim(), `by ${accepted.host_key_accepted_by} at ${local}`);
    await step('10-key-accepted');

    // 9. A host that went away: Refresh facts says so in the SSH error's words and the node is offline, until it answers again.
    const script = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;
    execFileSync(script, ['unplug', '15'], { timeout: 30_000 });
    try {
      await node15.locator('button:has-text("Refresh facts")').click();
      const gone = node15.locator('.problems:has-text("The facts could not be gathered")');
      await gone.waitFor({ timeout: 120_000 });
      assert.match(await gone.innerText(), new RegExp(`Cannot refresh node 'hearth-test-15' at ${cmpAddress.replace(/\./g, '\\.')}: the node (cannot be reached|stopped answering)`), 'in the SSH error\'s words: no route, or the kept connection lost');
      await node15.locator('[data-testid="node-status"][data-status="offline"]').waitFor();
      assert.match(await node15.locator('[data-testid="node-status"]').innerText(), /^Offline: Hearth cannot reach it over SSH;/);
      await p.locator('table.roles-table tr[data-node="hearth-test-15"] td.bad:has-text("offline")').waitFor();
      await step('11-offline');
    } finally {
      execFileSync(script, ['plug', '15'], { timeout: 30_000 });
    }
    await node15.locator('button:has-text("Refresh facts")').click();
    await node15.locator('[role="status"]:has-text("Facts gathered again.")').waitFor({ timeout: 120_000 });
    // Back from offline: the state it had before it went offline.
    await node15.locator(`[data-testid="node-status"][data-status="${after15}"]`).waitFor();

    // 10. A dry run of these real nodes is named so, and nothing runs on them.
    await onHost(15, 'rm -f /var/lib/hearth/ui-joined');
    await p.click('nav.tabs a:has-text("Deploy")');
    await p.click('button:has-text("Dry run")');
    assert.match(dialogs[dialogs.length - 1], /^Dry run of real-ui\? The default graph is simulated on 2 nodes: nothing runs on the machines/);
    const dry = p.locator('p[data-status="succeeded"][data-mode="dry-run"]');
    await dry.waitFor({ timeout: 60_000 });
    assert.match(await dry.innerText(), /^Dry run \d+ succeeded \(a simulation: nothing is installed on machines\)/);
    assert.equal(await p.locator('table.history tbody tr').first().locator('.badge:has-text("dry run")').count(), 1);
    assert.equal((await onHost(15, 'ls /var/lib/hearth/ui-joined 2>/dev/null || echo untouched')).trim(), 'untouched');
    await step('12-dry-run');
    await p.close();
  });
});

// A task that prints colours and markup, then waits for the test's word (host 14, after the
// walk above: tests of one file run one after the other).
const OUTPUT_GRAPH = `
- id: paint
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "printf 'plain \\\\033[31mred-alert\\\\033[0m <script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>\\\\n'; echo early-line; for i in $(seq 480); do [ -e /tmp/ui-out-go ] && break; sleep 0.25; done; echo late-line", timeout: 150}
`;

/** The colour a browser computes for an element (the page's own function, run there). */
const colourOf = new Function('e', 'return getComputedStyle(e).color') as (e: unknown) => string;

/**
 * Run in the page before its own script: the environment's run list answers 1.5 s late, so the
 * live stream announces the running deployment first, and that announcement's read of the
 * deployment answers 6 s late, after the page has shown the run and its output. Only the order of
 * two real answers changes; `window.__lateNotice` says when the late one was handed on.
 */
const LATE_SECOND_NOTICE = `(() => {
  const original = window.fetch;
  let lists = 0, reads = 0;
  const later = (answer, ms, then) => answer.then((r) => new Promise((ok) => setTimeout(() => { ok(r); if (then) setTimeout(then, 0); }, ms)));
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    const get = !init || !init.method || init.method.toUpperCase() === 'GET';
    if (get && /\\/api\\/v1\\/clusters\\/\\d+\\/deployments$/.test(url) && ++lists === 1) return later(original.call(this, input, init), 1500);
    if (get && /\\/api\\/v1\\/clusters\\/\\d+\\/deployments\\/\\d+$/.test(url) && ++reads === 1) {
      window.__lateNotice = 'held';
      return later(original.call(this, input, init), 6000, () => { window.__lateNotice = 'answered'; });
    }
    return original.call(this, input, init);
  };
})();`;

describe('web UI: a running task\'s output and a stop', { skip, timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-ui-output-'));
  let ui: UiSession;
  let clusterId = 0;

  before(async () => {
    await onHost(14, 'rm -f /tmp/ui-out-go');
    const data = join(dir, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    ui = await startUi({ dataDir: data, env: { HEARTH_NODE_CHECK_SECONDS: '0' }, args: ['--no-bundled-release'] });
    const made = createPlugin('uiout', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, 'uiout-release', 'graphs', 'deployment.yaml'), OUTPUT_GRAPH);
    await ui.call('POST', '/plugins/folders', { path: made.dir });
    const [release] = await ui.call<Array<{ id: string }>>('GET', '/releases');
    clusterId = (await ui.call<{ id: number }>('POST', '/clusters', { name: 'output-ui', release_id: release.id, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).id;
    const added = await ui.call<{ node: { id: number } }>('POST', '/nodes', { address: hosts!.addresses[13], cluster_id: clusterId });
    await ui.call('POST', `/clusters/${clusterId}/nodes`, { assignments: [{ node_id: added.node.id, roles: ['controller'] }] });
  });
  after(async () => {
    await onHost(14, 'touch /tmp/ui-out-go').catch(() => undefined);
    await ui?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a page opened while a task runs shows its output so far, coloured, markup as text; Stop once, with the countdown; the estimate from the run', async () => {
    // Before any run the estimate can only use the timeout (150 s), and says so.
    type Estimate = { makespan_s: number; past_runs: { environment: number }; tasks: { environment: number; release: number; timeout: number }; order: Array<{ task: string; basis: string; duration_s: number }> };
    const unmeasured = await ui.call<Estimate>('GET', `/clusters/${clusterId}/graphs/default/estimate`);
    assert.deepEqual([unmeasured.past_runs.environment, unmeasured.tasks.environment, unmeasured.order.find((o) => o.task === 'paint')?.basis], [0, 0, 'timeout']);
    assert.ok(unmeasured.makespan_s >= 150, `the timeout: ${unmeasured.makespan_s}`);
    const started = await ui.call<{ id: number }>('POST', `/clusters/${clusterId}/deploy`, {});
    // The task printed its first lines before any page was open.
    const nodeId = String((await ui.call<Array<{ id: number }>>('GET', `/clusters/${clusterId}/nodes`))[0].id);
    let kept: { live: boolean; output: string | null; end: number } | undefined;
    for (let i = 0; i < 240 && !kept?.output?.includes('early-line'); i++) {
      await new Promise((r) => setTimeout(r, 500));
      kept = await ui.call('GET', `/deployments/${started.id}/live-output?node=${nodeId}&task=paint`);
    }
    assert.ok(kept?.live && kept.output?.includes('early-line'), `the server kept what the task printed: ${JSON.stringify(kept)}`);
    assert.equal(kept.end, kept.output!.length, 'all of it, from its start');

    // The page learns of the running deployment twice: from the environment's history and from its
    // live stream. The answers are held back in the page so the stream's comes last, after the
    // output was read (the order CI once met): the output so far must survive it.
    const p = await ui.page(`#/env/${clusterId}/deploy`, { init: LATE_SECOND_NOTICE });
    const dialogs: string[] = [];
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    const row = p.locator('table.tasks tbody tr[data-task="paint"][data-state="running"]');
    await row.waitFor({ timeout: 60_000 });
    await row.locator('button.output-toggle').click();
    const pre = p.locator('tr.task-output[data-output-of="paint"] pre[data-live]');
    await pre.filter({ hasText: 'early-line' }).waitFor({ timeout: 30_000 });
    const text = await pre.innerText();
    assert.match(text, /^plain red-alert <script>window.__pwned=1<\/script><img src=x onerror=window.__pwned=2>\nearly-line/, 'printed before the page opened, escapes read, markup shown as text');
    assert.doesNotMatch(text, /\[31m|\u001b/, 'no raw escape codes');
    assert.equal(await pre.locator('span', { hasText: 'red-alert' }).evaluate(colourOf), 'rgb(187, 0, 0)', 'red as the terminal showed it');
    await p.waitForFunction('window.__lateNotice === "answered"', undefined, { timeout: 30_000 });
    await p.evaluate('new Promise((r) => setTimeout(r, 300))');
    assert.match(await pre.innerText(), /early-line/, 'the output so far is still shown once the live stream\'s late answer came');
    assert.equal(await pre.locator('span', { hasText: 'red-alert' }).evaluate(colourOf), 'rgb(187, 0, 0)', 'still red');
    assert.equal(await pre.locator('script, img').count(), 0, 'no element made from the output');
    assert.equal(await p.evaluate('window.__pwned'), undefined, 'nothing in the output ran');
    // Full width: the output spans the table, not its last column.
    const [outputWidth, tableWidth] = await Promise.all([p.locator('tr.task-output[data-output-of="paint"] > td').evaluate((e) => e.getBoundingClientRect().width), p.locator('table.tasks').evaluate((e) => e.getBoundingClientRect().width)]);
    assert.ok(outputWidth > tableWidth * 0.95, `the output is as wide as the table: ${outputWidth} of ${tableWidth}`);
    await ui.shot(p, 'output-late-open');

    // Stop: asked once, then disabled, counting down the grace period (30 s: none was given).
    await p.click('button:has-text("Stop the deployment")');
    assert.match(dialogs[dialogs.length - 1], /^Stop deploying output-ui\?/);
    const countdown = p.locator('[role="status"].stop-countdown');
    await countdown.waitFor();
    assert.equal(await p.locator('button:has-text("Stopping")').isDisabled(), true);
    assert.equal(await p.locator('button:has-text("Stop the deployment")').count(), 0);
    assert.match(await countdown.innerText(), /^Stop requested at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}: no new task starts\. Tasks running now may finish; any still running in \d+ s \(a grace period of 30 s\) are killed\.$/);
    const first = Number(await countdown.getAttribute('data-grace-left'));
    assert.ok(first > 20 && first <= 30, `counting from 30 s: ${first}`);
    await p.waitForFunction(`Number(document.querySelector('.stop-countdown')?.getAttribute('data-grace-left')) < ${first}`, undefined, { timeout: 10_000 });
    await ui.shot(p, 'output-stopping');
    await onHost(14, 'touch /tmp/ui-out-go');
    await p.locator('p[data-status="stopped"]').waitFor({ timeout: 120_000 });
    // The ended task's stored output replaces the streamed one, coloured the same.
    const stored = p.locator('tr.task-output[data-output-of="paint"] pre:not([data-live])');
    await stored.filter({ hasText: 'late-line' }).waitFor({ timeout: 30_000 });
    assert.equal(await stored.locator('span', { hasText: 'red-alert' }).evaluate(colourOf), 'rgb(187, 0, 0)');
    assert.equal(await p.locator('button:has-text("Stopping")').count(), 0, 'gone with the run');
    await ui.shot(p, 'output-stopped');

    // The Graph tab's estimate now comes from that run: seconds, not the 150 s timeout.
    const measured = await ui.call<Estimate>('GET', `/clusters/${clusterId}/graphs/default/estimate`);
    const paint = measured.order.find((o) => o.task === 'paint')!;
    assert.equal(paint.basis, 'environment');
    assert.equal(measured.past_runs.environment, 1);
    assert.ok(paint.duration_s > 0 && paint.duration_s < 60 && measured.makespan_s < 60, JSON.stringify(measured));
    await p.click('nav.tabs a:has-text("Graph")');
    const words = p.locator('[data-testid="graph-estimate"]');
    await words.filter({ hasText: 'past run' }).waitFor({ timeout: 60_000 });
    assert.match(await words.innerText(), /^~\d+(\.\d)? s from 1 past run(; \d+ tasks? estimated from (its|their) timeouts?)?$/);
    await p.click('.run-order summary');
    assert.match(await p.locator('.run-order li[data-task="paint"]').innerText(), /^paint on hearth-test-14 · controller: from .*, \d+(\.\d)? s \(median of 1 past run\)$/);
    await ui.shot(p, 'output-graph-estimate');
    await p.close();
  });
});
