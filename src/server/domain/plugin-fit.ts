/**
 * What the Plugins page says about a plugin: for every installed release, whether the plugin fits
 * it and, when it fits by name and version, whether it can really be composed with it (a role
 * without a disk layout makes Contrail unusable, which a name-and-version check does not see);
 * which environments enable it; and the validator's warnings from its install, kept so they can
 * be read later (the package's files are gone by then).
 */
import type { Finding } from '../../core/findings.js';
import { pluginCompatibility } from '../../core/release/index.js';
import * as store from '../../store/index.js';
import { wizardFor } from './environment.js';
import { contributionOf } from './plugins.js';

export interface ReleaseFit {
  release_id: string;
  release: string;
  /** Usable with this release: fits by name and version, and composes. */
  fits: boolean;
  reasons: string[];
}

export async function releaseFits(q: store.Queryable, record: store.PluginRecord): Promise<ReleaseFit[]> {
  if (record.isRelease) return [];
  const contribution = contributionOf(record).contribution;
  const out: ReleaseFit[] = [];
  for (const release of await store.listReleases(q)) {
    const label = `${release.release.name} ${release.release.version}`;
    const fit = pluginCompatibility(contribution, release.release);
    if (!fit.applies) {
      out.push({ release_id: release.id, release: label, fits: false, reasons: [`it ${fit.reason}`] });
      continue;
    }
    const unusable = (await wizardFor(q, release.id)).unusable.find((u) => u.plugin.name === record.name && u.plugin.version === record.version);
    out.push(unusable ? { release_id: release.id, release: label, fits: false, reasons: unusable.reasons } : { release_id: release.id, release: label, fits: true, reasons: [fit.reason] });
  }
  return out;
}

const findingsKey = (id: string) => `plugin-findings:${id}`;

/** Keep the validator's warnings of an install or sync (errors refuse the install, infos are notes). */
export async function keepInstallFindings(q: store.Queryable, id: string, findings: readonly Finding[]): Promise<void> {
  await store.setMeta(q, findingsKey(id), findings.filter((f) => f.severity === 'warning').slice(0, 200));
}

export async function installFindings(q: store.Queryable, id: string): Promise<Finding[]> {
  return (await store.getMeta<Finding[]>(q, findingsKey(id))) ?? [];
}
