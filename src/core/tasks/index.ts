export type { Task, RawTask, TaskType, TaskOrigin, RoleSelector, CrossDependency, TaskStrategy, GraphsByType } from './model.js';
export { normalizeTasks, parseLegacyStage, KNOWN_TASK_TYPES, type TaskFormat, type NormalizedTasks } from './normalize.js';
export { unwrapRoleTasks } from './role-tasks.js';
export { KNOWN_TASK_KEYS, suggestKey, editDistance } from './keys.js';
export { definitionsAgree } from './agree.js';
