/** A few corpus cases and usage errors through the real `./bin/hearth` (build first: npx tsc -p tsconfig.build.json). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusRoot, needsCorpus } from '../../../test/support/corpus.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(repo, 'bin', 'hearth');
const built = existsSync(join(repo, 'dist', 'cli', 'commands', 'template.js'));
const skip = needsCorpus.skip || (built ? false : 'dist/ is not built: run npx tsc -p tsconfig.build.json');

function hearth(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const wallaby = () => join(corpusRoot as string, 'heat', 'wallaby');
const caseOf = (name: string) => JSON.parse(readFileSync(join(wallaby(), 'cases', name, 'case.json'), 'utf8'));

test('find through the CLI: one path per line, and --json', { skip }, () => {
  const spec = caseOf('find-type-oslo-messaging-rpc');
  const args = ['template', 'find', '-r', ...Object.entries(spec.args.constraints).flatMap(([k, v]) => ['-c', `${k}=${v}`]), '.'];
  const text = hearth(args, join(wallaby(), spec.args.root));
  assert.equal(text.status, 0, text.stderr);
  assert.deepEqual(text.stdout.trim().split('\n'), spec.expect.templates);
  const json = hearth([...args, '--json'], join(wallaby(), spec.args.root));
  assert.deepEqual(JSON.parse(json.stdout), spec.expect);
});

test('capabilities through the CLI', { skip }, () => {
  const spec = caseOf('summary-mysql');
  const run = hearth(['template', 'capabilities', ...spec.args.files.flatMap((f: string) => ['-f', f]), '--json'], join(wallaby(), spec.args.root));
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), spec.expect);
});

test('resolve through the CLI: resolved, and errors with exit 1', { skip }, () => {
  const ok = caseOf('resolve-multi-env-split-requires');
  const dir = join('cases', 'resolve-multi-env-split-requires');
  const run = hearth(['template', 'resolve', '-e', join(dir, 'env.yaml'), '-e', join(dir, 'extra.yaml'), '--root', ok.args.root, '--json'], wallaby());
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { resolved: ok.expect.resolved, errors: [] });

  const bad = caseOf('resolve-zero-ceph');
  const failed = hearth(['template', 'resolve', '-e', join('cases', 'resolve-zero-ceph', 'env.yaml'), '--root', bad.args.root, '--json'], wallaby());
  assert.equal(failed.status, 1);
  const body = JSON.parse(failed.stdout);
  assert.deepEqual(Object.keys(body), ['resolved', 'errors']);
  assert.equal(body.errors[0].kind, 'zero');
  assert.deepEqual(body.errors[0].candidates, bad.expect.candidates);
  assert.equal(typeof body.errors[0].message, 'string');
});

test('bad usage exits 2', { skip }, () => {
  assert.equal(hearth(['template', 'find', '-c', 'novalue', '.'], wallaby()).status, 2);
  assert.equal(hearth(['template', 'find', '-c', 'a=b', 'no/such/dir'], wallaby()).status, 2);
  assert.equal(hearth(['template', 'capabilities'], wallaby()).status, 2);
  assert.equal(hearth(['template', 'resolve', '-e', 'missing.yaml'], wallaby()).status, 2);
});

test('capabilities -e: what environments ask for (requires keys) and which types they map to lists', { skip }, () => {
  const dir = join(wallaby(), 'cases', 'resolve-multi-env-split-requires');
  const run = hearth(['template', 'capabilities', '-e', 'env.yaml', '-e', 'extra.yaml', '--json'], dir);
  assert.equal(run.status, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.deepEqual(summary.requires, { layout: ['deployment/database'], name: ['mysql-container-puppet'] });
  assert.deepEqual(summary.lists['OS::TripleO::Services::MySQL'], [
    '../../annotated/deployment/database/mysql-container-puppet.yaml',
    '../../annotated/deployment/database/mysql-pacemaker-puppet.yaml',
    'OS::Heat::None',
  ]);
  assert.equal(summary.lists['OS::TripleO::Services::Redis'].length, 2, 'the list of the first file is reported even though the second replaces it');
  const text = hearth(['template', 'capabilities', '-e', 'env.yaml'], dir);
  assert.match(text.stdout, /requires \(environments\):\n {2}layout: deployment\/database/);
  assert.equal(hearth(['template', 'capabilities'], dir).status, 2, 'neither -f nor -e is bad usage');
});
