/**
 * deploy/hearth.service, checked as far as a machine without systemd as PID 1 allows: its command
 * line uses only flags `hearth serve` has, the data folder is the unit's state directory, the
 * hardening leaves ssh and rsync what they need, and `systemd-analyze verify` (where installed)
 * reads every line without a complaint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../hostile/harness.js';
import { startServer } from '../support/serve.js';

const unitFile = join(repoRoot, 'deploy', 'hearth.service');
const unit = readFileSync(unitFile, 'utf8');
const bin = join(repoRoot, 'bin', 'hearth');
const built = existsSync(join(repoRoot, 'dist', 'cli', 'main.js')) || existsSync(join(repoRoot, 'dist', 'bundle', 'hearth.cjs'));

/** `[Section]` → key → values, as systemd reads a unit (comments and blank lines dropped, continuations joined). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | undefined;
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      section = new Map();
      sections.set(head[1], section);
      continue;
    }
    const at = line.indexOf('=');
    assert.ok(section && at > 0, `a key=value line inside a section: ${line}`);
    const key = line.slice(0, at).trim();
    section.set(key, [...(section.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return sections;
}

const service = parseUnit(unit).get('Service')!;
const one = (key: string) => {
  const values = service.get(key);
  assert.ok(values && values.length === 1, `[Service] sets ${key} once`);
  return values[0];
};

/** The long flags a `--help` text lists. */
const flagsOf = (help: string) => new Set([...help.matchAll(/(?:^|[\s,])(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1]));

test('ExecStart runs `hearth serve` with flags that `hearth serve --help` lists', { skip: built ? false : 'dist/ is not built' }, () => {
  const words = one('ExecStart').split(/\s+/);
  assert.match(words[0], /\/hearth$/, 'the hearth command, by absolute path');
  assert.equal(words[1], 'serve');
  const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(help.status, 0, help.stderr);
  const known = flagsOf(help.stdout);
  assert.ok(known.has('--data-dir') && known.has('--port'), 'the help lists the serve flags');
  assert.ok(!known.has('--listen'), 'a made-up flag is not among them');
  const used = words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0]);
  assert.ok(used.length >= 3);
  for (const flag of used) assert.ok(known.has(flag), `${flag} in ExecStart is a flag of hearth serve`);
  // Every flag that takes a value has one, and the values are what serve accepts.
  const valueOf = (flag: string) => words[words.indexOf(flag) + 1];
  assert.match(valueOf('--port'), /^\d+$/);
  assert.match(valueOf('--log-format'), /^(json|pretty)$/);
  assert.equal(valueOf('--data-dir'), '%S/hearth', 'the data folder is the unit state directory (%S is /var/lib)');
});

test("ExecStart's command line starts a server that answers, in an empty state directory, logging JSON lines", { skip: built ? false : 'dist/ is not built', timeout: 240_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-unit-state-'));
  // What StateDirectory=hearth makes before the start: an empty folder (%S/hearth) of mode 0750.
  mkdirSync(join(root, 'hearth'), { mode: 0o750 });
  // The unit's own flags, with %S expanded and a free port instead of 8420; they come after the
  // test support's, so they are the ones that count.
  const args = one('ExecStart').split(/\s+/).slice(2).map((w) => w.replace('%S', root)).map((w, i, all) => (all[i - 1] === '--port' ? '0' : w));
  const server = await startServer({ dataDir: join(root, 'hearth'), args });
  try {
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    assert.equal((await fetch(`${server.url}/api/v1/releases`)).status, 200);
    const records = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { reqId?: string; msg?: string });
    assert.ok(records.some((r) => typeof r.reqId === 'string'), `JSON request logs for the journal:\n${server.output()}`);
    assert.ok(existsSync(join(root, 'hearth', 'pgdata')), 'the embedded database is in the state directory');
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('the service runs as its own user, keeps its data in StateDirectory, reads secrets from an EnvironmentFile and restarts on failure', () => {
  assert.match(one('User'), /^(?!root$)[a-z_][a-z0-9_-]*$/);
  assert.equal(one('StateDirectory'), 'hearth');
  assert.match(one('EnvironmentFile'), /^-?\/etc\/hearth\/hearth\.env$/);
  for (const name of ['HEARTH_ADMIN_TOKEN', 'DATABASE_URL']) assert.match(unit, new RegExp(`#\\s+${name}=`), `the unit says ${name} goes in the environment file`);
  assert.doesNotMatch(unit, /^Environment=.*(TOKEN|DATABASE_URL)/m, 'no secret in the unit itself (it is world-readable)');
  assert.equal(one('Restart'), 'on-failure');
});

test('the hardening is on and still lets ssh and rsync reach nodes', () => {
  for (const [key, value] of [['NoNewPrivileges', 'yes'], ['ProtectSystem', 'strict'], ['ProtectHome', 'yes'], ['PrivateTmp', 'yes']]) assert.equal(one(key), value, key);
  const families = one('RestrictAddressFamilies').split(/\s+/);
  for (const family of ['AF_INET', 'AF_INET6', 'AF_UNIX']) assert.ok(families.includes(family), `${family}: ssh connects over TCP and shares connections over Unix sockets`);
  // V8 writes the machine code it runs; W^X memory would stop Node.
  assert.ok(!service.has('MemoryDenyWriteExecute'));
  // Everything ssh writes (control sockets, known hosts) is under the data folder, the one writable place.
  assert.ok(!service.has('ReadOnlyPaths') || !one('ReadOnlyPaths').includes('/var/lib/hearth'));
});

const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const haveAnalyze = analyze.status === 0;
if (!haveAnalyze) console.log('note: systemd-analyze is not installed here; deploy/hearth.service is not verified by systemd (the other checks ran)');

test('systemd-analyze verify reads the unit without a complaint', { skip: haveAnalyze ? (built ? false : 'dist/ is not built') : 'systemd-analyze is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-unit-'));
  try {
    // verify wants the command to exist: the checkout's bin/hearth stands in for the installed one.
    const verify = (text: string) => {
      const copy = join(dir, 'hearth.service');
      writeFileSync(copy, text.replace(/^ExecStart=\S+/m, `ExecStart=${bin}`));
      const r = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, SYSTEMD_LOG_LEVEL: 'notice' } });
      return { status: r.status, said: `${r.stdout}${r.stderr}`.trim() };
    };
    const r = verify(unit);
    assert.equal(r.status, 0, r.said);
    assert.equal(r.said, '', 'no warning about any line');
    // The same check on a broken copy does complain (so an empty answer above means something).
    const broken = verify(unit.replace('ProtectSystem=strict', 'ProtectSytem=strict'));
    assert.match(broken.said, /Unknown key 'ProtectSytem'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
