/**
 * Class 2 of issue 18: cycles that appear only with the release. A plugin's tasks alone may be
 * acyclic and still close a circle once merged into the release's default graph: typically a task
 * or group placed before `deploy_end` that lists or requires a task the release runs after it, or
 * `groups:` that pull a post-deployment task into a group required for an earlier stage. Nailgun's
 * granular deployment refused such a graph at deploy time; the task-based engine silently ran
 * something else. The graph is Nailgun's: `a requires b` orders b before a, `a required_for b`
 * a before b, `a groups: [g]` a before the group g, and a group's `tasks: [m]` m before the group.
 * A plugin task replaces a release task of the same id. Each circle is reported once, whole, each
 * link with the file and line that wrote it (the plugin's lines, the release's task files):
 * `task/cycle-with-release` when a group's `tasks:` or a task's `groups:` closes it, and
 * `task/dependency-cycle` (the code such circles always had) when requires/required_for alone do.
 */
import { finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { findCycleComponents } from './cycles.js';
import { entryPosition, indexTasks, taskPlace, type IndexedTask } from './task-index.js';
import type { TaskSource } from './tasks.js';
import type { ValidationContext } from './context.js';

/** Why `from` runs before `to`, with who wrote it. */
interface Link {
  words: string;
  task: IndexedTask;
  key: string;
  value: string;
}

function linkBetween(from: IndexedTask, to: IndexedTask): Link | undefined {
  // The plugin's own words first: they are what the author can change.
  const candidates: Link[] = [];
  if (from.requiredFor.includes(to.id)) candidates.push({ words: `'${from.id}' is required_for '${to.id}'`, task: from, key: 'required_for', value: to.id });
  if (to.requires.includes(from.id)) candidates.push({ words: `'${to.id}' requires '${from.id}'`, task: to, key: 'requires', value: from.id });
  if (to.type === 'group' && from.groups.includes(to.id)) candidates.push({ words: `'${from.id}' is in group '${to.id}' (groups:)`, task: from, key: 'groups', value: to.id });
  if (to.type === 'group' && to.tasks.includes(from.id)) candidates.push({ words: `group '${to.id}' lists '${from.id}' in tasks:`, task: to, key: 'tasks', value: from.id });
  return candidates.find((c) => c.task.raw) ?? candidates[0];
}

/** The line that wrote a link: the list entry in the plugin's file, the task in the release's. */
function linkPlace(link: Link): string {
  const at = link.task.raw ? entryPosition(link.task, link.key, link.value) : undefined;
  return at ? `${at.file}:${at.line}` : taskPlace(link.task);
}

export function checkCyclesWithRelease(ctx: ValidationContext, sources: TaskSource[]): void {
  if (!ctx.release?.graphs?.default) return;
  // The plugin's contribution to the default graph: deployment_tasks.yaml and per-release deployment_tasks.
  const own = sources.filter((s) => s.releaseRecord === undefined && (s.deploymentTasksFile || s.label.endsWith('.deployment_tasks')));
  if (own.length === 0) return;
  const byId = indexTasks(ctx, own);
  const synthetic: Record<string, unknown>[] = [];
  for (const t of byId.values()) {
    const before = [...t.requiredFor, ...t.groups.filter((g) => byId.get(g)?.type === 'group')];
    synthetic.push({ id: t.id, requires: t.requires, required_for: before });
    if (t.type === 'group') for (const m of t.tasks) if (byId.has(m)) synthetic.push({ id: m, required_for: [t.id] });
  }
  // findCycles reads each entry's links; several entries of one id add up.
  const merged = new Map<string, { id: string; requires: string[]; required_for: string[] }>();
  for (const s of synthetic) {
    const id = s.id as string;
    const m = merged.get(id) ?? { id, requires: [], required_for: [] };
    m.requires.push(...((s.requires as string[] | undefined) ?? []));
    m.required_for.push(...((s.required_for as string[] | undefined) ?? []));
    merged.set(id, m);
  }
  for (const { circle, members } of findCycleComponents([...merged.values()])) {
    // Start the story at the plugin's first task in the circle: that is where the author looks.
    const start = Math.max(0, circle.findIndex((id) => byId.get(id)?.raw));
    const cycle = [...circle.slice(start), ...circle.slice(0, start)];
    const steps = cycle.map((id, i) => {
      const from = byId.get(id)!;
      const to = byId.get(cycle[(i + 1) % cycle.length])!;
      return { from, to, link: linkBetween(from, to) };
    });
    const pluginLinks = steps.filter((s) => s.link?.task.raw);
    const pluginTasks = cycle.filter((id) => byId.get(id)?.raw);
    // Release-only circles are the release's; circles inside the plugin alone are task/dependency-cycle's.
    if (pluginLinks.length === 0 && pluginTasks.length === 0) continue;
    if (steps.every((s) => s.from.raw && s.to.raw && s.link?.task.raw)) continue;
    const first = pluginLinks[0];
    const at = first?.link ? entryPosition(first.link.task, first.link.key, first.link.value) : positionOf(byId.get(pluginTasks[0])?.raw);
    // Other plugin tasks caught in the same knot are freed only once this circle is broken.
    const caught = members.filter((id) => byId.get(id)?.raw && !cycle.includes(id)).sort();
    const knot = caught.length > 0 ? ` The same knot holds ${caught.length} more of the plugin's tasks: ${caught.slice(0, 8).join(', ')}${caught.length > 8 ? ', ...' : ''}.` : '';
    const story = steps.map((s) => `${s.link ? s.link.words : `'${s.from.id}' before '${s.to.id}'`} (${s.link ? linkPlace(s.link) : taskPlace(s.from)})`).join('; ');
    // A circle of requires/required_for alone was always task/dependency-cycle (kept: scripts read
    // it); one that a group's tasks: or a task's groups: closes is this class's own code.
    const byDependencies = steps.every((s) => s.link && (s.link.key === 'requires' || s.link.key === 'required_for'));
    const mine = cycle.filter((id) => byId.get(id)?.raw);
    ctx.findings.push(
      finding(
        byDependencies ? 'task/dependency-cycle' : 'task/cycle-with-release',
        'error',
        `with release ${ctx.release.name}, tasks wait for each other in a circle: ${[...cycle, cycle[0]].join(' → ')}${mine.length ? ` (plugin tasks: ${mine.join(', ')})` : ''}. Each link: ${story}. None of them can ever start.${knot}`,
        at ?? { file: own[0].file, line: 1, column: 1 },
        pluginLinks.length > 0
          ? `remove or move one of the plugin's links in the circle: ${pluginLinks.map((s) => `${s.link!.words} (${linkPlace(s.link!)})`).join('; ')}`
          : 'the plugin replaces a release task in this circle: keep the release task\'s dependencies, or move the plugin\'s task out of the circle',
      ),
    );
    // Each of the plugin's other links is a defect of its own, at its own line (breaking any one
    // breaks the circle, but each was written against the release's order): named with the circle.
    const whole = first?.link ? linkPlace(first.link) : undefined;
    for (const step of pluginLinks.slice(1)) {
      const link = step.link!;
      ctx.findings.push(
        finding(
          byDependencies ? 'task/dependency-cycle' : 'task/cycle-with-release',
          'error',
          `with release ${ctx.release.name}, ${link.words}, a link of the circle ${[...cycle, cycle[0]].join(' → ')}${whole ? ` (told in full at ${whole})` : ''}; none of its tasks can ever start`,
          entryPosition(link.task, link.key, link.value) ?? positionOf(link.task.raw) ?? { file: own[0].file, line: 1, column: 1 },
          `remove or move this link, or another of the plugin's links in the circle`,
        ),
      );
    }
  }
}
