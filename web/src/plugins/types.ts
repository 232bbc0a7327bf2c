import type { Schemas } from '../../../src/api/client.js';

/** `GET /plugins/{id}`: what the Plugins page shows of one version (the API's PluginDetail). */
export type PluginDetail = Schemas['PluginDetail'];

export type ReleaseFinding = Schemas['Finding'];

/** What validating it against each installed release it declares adds (issue 18, class 5). */
export type ReleaseValidation = Schemas['ReleaseValidation'];
