/**
 * A Dockerfile's stages played without Docker (`npm run check:docker -- --rehearse`), for machines
 * where no Docker daemon runs. Each stage gets a folder standing for its file system. COPY takes
 * from the build context what .dockerignore keeps, COPY --from takes from an earlier stage's
 * folder, and RUN lines made only of `npm`/`node` commands run in the stage's WORKDIR. Other RUN
 * lines (apt-get, useradd) are system set-up, left out with a note. Then the last stage's command
 * is started as the image would start it, only on loopback, a free port and a folder of its own,
 * and the image's HEALTHCHECK must pass against it (within HEARTH_REHEARSAL_HEALTH_SECONDS, 120). What a real build adds (the base image's
 * system, the user, the packages apt installs) is not rehearsed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join, posix, relative } from 'node:path';
import { globRegExp } from './dockerignore.mjs';

/** Runs the stages in `work`; returns the problems found (an empty list when the rehearsal passed). */
export async function rehearse({ stages, context, ignore, work, say }) {
  const problems = [];
  const rootOf = (stage) => join(work, `stage-${stage.index}`);
  const inRoot = (stage, imagePath) => join(rootOf(stage), imagePath);
  for (const stage of stages) {
    mkdirSync(rootOf(stage), { recursive: true });
    if (stage.parent) cpSync(rootOf(stage.parent), rootOf(stage), { recursive: true });
    say(`stage ${stage.label} (FROM ${stage.image})`);
    for (const step of stage.steps) {
      if (step.kind === 'copy') {
        const dest = posix.isAbsolute(step.dest) ? step.dest : posix.join(step.workdir, step.dest);
        const intoFolder = step.dest.endsWith('/') || step.sources.length > 1;
        const from = step.from === undefined ? undefined : stages.find((s) => s.name === step.from.toLowerCase() || String(s.index) === step.from);
        for (const source of step.sources) {
          if (from) {
            const src = inRoot(from, posix.isAbsolute(source) ? source : `/${source}`);
            if (!existsSync(src)) return [...problems, `line ${step.line}: stage '${from.label}' has no ${source}`];
            const isDir = statSync(src).isDirectory();
            cpSync(src, inRoot(stage, isDir || !intoFolder ? dest : posix.join(dest, basename(source))), { recursive: true });
            continue;
          }
          const rel = posix.normalize(source.replace(/^\/+/, '')).replace(/\/+$/, '') || '.';
          for (const match of /[*?[]/.test(rel) ? globIn(context, rel) : [rel]) {
            const src = join(context, match);
            if (!existsSync(src) || ignore.excludes(match)) return [...problems, `line ${step.line}: ${source} is not in the build context`];
            const isDir = statSync(src).isDirectory();
            const target = inRoot(stage, isDir || !intoFolder ? dest : posix.join(dest, basename(match)));
            // What the context does not send does not arrive, folder by folder and file by file.
            cpSync(src, target, { recursive: true, filter: (path) => kept(relative(context, path).split('\\').join('/')) });
          }
        }
      } else if (step.kind === 'run') {
        const commands = step.text.split(/&&|;/).map((c) => c.trim());
        if (!commands.every((c) => /^(npm|node)\s/.test(c))) {
          say(`  line ${step.line}: RUN ${step.text.slice(0, 60)}${step.text.length > 60 ? '…' : ''}: system set-up, not rehearsed`);
          continue;
        }
        const cwd = inRoot(stage, step.workdir);
        mkdirSync(cwd, { recursive: true });
        say(`  line ${step.line}: RUN ${step.text}`);
        const r = spawnSync('sh', ['-c', step.text], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' }, maxBuffer: 64 * 1024 * 1024 });
        if (r.status !== 0) return [...problems, `line ${step.line}: RUN ${step.text} failed (exit ${r.status}):\n${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-20).join('\n')}`];
      }
    }
  }
  const last = stages.at(-1);
  problems.push(...(await startImage(last, inRoot(last, '/'), work, say)));
  return problems;

  function kept(rel) {
    if (rel === '' || !ignore.excludes(rel)) return true;
    return existsSync(join(context, rel)) && statSync(join(context, rel)).isDirectory() && ignore.mayReinclude(rel);
  }
}

/** Context paths a COPY glob matches (`*` stays within a folder). */
function globIn(context, pattern) {
  const re = globRegExp(pattern);
  const out = [];
  const walk = (dir, depth) => {
    for (const entry of readdirSync(join(context, dir), { withFileTypes: true })) {
      const p = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (re.test(p)) out.push(p);
      if (entry.isDirectory() && depth < pattern.split('/').length - 1) walk(p, depth + 1);
    }
  };
  walk('.', 0);
  return out;
}

/**
 * The last stage's ENTRYPOINT + CMD, run from its folder (the command found on its PATH there), on
 * loopback and a free port, its data folder inside the rehearsal; then the HEALTHCHECK, pointed at
 * that port, must pass within two minutes. The server is stopped on every path.
 */
async function startImage(stage, root, work, say) {
  const words = (keyword) => {
    const step = [...stage.steps].reverse().find((s) => s.kind === 'other' && s.keyword === keyword);
    return step?.json;
  };
  const entry = words('ENTRYPOINT') ?? [];
  const cmd = words('CMD') ?? [];
  const health = stage.healthcheckCommand;
  if (!health) return ['the last stage has no HEALTHCHECK CMD [...] to rehearse'];
  // tini only reaps processes; the rehearsal runs the command it starts.
  const argv = [...entry.filter((w, i) => !(/\/tini$/.test(w) || (w === '--' && /\/tini$/.test(entry[i - 1] ?? '')))), ...cmd];
  const path = (stage.vars.get('PATH') ?? '').split(':').filter((d) => d.startsWith('/'));
  const program = path.map((d) => join(root, d, argv[0])).find((p) => existsSync(p));
  if (!program) return [`the image's command ${argv[0]} is not on its PATH (${path.join(':')}) in the last stage`];
  const port = await freePort();
  const data = join(work, 'data');
  mkdirSync(data, { recursive: true });
  const args = argv.slice(1).map((w, i, all) => (all[i - 1] === '--host' ? '127.0.0.1' : all[i - 1] === '--port' ? String(port) : all[i - 1] === '--data-dir' ? data : w));
  say(`starting the image's command: ${argv[0]} ${args.join(' ')}`);
  const child = spawn(process.execPath, [program, ...args], { cwd: join(root, stage.workdir), env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: 'rehearsal-token-0123456789' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  try {
    const probe = health.map((w) => w.replace(/127\.0\.0\.1:\d+|localhost:\d+/, `127.0.0.1:${port}`));
    // Two minutes by default: a first start on a busy machine takes a while.
    const seconds = Number(process.env.HEARTH_REHEARSAL_HEALTH_SECONDS) || 120;
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) return [`the image's command exited with ${child.exitCode}:\n${output.trim().split('\n').slice(-20).join('\n')}`];
      const r = spawnSync(probe[0] === 'node' ? process.execPath : probe[0], probe.slice(1), { timeout: 10_000, stdio: 'ignore' });
      if (r.status === 0) {
        say(`the HEALTHCHECK passed against it (${probe[0]} … 127.0.0.1:${port})`);
        return [];
      }
      await new Promise((r2) => setTimeout(r2, 1000));
    }
    return [`the HEALTHCHECK did not pass within ${seconds} s:\n${output.trim().split('\n').slice(-20).join('\n')}`];
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
