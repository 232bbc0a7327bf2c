/**
 * The `hearth plugin validate` contract scripts rely on: exit statuses (0 no errors, 1 errors,
 * 2 bad usage) and the exact `--json` shape. Runs the CLI from source through tsx.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, 'plugin', 'validate', ...args], { encoding: 'utf8' });

const METADATA = `name: tiny
title: Tiny
version: '1.0.0'
package_version: '2.0.0'
description: d
fuel_version: ['6.1']
licenses: [x]
authors: [y]
homepage: h
groups: []
releases:
  - os: ubuntu
    version: 2014.2-6.1
    mode: [ha]
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
`;
const TASKS = "- role: ['*']\n  stage: post_deployment\n  type: shell\n  parameters: {cmd: echo, timeout: 42}\n";

function tiny(tasks = TASKS): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-cli-'));
  writeFileSync(join(root, 'metadata.yaml'), METADATA);
  writeFileSync(join(root, 'tasks.yaml'), tasks);
  writeFileSync(join(root, 'environment_config.yaml'), '');
  mkdirSync(join(root, 'deployment_scripts'));
  mkdirSync(join(root, 'repositories', 'ubuntu'), { recursive: true });
  return root;
}

test('exit 0 and the exact JSON shape for a valid plugin', () => {
  const root = tiny();
  try {
    const r = run(root, '--json');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['plugin', 'valid', 'findings']);
    assert.deepEqual(out.plugin, { name: 'tiny', version: '1.0.0', package_version: '2.0.0' });
    assert.equal(out.valid, true);
  } finally {
    rmSync(root, { recursive: true });
  }
});

test('exit 1 with errors; human output shows the file, the line and a caret', () => {
  const root = tiny(TASKS.replace('timeout: 42', 'timeout: -1'));
  try {
    const json = run(root, '--json');
    assert.equal(json.status, 1);
    const out = JSON.parse(json.stdout);
    assert.equal(out.valid, false);
    for (const f of out.findings) assert.deepEqual(Object.keys(f), ['code', 'severity', 'message', 'file', 'line', 'column', 'hint']);
    // Findings come in file order: metadata.yaml's note that no --release was given comes first.
    assert.deepEqual(out.findings.map((x: { code: string }) => x.code), ['plugin/release-not-given', 'schema/too-small']);
    const f = out.findings[1];
    assert.deepEqual([f.code, f.file, f.line, f.column], ['schema/too-small', 'tasks.yaml', 4, 36]);
    const human = run(root);
    assert.equal(human.status, 1);
    assert.match(human.stdout, /^tasks\.yaml$/m);
    assert.match(human.stdout, /4:36 {2}error/);
    assert.match(human.stdout, / {4}4 \| {3}parameters: \{cmd: echo, timeout: -1\}\n {6}\| {36}\^/);
    assert.match(human.stdout, /is not valid: 1 error/);
  } finally {
    rmSync(root, { recursive: true });
  }
});

test('exit 2 for bad usage: no such folder, unknown flag, --tasks without --release, an unusable release', () => {
  const root = tiny();
  try {
    assert.equal(run(join(root, 'nope')).status, 2);
    assert.equal(run(root, '--frobnicate').status, 2);
    assert.equal(run(root, '--tasks', root).status, 2);
    assert.equal(run(root, '--release', join(root, 'missing.yaml')).status, 2);
  } finally {
    rmSync(root, { recursive: true });
  }
});

/** A package 4.0.0 plugin named `name` with these network roles. */
function withNetworkRoles(name: string, networkRoles: string): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-cli-net-'));
  const metadata = METADATA.replace('name: tiny', `name: ${name}`).replace("package_version: '2.0.0'", "package_version: '4.0.0'").replace("fuel_version: ['6.1']", "fuel_version: ['9.0']").replace('version: 2014.2-6.1', 'version: mitaka-9.0').replace('groups: []', 'groups: []\nis_hotpluggable: false');
  writeFileSync(join(root, 'metadata.yaml'), metadata);
  writeFileSync(join(root, 'environment_config.yaml'), 'attributes: {}\n');
  writeFileSync(join(root, 'deployment_tasks.yaml'), '[]\n');
  writeFileSync(join(root, 'network_roles.yaml'), networkRoles);
  mkdirSync(join(root, 'deployment_scripts'));
  mkdirSync(join(root, 'repositories', 'ubuntu'), { recursive: true });
  return root;
}

test('--with: a network role another plugin to be enabled beside it defines differently is an error at file:line:col; alone it validates', () => {
  const mine = withNetworkRoles('mine', '- id: shared/api\n  default_mapping: public\n  properties: {subnet: true, gateway: false, vip: []}\n');
  const theirs = withNetworkRoles('theirs', '- id: shared/api\n  default_mapping: management\n  properties: {subnet: true, gateway: false, vip: []}\n');
  try {
    assert.equal(run(mine, '--json').status, 0, run(mine, '--json').stdout);
    const r = run(mine, '--with', theirs, '--json');
    assert.equal(r.status, 1, r.stderr);
    const conflicts = JSON.parse(r.stdout).findings.filter((f: { code: string }) => f.code === 'network-role/conflict');
    assert.deepEqual(conflicts.map((f: { file: string; line: number; column: number }) => `${f.file}:${f.line}:${f.column}`), ['network_roles.yaml:1:7']);
    assert.match(conflicts[0].message, /maps it to 'public' where plugin theirs maps it to 'management'/);
    const human = run(mine, '--with', theirs, '--no-color');
    assert.match(human.stdout, /^network_roles\.yaml\n {2}1:7 +error +.*shared\/api/m);
    const bad = run(mine, '--with', join(mine, 'nope'));
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--with .*nope: not a plugin folder/);
  } finally {
    rmSync(mine, { recursive: true });
    rmSync(theirs, { recursive: true });
  }
});
