/**
 * Graph answers, cached per environment state. A graph is a pure function of the composed release
 * (catalog version), the environment (settings, components, plugins, what was deployed) and its
 * nodes' roles. Building and serialising it for a large environment costs a noticeable part of a
 * second, so it is built in a worker (graph-build.ts), once per environment state, answered with
 * an ETag (a client that has it gets 304), and read in pages (`limit`, `marker`, `node`).
 */
import { createHash } from 'node:crypto';
import type { graphToJson } from '../../core/graph/format.js';
import * as store from '../../store/index.js';
import { clusterGraphInput } from './runs/deploy.js';
import { buildGraphText, type GraphFormat } from './graph-build.js';

export type { GraphFormat } from './graph-build.js';

type GraphJson = ReturnType<typeof graphToJson> & Record<string, unknown>;

interface CachedGraph {
  stamp: string;
  /** Each format's answer, built once (in a worker) and shared by requests that ask meanwhile. */
  text: Partial<Record<GraphFormat, Promise<string>>>;
  /** The JSON answer parsed, for pages of it. */
  json?: GraphJson;
}

/** Environments whose graphs are kept: the cache never grows past this many. */
const KEPT = 32;

const CONTENT_TYPES: Record<GraphFormat, string> = { json: 'application/json; charset=utf-8', dot: 'text/vnd.graphviz; charset=utf-8', mermaid: 'text/plain; charset=utf-8' };

export interface GraphPage {
  limit?: number;
  /** The id of the last node of the previous page. */
  marker?: string;
  /** Only these nodes (ids). */
  nodes?: string[];
}

export class GraphAnswers {
  private readonly cache = new Map<string, CachedGraph>();

  /** The state a graph depends on, as a short digest: the ETag of its answers. */
  async stampOf(q: store.Queryable, cluster: store.ClusterRecord, type: string): Promise<string> {
    const nodes = await store.listNodes(q, { clusterId: cluster.id });
    const hash = createHash('sha256');
    hash.update(JSON.stringify([await store.catalogVersion(q), type, cluster.releaseId, cluster.status, cluster.components, cluster.plugins, cluster.attributes, cluster.deployed ?? null]));
    for (const n of nodes) hash.update(JSON.stringify([n.id, n.name, n.roles, n.pendingRoles]));
    return hash.digest('base64url').slice(0, 27);
  }

  private async entry(q: store.Queryable, cluster: store.ClusterRecord, type: string): Promise<CachedGraph> {
    const key = `${cluster.id}\0${type}`;
    const stamp = await this.stampOf(q, cluster, type);
    const cached = this.cache.get(key);
    if (cached?.stamp === stamp) return cached;
    const entry: CachedGraph = { stamp, text: {} };
    this.cache.delete(key);
    this.cache.set(key, entry);
    // Oldest first: a Map keeps insertion order.
    while (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value as string);
    return entry;
  }

  private text(q: store.Queryable, cluster: store.ClusterRecord, type: string, format: GraphFormat, entry: CachedGraph): Promise<string> {
    let text = entry.text[format];
    if (!text) {
      text = (async () => {
        const { input, composition } = await clusterGraphInput(q, cluster, type);
        return buildGraphText(input, format, composition.findings);
      })();
      entry.text[format] = text;
      // A failed build is not kept: the next request tries again.
      text.catch(() => {
        if (entry.text[format] === text) delete entry.text[format];
      });
    }
    return text;
  }

  /**
   * The answer for one format (and page). Its ETag is the graph's state and the representation
   * asked for: the JSON, the DOT text and each page are different bodies, and a cache (the
   * browser's, a proxy's, the server's compressed copies) must never hand one out for another.
   */
  async answer(q: store.Queryable, cluster: store.ClusterRecord, type: string, format: GraphFormat, page: GraphPage = {}): Promise<{ etag: string; body: unknown; contentType: string }> {
    const entry = await this.entry(q, cluster, type);
    const etag = `"${entry.stamp}-${format}${pageStamp(page)}"`;
    const text = await this.text(q, cluster, type, format, entry);
    if (format !== 'json' || (page.limit === undefined && page.marker === undefined && page.nodes === undefined)) return { etag, body: text, contentType: CONTENT_TYPES[format] };
    entry.json ??= JSON.parse(text) as GraphJson;
    const json = entry.json;
    let nodes = json.nodes;
    if (page.nodes) {
      const wanted = new Set(page.nodes);
      nodes = nodes.filter((n) => wanted.has(String(n.id)));
    }
    if (page.marker !== undefined) {
      const at = nodes.findIndex((n) => String(n.id) === page.marker);
      nodes = at < 0 ? [] : nodes.slice(at + 1);
    }
    const limited = page.limit !== undefined && nodes.length > page.limit;
    if (limited) nodes = nodes.slice(0, page.limit);
    return { etag, body: { ...json, nodes, next_marker: limited ? String(nodes[nodes.length - 1].id) : null }, contentType: CONTENT_TYPES.json };
  }
}

/** The part of an ETag that tells pages of one graph apart ('' for the whole graph). */
function pageStamp(page: GraphPage): string {
  if (page.limit === undefined && page.marker === undefined && page.nodes === undefined) return '';
  const digest = createHash('sha1').update(JSON.stringify([page.limit ?? null, page.marker ?? null, page.nodes ?? null])).digest('base64url');
  return `-${digest.slice(0, 12)}`;
}
