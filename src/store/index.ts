/** Hearth's persistence: one schema over embedded PGlite or PostgreSQL, and a repository per entity. */
export { type Database, type Engine, type Presence, type Queryable, StoreError, json } from './database.js';
export { StoreConflict, conflictFrom } from './conflicts.js';
export { openStore, defaultDataDir, type StoreOptions } from './open.js';
export { migrate } from './migrate.js';
export { claimDataFolder } from './lock.js';
export { describeRepair, securePrivateTree } from './private-files.js';
export { DeferredDatabase } from './deferred.js';
export { MIGRATIONS } from './migrations.js';
export * from './meta.js';
export * from './plugins.js';
export * from './releases.js';
export * from './clusters.js';
export * from './nodes.js';
export * from './deployments.js';
export * from './disk-layouts.js';
export { schemaState, KNOWN_SCHEMA, type SchemaState } from './schema-version.js';
export { exportDatabase, importDatabase, checkDump, type Dump } from './dump.js';
export { runCounts, nodeOutcomes, OUTCOME_SQL } from './outcomes.js';
