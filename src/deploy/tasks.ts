/**
 * Task types, run for real through a transport. Every path, mode and field reaches the remote
 * shell quoted (quote.ts); data (file contents, deployment data) travels on stdin. A task's `cwd`
 * and relative paths start in its source's scripts folder on the node,
 * /etc/hearth/plugins/<name>-<version>/, as Fuel's did in /etc/fuel/plugins/<name>-<version>/.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import type { Task } from '../core/tasks/model.js';
import { evaluateYaql, parseYaql } from '../core/yaql/index.js';
import { confinedPath, insideReal, readConfined, unsendableFolder, type DataFolder } from './confine.js';
import { quote } from './quote.js';
import type { DeployTarget, ExecResult, Transport } from './transport.js';

/** Types that mark a place in the graph and run nothing. */
export const MARKER_TYPES: ReadonlySet<string> = new Set(['stage', 'group', 'skipped']);
export const RUNNABLE_TYPES: ReadonlySet<string> = new Set(['shell', 'upload_file', 'copy_files', 'sync', 'reboot', 'puppet', 'master_shell']);

export interface TaskOutcome {
  exitCode: number | null;
  output: string;
  attempts: number;
  /** Why it failed, in words, when the exit status alone does not say (timeout, unreachable, bad field). */
  message?: string;
  timedOut?: boolean;
}

export const PLUGINS_ROOT = '/etc/hearth/plugins';

/** Where a task's files are: its source's scripts folder on the server and on the node. */
export interface ScriptsFolder {
  localDir?: string;
  remoteDir: string;
  /** The plugin's folder on the server, which `localDir` must stay inside (after every link) to be read. */
  pluginRoot?: string;
}

export interface TaskRunContext {
  transport: Transport;
  /** The node; absent for tasks of the master or sync node. */
  target?: DeployTarget;
  /** The deployment's working folder on the Hearth server (master_shell runs there). */
  workDir: string;
  scripts: ScriptsFolder;
  /** The server's data folder: nothing of it is sent (confine.ts). */
  dataFolder?: DataFolder;
  /** The node's deployment data (`$` of YAQL in upload_file data). */
  data?: Record<string, unknown>;
  /** Values never shown in output (password settings). */
  secrets: readonly string[];
  signal: AbortSignal;
  onOutput: (chunk: string) => void;
}

/** Default timeouts (s) per type, where a task gives none. */
const DEFAULT_TIMEOUT: Record<string, number> = { shell: 300, puppet: 3600, upload_file: 120, copy_files: 300, sync: 600, reboot: 300, master_shell: 300 };

export const timeoutOf = (task: Task): number => {
  const t = task.timeout ?? Number(task.parameters?.timeout);
  return (Number.isFinite(t) && t > 0 ? t : (DEFAULT_TIMEOUT[task.type] ?? 300)) * 1000;
};

const param = (task: Task, key: string): unknown => task.parameters?.[key];
const text = (task: Task, key: string): string | undefined => {
  const v = param(task, key);
  return typeof v === 'string' && v !== '' ? v : undefined;
};

export function redact(output: string, secrets: readonly string[]): string {
  let out = output;
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join('********');
  return out;
}

/** A path of the task, on the node: relative ones start in the scripts folder. */
const remotePath = (scripts: ScriptsFolder, p: string): string => (p.startsWith('/') ? p : posix.join(scripts.remoteDir, p));

const failed = (message: string): TaskOutcome => ({ exitCode: null, output: '', attempts: 0, message });

function outcomeOf(r: ExecResult, secrets: readonly string[], timeoutS?: number): TaskOutcome {
  const out: TaskOutcome = { exitCode: r.exitCode, output: redact(r.output, secrets), attempts: 0 };
  if (r.transportError) out.message = r.transportError.message;
  else if (r.timedOut) {
    out.timedOut = true;
    out.message = `timed out after ${timeoutS ?? '?'} s`;
  }
  return out;
}

/**
 * Writes bytes to a file on the node, atomically (a temporary file, then a rename), and only whole.
 * A connection cut mid-upload (the server killed, the network gone) ends the data early, and the
 * node's shell still runs the command on what arrived (bash and dash run a here-document cut off
 * by end of file; `cat` ends at end of file too): the file was then renamed into place truncated.
 * So the temporary file's size is checked against the bytes sent first; short, it is removed.
 */
export function uploadCommand(path: string, data: string | Buffer, mode: string, dirMode?: string): string {
  const dir = posix.dirname(path);
  const tmp = quote(`${path}.hearth-tmp`);
  const bytes = Buffer.byteLength(data);
  const whole = `{ [ "$(wc -c < ${tmp})" -eq ${bytes} ] || { rm -f -- ${tmp}; echo ${quote(`hearth: ${path}: the upload was cut short (fewer than ${bytes} bytes arrived); the file was left as it was`)} >&2; false; }; }`;
  return [`mkdir -p -- ${quote(dir)}`, ...(dirMode ? [`chmod ${quote(dirMode)} -- ${quote(dir)}`] : []), `cat > ${tmp}`, whole, `chmod ${quote(mode)} -- ${tmp}`, `mv -f -- ${tmp} ${quote(path)}`].join(' && ');
}

/** A permission string as Fuel wrote them ("0644", "644"). */
const MODE = /^[0-7]{3,4}$/;

/** The folders a copy_files or sync task may read from on the server: the source's and the deployment's, nowhere else. */
const readableRoots = (ctx: TaskRunContext): string[] => {
  const { localDir, pluginRoot } = ctx.scripts;
  // A scripts folder turned into a link out of its plugin (`deployment_scripts -> /`) is no root.
  const scripts = localDir && (!pluginRoot || insideReal(pluginRoot, localDir)) ? [localDir] : [];
  return [...scripts, ctx.workDir];
};

/** A task's command line, or why it has none. */
type CommandLine = { line: string; refused?: undefined } | { line?: undefined; refused: string };

/**
 * A shell or puppet task's command line, the same on every node of a run: made once per task and
 * scripts folder (the line reads only its remote folder), not once per (node, task). Quoting and
 * joining the same words again for each of 10,000 nodes was a tenth of a large run's walk (issue 30).
 */
const commandLines = new WeakMap<Task, { remoteDir: string; made: CommandLine }>();

function commandOf(task: Task, scripts: ScriptsFolder): CommandLine {
  const known = commandLines.get(task);
  if (known?.remoteDir === scripts.remoteDir) return known.made;
  const made = task.type === 'shell' ? shellLine(task, scripts) : puppetLine(task, scripts);
  commandLines.set(task, { remoteDir: scripts.remoteDir, made });
  return made;
}

function shellLine(task: Task, scripts: ScriptsFolder): CommandLine {
  const cmd = text(task, 'cmd');
  if (!cmd) return { refused: 'shell needs parameters.cmd' };
  const cwd = remotePath(scripts, text(task, 'cwd') ?? '.');
  // The command is the task author's shell code; only Hearth's own words around it are quoted.
  // No profile or rc files: bash sources ~/.bashrc when it thinks sshd started it, which made
  // every task's run depend on (and wait for) the node's interactive setup.
  return { line: `cd -- ${quote(cwd)} && if command -v bash >/dev/null 2>&1; then exec bash --noprofile --norc -c ${quote(cmd)}; else exec sh -c ${quote(cmd)}; fi` };
}

function puppetLine(task: Task, scripts: ScriptsFolder): CommandLine {
  const manifest = text(task, 'puppet_manifest');
  if (!manifest) return { refused: 'puppet needs parameters.puppet_manifest' };
  const modules = text(task, 'puppet_modules');
  const cwd = text(task, 'cwd') ?? '.';
  const words = ['puppet', 'apply', '--detailed-exitcodes', ...(modules ? [`--modulepath=${modules.split(':').map((m) => remotePath(scripts, m)).join(':')}`] : []), remotePath(scripts, manifest)];
  // --detailed-exitcodes: 2 means "changes were made", a success; 4 and 6 are failures.
  return { line: `cd -- ${quote(remotePath(scripts, cwd))} && { ${words.map(quote).join(' ')}; s=$?; [ $s -eq 2 ] && exit 0; exit $s; }` };
}

export async function runTask(task: Task, ctx: TaskRunContext): Promise<TaskOutcome> {
  const timeoutMs = timeoutOf(task);
  const timeoutS = Math.round(timeoutMs / 1000);
  const opts = { timeoutMs, signal: ctx.signal, onOutput: (c: string) => ctx.onOutput(redact(c, ctx.secrets)), task: true };
  if (task.type === 'master_shell') {
    const cmd = text(task, 'cmd');
    if (!cmd) return failed("master_shell needs parameters.cmd");
    return outcomeOf(await ctx.transport.local(cmd, ctx.workDir, opts), ctx.secrets, timeoutS);
  }
  const t = ctx.target;
  if (!t) return failed(`a ${task.type} task needs a node to run on`);
  switch (task.type) {
    case 'shell':
    case 'puppet': {
      const line = commandOf(task, ctx.scripts);
      if (line.line === undefined) return failed(line.refused);
      return outcomeOf(await ctx.transport.exec(t, line.line, opts), ctx.secrets, timeoutS);
    }
    case 'upload_file': {
      const path = text(task, 'path');
      if (!path) return failed('upload_file needs parameters.path');
      let data = param(task, 'data');
      if (data && typeof data === 'object' && 'yaql_exp' in (data as object)) {
        const parsed = parseYaql(String((data as { yaql_exp: unknown }).yaql_exp));
        if (!parsed.ast) return failed(`upload_file data: ${parsed.findings[0]?.message ?? 'not YAQL'}`);
        const value = evaluateYaql(parsed.ast, { data: ctx.data ?? {} });
        if (!value.ok) return failed(`upload_file data: ${value.error.message}`);
        data = value.value;
      }
      const body = typeof data === 'string' ? data : data === undefined || data === null ? '' : JSON.stringify(data);
      const mode = text(task, 'permissions') ?? '0644';
      if (!MODE.test(mode)) return failed(`upload_file permissions '${mode}' is not an octal mode`);
      return outcomeOf(await ctx.transport.exec(t, uploadCommand(remotePath(ctx.scripts, path), body, mode), { ...opts, stdin: body }), ctx.secrets, timeoutS);
    }
    case 'copy_files': {
      const files = param(task, 'files');
      if (!Array.isArray(files) || !files.length) return failed('copy_files needs parameters.files: [{src, dst}]');
      const mode = text(task, 'permissions') ?? '0644';
      const dirMode = text(task, 'dir_permissions') ?? '0755';
      if (!MODE.test(mode) || !MODE.test(dirMode)) return failed(`copy_files permissions '${mode}' / dir_permissions '${dirMode}' must be octal modes`);
      const outputs: string[] = [];
      for (const f of files as Array<{ src?: unknown; dst?: unknown }>) {
        if (typeof f?.src !== 'string' || typeof f?.dst !== 'string') return failed('each copy_files entry needs src and dst');
        // The real path, after every link, is judged: a link in the plugin to the server's key once sent it (issue 24).
        const roots = readableRoots(ctx);
        const local = confinedPath(roots, f.src, ctx.dataFolder);
        if ('refused' in local) return failed(`copy_files src '${f.src}' cannot be sent: ${local.refused}; Hearth sends nothing else from its server`);
        let bytes: Buffer;
        try {
          bytes = readConfined(local.real, roots, ctx.dataFolder);
        } catch (err) {
          return failed(`copy_files cannot read ${f.src}: ${(err as Error).message}`);
        }
        const r = await ctx.transport.exec(t, uploadCommand(remotePath(ctx.scripts, f.dst), bytes, mode, dirMode), { ...opts, stdin: bytes });
        outputs.push(r.output);
        if (r.exitCode !== 0 || r.transportError) return { ...outcomeOf(r, ctx.secrets, timeoutS), output: redact(outputs.join(''), ctx.secrets) };
      }
      return { exitCode: 0, output: redact(outputs.join(''), ctx.secrets), attempts: 0 };
    }
    case 'sync': {
      const src = text(task, 'src');
      const dst = text(task, 'dst');
      if (!src || !dst) return failed('sync needs parameters.src and parameters.dst');
      if (/^rsync:\/\//.test(src)) return failed(`sync from ${src}: Hearth pushes from its own files over SSH; give src as a folder of the plugin`);
      const local = confinedPath(readableRoots(ctx), src, ctx.dataFolder);
      if ('refused' in local) return failed(`sync src '${src}' cannot be sent: ${local.refused}`);
      if (!isDir(local.real)) return failed(`sync src '${src}' is not a folder on the Hearth server`);
      // Refused before anything is sent; rsync's --safe-links (ssh.ts) is the second guard.
      const unsendable = unsendableFolder(local.real, ctx.dataFolder);
      if (unsendable) return failed(`sync src '${src}' cannot be sent: ${unsendable}`);
      return outcomeOf(await ctx.transport.sync(t, local.real, remotePath(ctx.scripts, dst), opts), ctx.secrets, timeoutS);
    }
    case 'reboot': {
      // Detached, so the command returns before sshd goes; then wait for the node to go and come back.
      const r = await ctx.transport.exec(t, 'nohup sh -c "sleep 1; reboot" >/dev/null 2>&1 </dev/null &', { timeoutMs: 30_000, signal: ctx.signal });
      if (r.exitCode !== 0) return outcomeOf(r, ctx.secrets, 30);
      const back = await ctx.transport.waitBack(t, timeoutMs, ctx.signal);
      return { ...outcomeOf(back, ctx.secrets, timeoutS), output: back.exitCode === 0 ? 'rebooted and back\n' : back.output };
    }
    default:
      return failed(`task type '${task.type}' cannot run: Hearth runs ${[...RUNNABLE_TYPES].join(', ')} (and the markers ${[...MARKER_TYPES].join(', ')})`);
  }
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** Files a folder holds (for refusing a release whose tasks name files it does not contain). */
export function listFiles(dir: string, base = dir, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (isDir(p)) listFiles(p, base, out);
    else out.push(relative(base, p));
  }
  return out;
}
