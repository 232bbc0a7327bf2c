/**
 * Every real plugin of the corpus through the install route (copied to a temporary folder with its
 * release folders created, as the corpus README describes): each is installed (201) or refused with
 * findings (400), never a 5xx; installed ones show their roles and components, and the release's
 * wizard offers the components of those that fit it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needsCorpus, corpusPath } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

const preparedCopy = copyWithReleaseFolders;

const [engine] = engines();

describe('corpus plugins through the API', needsCorpus, () => {
  let t: TestApp;
  let parent: string;
  before(async () => {
    t = await testApp(engine);
    parent = mkdtempSync(join(tmpdir(), 'hearth-corpus-'));
  });
  after(async () => {
    await t?.close();
    await engine.dispose();
    if (parent) rmSync(parent, { recursive: true, force: true });
  });

  test('each real plugin installs or is refused with findings, never a 5xx', async () => {
    const root = corpusPath('plugins');
    const folders = readdirSync(root).filter((f) => !f.includes('.')).sort();
    assert.ok(folders.length >= 30);
    const installed: string[] = [];
    for (const folder of folders) {
      const res = await t.call('POST', '/api/v1/plugins/folders', { path: preparedCopy(join(root, folder), parent) });
      assert.ok([201, 400, 409].includes(res.statusCode), `${folder}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      if (res.statusCode === 201) installed.push(res.json().plugin.id);
      else assert.ok(res.json().code && res.json().message, folder);
      if (res.statusCode === 400 && res.json().code === 'plugin/invalid') assert.ok(res.json().details.findings.some((f: { severity: string }) => f.severity === 'error'), folder);
    }
    assert.ok(installed.length >= 10, `only ${installed.length} installed`);
    console.log(`# ${installed.length} of ${folders.length} corpus plugins installed`);
    for (const id of installed) {
      const detail = await t.call('GET', `/api/v1/plugins/${encodeURIComponent(id)}`);
      assert.equal(detail.statusCode, 200, id);
    }
    const releases = (await t.call('GET', '/api/v1/releases')).json();
    for (const r of releases) {
      const components = await t.call('GET', `/api/v1/releases/${encodeURIComponent(r.id)}/components`);
      assert.equal(components.statusCode, 200, r.id);
      const state = await t.call('GET', `/api/v1/releases/${encodeURIComponent(r.id)}/components/state`);
      assert.equal(state.statusCode, 200, r.id);
    }
    const bundled = releases.find((r: { id: string }) => r.id.startsWith('hearth-openstack'));
    const offered = (await t.call('GET', `/api/v1/releases/${bundled.id}/components`)).json().filter((c: { plugin: unknown }) => c.plugin);
    assert.ok(offered.length > 0, 'plugins for mitaka-9.0 offer components in the bundled release');
  });
});
