/**
 * Graph answers, cached per environment state. A graph is a pure function of the composed release
 * (catalog version), the environment (settings, components, plugins, what was deployed) and its
 * nodes' roles; building and serialising it for a large environment costs a noticeable part of a
 * second on the one request thread, so an unchanged environment's graph is built once, answered
 * with an ETag (a client that has it gets 304), and read in pages (`limit`, `marker`, `node`).
 */
import { createHash } from 'node:crypto';
import { graphToDot, graphToJson, graphToMermaid } from '../../core/graph/format.js';
import * as store from '../../store/index.js';
import { clusterGraph } from './deploy.js';

export type GraphFormat = 'json' | 'dot' | 'mermaid';

interface CachedGraph {
  stamp: string;
  json?: ReturnType<typeof graphToJson> & Record<string, unknown>;
  text: Partial<Record<'dot' | 'mermaid', string>>;
  built: Awaited<ReturnType<typeof clusterGraph>>;
}

/** Environments whose graphs are kept: the cache never grows past this many. */
const KEPT = 32;

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

  private async graph(q: store.Queryable, cluster: store.ClusterRecord, type: string): Promise<CachedGraph> {
    const key = `${cluster.id}\0${type}`;
    const stamp = await this.stampOf(q, cluster, type);
    const cached = this.cache.get(key);
    if (cached?.stamp === stamp) return cached;
    const built = await clusterGraph(q, cluster, type);
    const entry: CachedGraph = { stamp, built, text: {} };
    this.cache.delete(key);
    this.cache.set(key, entry);
    // Oldest first: a Map keeps insertion order.
    while (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value as string);
    return entry;
  }

  /** The answer for one format (and page), with the ETag of the whole graph. */
  async answer(q: store.Queryable, cluster: store.ClusterRecord, type: string, format: GraphFormat, page: GraphPage = {}): Promise<{ etag: string; body: unknown; contentType?: string }> {
    const entry = await this.graph(q, cluster, type);
    const etag = `"${entry.stamp}"`;
    const { graph, findings } = entry.built;
    if (format === 'dot') return { etag, body: (entry.text.dot ??= graphToDot(graph)), contentType: 'text/vnd.graphviz; charset=utf-8' };
    if (format === 'mermaid') return { etag, body: (entry.text.mermaid ??= graphToMermaid(graph)), contentType: 'text/plain; charset=utf-8' };
    entry.json ??= { ...graphToJson(graph), critical_path: graph.criticalPath, makespan_s: graph.makespan, cycle: graph.cycle ?? null, findings };
    const json = entry.json;
    if (page.limit === undefined && page.marker === undefined && page.nodes === undefined) return { etag, body: json };
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
    return { etag, body: { ...json, nodes, next_marker: limited ? String(nodes[nodes.length - 1].id) : null } };
  }
}
