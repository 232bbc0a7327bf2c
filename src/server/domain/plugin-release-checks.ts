/**
 * The plugin's validation against each installed release it declares, run at install and sync
 * (issue 18, class 5: circles through the release's graph, references to its tasks, roles and
 * components), kept so the Plugins page can show it after the package's files are gone. Computed
 * against the releases installed at that moment; a release installed later is checked at the
 * plugin's next sync.
 */
import type { ReleaseValidation } from '../../package/validate/against-releases.js';
import * as store from '../../store/index.js';

const key = (id: string) => `plugin-release-findings:${id}`;

export async function keepReleaseChecks(q: store.Queryable, id: string, checks: readonly ReleaseValidation[]): Promise<void> {
  await store.setMeta(q, key(id), checks);
}

export async function releaseChecks(q: store.Queryable, id: string): Promise<ReleaseValidation[]> {
  return (await store.getMeta<ReleaseValidation[]>(q, key(id))) ?? [];
}
