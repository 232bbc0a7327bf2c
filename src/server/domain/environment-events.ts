/**
 * The live stream of an environment (Server-Sent Events, GET /clusters/:id/events): an `environment`,
 * `node` or `deployment` event whenever one of them changes, wherever the change came from (this
 * server, the CLI through another server sharing the database, a node found offline, a run ending).
 * Built on the deployments' feeds (deployment-events.ts): one look at the database every POLL_MS
 * per environment however many follow it (one statement, store/environment-changes.ts), bounded
 * client buffers, the same per-address limits. Only what changed is then read in full.
 */
import { PolledFeed, eventText, type EventClient } from './runs/deployment-events.js';
import type { EnvironmentLook } from '../../store/environment-changes.js';

/** A comment line sent when nothing happened for this long: proxies keep the connection, a gone client is noticed. */
export const KEEP_ALIVE_MS = 15_000;

/** Where the feed reads its environment: the route supplies the views (they are the API's). */
export interface EnvironmentSource {
  look(): Promise<EnvironmentLook | undefined>;
  environment(): Promise<unknown>;
  nodes(ids: number[]): Promise<Array<{ id: number }>>;
  deployments(ids: number[]): Promise<Array<{ id: number }>>;
  log: { warn(obj: object, msg: string): void };
}

type Kind = 'environment' | 'node' | 'deployment';

export class EnvironmentFeed extends PolledFeed {
  // The latest event of each object (the snapshot a client joining late gets), and what it was sent for.
  private readonly latest = new Map<string, { signature: string; text: string }>();
  private quietSince = Date.now();

  constructor(
    private readonly id: number,
    private readonly source: EnvironmentSource,
    onIdle: () => void,
  ) {
    super(source.log, onIdle, 'environment');
  }

  protected greet(client: EventClient): void {
    for (const e of this.latest.values()) client.send(e.text);
  }

  private changed(kind: Kind, id: number, signature: string): boolean {
    return this.latest.get(`${kind} ${id}`)?.signature !== signature;
  }

  private send(kind: Kind, id: number, signature: string, view: unknown): void {
    const key = `${kind} ${id}`;
    const text = eventText(kind, view);
    this.latest.delete(key);
    this.latest.set(key, { signature, text });
    this.broadcast(text);
    this.quietSince = Date.now();
  }

  protected async look(): Promise<boolean> {
    const now = await this.source.look();
    if (!now) {
      this.endAll(eventText('end', { id: this.id, deleted: true, message: `environment ${this.id} was deleted` }));
      return false;
    }
    // Its view counts its nodes too.
    const signature = `${now.environment.signature}\u001f${now.nodes.length}`;
    if (this.changed('environment', this.id, signature)) {
      const view = await this.source.environment();
      if (view) this.send('environment', this.id, signature, view);
    }

    const nodes = new Map(now.nodes.map((n) => [n.id, n.signature]));
    // Nodes that left the environment since the last look: their event says where they are now.
    const gone = [...this.latest.keys()].filter((k) => k.startsWith('node ')).map((k) => Number(k.slice(5))).filter((id) => !nodes.has(id));
    const changedNodes = [...nodes].filter(([id, signature]) => this.changed('node', id, signature)).map(([id]) => id);
    if (changedNodes.length + gone.length) {
      const views = new Map((await this.source.nodes([...changedNodes, ...gone])).map((v) => [v.id, v]));
      for (const id of changedNodes) if (views.has(id)) this.send('node', id, nodes.get(id)!, views.get(id));
      for (const id of gone) {
        this.broadcast(eventText('node', views.get(id) ?? { id, status: null, cluster_id: null, deleted: true }));
        this.latest.delete(`node ${id}`);
      }
    }

    // The running and the latest deployments; one that was running and is neither now (a dry run
    // beside a real one, ended) is read once more, so its end is not missed.
    const current = new Set(now.deployments.map((d) => d.id));
    const ended = [...this.latest.keys()].filter((k) => k.startsWith('deployment ')).map((k) => Number(k.slice(11))).filter((id) => !current.has(id));
    const changedRuns = now.deployments.filter((d) => this.changed('deployment', d.id, d.signature));
    if (changedRuns.length + ended.length) {
      const views = new Map((await this.source.deployments([...changedRuns.map((d) => d.id), ...ended])).map((v) => [v.id, v]));
      for (const d of changedRuns) if (views.has(d.id)) this.send('deployment', d.id, d.signature, views.get(d.id));
      for (const id of ended) {
        const key = `deployment ${id}`;
        const view = views.get(id) as { status?: string } | undefined;
        if (view && view.status !== 'running' && !this.latest.get(key)?.signature.startsWith(`${view.status}\u001f`)) this.broadcast(eventText('deployment', view));
        this.latest.delete(key);
      }
    }

    if (Date.now() - this.quietSince >= KEEP_ALIVE_MS) {
      this.broadcast(': keep-alive\n\n');
      this.quietSince = Date.now();
    }
    return true;
  }
}
