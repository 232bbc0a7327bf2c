/**
 * Template capabilities as a service: the client sends the files (as Heat's API takes them) and
 * gets the CLI's answers; the server's own disk is read only under --templates-dir. Every case of
 * the shared Heat corpus is asked through HTTP with its tree sent as contents.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Database } from '../../src/store/index.js';
import { corpusRoot, needsCorpus } from '../support/corpus.js';
import { engines } from './support/engines.js';
import { TOKEN } from './support/app.js';

/** Every file under `dir`, keyed by its path relative to `base`, as a client would send them. */
function sendable(base: string, dir = base, out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sendable(base, path, out);
    else if (name.endsWith('.yaml')) out[relative(base, path).split('\\').join('/')] = readFileSync(path, 'utf8');
  }
  return out;
}

interface Case {
  kind: 'find' | 'summary' | 'resolve';
  description: string;
  args: { root: string; recursive?: boolean; constraints?: Record<string, string>; files?: string[]; environment?: string; extra_environments?: string[] };
  expect: Record<string, any>;
}

describe('templates API', () => {
  const [engine] = engines();
  let db: Database;
  let app: FastifyInstance;
  let guarded: FastifyInstance;
  let onDisk: FastifyInstance;
  let dir: string;

  before(async () => {
    db = await engine.open();
    dir = mkdtempSync(join(tmpdir(), 'hearth-templates-'));
    mkdirSync(join(dir, 'tree'));
    writeFileSync(join(dir, 'tree', 'a.yaml'), 'heat_template_version: wallaby\ncapabilities:\n  provider: one\nresources: {}\n');
    writeFileSync(join(dir, 'outside.yaml'), 'heat_template_version: wallaby\ncapabilities:\n  provider: secret\n');
    app = await buildApp({ db, adminToken: TOKEN });
    guarded = await buildApp({ db, adminToken: TOKEN, protectReads: true });
    onDisk = await buildApp({ db, adminToken: TOKEN, templatesDir: join(dir, 'tree') });
  });

  after(async () => {
    await Promise.all([app?.close(), guarded?.close(), onDisk?.close()]);
    await db?.close();
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (server: FastifyInstance, op: string, body: unknown, token = false) =>
    server.inject({ method: 'POST', url: `/api/v1/templates/${op}`, payload: body as never, headers: token ? { authorization: `Bearer ${TOKEN}` } : {} });

  test('sent files are answered with no token; under --protect-reads the token is needed', async () => {
    const files = { 'a.yaml': 'heat_template_version: wallaby\ncapabilities:\n  provider: one\n', 'b.yaml': 'heat_template_version: wallaby\ncapabilities:\n  provider: two\n' };
    const open = await ask(app, 'find', { files, constraints: { provider: 'two' } });
    assert.equal(open.statusCode, 200, open.body);
    assert.deepEqual(open.json().templates, ['b.yaml']);
    assert.equal((await ask(guarded, 'find', { files, constraints: { provider: 'two' } })).statusCode, 401);
    assert.equal((await ask(guarded, 'find', { files, constraints: { provider: 'two' } }, true)).statusCode, 200);
  });

  test('absolute paths keep their leading slash in every answer', async () => {
    const files = {
      '/srv/t/env.yaml': 'resource_registry:\n  OS::X::Thing: [/srv/t/x.yaml, /srv/t/y.yaml]\nrequires:\n  name: y\n',
      '/srv/t/x.yaml': 'heat_template_version: wallaby\ncapabilities:\n  name: x\n',
      '/srv/t/y.yaml': 'heat_template_version: wallaby\ncapabilities:\n  name: y\n',
    };
    const found = await ask(app, 'find', { files, constraints: { name: 'x' } });
    assert.deepEqual(found.json().templates, ['/srv/t/x.yaml']);
    const resolved = await ask(app, 'resolve', { files, environment: '/srv/t/env.yaml' });
    assert.equal(resolved.statusCode, 200, resolved.body);
    assert.deepEqual(resolved.json().resolved, { 'OS::X::Thing': '/srv/t/y.yaml' });
    const summary = await ask(app, 'capabilities', { files });
    assert.deepEqual(summary.json().tags.name.sort(), ['x', 'y']);
  });

  test('an environment naming a server file learns nothing of it: only sent files are read', async () => {
    // The file exists on the server and would fit; sent, it would be chosen.
    const outside = join(dir, 'outside.yaml');
    const files = { 'env.yaml': `resource_registry:\n  OS::X::Thing: [${outside}, ${join(dir, 'tree', 'a.yaml')}]\nrequires:\n  provider: secret\n` };
    const res = await ask(app, 'resolve', { files, environment: 'env.yaml' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.resolved, {}, 'nothing resolved from files that were not sent');
    assert.deepEqual(body.errors[0].verdicts.map((v: { unreadable?: string }) => v.unreadable), ['no such file', 'no such file']);
    const sent = await ask(app, 'resolve', { files: { ...files, [outside]: readFileSync(outside, 'utf8') }, environment: 'env.yaml' });
    assert.deepEqual(sent.json().resolved, { 'OS::X::Thing': outside }, 'the same file, sent, is chosen');
  });

  test('the summary covers sent environments: their requires keys and the types they map to lists', async () => {
    const files = {
      't/a.yaml': 'heat_template_version: wallaby\ncapabilities:\n  name: a\n  resource_type: [OS::X::Thing]\n',
      'env.yaml': 'requires:\n  name: a\nresource_registry:\n  OS::X::Thing: [t/a.yaml, OS::Heat::None]\n  OS::X::Single: t/a.yaml\n',
    };
    const res = await ask(app, 'capabilities', { files, paths: ['t/a.yaml'], environments: ['env.yaml'] });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.types, { 'OS::X::Thing': ['t/a.yaml'] });
    assert.deepEqual(body.requires, { name: ['a'] });
    assert.deepEqual(body.lists, { 'OS::X::Thing': ['t/a.yaml', 'OS::Heat::None'] }, 'a single mapping is not a list');
  });

  test('paths on the server: refused without --templates-dir, and outside it', async () => {
    const none = await ask(app, 'find', { paths: [join(dir, 'tree')], requirements: {} }, true);
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().code, 'template/send-files');
    const outside = await ask(onDisk, 'capabilities', { paths: [join(dir, 'outside.yaml')] });
    assert.equal(outside.statusCode, 400);
    assert.equal(outside.json().code, 'template/outside-templates-dir');
    const climbing = await ask(onDisk, 'capabilities', { paths: ['../outside.yaml'] });
    assert.equal(climbing.json().code, 'template/outside-templates-dir');
    const inside = await ask(onDisk, 'find', { paths: ['.'], requirements: { provider: 'one' } });
    assert.equal(inside.statusCode, 200, inside.body);
    assert.deepEqual(inside.json().templates, ['a.yaml']);
  });

  test('bad sent files get clear refusals', async () => {
    const cases: Array<[unknown, string]> = [
      [{ files: { '../x.yaml': 'a: 1' }, constraints: {} }, 'template/bad-path'],
      [{ files: { 'a.yaml': 'a: 1', '/a.yaml': 'a: 2' }, constraints: {} }, 'template/duplicate-path'],
      [{ files: { 'a.yaml': 12 }, constraints: {} }, 'request/invalid'],
    ];
    for (const [body, code] of cases) {
      const res = await ask(app, 'find', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, code, res.body);
    }
    const resolveNothing = await ask(app, 'resolve', { files: {} });
    assert.equal(resolveNothing.json().code, 'template/no-environment');
    const unparseable = await ask(app, 'find', { files: { 'bad.yaml': 'capabilities: [unclosed' }, constraints: {} });
    assert.equal(unparseable.statusCode, 200);
    assert.ok(unparseable.json().findings.some((f: { code: string; file?: string }) => f.code === 'template/unparseable' || f.file === 'bad.yaml'));
  });

  describe('every case of the Heat corpus, through the API with its tree sent', () => {
    const heat = corpusRoot ? join(corpusRoot, 'heat') : undefined;
    const releases = heat ? readdirSync(heat).filter((r) => statSync(join(heat, r)).isDirectory()) : [];
    const trees = new Map<string, Record<string, string>>();
    const treeOf = (release: string) => {
      let t = trees.get(release);
      if (!t) trees.set(release, (t = sendable(join(heat as string, release))));
      return t;
    };
    const all = releases.flatMap((release) =>
      readdirSync(join(heat as string, release, 'cases')).sort().map((name) => ({ release, name, spec: JSON.parse(readFileSync(join(heat as string, release, 'cases', name, 'case.json'), 'utf8')) as Case })),
    );
    test('the corpus is here', needsCorpus, () => assert.ok(all.length > 20));
    for (const { release, name, spec } of all) {
      test(`${release}/${name}`, needsCorpus, async () => {
        const files = treeOf(release);
        const root = spec.args.root;
        if (spec.kind === 'find') {
          const res = await ask(app, 'find', { files, root, constraints: spec.args.constraints ?? {}, recursive: spec.args.recursive ?? false });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json().templates, spec.expect.templates);
        } else if (spec.kind === 'summary') {
          const res = await ask(app, 'capabilities', { files, root, paths: (spec.args.files ?? []).map((f) => `${root}/${f}`) });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json().tags, spec.expect.tags);
          assert.deepEqual(res.json().types, spec.expect.types);
        } else {
          const [environment, ...environments] = [spec.args.environment as string, ...(spec.args.extra_environments ?? [])].map((e) => `cases/${name}/${e}`);
          const res = await ask(app, 'resolve', { files, root, environment, ...(environments.length ? { environments } : {}) });
          assert.equal(res.statusCode, 200, res.body);
          const body = res.json();
          if ('resolved' in spec.expect) {
            assert.deepEqual(body.errors, []);
            assert.deepEqual(body.resolved, spec.expect.resolved);
          } else {
            assert.equal(body.errors.length, 1, res.body.slice(0, 1000));
            assert.equal(body.errors[0].kind, spec.expect.error);
            assert.equal(body.errors[0].type, spec.expect.type);
            assert.deepEqual(body.errors[0].candidates, spec.expect.candidates);
            assert.deepEqual(body.errors[0].matching, spec.expect.matching);
          }
        }
      });
    }
  });
});
