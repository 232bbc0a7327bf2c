/**
 * The shapes the UI reads from the API, by the names the UI uses: each one is a schema of the
 * OpenAPI document (src/api/schema.ts is generated from it; never write these by hand).
 */
import type { Schemas } from '../../src/api/client.js';

export type Release = Schemas['Release'];
export type Cluster = Schemas['Cluster'];
export type ComponentState = Schemas['ComponentState'];
export type WizardState = Schemas['WizardState'];
export type Node = Schemas['Node'];
export type Role = Schemas['Role'];
export type Plugin = Schemas['Plugin'];
/** A component as the release lists it (`GET /releases/{id}/components`). */
export type CatalogEntry = Schemas['Component'];
export type Deployment = Schemas['Deployment'];
export type TaskRun = Schemas['TaskRun'];
export type Finding = Schemas['Finding'];
export type PluginDetail = Schemas['PluginDetail'];
