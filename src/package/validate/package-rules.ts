/**
 * The plugins-v5 design's rules for packages 4.0.0 and 5.0.0 (infos, errors and warnings): tasks
 * without `version: 2.0.0`, group tasks and `groups:` in 5.0.0, tasks.yaml that a version
 * ignores, Fuel 8.0's experimental orchestrator. Not judged on an assumed package version.
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { isMapping, type ValidationContext } from './context.js';
import type { TaskSource } from './tasks.js';

const VERSION_2 = /^2\./;
const taskId = (t: Record<string, unknown>): string | undefined => (typeof t.id === 'string' ? t.id : undefined);

/** Package-version rules from the plugins-v5 design (infos, errors and warnings). */
export function checkPackageRules(ctx: ValidationContext, sources: TaskSource[]): void {
  const { plugin, findings, major } = ctx;
  const file = sources.find((s) => s.deploymentTasksFile);
  if (!file || major < 4 || ctx.assumedVersion) return;
  const tasks = file.tasks;
  const v2 = tasks.filter((t) => typeof t.version === 'string' && VERSION_2.test(t.version));
  const where = { file: file.file, line: 1, column: 1 };
  // An empty file (a release plugin's top-level tasks, its graphs holding the tasks) has no task to give a version.
  if (tasks.length === 0) {
    // nothing to say
  } else if (v2.length === 0) {
    findings.push(finding('tasks/no-version-2', 'info', `no task in ${file.file} has version: 2.0.0; the task-based orchestrator of Fuel 9.0 recommends it`, where, 'add version: 2.0.0 to the tasks (it enables cross-depends, strategy per task, and more)'));
  } else {
    findings.push(
      finding('tasks/version-2', 'info', `${v2.length} task(s) in ${file.file} use version: 2.0.0, which Fuel 8.0 runs only with its experimental task-based orchestrator enabled`, where, 'nothing to do for Fuel 9.0 and later'),
    );
  }
  const tasksYaml = plugin.files.tasks;
  const legacyNonEmpty = Array.isArray(tasksYaml) ? tasksYaml.length > 0 : tasksYaml !== null && tasksYaml !== undefined;
  const tasksFile = plugin.filePaths.tasks ?? 'tasks.yaml';
  if (major === 4) {
    for (const task of tasks) {
      const isV2 = typeof task.version === 'string' && VERSION_2.test(task.version);
      const label = `task '${taskId(task) ?? '?'}'`;
      if (!isV2) {
        for (const key of ['cross-depends', 'cross-depended-by']) {
          if (task[key] !== undefined) {
            findings.push(finding('task/cross-depends-needs-version-2', 'error', `${label} uses ${key} without version: 2.0.0, so Fuel ignores the dependency`, keyPositionOf(task, key), 'add version: 2.0.0 to the task'));
          }
        }
        const strategy = isMapping(task.parameters) ? task.parameters.strategy : undefined;
        if (strategy !== undefined && task.type !== 'group') {
          findings.push(finding('task/strategy-needs-version-2', 'error', `${label} sets parameters.strategy without version: 2.0.0, so Fuel ignores it`, keyPositionOf(task.parameters, 'strategy'), 'add version: 2.0.0 to the task'));
        }
      } else if (task.groups !== undefined) {
        findings.push(finding('task/groups-with-version-2', 'warning', `${label} has version: 2.0.0 but uses groups, which that format replaces with roles`, keyPositionOf(task, 'groups'), 'rename groups to roles'));
      }
    }
    if (legacyNonEmpty) {
      findings.push(finding('plugin/tasks-yaml-deprecated', 'warning', `${tasksFile} is deprecated and ignored from package 5.0.0 on`, { file: tasksFile, line: 1, column: 1 }, 'move its tasks into deployment_tasks.yaml'));
    }
    if (v2.length > 0) {
      // A warning, as plugins-v5 lists it: 4.0.0 mixes two task formats that 5.0.0 settles.
      findings.push(finding('plugin/consider-package-5', 'warning', 'the plugin uses version: 2.0.0 tasks; package version 5.0.0 is made for them', keyPositionOf(plugin.metadata, 'package_version'), "set package_version: '5.0.0'"));
    }
  }
  if (major === 5) {
    for (const task of tasks) {
      const label = `task '${taskId(task) ?? '?'}'`;
      const isV2 = typeof task.version === 'string' && VERSION_2.test(task.version);
      if (!isV2) {
        findings.push(finding('task/needs-version-2', 'error', `${label} has no version: 2.0.0, which package 5.0.0 requires of every task`, keyPositionOf(task, 'version') ?? positionOf(task), 'add version: 2.0.0'));
      }
      if (task.groups !== undefined) {
        findings.push(
          finding('task/groups-deprecated', 'warning', `${label} uses groups, which package 5.0.0 deprecates`, keyPositionOf(task, 'groups'), `write the node roles under roles: instead (roles: ${JSON.stringify(task.groups)})`),
        );
      }
      if (task.role !== undefined && task.type !== 'group') {
        // Fuel 9.0's library still read role (plugins-v5: "roles alias for role"), so a warning.
        findings.push(
          finding(
            'task/role-renamed',
            'warning',
            `${label} uses role, which package 5.0.0 renames roles${task.roles !== undefined ? '; it has roles too, which is read in its place' : ''}`,
            keyPositionOf(task, 'role'),
            task.roles !== undefined ? 'merge the role list into roles: and delete role:' : `rename role to roles (roles: ${JSON.stringify(task.role)})`,
          ),
        );
      }
      if (task.type === 'group') {
        findings.push(
          finding('task/group-in-deployment-tasks', 'error', `${label} is a group; package 5.0.0 replaces group tasks with the tasks: list of the role in node_roles.yaml`, keyPositionOf(task, 'type'), 'move the group into node_roles.yaml as the role\'s tasks: [...]'),
        );
      }
    }
    if (legacyNonEmpty) {
      findings.push(finding('plugin/tasks-yaml-not-empty', 'error', `${tasksFile} is not empty; package 5.0.0 ignores its content`, { file: tasksFile, line: 1, column: 1 }, 'move its tasks into deployment_tasks.yaml and delete tasks.yaml'));
    }
    const fuel = Array.isArray(plugin.metadata.fuel_version) ? plugin.metadata.fuel_version.map(String) : [];
    if (fuel.some((v) => /^8\./.test(v))) {
      findings.push(
        finding('plugin/fuel-8-experimental', 'warning', 'package 5.0.0 works with Fuel 8.0 only when its experimental task-based orchestrator is enabled, and not at all with Fuel 7.0 and older', positionOf(plugin.metadata, 'fuel_version'), 'tell users of Fuel 8.0 to enable task-based deployment'),
      );
    }
  }
}
