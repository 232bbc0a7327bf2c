/** The lifecycle of environments, nodes, runs and task records: one model every face reads. */
export * from './states.js';
export * from './transitions.js';
export * from './outcomes.js';
export { lifecycleTables } from './doc.js';
