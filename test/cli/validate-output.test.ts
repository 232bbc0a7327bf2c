/**
 * `hearth plugin validate` prints its answer straight to file descriptor 1 (src/cli/terminal.ts,
 * printAnswer), not through process.stdout: the whole answer must still arrive, byte for byte the
 * same, wherever stdout goes. A plugin with a megabyte of findings, far more than a pipe holds: to
 * a file, to a reader slower than the writer, to a pipe another process made non-blocking, to a
 * reader that leaves, to a closed stdout. The built `bin/hearth` (`npm run build` first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempFolder } from '../support/temp.js';

const hearthBin = fileURLToPath(new URL('../../bin/hearth', import.meta.url));

/** A 4.0.0 plugin whose 2,000 extra tasks name roles and tasks that do not exist, each with a timeout that is a string (an error): ~1 MB of findings. */
function pluginWithManyFindings(): string {
  const dir = tempFolder('hearth-validate-output-');
  const made = spawnSync(process.execPath, [hearthBin, 'plugin', 'create', 'many_findings', '--package-version', '4.0.0', '--dir', dir], { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  assert.equal(made.status, 0, made.stderr);
  const plugin = join(dir, 'many_findings');
  let tasks = '';
  for (let i = 0; i < 2000; i++) {
    tasks += `- id: extra_${i}\n  type: puppet\n  role: [no_such_role_${i}]\n  requires: [no_such_task_${i}]\n  parameters: {puppet_manifest: site.pp, puppet_modules: ".", timeout: "3600"}\n`;
  }
  appendFileSync(join(plugin, 'deployment_tasks.yaml'), tasks);
  return plugin;
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs `command args` with stdout a pipe this test reads only after `delayMs`, then to its end. */
function slowlyRead(command: string, args: string[], delayMs: number): Promise<Run> {
  // Its own process group: a timeout kills hearth too when `command` is the pipe's holder.
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.pause();
  setTimeout(() => {
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stdout.resume();
  }, delayMs);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new Error(`${command} ${args.join(' ')} did not end in 120 s; stderr so far:\n${stderr}`));
    }, 120_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout: Buffer.concat(chunks), stderr });
    });
  });
}

const plugin = pluginWithManyFindings();
const outputs = tempFolder('hearth-validate-outputs-');

/** The answer written to a file: what every other way must print too. */
function toFile(args: string[]): { status: number | null; bytes: Buffer } {
  const file = join(outputs, `${args.join('_').replace(/[^a-z]/g, '')}.out`);
  const run = spawnSync('sh', ['-c', 'exec "$@" > "$0"', file, process.execPath, hearthBin, ...args], { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  assert.equal(run.stderr, '');
  return { status: run.status, bytes: readFileSync(file) };
}

for (const format of [['--json'], []]) {
  const args = ['plugin', 'validate', plugin, ...format];
  const name = format.length ? 'JSON' : 'text';

  test(`${name}: the whole answer through a pipe whose reader is slower than the writer`, async () => {
    const file = toFile(args);
    assert.equal(file.status, 1, 'errors: status 1');
    assert.ok(file.bytes.length > 500_000, `a large answer (${file.bytes.length} bytes)`);
    if (format.length) assert.equal(JSON.parse(file.bytes.toString('utf8')).valid, false);
    const piped = await slowlyRead(process.execPath, [hearthBin, ...args], 1000);
    assert.equal(piped.stderr, '');
    assert.equal(piped.status, 1);
    assert.ok(piped.stdout.equals(file.bytes), `the same ${file.bytes.length} bytes (got ${piped.stdout.length})`);
  });

  test(`${name}: the whole answer through a pipe another process made non-blocking`, async () => {
    // A holder shares the pipe and, once hearth runs, opens it as libuv opens a pipe: O_NONBLOCK,
    // on the open file description hearth shares. Hearth's writes then meet a full pipe (EAGAIN).
    const holder = [
      "const { spawn } = require('node:child_process');",
      "const { existsSync, readFileSync, writeSync } = require('node:fs');",
      'const child = spawn(process.argv[1], process.argv.slice(2), { stdio: "inherit" });',
      "child.on('spawn', () => {",
      "  const pipe = new (require('node:net').Socket)({ fd: 1, readable: false, writable: true });",
      "  const flags = existsSync('/proc/self/fdinfo/1') ? Number.parseInt(/flags:\\s*(\\d+)/.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'))[1], 8) : undefined;",
      "  writeSync(2, flags === undefined ? 'unknown\\n' : (flags & 0o4000) ? 'non-blocking\\n' : 'blocking\\n');",
      "  child.on('exit', (status) => { process.exitCode = status; pipe.destroy(); });",
      '});',
    ].join('\n');
    const file = toFile(args);
    const piped = await slowlyRead(process.execPath, ['-e', holder, process.execPath, hearthBin, ...args], 1000);
    assert.match(piped.stderr, /^(non-blocking|unknown)\n$/, 'the pipe was non-blocking while hearth wrote');
    assert.equal(piped.status, 1);
    assert.ok(piped.stdout.equals(file.bytes), `the same ${file.bytes.length} bytes (got ${piped.stdout.length})`);
  });
}

test('a reader that leaves after the first chunk: quiet, status 0', async () => {
  const child = spawn(process.execPath, [hearthBin, 'plugin', 'validate', plugin, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.once('data', () => child.stdout.destroy());
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (s, g) => resolve([s, g])));
  clearTimeout(timer);
  assert.equal(signal, null);
  assert.doesNotMatch(stderr, /EPIPE|Error|at /, 'no stack trace');
  assert.equal(status, 0, stderr);
});

test('stdout closed: the status of the answer, no error', { skip: !existsSync('/bin/sh') && 'needs sh' }, () => {
  const run = spawnSync('sh', ['-c', 'exec "$@" >&-', 'sh', process.execPath, hearthBin, 'plugin', 'validate', plugin, '--json'], { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 1, 'errors: status 1, as when the answer is read');
});
