/**
 * The Dockerfile cannot be built on every machine Hearth is worked on (no Docker daemon), so
 * scripts/check-docker-context.mjs checks it against the build context instead: the real Dockerfile
 * passes, and each kind of mistake that would break `docker build` (or ship an incomplete image)
 * fails with the Dockerfile's line and what to do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../hostile/harness.js';

const script = join(repoRoot, 'scripts', 'check-docker-context.mjs');
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const built = existsSync(join(repoRoot, 'dist', 'bundle', 'hearth.cjs')) && existsSync(join(repoRoot, 'web', 'dist', 'index.html')) && existsSync(join(repoRoot, 'node_modules'));
const skipUnbuilt = built ? false : 'not built: npm run build (the check needs the build outputs the image copies)';

function check(args: string[], cwd = repoRoot, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, ...env } });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** The real Dockerfile with one change, written beside the checkout's context; its line numbers as the check reports them. */
function variant(change: (text: string) => string): { file: string; dir: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-dockerfile-'));
  const text = change(dockerfile);
  assert.notEqual(text, dockerfile, 'the variant changes something');
  const file = join(dir, 'Dockerfile');
  writeFileSync(file, text);
  return { file, dir, text };
}
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('the real Dockerfile matches the build context and .dockerignore', { skip: skipUnbuilt }, () => {
  const r = check([]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /Dockerfile: \d+ COPY\/ADD instructions in 3 stages match the build context .* and \.dockerignore/);
  assert.equal(r.err, '');
});

test('the image is what the brief asks: multi-stage, non-root, a volume, the port, a health check, ssh and rsync, listening on every address', () => {
  assert.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'a build stage and a runtime stage');
  assert.match(dockerfile, /RUN npm ci\b/);
  assert.match(dockerfile, /RUN npm run build\b/);
  assert.match(dockerfile, /^USER (?!root\b|0\b)\S+/m);
  assert.match(dockerfile, /^VOLUME \["\/var\/lib\/hearth"\]/m);
  assert.match(dockerfile, /^EXPOSE 8420$/m);
  assert.match(dockerfile, /^HEALTHCHECK .*\n?.*\/healthz/m);
  assert.match(dockerfile, /apt-get install [^\n]*openssh-client[^\n]*rsync/);
  assert.match(dockerfile, /^CMD \["serve", "--host", "0\.0\.0\.0"/m);
  // The runtime takes node_modules from a stage that installed production packages only.
  assert.match(dockerfile, /npm ci --omit=dev/);
});

/** A JSON-form instruction's words (`CMD [...]`, `HEALTHCHECK ... CMD [...]`), continuations joined. */
const jsonWords = (keyword: RegExp) => {
  const m = new RegExp(`^${keyword.source}\\s*(\\[.*\\])\\s*$`, 'm').exec(dockerfile.replace(/\\\n\s*/g, ''));
  assert.ok(m, `the Dockerfile has ${keyword.source} in JSON form`);
  return JSON.parse(m[1]) as string[];
};

test("the image's command is hearth serve with flags hearth serve has, under tini", { skip: skipUnbuilt }, () => {
  assert.deepEqual(jsonWords(/ENTRYPOINT/), ['/usr/bin/tini', '--', 'hearth']);
  const cmd = jsonWords(/CMD/);
  assert.equal(cmd[0], 'serve');
  const help = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hearth'), 'serve', '--help'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(help.status, 0, help.stderr);
  for (const flag of cmd.filter((w) => w.startsWith('--'))) assert.match(help.stdout, new RegExp(`\\s${flag}\\b`), `${flag} is a flag of hearth serve`);
  assert.equal(cmd[cmd.indexOf('--data-dir') + 1], '/var/lib/hearth', 'the data folder is the volume');
  assert.equal(cmd[cmd.indexOf('--port') + 1], '8420', 'the port EXPOSE and HEALTHCHECK name');
});

test('the HEALTHCHECK command succeeds only while /healthz answers 200 (run by this Node against a stand-in server)', async () => {
  const words = jsonWords(/HEALTHCHECK .*CMD/);
  assert.equal(words[0], 'node');
  let status = 200;
  const stand = createServer((req, res) => {
    res.statusCode = req.url === '/healthz' ? status : 404;
    res.end();
  });
  await new Promise<void>((r) => stand.listen(0, '127.0.0.1', r));
  const port = (stand.address() as AddressInfo).port;
  const probe = (to: number) =>
    new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, words.slice(1).map((w) => w.replace('127.0.0.1:8420', `127.0.0.1:${to}`)), { stdio: 'ignore' });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the health check did not end in 30 s'));
      }, 30_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  try {
    assert.ok(words.some((w) => w.includes('127.0.0.1:8420')), 'it probes the port the server listens on');
    assert.equal(await probe(port), 0, 'healthy');
    status = 503;
    assert.equal(await probe(port), 1, 'answering 503');
  } finally {
    await new Promise((r) => stand.close(r));
  }
  assert.equal(await probe(port), 1, 'nothing listening');
});

test('a COPY source missing from the context fails, naming the line', { skip: skipUnbuilt }, () => {
  const v = variant((t) => t.replace('COPY schemas ./schemas\nCOPY release ./release\nCOPY src', 'COPY schemaz ./schemas\nCOPY release ./release\nCOPY src'));
  try {
    const r = check(['--file', v.file, '--context', repoRoot]);
    assert.equal(r.status, 1);
    const line = lineOf(v.text, 'COPY schemaz');
    assert.match(r.err, new RegExp(`Dockerfile:${line}: COPY schemaz \\./schemas: 'schemaz' does not exist in the build context`));
    assert.match(r.err, /fix the path or create the file/);
    assert.match(r.err, /problems? in /);
  } finally {
    rmSync(v.dir, { recursive: true, force: true });
  }
});

test('a COPY source that .dockerignore leaves out fails, naming the .dockerignore line', { skip: skipUnbuilt }, () => {
  const v = variant((t) => t.replace('COPY bin ./bin\n', 'COPY bin ./bin\nCOPY test ./test\n'));
  try {
    const r = check(['--file', v.file, '--context', repoRoot]);
    assert.equal(r.status, 1);
    const ignoreLine = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n').indexOf('*') + 1;
    assert.match(r.err, new RegExp(`Dockerfile:${lineOf(v.text, 'COPY test')}: COPY test \\./test: 'test' is left out of the build context by \\.dockerignore line ${ignoreLine} \\('\\*'\\); add '!test'`));
  } finally {
    rmSync(v.dir, { recursive: true, force: true });
  }
});

test('the runtime copying from the build what the build does not make fails', { skip: skipUnbuilt }, () => {
  const cases: Array<[string, (t: string) => string, RegExp]> = [
    ['a build output that does not exist', (t) => t.replace('/opt/hearth/web/dist ./web/dist', '/opt/hearth/web/build ./web/dist'), /'\/opt\/hearth\/web\/build' from stage 'build': .*the build in this checkout makes none/],
    ['a checkout folder never copied into the build stage', (t) => t.replace('COPY --from=build /opt/hearth/dist ./dist', 'COPY --from=build /opt/hearth/docs ./docs'), /'\/opt\/hearth\/docs' from stage 'build': no COPY puts it there, and 'docs' is a file of the checkout \(git tracks it\), not a build output/],
    ['a build output taken from the stage that only installs packages', (t) => t.replace('COPY --from=build /opt/hearth/dist ./dist', 'COPY --from=deps /opt/hearth/dist ./dist'), /from stage 'deps': no COPY puts it there, and that stage runs nothing that could make it \(no `npm run`/],
    ['a stage that does not exist yet', (t) => t.replace('COPY --from=deps /opt/hearth/node_modules', 'COPY --from=runtime /opt/hearth/node_modules'), /stage 'runtime' is not an earlier stage/],
  ];
  for (const [name, change, expected] of cases) {
    const v = variant(change);
    try {
      const r = check(['--file', v.file, '--context', repoRoot]);
      assert.equal(r.status, 1, `${name}: ${r.out}`);
      assert.match(r.err, expected, name);
    } finally {
      rmSync(v.dir, { recursive: true, force: true });
    }
  }
});

test('a RUN whose package.json script reads a file the stage does not have fails', { skip: skipUnbuilt }, () => {
  const cases: Array<[string, (t: string) => string, RegExp]> = [
    ['the build without one of its scripts', (t) => t.replace('COPY scripts ./scripts\n', 'COPY scripts/test.mjs ./scripts/\n'), /RUN npm run build: npm run build reads 'scripts\/[^']+', which stage 'build' does not have \(no COPY before this line puts it there\); COPY it before this line/],
    ['npm ci that runs prepare (the build) where no source is', (t) => t.replace('--omit=dev --ignore-scripts', '--omit=dev'), /RUN npm ci --omit=dev[^:]*: npm run prepare → build reads '[^']+', which stage 'deps' does not have/],
  ];
  for (const [name, change, expected] of cases) {
    const v = variant(change);
    try {
      const r = check(['--file', v.file, '--context', repoRoot]);
      assert.equal(r.status, 1, `${name}: ${r.out}`);
      assert.match(r.err, expected, name);
    } finally {
      rmSync(v.dir, { recursive: true, force: true });
    }
  }
});

test('an image missing what the package ships, running as root or without a health check fails', { skip: skipUnbuilt }, () => {
  const v = variant((t) => t.replace(/^COPY release \.\/release\n(?=# The embedded)/m, '').replace(/^USER hearth\n/m, '').replace(/^HEALTHCHECK[^\n]*\\\n[^\n]*\n/m, ''));
  try {
    const r = check(['--file', v.file, '--context', repoRoot]);
    assert.equal(r.status, 1);
    assert.match(r.err, /the last stage \('runtime'\) has no 'release' in \/opt\/hearth, which package.json ships/);
    assert.match(r.err, /runs as root; add a USER line/);
    assert.match(r.err, /has no HEALTHCHECK/);
  } finally {
    rmSync(v.dir, { recursive: true, force: true });
  }
});

test('a folder the context sends that no COPY takes fails (a COPY the build may be missing)', { skip: skipUnbuilt }, () => {
  const v = variant((t) => t.replace('COPY scripts ./scripts\n', ''));
  try {
    const r = check(['--file', v.file, '--context', repoRoot]);
    assert.equal(r.status, 1);
    assert.match(r.err, /'scripts' is sent in the build context, but no COPY takes it/);
  } finally {
    rmSync(v.dir, { recursive: true, force: true });
  }
});

test('Dockerfile syntax as BuildKit reads it: continuations, ARG and ENV values, JSON form, globs, exceptions in .dockerignore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-docker-context-'));
  try {
    const put = (path: string, text = 'x\n') => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    put('package.json', JSON.stringify({ name: 'p', files: ['lib', 'conf'] }));
    put('package-lock.json', '{}');
    put('lib/a.js');
    put('lib/a.test.js');
    put('conf/keep.yaml');
    put('conf/secret.env');
    put('notes/todo.txt');
    put('.dockerignore', '# comment\nnotes\nconf/*.env\nlib/*.test.js\n!lib/a.test.js\n');
    const write = (text: string) => writeFileSync(join(dir, 'Dockerfile'), text);
    const good = [
      '# syntax=docker/dockerfile:1',
      'ARG BASE=debian:12',
      'FROM ${BASE} AS one',
      'ARG WHERE=/srv',
      'WORKDIR $WHERE/app',
      'COPY ["package.json", "package-lock.json", "./"]',
      'COPY lib \\',
      '  # a comment inside a continuation is dropped',
      '  ./lib',
      'COPY conf/*.yaml ./conf/',
      'RUN node -e 0',
      'FROM debian:12',
      'WORKDIR /srv/app',
      'COPY --from=one --chown=1:1 /srv/app/lib ./lib',
      'COPY --from=one ${NOTHING:-/srv/app}/conf ./conf',
      'COPY package.json ./',
      'USER 1000',
      'HEALTHCHECK CMD true',
      '',
    ];
    write(good.join('\n'));
    let r = check(['--context', dir], dir);
    assert.equal(r.status, 0, r.err);
    assert.match(r.out, /6 COPY\/ADD instructions in 2 stages/);
    // A glob that matches only what .dockerignore leaves out.
    write(good.join('\n').replace('COPY conf/*.yaml ./conf/', 'COPY conf/*.env ./conf/'));
    r = check(['--context', dir], dir);
    assert.equal(r.status, 1);
    assert.match(r.err, /Dockerfile:10: COPY conf\/\*\.env \.\/conf\/: 'conf\/\*\.env' is left out of the build context by \.dockerignore line 3 \('conf\/\*\.env'\)/);
    // The exception brings one test file back; a folder the context leaves out stays out.
    write(good.join('\n').replace('COPY conf/*.yaml ./conf/', 'COPY lib/a.test.js notes/todo.txt ./conf/'));
    r = check(['--context', dir], dir);
    assert.equal(r.status, 1);
    assert.doesNotMatch(r.err, /'lib\/a\.test\.js' is left out/);
    assert.match(r.err, /'notes\/todo\.txt' is left out of the build context by \.dockerignore line 2 \('notes'\)/);
    // Outside the context.
    write(good.join('\n').replace('COPY conf/*.yaml ./conf/', 'COPY ../elsewhere ./conf/'));
    r = check(['--context', dir], dir);
    assert.equal(r.status, 1);
    assert.match(r.err, /'\.\.\/elsewhere' is outside the build context/);
    // An instruction before FROM is not a Dockerfile Docker accepts.
    write('COPY a b\nFROM x\n');
    r = check(['--context', dir], dir);
    assert.equal(r.status, 1);
    assert.match(r.err, /line 1: COPY before the first FROM/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad usage says what was wrong and exits 2', () => {
  const r = check(['--file', join(repoRoot, 'no-such-Dockerfile')]);
  assert.equal(r.status, 2);
  assert.match(r.err, /the Dockerfile .*no-such-Dockerfile is not a file/);
  const u = check(['--nonsense']);
  assert.equal(u.status, 2);
  assert.match(u.err, /usage: node scripts\/check-docker-context\.mjs/);
});

/**
 * A small project of its own (no dependencies, so `npm ci` is quick): a build stage makes dist/,
 * the runtime copies it and runs a server whose /healthz the HEALTHCHECK asks.
 */
function rehearsalProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-rehearsal-project-'));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  put('package.json', JSON.stringify({ name: 'tiny', version: '1.0.0', private: true, scripts: { build: 'node build.js' } }));
  put('package-lock.json', JSON.stringify({ name: 'tiny', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'tiny', version: '1.0.0' } } }));
  put('build.js', "require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/answer.js', 'module.exports = 200;');\n");
  // The command: `app serve --host H --port P --data-dir D`, answering /healthz with what dist/ says.
  put('bin/app', "#!/usr/bin/env node\nconst a = process.argv; const at = (f) => a[a.indexOf(f) + 1];\nconst status = require('../dist/answer.js');\nrequire('http').createServer((q, r) => { r.statusCode = q.url === '/healthz' ? status : 404; r.end(); }).listen(Number(at('--port')), at('--host'));\n");
  // Built here as well, as a checkout is before its image is built (the static check asks for it).
  put('dist/answer.js', 'module.exports = 200;');
  put('.dockerignore', '*\n!package.json\n!package-lock.json\n!build.js\n!bin\n');
  put(
    'Dockerfile',
    [
      'FROM node:24-bookworm-slim AS build',
      'WORKDIR /app',
      'COPY package.json package-lock.json ./',
      'RUN npm ci --ignore-scripts',
      'COPY build.js ./',
      'RUN npm run build',
      'FROM node:24-bookworm-slim',
      'RUN apt-get update && apt-get install -y tini',
      'WORKDIR /app',
      'COPY package.json ./',
      'COPY bin ./bin',
      'COPY --from=build /app/dist ./dist',
      'ENV PATH=/app/bin:$PATH',
      'USER 1000',
      'HEALTHCHECK CMD ["node", "-e", "fetch(\'http://127.0.0.1:8080/healthz\').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]',
      'ENTRYPOINT ["/usr/bin/tini", "--", "app"]',
      'CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--data-dir", "/data"]',
      '',
    ].join('\n'),
  );
  return dir;
}

test('--rehearse plays the stages without Docker: builds, copies between stages, starts the command and passes the HEALTHCHECK', { timeout: 300_000 }, () => {
  const dir = rehearsalProject();
  try {
    const r = check(['--context', dir, '--rehearse'], dir);
    assert.equal(r.status, 0, r.out + r.err);
    assert.match(r.out, /rehearsal: +line 4: RUN npm ci --ignore-scripts/);
    assert.match(r.out, /rehearsal: +line 8: RUN apt-get update .*: system set-up, not rehearsed/);
    assert.match(r.out, /rehearsal: starting the image's command: app serve --host 127\.0\.0\.1 --port \d+ --data-dir /);
    assert.match(r.out, /rehearsal: the HEALTHCHECK passed against it/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--rehearse fails where the image would not work: a build output left behind, a failing build, an unhealthy server', { timeout: 300_000 }, () => {
  const cases: Array<[string, (dir: string) => void, RegExp]> = [
    ['the runtime without dist/', (dir) => writeFileSync(join(dir, 'Dockerfile'), readFileSync(join(dir, 'Dockerfile'), 'utf8').replace('COPY --from=build /app/dist ./dist\n', '')), /rehearsal: the image's command exited with 1:[\s\S]*Cannot find module '\.\.\/dist\/answer\.js'/],
    ['a build that fails', (dir) => writeFileSync(join(dir, 'build.js'), 'process.exit(3);\n'), /rehearsal: line 6: RUN npm run build failed \(exit 3\)/],
    ['a server whose /healthz answers 503', (dir) => writeFileSync(join(dir, 'build.js'), readFileSync(join(dir, 'build.js'), 'utf8').replace('= 200', '= 503')), /rehearsal: the HEALTHCHECK did not pass within 5 s/],
  ];
  for (const [name, spoil, expected] of cases) {
    const dir = rehearsalProject();
    try {
      spoil(dir);
      const r = check(['--context', dir, '--rehearse'], dir, { HEARTH_REHEARSAL_HEALTH_SECONDS: '5' });
      assert.equal(r.status, 1, `${name}: ${r.out}`);
      assert.match(r.err, expected, name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

