/**
 * Issue 18, class 5 on the server: a plugin is validated against each installed release it
 * declares when it is registered (and at every sync), and the Plugins page reads what that adds
 * from GET /plugins/{id} as `release_findings`. The plugins are the validator's hand-made cases
 * (test/validator/fixtures), checked here against the bundled release (which takes mitaka-9.0 plugins).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlugin } from '../../src/package/create/index.js';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

const fixture = (name: string) => join(import.meta.dirname, '..', 'validator', 'fixtures', name);
interface Check { release_id: string; release: string; findings: Array<{ code: string; severity: string; message: string; file: string; line: number; column: number; hint?: string }> }

for (const engine of engines()) {
  describe(`release checks at install on ${engine.name}`, () => {
    let t: TestApp;
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);
    before(async () => {
      t = await testApp(engine);
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('a plugin whose references match nothing in the installed release: said at install and on its page', async () => {
      const res = await api('POST', '/plugins/folders', { path: fixture('references-bad') });
      assert.equal(res.statusCode, 201, res.body);
      const installed = res.json() as { release_findings: Check[] };
      const page = (await api('GET', '/plugins/references_bad@1.0.0')).json() as { release_findings: Check[] };
      assert.deepEqual(page.release_findings, installed.release_findings);
      assert.equal(page.release_findings.length, 1);
      const [check] = page.release_findings;
      assert.match(check.release, /^hearth-openstack 2026\.1-1\.0$/);
      const codes = check.findings.map((f) => `${f.code} ${f.file}:${f.line}:${f.column}`);
      for (const expected of ['task/unknown-cross-dependency deployment_tasks.yaml:18:13', 'task/unknown-group-member deployment_tasks.yaml:5:26', 'task/runs-nowhere deployment_tasks.yaml:29:10', 'role/deploys-nothing node_roles.yaml:16:3']) {
        assert.ok(codes.includes(expected), `${expected} in ${codes.join('; ')}`);
      }
      assert.match(check.findings.find((f) => f.code === 'task/unknown-cross-dependency')!.message, /'globls'.*closest: 'globals'/);
      // Only what the release adds: the release-less warnings stay in install_findings.
      assert.equal(check.findings.some((f) => f.code === 'role/unknown-update-role'), false);
      assert.equal(check.findings.some((f) => f.severity === 'info'), false);
    });

    test('a plugin for a release that is not installed: no release checks', async () => {
      const res = await api('POST', '/plugins/folders', { path: fixture('release-aware') });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual((await api('GET', '/plugins/release_aware@1.0.0')).json().release_findings, []);
    });

    test('checks are computed again when a release it declares is installed or removed, not only at its own sync', async () => {
      const res = await api('POST', '/plugins/folders', { path: fixture('release-aware') });
      assert.ok(res.statusCode === 201 || res.statusCode === 409, res.body);
      assert.deepEqual((await api('GET', '/plugins/release_aware@1.0.0')).json().release_findings, []);
      // A release plugin defining ubuntu newton-10.0, the release release_aware declares; it has no storage role.
      const parent = mkdtempSync(join(tmpdir(), 'hearth-release-checks-'));
      try {
        const made = createPlugin('newton_like', { releasePlugin: true, parentDir: parent });
        assert.ok(made.ok && made.dir, JSON.stringify(made.findings));
        const installed = await api('POST', '/plugins/folders', { path: made.dir });
        assert.equal(installed.statusCode, 201, installed.body);
        const checks = (await api('GET', '/plugins/release_aware@1.0.0')).json().release_findings as Check[];
        assert.deepEqual(checks.map((c) => c.release), ['newton_like newton-10.0']);
        const runsNowhere = checks[0].findings.find((f) => f.code === 'task/runs-nowhere');
        assert.ok(runsNowhere, JSON.stringify(checks));
        assert.equal(`${runsNowhere.file}:${runsNowhere.line}`, 'deployment_tasks.yaml:4');
        // Kept: a second read answers the same without reading the plugin again.
        assert.deepEqual((await api('GET', '/plugins/release_aware@1.0.0')).json().release_findings, checks);
        const removed = await api('DELETE', `/plugins/${encodeURIComponent('newton_like@1.0.0')}`);
        assert.equal(removed.statusCode, 204, removed.body);
        assert.deepEqual((await api('GET', '/plugins/release_aware@1.0.0')).json().release_findings, [], 'the release is gone, and so are its checks');
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    });

    test('a clean plugin: the release is checked and adds nothing', async () => {
      const res = await api('POST', '/plugins/folders', { path: fixture('group-membership-good') });
      assert.equal(res.statusCode, 201, res.body);
      const checks = (await api('GET', '/plugins/group_membership_good@1.0.0')).json().release_findings as Check[];
      assert.deepEqual(checks.map((c) => [c.release, c.findings.map((f) => f.code)]), [['hearth-openstack 2026.1-1.0', []]]);
    });
  });
}
