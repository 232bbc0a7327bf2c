export type { Release, RoleMetadata, RoleLimits, Component, ComponentRule, ComponentPredicate, VolumeAllocation, VolumesMetadata } from './model.js';
export type { PluginContribution, PluginGraph, PluginReleaseSupport } from './plugin.js';
export { pluginLabel } from './plugin.js';
export { releasesFromFixture, type FixtureReleases } from './fixture.js';
export { releaseFromFields, type ReleaseFieldsContext, type ReleaseFieldsResult } from './fields.js';
export { deepMerge, cloneValue, isMapping, type Mapping } from './merge.js';
export { pluginCompatibility, versionAccepts, type Compatibility } from './compatibility.js';
export { composeRelease, type Composition, type ComposedRelease, type PluginOutcome } from './compose.js';
export type { TaskClaim, TaskConflict, TaskOverride } from './compose-tasks.js';
