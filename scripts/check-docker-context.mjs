/**
 * Checks a Dockerfile against its build context without Docker (which cannot build on every machine
 * Hearth is worked on): every COPY/ADD source exists in the context and is not left out by
 * .dockerignore; every `COPY --from=<stage>` takes something that stage has, because an earlier COPY
 * put it there or because its build made it (a path the checkout has after `npm run build` and the
 * context leaves out); the last stage holds everything package.json's `files` ships, runs as a user
 * other than root and has a HEALTHCHECK; a RUN that starts a package.json script (`npm run build`,
 * or `prepare` through `npm ci`) finds the checkout files that script names already copied. A mistake is reported as `Dockerfile:LINE: what, and what
 * to do`, and the exit status is 1; usage errors exit with 2.
 *
 * With --rehearse, the stages are then played without Docker (scripts/docker-rehearse.mjs).
 *
 * Usage: node scripts/check-docker-context.mjs [--file Dockerfile] [--context .] [--rehearse]   (npm run check:docker)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDockerfile } from './dockerfile.mjs';
import { globRegExp, ignoreRules } from './dockerignore.mjs';
import { rehearse } from './docker-rehearse.mjs';

let args;
try {
  args = parseArgs({ options: { file: { type: 'string' }, context: { type: 'string' }, quiet: { type: 'boolean' }, rehearse: { type: 'boolean' } } }).values;
} catch (err) {
  process.stderr.write(`check-docker-context: ${err.message}\nusage: node scripts/check-docker-context.mjs [--file Dockerfile] [--context .] [--rehearse]\n`);
  process.exit(2);
}
const context = resolve(args.context ?? '.');
const file = resolve(args.file ?? join(context, 'Dockerfile'));
const shown = relative(process.cwd(), file) || file;
for (const [what, path, kind] of [['build context', context, 'folder'], ['Dockerfile', file, 'file']]) {
  if (!existsSync(path) || statSync(path).isDirectory() !== (kind === 'folder')) {
    process.stderr.write(`check-docker-context: the ${what} ${path} is not a ${kind}\n`);
    process.exit(2);
  }
}

/** BuildKit reads `<Dockerfile>.dockerignore` beside the Dockerfile first, then the context's own. */
const ignoreFile = [`${file}.dockerignore`, join(context, '.dockerignore')].find((p) => existsSync(p));
const ignore = ignoreRules(ignoreFile ? readFileSync(ignoreFile, 'utf8') : '');
const ignoreName = ignoreFile ? relative(process.cwd(), ignoreFile) || ignoreFile : '.dockerignore';

const problems = [];
const notes = [];
const problem = (line, text) => problems.push(`${shown}:${line}: ${text}`);

let parsed;
try {
  parsed = parseDockerfile(readFileSync(file, 'utf8'));
} catch (err) {
  process.stderr.write(`${shown}: ${err.message}\n`);
  process.exit(1);
}
const { stages } = parsed;
if (stages.length === 0) problem(1, 'no FROM instruction: this is not a Dockerfile an image can be built from');

for (const stage of stages) {
  for (const step of stage.steps) {
    if (step.kind === 'copy') checkCopy(stage, step);
    else if (step.kind === 'run') checkRunInputs(stage, step);
  }
}
if (stages.length) checkFinal(stages.at(-1));
checkSent();

for (const n of args.quiet ? [] : notes) process.stdout.write(`note: ${n}\n`);
if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} problem${problems.length === 1 ? '' : 's'} in ${shown} (build context ${context}, ${ignoreFile ? ignoreName : 'no .dockerignore'})\n`);
  process.exit(1);
}
const copies = stages.reduce((n, s) => n + s.steps.filter((x) => x.kind === 'copy').length, 0);
process.stdout.write(`${shown}: ${copies} COPY/ADD instructions in ${stages.length} stage${stages.length === 1 ? '' : 's'} match the build context ${context}${ignoreFile ? ` and ${ignoreName}` : ''}\n`);
if (args.rehearse) {
  const work = mkdtempSync(join(tmpdir(), 'hearth-docker-rehearsal-'));
  try {
    const say = (text) => process.stdout.write(`rehearsal: ${text}\n`);
    const found = await rehearse({ stages, context, ignore, work, say });
    if (found.length) {
      process.stderr.write(`${found.map((p) => `${shown} rehearsal: ${p}`).join('\n')}\n`);
      process.exitCode = 1;
    } else say(`${shown}'s stages built and its image's command answered, without Docker (system set-up not rehearsed)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function checkCopy(stage, step) {
  const where = `${step.instruction} ${step.text}`;
  if (step.heredoc) return notes.push(`${shown}:${step.line}: ${step.instruction} with a heredoc is not checked`);
  if (step.sources.length === 0) return problem(step.line, `${where}: needs a source and a destination`);
  const dest = posix.isAbsolute(step.dest) ? step.dest : posix.join(step.workdir, step.dest);
  const intoFolder = step.dest.endsWith('/') || step.sources.length > 1;
  if (step.from !== undefined) return copyFromStage(stage, step, where, dest, intoFolder);
  for (const source of step.sources) {
    if (step.instruction === 'ADD' && /^(https?|git)(:|@)|\.git$/.test(source)) {
      notes.push(`${shown}:${step.line}: ${source} is fetched by Docker, not checked`);
      continue;
    }
    const rel = posix.normalize(source.replace(/^\/+/, '')).replace(/\/+$/, '') || '.';
    if (rel === '..' || rel.startsWith('../')) {
      problem(step.line, `${where}: '${source}' is outside the build context; Docker sends only ${context}`);
      continue;
    }
    const found = /[*?[]/.test(rel) ? globContext(rel) : [rel];
    const present = found.filter((p) => existsSync(join(context, p)));
    if (present.length === 0) {
      problem(step.line, `${where}: '${source}' does not exist in the build context ${context}; fix the path or create the file`);
      continue;
    }
    const kept = present.filter((p) => !ignore.excludes(p));
    if (kept.length === 0) {
      const rule = ignore.ruleFor(present[0]);
      problem(step.line, `${where}: '${source}' is left out of the build context by ${ignoreName}${rule ? ` line ${rule.line} ('${rule.text}')` : ''}; add '!${rel}' to ${ignoreName} or copy something else`);
      continue;
    }
    for (const p of kept) {
      const isDir = statSync(join(context, p)).isDirectory();
      if (isDir && countKept(p) === 0) problem(step.line, `${where}: every file in '${p}' is left out of the build context by ${ignoreName}`);
      // A folder's contents land in the destination; a file lands in it, or as it, by name.
      const at = isDir ? dest : intoFolder ? posix.join(dest, basename(p)) : dest;
      stage.copies.push({ image: at, context: p, made: false });
    }
  }
}

function copyFromStage(stage, step, where, dest, intoFolder) {
  const source = /^\d+$/.test(step.from) ? stages[Number(step.from)] : stages.find((s) => s.name === step.from?.toLowerCase());
  if (!source) return notes.push(`${shown}:${step.line}: --from=${step.from} is an image, not a stage; not checked`);
  if (source.index >= stage.index) return problem(step.line, `${where}: stage '${step.from}' is not an earlier stage`);
  for (const p of step.sources) {
    const image = posix.normalize(posix.isAbsolute(p) ? p : `/${p}`).replace(/(.)\/+$/, '$1');
    const where2 = `${where}: '${p}' from stage '${source.label}'`;
    const held = holding(source, image);
    const inside = (c) => c.image.startsWith(`${image === '/' ? '' : image}/`);
    let ctx;
    if (held) ctx = held.path;
    else if (stageCopies(source).some(inside)) {
      // A folder that earlier COPYs filled: it holds what they put there.
      stage.copies.push({ image: intoFolder ? posix.join(dest, basename(image)) : dest, context: posix.relative(source.workdir, image) || '.', made: false });
      continue;
    }
    else if (image === source.workdir || image.startsWith(`${source.workdir === '/' ? '' : source.workdir}/`)) ctx = posix.relative(source.workdir, image) || '.';
    else {
      notes.push(`${shown}:${step.line}: '${p}' is outside stage '${source.label}''s WORKDIR ${source.workdir}; not checked`);
      continue;
    }
    // Copied in from the context (under a COPY, present and kept), or made by the stage's build.
    const copied = held !== undefined && !held.copy.made && existsSync(join(context, ctx)) && !ignore.excludes(ctx);
    const made = !copied;
    if (made) {
      const why = held && !held.copy.made ? `it is not in the context's '${held.copy.context}' (${existsSync(join(context, ctx)) ? `${ignoreName} leaves it out` : 'no such path'})` : 'no COPY puts it there';
      const maker = makerOf(ctx);
      if (!source.runs.some((run) => maker.re.test(run))) {
        problem(step.line, `${where2}: ${why}, and that stage runs nothing that could make it (${maker.what})`);
        continue;
      }
      if (!existsSync(join(context, ctx))) {
        problem(step.line, `${where2}: ${why}, so the stage's build must make '${ctx}', but the build in this checkout makes none; if it is a build output, run \`npm run build\` and check again, else fix the path`);
        continue;
      }
      if (!buildOutput(ctx)) {
        problem(step.line, `${where2}: ${why}, and '${ctx}' is a file of the checkout (git tracks it), not a build output; COPY it into stage '${source.label}' first`);
        continue;
      }
    }
    stage.copies.push({ image: intoFolder ? posix.join(dest, basename(image)) : dest, context: ctx, made });
  }
}

/** What makes a build output: packages come from npm ci/install, the rest from running the build. */
function makerOf(path) {
  if (path === 'node_modules' || path.startsWith('node_modules/')) return { re: /\bnpm\s+(ci|install|i)\b/, what: 'no `npm ci` or `npm install`' };
  return { re: /\bnpm\s+(run|run-script|rebuild)\b|\bnpx\s|\bnode\s/, what: 'no `npm run`, `npx` or `node` in its RUN lines' };
}

/**
 * Whether a checkout path is something a build makes: it exists and git ignores it (dist/,
 * web/dist/, node_modules/ are never committed). Outside a git checkout this cannot be told, and
 * any path the context leaves out is taken for one, with a note.
 */
function buildOutput(path, outside = true) {
  const r = spawnSync('git', ['-C', context, 'check-ignore', '-q', '--', path], { stdio: 'ignore' });
  if (r.status === 0) return true;
  if (r.status === 1) return false;
  if (!outside) return false;
  if (!notes.some((n) => n.startsWith('not a git checkout'))) notes.push(`not a git checkout (${context}): a path the context leaves out is taken for a build output`);
  return true;
}

/** A stage's copies, those of the stage it was built FROM included. */
function stageCopies(stage) {
  const all = [];
  for (let s = stage; s; s = s.parent) all.push(...s.copies);
  return all;
}

/** The checkout path that `image` in a stage comes from: the latest COPY whose destination holds it. */
function holding(stage, image) {
  for (let i = stage.copies.length - 1; i >= 0; i--) {
    const copy = stage.copies[i];
    if (image === copy.image) return { copy, path: copy.context };
    if (image.startsWith(`${copy.image === '/' ? '' : copy.image}/`)) return { copy, path: posix.join(copy.context, image.slice(copy.image.length + 1)) };
  }
  return stage.parent ? holding(stage.parent, image) : undefined;
}

function checkFinal(stage) {
  const all = stageCopies(stage);
  const inImage = new Set(all.map((c) => posix.relative(stage.workdir, c.image)));
  let files = [];
  try {
    files = JSON.parse(readFileSync(join(context, 'package.json'), 'utf8')).files ?? [];
  } catch {
    notes.push(`no package.json in ${context}: what the image must hold is not checked`);
  }
  // A `!` entry leaves something out of what the others ship: nothing the image must hold.
  for (const f of ['package.json', ...files.filter((f) => !f.startsWith('!'))]) {
    const path = posix.normalize(f).replace(/\/+$/, '');
    const covered = [...inImage].some((p) => p === path || path.startsWith(`${p}/`) || p === '');
    if (!covered) problem(stage.line, `the last stage ('${stage.label}') has no '${path}' in ${stage.workdir}, which package.json ships (an installed Hearth has it); COPY it there`);
  }
  const user = stage.user ?? stage.parent?.user;
  if (!user || /^(root|0)(:.*)?$/.test(user)) problem(stage.line, `the last stage ('${stage.label}') runs as root; add a USER line with an unprivileged user`);
  if (!stage.healthcheck) problem(stage.line, `the last stage ('${stage.label}') has no HEALTHCHECK; probe /healthz (docs/api.md)`);
}

/**
 * The project scripts a RUN line starts (`npm run X`, and `prepare` for an `npm ci` or `npm install`
 * that runs scripts), and the checkout's files they name, following nested `npm run`s: each must be
 * in the stage by then, or the build fails inside Docker, where nobody tried it.
 */
function checkRunInputs(stage, step) {
  const scripts = packageScripts();
  const runs = /\bnpm\s+run(?:-script)?\s+(?:--?\S+\s+)*([\w:.-]+)/g;
  const started = [...step.text.matchAll(runs)].map((m) => m[1]);
  if (/\bnpm\s+(ci|install|i)\b/.test(step.text) && !/--ignore-scripts\b/.test(step.text)) started.push('preinstall', 'install', 'postinstall', 'prepare');
  const seen = new Set();
  const inputs = new Set();
  const follow = (name) => {
    if (seen.has(name) || typeof scripts[name] !== 'string') return;
    seen.add(name);
    for (const m of scripts[name].matchAll(runs)) follow(m[1]);
    for (const raw of scripts[name].split(/[\s&|;=()]+/)) {
      const word = raw.replace(/^["']|["']$/g, '');
      if (!word || word.startsWith('-') || word.startsWith('$') || !/^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(word)) continue;
      const path = posix.normalize(word).replace(/\/+$/, '');
      if (path.startsWith('..') || !existsSync(join(context, path)) || buildOutput(path, false)) continue;
      inputs.add(path);
    }
  };
  started.forEach(follow);
  for (const input of inputs) {
    const image = posix.join(step.workdir, input);
    const held = holding(stage, image);
    const filled = stageCopies(stage).some((c) => c.image.startsWith(`${image}/`));
    if (filled || (held && (held.copy.made || (existsSync(join(context, held.path)) && !ignore.excludes(held.path))))) continue;
    const rule = ignore.ruleFor(input);
    const why = rule ? `${ignoreName} line ${rule.line} ('${rule.text}') leaves it out of the context` : 'no COPY before this line puts it there';
    problem(step.line, `RUN ${step.text}: npm run ${[...seen].join(' → ')} reads '${input}', which stage '${stage.label}' does not have (${why}); COPY it before this line`);
  }
}

/** package.json's scripts, read once (kept on the function: it runs before a module-level `let` would be set). */
function packageScripts() {
  if (!packageScripts.read) {
    try {
      packageScripts.read = JSON.parse(readFileSync(join(context, 'package.json'), 'utf8')).scripts ?? {};
    } catch {
      packageScripts.read = {};
    }
  }
  return packageScripts.read;
}

/**
 * Whatever the context sends, some COPY should take: a folder sent and never copied is a COPY the
 * build may be missing (or a line .dockerignore is missing).
 */
function checkSent() {
  const used = stages.flatMap((s) => s.copies.filter((c) => !c.made).map((c) => c.context));
  const own = new Set([relative(context, file), ignoreFile ? relative(context, ignoreFile) : '.dockerignore', '.dockerignore', 'Dockerfile']);
  for (const entry of readdirSync(context).sort()) {
    if (own.has(entry) || (ignore.excludes(entry) && !ignore.mayReinclude(entry))) continue;
    if (ignore.excludes(entry) && countKept(entry) === 0) continue;
    if (!used.some((u) => u === '.' || u === entry || u.startsWith(`${entry}/`))) {
      problems.push(`${shown}: '${entry}' is sent in the build context, but no COPY takes it; copy it where the build needs it, or leave it out in ${ignoreName}`);
    }
  }
}

/** Files under a context folder that .dockerignore keeps (stops counting at the first). */
function countKept(dir) {
  for (const entry of readdirSync(join(context, dir), { withFileTypes: true })) {
    const p = posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if ((!ignore.excludes(p) || ignore.mayReinclude(p)) && countKept(p) > 0) return 1;
    } else if (!ignore.excludes(p)) return 1;
  }
  return 0;
}

/** Context paths matching a COPY glob (Go's filepath.Match rules: `*` stays within a folder). */
function globContext(pattern) {
  const re = globRegExp(pattern);
  const depth = pattern.includes('**') ? Infinity : pattern.split('/').length;
  const out = [];
  const walk = (dir, level) => {
    for (const entry of readdirSync(join(context, dir), { withFileTypes: true })) {
      const p = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (re.test(p)) out.push(p);
      if (entry.isDirectory() && level + 1 < depth && (!ignore.excludes(p) || ignore.mayReinclude(p))) walk(p, level + 1);
    }
  };
  walk('.', 0);
  return out;
}
