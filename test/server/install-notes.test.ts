/**
 * Notes that do not apply are not given (issue 28, item 23): a release plugin's empty top-level
 * tasks file gets no "add version: 2.0.0" note, and an install through the server never tells the
 * user to pass a CLI flag (the server checks the plugin against its installed releases itself).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlugin } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';

const engine = engines()[0];
describe('install notes', () => {
  let t: TestApp;
  const work = mkdtempSync(join(tmpdir(), 'hearth-notes-'));
  before(async () => {
    t = await testApp(engine);
  });
  after(async () => {
    await t.close();
    await engine.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  test("a release plugin's empty top-level deployment_tasks.yaml gets no tasks/no-version-2", async () => {
    const made = createPlugin('notesrel', { parentDir: work, releasePlugin: true });
    assert.ok(made.ok);
    assert.deepEqual(validatePlugin(made.dir!).findings.filter((f) => f.code === 'tasks/no-version-2'), []);
    const res = await t.call('POST', '/api/v1/plugins/folders', { path: made.dir });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual((res.json().findings as Array<{ code: string }>).filter((f) => f.code === 'tasks/no-version-2'), []);
    // A plugin with tasks but none of version 2.0.0 still gets it.
    const plain = createPlugin('notesplain', { parentDir: work, packageVersion: '4.0.0' });
    assert.ok(plain.ok);
    const file = join(plain.dir!, 'deployment_tasks.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^\s*version: ['"]?2\.0\.0['"]?\n/gm, ''));
    assert.equal(validatePlugin(plain.dir!).findings.filter((f) => f.code === 'tasks/no-version-2').length, 1);
  });

  test('an install names no CLI flag; hearth plugin validate still does', needsCorpus, async () => {
    const dir = copyWithReleaseFolders(corpusPath('plugins', 'fuel-plugin-murano'), work);
    const cli = validatePlugin(dir).findings;
    assert.ok(cli.some((f) => /--release/.test(`${f.message} ${f.hint ?? ''}`)), 'the CLI says which flag checks more');
    const res = await t.call('POST', '/api/v1/plugins/folders', { path: dir });
    assert.equal(res.statusCode, 201, res.body);
    const said = (res.json().findings as Array<{ code: string; message: string; hint?: string }>).filter((f) => /--[a-z]/.test(`${f.message} ${f.hint ?? ''}`));
    assert.deepEqual(said, []);
  });
});
