/** Template capabilities (issue 7): annotation, matching, summary, environments and resolution. Pure. */
export { capabilityText, describeFailure, explainMatch, matchesCapabilities } from './match.js';
export type { Capabilities, KeyFailure, MatchExplanation, Requirements } from './match.js';
export { isHotTemplate, readTemplateCapabilities, resourceTypesOf } from './template.js';
export type { ResourceUse, TemplateCapabilities } from './template.js';
export { summariseCapabilities } from './summary.js';
export type { CapabilitiesSummary, SummaryEntry } from './summary.js';
export { ENVIRONMENT_SECTIONS, isTemplatePath, readEnvironment, requirementsOf } from './environment.js';
export type { EnvironmentFile, RegistryEntry, RegistryTarget, RegistryValue, RequiredValue, ResourceOverride, TemplateRef } from './environment.js';
export { mergeEnvironments } from './merge.js';
export type { MergedEnvironment } from './merge.js';
export { resolveEnvironment, targetText } from './resolve.js';
export type { CandidateCapabilities, CandidateVerdict, Resolution, ResolutionError, ResolvedEntry } from './resolve.js';
export { findAliasLoops, lookupType } from './registry.js';
export type { Lookup, LookupOptions } from './registry.js';
