/** Heat templates and environments on disk: find, summarise, resolve (the server calls these too). */
export { findTemplates, summariseTemplateFiles, type FindOptions, type FoundTemplates, type SummaryResult } from './introspect.js';
export { resolveEnvironments, THT_PREFIX, type EnvironmentResolution, type ResolveOptions } from './resolve.js';
