/**
 * The README's first environment, run as written (issue 31 item 1): every ```sh block marked
 * `<!-- walk: run -->` in README.md and docs/*.md runs in order, in one working folder, with bash
 * and the built `bin/hearth` on PATH, against a real `hearth serve` of its own (HEARTH_SERVER and
 * HEARTH_TOKEN set as the README's "not run" block tells a newcomer to set them). Blocks marked
 * `<!-- walk: run on a real host -->` run with NODE set to test host 38 (whose root trusts the key
 * the server is given), and are skipped with a note without HEARTH_TEST_HOSTS. A failing command
 * fails the test naming its file and line. Every ```sh block of the README's walk must carry a
 * marker, so a block added there without one cannot go untested.
 *
 * The docs' other command lines are mostly synopses (`[--grace 30]`, `<id>`, `a|b`) or need what
 * a test cannot give (Docker, systemd, a fuel-library checkout by a relative name, a deployment 42):
 * those are not run, but each `hearth …` line in their code blocks, and each `hearth …` in the
 * README's tables, must name a command that exists and only flags its --help lists.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../support/serve.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const WALK_HEADING = '## A first environment';
const HOST = 38; // this test's own host: no other test uses it
const hosts = testHosts();
const hostAddress = hosts?.addresses[HOST - 1];

type Kind = 'run' | 'host' | 'not run';
interface Block {
  file: string;
  line: number; // of the block's first command, 1-based
  kind: Kind;
  script: string;
}

/** The marked ```sh blocks of a Markdown file, in order; `unmarked` are the sh blocks without a marker. */
function walkBlocks(file: string, text: string): { blocks: Block[]; unmarked: number[] } {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  const unmarked: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `${file}:${i + 1}: a code block that never ends`);
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === '') j--;
    const marker = /^<!-- walk: (run on a real host|run|not run\b.*) -->$/.exec(lines[j] ?? '');
    if (!marker) unmarked.push(i + 1);
    else blocks.push({ file, line: i + 2, kind: marker[1] === 'run' ? 'run' : marker[1] === 'run on a real host' ? 'host' : 'not run', script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return { blocks, unmarked };
}

/** The lines (1-based, first and past the last) of the README's walk section. */
function walkSection(readme: string): [number, number] {
  const lines = readme.split('\n');
  const start = lines.indexOf(WALK_HEADING);
  assert.ok(start >= 0, `README.md has no "${WALK_HEADING}" section`);
  const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return [start + 1, next < 0 ? lines.length + 1 : next + 1];
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => walkBlocks(`docs/${f}`, readFileSync(join(root, 'docs', f), 'utf8')).blocks)
  .flat();
const [walkStart, walkEnd] = walkSection(readme);
const inReadme = walkBlocks('README.md', readme);
const walk = { blocks: inReadme.blocks.filter((b) => b.line > walkStart && b.line < walkEnd), unmarked: inReadme.unmarked.filter((l) => l > walkStart && l < walkEnd) };
const blocks = [...inReadme.blocks, ...docs].filter((b) => b.kind !== 'not run');

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/**
 * One block through bash, stopping at the first failing command: the ERR trap names the block's
 * line (bash's LINENO within the script), which maps back to the file's line.
 */
function runBlock(block: Block, cwd: string, env: Record<string, string>): Promise<Ran & { failedAt?: number }> {
  const script = `set -eo pipefail\ntrap 'echo "__walk_failed_at $((LINENO - 2))" >&2' ERR\n${block.script}\n`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // A block that hangs is killed, so the test ends and names it.
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const m = /__walk_failed_at (\d+)/.exec(err);
      resolve({ code, out, err: err.replace(/__walk_failed_at \d+\n?/, ''), ...(m ? { failedAt: Number(m[1]) } : {}) });
    });
  });
}

function explain(block: Block, ran: Ran & { failedAt?: number }): string {
  const lines = block.script.split('\n');
  const at = ran.failedAt && ran.failedAt >= 1 && ran.failedAt <= lines.length ? ran.failedAt : undefined;
  const where = at ? `${block.file}:${block.line + at - 1}: \`${lines[at - 1].trim()}\`` : `${block.file}:${block.line} (the block)`;
  return `${where} failed (exit ${ran.code})\n--- stdout\n${ran.out}--- stderr\n${ran.err}`;
}

test('every ```sh block of the README\'s walk says whether the test runs it', () => {
  assert.deepEqual(walk.unmarked, [], `README.md lines ${walk.unmarked.join(', ')}: a block in "${WALK_HEADING}" needs <!-- walk: run -->, <!-- walk: run on a real host --> or <!-- walk: not run: why -->`);
  assert.ok(walk.blocks.filter((b) => b.kind === 'run').length >= 2, 'the walk has runnable blocks');
  assert.ok(walk.blocks.some((b) => b.kind === 'host'), 'the walk reaches a real host');
});

describe('the README\'s walk, run as written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-readme-walk-'));
  const work = join(dir, 'work');
  let server: RunningServer;
  const clean = 'rm -rf /etc/hearth/* /etc/astute.yaml /etc/hearth-release/mycloud /var/log/hearth-release/mycloud';

  before(async () => {
    mkdirSync(work);
    if (hostAddress) {
      // The newcomer authorizes Hearth's key on the host; the test host trusts this key already, so
      // the server is given it before its first start (which is what adopts a key pair).
      const data = join(dir, 'data');
      mkdirSync(join(data, 'ssh'), { recursive: true });
      writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
      writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
      server = await startServer({ dataDir: data, env: { HEARTH_NODE_CHECK_SECONDS: '0' } });
      await onHost(HOST, clean);
    } else {
      server = await startServer();
    }
  });
  after(async () => {
    await server?.stop();
    if (hostAddress) await onHost(HOST, clean).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const block of blocks) {
    const title = `${block.file}:${block.line}: ${block.script.split('\n')[0].replace(/\s+#.*$/, '')}${block.script.includes('\n') ? ' …' : ''}`;
    const skip = block.kind === 'host' && !hostAddress ? `${HOSTS_NOTE} (host ${HOST})` : false;
    test(title, { skip, timeout: 600_000 }, async () => {
      const env = { PATH: `${join(root, 'bin')}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token, ...(hostAddress ? { NODE: hostAddress } : {}) };
      const ran = await runBlock(block, work, env);
      assert.equal(ran.code, 0, explain(block, ran));
    });
  }

  test('what the walk made is there: the graph for Graphviz, the dry run and the package', { skip: walk.blocks.some((b) => b.script.includes('demo.dot')) ? false : 'the walk no longer writes demo.dot' }, async () => {
    assert.match(readFileSync(join(work, 'demo.dot'), 'utf8'), /^digraph /);
    const res = await fetch(`${server.url}/api/v1/deployments`, { headers: { authorization: `Bearer ${server.token}` } });
    const runs = (await res.json()) as Array<{ status: string; dry_run: boolean }>;
    assert.ok(runs.some((r) => r.dry_run && r.status === 'succeeded'), `a dry run succeeded: ${JSON.stringify(runs)}`);
    if (hostAddress) assert.ok(runs.some((r) => !r.dry_run && r.status === 'succeeded'), `a real deployment succeeded: ${JSON.stringify(runs)}`);
  });
});

/** `hearth …` command lines of the docs' code blocks and the README's inline code, with where they are. */
function commandLines(): Array<{ where: string; words: string[] }> {
  const found: Array<{ where: string; words: string[] }> = [];
  const add = (where: string, text: string) => {
    // One command: up to a comment, a pipe, a second command (;) or a line continuation.
    // (A table's escaped \| is a plain | here.)
    const command = text.replace(/^hearth\s+/, '').replace(/\\\|/g, '|').split(/\s#|\s\|\s|\s;|\s\\$|\s>\s/)[0];
    found.push({ where, words: command.trim().split(/\s+/) });
  };
  for (const name of ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]) {
    const lines = readFileSync(join(root, name), 'utf8').split('\n');
    let fence: string | undefined;
    lines.forEach((line, i) => {
      const f = /^```(\w*)/.exec(line);
      if (f) return void (fence = fence === undefined ? f[1] : undefined);
      if (fence !== undefined && !['yaml', 'json'].includes(fence) && /^hearth\s/.test(line.trim())) add(`${name}:${i + 1}`, line.trim());
      if (fence === undefined) for (const m of line.matchAll(/`(hearth [^`]+)`/g)) add(`${name}:${i + 1}`, m[1]);
    });
  }
  return found;
}

test('every hearth command line in the docs names a command that exists, with flags it takes', { timeout: 300_000 }, () => {
  const help = new Map<string, string | null>();
  const helpOf = (path: string[]) => {
    const key = path.join(' ');
    if (!help.has(key)) {
      const r = spawnSync(process.execPath, [join(root, 'bin', 'hearth'), ...path, '--help'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, COLUMNS: '400' } });
      help.set(key, r.status === 0 ? r.stdout : null);
    }
    return help.get(key)!;
  };
  const problems: string[] = [];
  const lines = commandLines();
  for (const { where, words } of lines) {
    // The command: words down the tree while each names a subcommand of the one before (a|b: the first).
    const path: string[] = [];
    for (const w of words) {
      const name = w.split('|')[0];
      if (!/^[a-z][a-z-]*$/.test(name)) break;
      const text = helpOf(path);
      const commands = text?.split(/\nCommands:\n/)[1] ?? '';
      if (!new RegExp(`^  ${name}(\\|[a-z-]+)?\\b`, 'm').test(commands)) break;
      path.push(name);
    }
    if (words[0].startsWith('<')) continue; // `hearth <group> ...`: a pattern, not a command
    if (!path.length && !words[0].startsWith('--')) {
      problems.push(`${where}: hearth ${words.join(' ')}: no such command`);
      continue;
    }
    const text = helpOf(path) ?? '';
    for (const w of words) {
      for (const flag of w.matchAll(/(?:^|[[(|])(--[a-z][a-z-]*)/g)) {
        if (['--help', '--version'].includes(flag[1])) continue;
        if (!new RegExp(`(^|[ ,])${flag[1]}\\b`, 'm').test(text)) problems.push(`${where}: hearth ${path.join(' ')} has no ${flag[1]}`);
      }
    }
  }
  assert.ok(lines.length > 50, `found only ${lines.length} command lines`);
  assert.deepEqual(problems, []);
});
