/**
 * Text for people: build progress (one line per step; redrawn in place on a terminal) and the
 * summary `hearth plugin inspect` prints.
 */
import type { BuildEvent, BuildStep } from './build.js';
import type { PackageSummary } from './inspect.js';

const STEP_NAMES: Record<BuildStep, string> = {
  hook: 'pre_build_hook',
  validate: 'validate',
  collect: 'collect files',
  repositories: 'repository indexes',
  package: 'write package',
};

const MARKS: Record<BuildEvent['state'], string> = { start: '…', done: 'ok', skipped: 'skipped', failed: 'FAILED' };

export interface BuildReporter {
  onEvent(event: BuildEvent): void;
  finish(): void;
}

/** Progress on `stream`; `quiet` (for --json) prints nothing. A TTY gets a live line per step, anything else plain lines. */
export function buildReporter(stream: NodeJS.WriteStream, quiet: boolean): BuildReporter {
  if (quiet) return { onEvent: () => {}, finish: () => {} };
  const tty = stream.isTTY === true;
  let open = false;
  const line = (e: BuildEvent): string => `${STEP_NAMES[e.step]}: ${MARKS[e.state]}${e.detail ? ` (${e.detail})` : ''}`;
  return {
    onEvent(e) {
      if (!tty) {
        stream.write(`build: ${line(e)}\n`);
        return;
      }
      // On a terminal a step's "…" line is replaced by its outcome.
      if (open) stream.write('\r\x1b[2K');
      stream.write(line(e));
      open = e.state === 'start';
      if (!open) stream.write('\n');
    },
    finish() {
      if (open) stream.write('\n');
      open = false;
    },
  };
}

const builtBy = (s: PackageSummary): string => {
  if (!s.fuel) return `built by hearth ${s.builderVersion}`;
  return s.fuel.format === 'rpm' ? `Fuel plugin RPM${s.fuel.rpm ? ` ${s.fuel.rpm}` : ''}` : 'Fuel .fp package';
};

export function formatSummary(s: PackageSummary): string {
  const releases = s.releases.map((r) => [r.is_release ? `release ${r.name ?? ''}`.trim() : undefined, r.os, r.version].filter(Boolean).join(' ')).join(', ');
  const tasks = Object.entries(s.tasks)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `${s.name} ${s.version} (package ${s.packageVersion}${s.isReleasePlugin ? ', release plugin' : ''}, ${builtBy(s)})`,
    `  checksums:  ${s.files} files ${s.fuel ? 'read' : 'verified'}`,
    `  releases:   ${releases || 'none'}`,
    `  roles:      ${s.roles.join(', ') || 'none'}`,
    `  components: ${s.components.join(', ') || 'none'}`,
    `  tasks:      ${tasks || 'none'}`,
    '',
  ].join('\n');
}
