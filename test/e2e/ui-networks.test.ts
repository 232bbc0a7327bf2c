/**
 * The Networks tab and a node's networks in Chromium against a real `hearth serve` (issue 27): the
 * release's networks shown and edited, an overlap refused naming the field with what to change
 * (nothing saved), a good change saved and followed by the nodes' addresses, and in the node's
 * details its addresses and its interfaces, a network moved to another interface and saved.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { needsBrowser } from '../support/browser.js';
import { makeEnvironment, startUi, waitOrSay, type UiSession } from '../support/ui.js';

type Config = { networks: Array<{ name: string; cidr: string | null; vlan_start: number | null }> };

describe('web UI: networks', { skip: needsBrowser.skip, timeout: 300_000 }, () => {
  let ui: UiSession;

  before(async () => {
    ui = await startUi();
  });
  after(async () => {
    await ui?.close();
  });

  test('the Networks tab edits the networks and shows the checks; a node shows its addresses and moves a network between interfaces', async () => {
    const env = await makeEnvironment(ui, 'nets-ui');
    const { ids } = await ui.call<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 2, prefix: 'wired' } });
    await ui.call('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller'] }, { node_id: ids[1], roles: ['compute'] }] });
    const name = (await ui.call<Array<{ id: number; name: string }>>('GET', `/clusters/${env.id}/nodes`)).find((n) => n.id === ids[0])!.name;

    const p = await ui.page(`#/env/${env.id}/networks`);
    const table = p.locator('[data-testid="networks-table"]');
    await waitOrSay(ui, p, table.locator('tr[data-network="management"]'), { timeout: 30_000 });
    assert.equal(await p.getByLabel('management CIDR').inputValue(), '192.168.0.0/24');
    assert.equal(await p.getByLabel('management VLAN').inputValue(), '101');
    assert.equal(await p.getByLabel('fuelweb_admin CIDR').isDisabled(), true, 'the admin network is not edited here');
    assert.match(await p.locator('[data-testid="network-checks"]').innerText(), /^No errors/);
    await ui.shot(p, 'networks-1-defaults');

    // Storage onto management's CIDR: refused, the storage CIDR marked with what to change, nothing saved.
    await p.getByLabel('storage CIDR').fill('192.168.0.0/24');
    await p.getByLabel('storage IP ranges').fill('192.168.0.100-192.168.0.200');
    await p.getByRole('button', { name: 'Save networks' }).click();
    await waitOrSay(ui, p, p.getByRole('alert').filter({ hasText: 'The networks were not saved' }));
    assert.match(await p.getByRole('alert').innerText(), /management/);
    assert.equal(await p.getByLabel('storage CIDR').getAttribute('aria-invalid'), 'true');
    assert.equal((await ui.call<Config>('GET', `/clusters/${env.id}/network_configuration`)).networks.find((n) => n.name === 'storage')!.cidr, '192.168.1.0/24');
    await ui.shot(p, 'networks-2-refused');

    // A good change: saved, and the node's storage address moves into the new CIDR.
    await p.getByLabel('storage CIDR').fill('10.30.0.0/24');
    await p.getByLabel('storage IP ranges').fill('10.30.0.10-10.30.0.90');
    await p.getByLabel('storage VLAN').fill('302');
    await p.getByRole('button', { name: 'Save networks' }).click();
    await waitOrSay(ui, p, p.getByRole('status').filter({ hasText: 'Networks saved' }));
    const storage = (await ui.call<Config>('GET', `/clusters/${env.id}/network_configuration`)).networks.find((n) => n.name === 'storage')!;
    assert.deepEqual([storage.cidr, storage.vlan_start], ['10.30.0.0/24', 302]);

    // The node's details: its addresses, and storage moved to eth2.
    const q = await ui.page(`#/env/${env.id}/nodes`);
    await waitOrSay(ui, q, q.locator(`tr[data-node="${name}"] th button`), { timeout: 30_000 });
    await q.locator(`tr[data-node="${name}"] th button`).click();
    const details = q.locator(`section.node-details[data-node="${name}"]`);
    const addresses = details.locator('[data-testid="node-addresses"]');
    await waitOrSay(ui, q, addresses.locator('tr[data-network="storage"]'));
    assert.match(await addresses.locator('tr[data-network="storage"]').innerText(), /10\.30\.0\.\d+\/24\s+302/);
    assert.match(await addresses.locator('tr[data-network="public"]').innerText(), /172\.16\.0\.\d+\/24.*172\.16\.0\.1/);
    const nics = details.locator('[data-testid="node-interfaces"]');
    await waitOrSay(ui, q, nics.getByLabel('storage on eth2'));
    assert.equal(await nics.getByLabel('fuelweb_admin on eth1').isDisabled(), true, 'the admin network stays where Hearth reaches the node');
    await nics.getByLabel('storage on eth2').check();
    await details.getByRole('button', { name: 'Save interfaces' }).click();
    await waitOrSay(ui, q, details.getByRole('status').filter({ hasText: 'Interfaces saved' }));
    const saved = await ui.call<Array<{ name: string; assigned_networks: Array<{ name: string }> }>>('GET', `/nodes/${ids[0]}/interfaces`);
    assert.deepEqual(saved.filter((i) => i.assigned_networks.some((n) => n.name === 'storage')).map((i) => i.name), ['eth2']);
    await waitOrSay(ui, q, addresses.locator('tr[data-network="storage"]').filter({ hasText: 'eth2' }));
    await ui.shot(q, 'networks-3-node');
    assert.deepEqual(ui.trouble(p).errors, []);
    assert.deepEqual(ui.trouble(q).errors, []);
  });
});
