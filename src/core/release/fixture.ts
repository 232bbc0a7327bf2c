/**
 * Nailgun release fixtures (`openstack.yaml`): a list of `{pk?, model, extend?, fields}` records.
 * Records without `pk` are templates only; `extend:` (a YAML alias of another record, or a pk)
 * is deep-merged under the record, as Nailgun's fixture loader did with `dict_merge(extend, obj)`.
 */
import { finding, type Finding } from '../findings.js';
import { positionAt, positionOf } from '../positions.js';
import { deepMerge, isMapping, type Mapping } from './merge.js';
import { describe, releaseFromFields } from './fields.js';
import type { Release } from './model.js';

const MAX_EXTEND_DEPTH = 32;

export interface FixtureReleases {
  releases: Release[];
  findings: Finding[];
}

export function releasesFromFixture(parsed: unknown, file: string): FixtureReleases {
  const findings: Finding[] = [];
  const top = { file, line: 1, column: 1 };
  if (!Array.isArray(parsed)) {
    findings.push(finding('fixture/not-a-list', 'error', `a release fixture is a list of records, but '${file}' holds ${describe(parsed)}`, positionOf(parsed) ?? top, 'start each record with "- pk: N" and "model: nailgun.release"'));
    return { releases: [], findings };
  }
  const byPk = new Map<unknown, Mapping>();
  for (const record of parsed) if (isMapping(record) && record.pk !== undefined) byPk.set(record.pk, record);

  const resolve = (record: Mapping, depth: number, index: number): Mapping | undefined => {
    if (record.extend === undefined) return record;
    if (depth > MAX_EXTEND_DEPTH) {
      findings.push(finding('fixture/extend-too-deep', 'error', `record #${index + 1} extends more than ${MAX_EXTEND_DEPTH} levels deep (a loop?)`, positionAt(record, ['extend']) ?? top));
      return undefined;
    }
    let base: unknown = record.extend;
    if (!isMapping(base)) {
      base = byPk.get(record.extend);
      if (!base) {
        findings.push(finding('fixture/unknown-extend', 'error', `record #${index + 1} extends ${JSON.stringify(record.extend)}, which is neither a record nor the pk of one`, positionAt(record, ['extend']) ?? top, 'point extend: at a record with an alias (*name) or at an existing pk'));
        return undefined;
      }
    }
    const resolvedBase = resolve(base as Mapping, depth + 1, index);
    if (!resolvedBase) return undefined;
    return deepMerge(resolvedBase, record) as Mapping;
  };

  const releases: Release[] = [];
  const seen = new Map<string, string>();
  parsed.forEach((record, index) => {
    const where = positionOf(parsed, index) ?? top;
    if (!isMapping(record)) {
      findings.push(finding('fixture/wrong-record', 'error', `record #${index + 1} must be a mapping, not ${describe(record)}`, where));
      return;
    }
    // Templates exist only to be extended (Nailgun drops them the same way).
    if (record.pk === undefined || record.pk === null) return;
    if (record.model !== undefined && record.model !== 'nailgun.release') {
      findings.push(finding('fixture/not-a-release', 'info', `record #${index + 1} (pk ${String(record.pk)}) is a '${String(record.model)}', not a release; skipped`, where));
      return;
    }
    const merged = resolve(record, 0, index);
    if (!merged) return;
    if (!isMapping(merged.fields)) {
      findings.push(finding('fixture/no-fields', 'error', `record #${index + 1} (pk ${String(record.pk)}) has no 'fields' mapping`, where, 'a release record keeps its data under fields:'));
      return;
    }
    const result = releaseFromFields(merged.fields, { source: `fixture:${file}#${String(record.pk)}`, file });
    findings.push(...result.findings);
    if (!result.release) return;
    const twin = seen.get(result.release.id);
    if (twin) {
      findings.push(finding('fixture/duplicate-release', 'warning', `pk ${String(record.pk)} and ${twin} both define '${result.release.name}' version ${result.release.version}`, where));
    }
    seen.set(result.release.id, `pk ${String(record.pk)}`);
    releases.push(result.release);
  });
  if (releases.length === 0 && !findings.some((f) => f.severity === 'error')) {
    findings.push(finding('fixture/no-release', 'error', `'${file}' defines no release (every record lacks a pk)`, top, 'give at least one record a pk'));
  }
  return { releases, findings };
}
