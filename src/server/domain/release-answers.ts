/**
 * Answers of release reads that the wizard asks for again and again, kept as the JSON text they
 * are sent as, with an ETag, per catalog version (environment.ts's cache: a plugin installed,
 * uninstalled or synced, or a release deleted, bumps the version in the database, on whichever
 * server it happened). A read then costs one small query and no composing or serialising.
 */
import { createHash } from 'node:crypto';
import type * as store from '../../store/index.js';
import { cachedPerCatalog, wizardFor, type Wizard } from './environment.js';

export interface CachedAnswer {
  /** The answer's ETag: a digest of its text. */
  etag: string;
  /** The answer as sent (JSON). */
  text: string;
}

const answerOf = (value: unknown): CachedAnswer => {
  const text = JSON.stringify(value);
  return { etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`, text };
};

/**
 * The release's components with those of every installed plugin that fits it, in the shape of the
 * component-registry design (relations as written). Components of plugins that cannot be composed
 * with the release are listed too, marked `usable: false`, with the reasons.
 */
export function componentsOf(wizard: Wizard) {
  const usable = wizard.composition.composed.components.map((c) => {
    const { plugin, ...rest } = c;
    return { ...rest, plugin: plugin ?? null };
  });
  const blocked = wizard.unusable.flatMap((u) => u.components.map((c) => ({ ...c, plugin: u.plugin, usable: false, reasons: u.reasons })));
  return [...usable, ...blocked];
}

/** `GET /releases/{id}/components`, as text with its ETag (a 404 for an unknown release is thrown, not kept). */
export function componentsAnswer(q: store.Queryable, releaseId: string): Promise<CachedAnswer> {
  return cachedPerCatalog(q, `components-answer|${releaseId}`, async () => answerOf(componentsOf(await wizardFor(q, releaseId))));
}
