/**
 * A node's disks in the web UI (issue 26), as Fuel's "Configure disks": a simulated compute's two
 * disks drawn as bars split by their volumes (name and size in binary units, free space shown); a
 * size typed larger than its disk refused on that disk before anything is saved; a size saved,
 * kept across a reload, and reset to the defaults. A node whose saved layout puts a volume below
 * its minimum is flagged on the Nodes tab, and the flag leaves once its layout is reset. Debian's
 * Chromium against a real `hearth serve`; screenshots in test-results/ui-disks-*.png.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { needsBrowser } from '../support/browser.js';
import { makeEnvironment, startUi, waitOrSay, type UiSession } from '../support/ui.js';
import { formatMiB } from '../../src/core/text/sizes.js';

interface Disk {
  id: string;
  name: string;
  size: number;
  disk_size: number;
  volumes: Array<{ name: string; size: number }>;
}

describe('web UI: a node\'s disks', { skip: needsBrowser.skip, timeout: 300_000 }, () => {
  let ui: UiSession;
  before(async () => {
    ui = await startUi();
  });
  after(async () => {
    await ui?.close();
  });

  test('bars per disk, a too-large size refused, a size saved and kept, reset; a node below a minimum flagged', async () => {
    const env = await makeEnvironment(ui, 'disks-ui');
    const { ids } = await ui.call<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 2, prefix: 'disky', hardware: { cpus: 4, memory_gb: 16, disks_gb: [100, 500] } } });
    await ui.call('POST', `/clusters/${env.id}/nodes`, { assignments: ids.map((id) => ({ node_id: id, roles: ['compute'] })) });
    const nodes = await ui.call<Array<{ id: number; name: string }>>('GET', `/clusters/${env.id}/nodes`);
    const [first, second] = ids.map((id) => nodes.find((n) => n.id === id)!.name);
    const defaults = await ui.call<Disk[]>('GET', `/nodes/${ids[0]}/disks`);
    const vmDefault = defaults.find((d) => d.name === 'sdb')!.volumes.find((v) => v.name === 'vm')!.size;
    // The second node's instances volume emptied through the API: saved with a warning, and below its minimum.
    const emptied = (await ui.call<Disk[]>('GET', `/nodes/${ids[1]}/disks`)).map((d) => ({ id: d.id, volumes: d.volumes.map((v) => ({ name: v.name, size: v.name === 'vm' ? 0 : v.size })) }));
    const put = await ui.call<{ findings: Array<{ message: string }> }>('PUT', `/nodes/${ids[1]}/disks`, emptied);
    assert.ok(put.findings.length > 0, 'saved with a warning');

    const p = await ui.page(`#/env/${env.id}/nodes`);
    const flags = p.locator('[data-testid="disk-flags"]');
    await waitOrSay(ui, p, flags.locator(`li[data-node="${second}"]`), { timeout: 30_000 });
    assert.equal(await flags.locator('li').count(), 1, 'only the node below its minimum is flagged');
    assert.match(await flags.innerText(), /requires a minimum of/);
    await ui.shot(p, 'disks-1-flagged');

    // The first node's disks: a bar each, a segment per volume with its name and size, free space.
    await p.locator(`tr[data-node="${first}"] th button`).click();
    const section = p.locator(`section.node-details[data-node="${first}"] [data-testid="node-disks"]`);
    const sdb = section.locator('.disk[data-disk="sdb"]');
    await waitOrSay(ui, p, sdb.locator('.segment[data-volume="vm"]'));
    assert.equal(await section.locator('.disk').count(), 2);
    for (const d of defaults) {
      const bar = section.locator(`.disk[data-disk="${d.name}"] .disk-bar`);
      for (const v of d.volumes.filter((x) => x.size > 0)) assert.match(await bar.locator(`.segment[data-volume="${v.name}"]`).innerText(), new RegExp(`${formatMiB(v.size)}$`));
      const head = await section.locator(`.disk[data-disk="${d.name}"] .disk-head`).innerText();
      assert.ok(head.includes(formatMiB(d.disk_size)) && head.includes(`${formatMiB(d.size)} for volumes`), head);
    }
    // Segments as wide as their share of the disk.
    const barWidth = (await sdb.locator('.disk-bar').boundingBox())!.width;
    const vmWidth = (await sdb.locator('.segment[data-volume="vm"]').boundingBox())!.width;
    const sdbSize = defaults.find((d) => d.name === 'sdb')!.size;
    assert.ok(Math.abs(vmWidth / barWidth - vmDefault / sdbSize) < 0.03, `vm's segment is ${vmWidth}/${barWidth} of the bar for ${vmDefault}/${sdbSize} MB`);
    assert.match(await section.locator('[data-testid="disks-layout"]').innerText(), /default layout/);
    await ui.shot(p, 'disks-2-bars');

    // Too large for its disk: said on that disk, and nothing can be saved.
    const vm = sdb.locator('input[data-volume="vm"]');
    const save = section.locator('button:has-text("Save disk layout")');
    await vm.fill('600G');
    await waitOrSay(ui, p, sdb.locator('.disk-problem'));
    assert.match(await sdb.locator('.disk-problem').innerText(), /The volumes take 6\d\d(\.\d)? GiB, and disk sdb has 4\d\d(\.\d)? GiB for them/);
    assert.equal(await save.isDisabled(), true);
    assert.equal(await vm.getAttribute('aria-invalid'), 'false');
    await ui.shot(p, 'disks-3-too-large');
    await vm.fill('lots');
    assert.equal(await vm.getAttribute('aria-invalid'), 'true');
    assert.match(await sdb.locator('.disk-problem').first().innerText(), /'lots' is not a size/);

    // 200 GiB: the bar follows as one types, then saved.
    await vm.fill('200G');
    assert.equal(await sdb.locator('.disk-problem').count(), 0);
    assert.match(await sdb.locator('.segment[data-volume="vm"]').innerText(), /200 GiB$/);
    await waitOrSay(ui, p, sdb.locator('.segment[data-volume="(free)"]'));
    await save.click();
    await waitOrSay(ui, p, section.locator('[role="status"]:has-text("Disk layout saved.")'));
    await ui.shot(p, 'disks-4-saved');
    const stored = await ui.call<Disk[]>('GET', `/nodes/${ids[0]}/disks`);
    assert.equal(stored.find((d) => d.name === 'sdb')!.volumes.find((v) => v.name === 'vm')!.size, 200 * 1024);

    // Kept across a reload.
    await p.reload();
    await p.locator(`tr[data-node="${first}"] th button`).click();
    await waitOrSay(ui, p, sdb.locator('.segment[data-volume="vm"]'));
    assert.match(await sdb.locator('.segment[data-volume="vm"]').innerText(), /200 GiB$/);
    assert.equal(await sdb.locator('input[data-volume="vm"]').inputValue(), '200 GiB');
    assert.match(await section.locator('[data-testid="disks-layout"]').innerText(), /layout saved/);
    await ui.shot(p, 'disks-5-reloaded');

    // Reset to defaults.
    await section.locator('button:has-text("Reset to defaults")').click();
    await waitOrSay(ui, p, section.locator('[role="status"]:has-text("Back to the default layout.")'));
    await waitOrSay(ui, p, section.locator('[data-testid="disks-layout"]:has-text("default layout")'));
    assert.match(await sdb.locator('.segment[data-volume="vm"]').innerText(), new RegExp(`${formatMiB(vmDefault)}$`));

    // The flagged node: its warning shown in its details, the flag gone once reset.
    await flags.locator(`li[data-node="${second}"] button`).click();
    const other = p.locator(`section.node-details[data-node="${second}"] [data-testid="node-disks"]`);
    await waitOrSay(ui, p, other.locator('[data-testid="disks-warning"]'));
    assert.match(await other.locator('[data-testid="disks-warning"]').first().innerText(), /requires a minimum of/);
    await ui.shot(p, 'disks-6-below-minimum');
    await other.locator('button:has-text("Reset to defaults")').click();
    await waitOrSay(ui, p, flags, { state: 'detached', timeout: 20_000 });
    assert.deepEqual(ui.trouble(p), { errors: [], console: [] }, 'nothing went wrong in the page (the refusal below is logged by the browser as a 400)');

    // The server's refusal, on the disk it names: the first node's roles changed by someone else while its sizes were being typed.
    await p.locator(`tr[data-node="${first}"] th button`).click();
    await waitOrSay(ui, p, sdb.locator('input[data-volume="vm"]'));
    await sdb.locator('input[data-volume="vm"]').fill('100G');
    await ui.call('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller'] }, { node_id: ids[1], roles: ['compute'] }] });
    await save.click();
    await waitOrSay(ui, p, sdb.locator('.disk-problem[data-code="disks/unknown-volume"]'));
    assert.match(await sdb.locator('.disk-problem[data-code="disks/unknown-volume"]').innerText(), /Disk 'sdb': 'vm' is not a volume of this node's roles/);
    assert.match(await section.locator('[data-testid="disks-refused"]').innerText(), /This layout cannot be saved/);
    await ui.shot(p, 'disks-7-refused-by-the-server');
  });
});
