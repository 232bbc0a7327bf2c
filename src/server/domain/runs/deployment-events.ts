/**
 * The live stream of a deployment (Server-Sent Events, GET /deployments/:id/events), bounded on
 * every side (issue 24, items 8 and 20):
 * - each client has a bounded buffer: what it does not read waits in its own queue (write()'s
 *   answer is respected), and a client whose queue passes CLIENT_BUFFER_LIMIT is dropped with a
 *   last `dropped` event saying why. A client that never read once grew the server by 812 MB for
 *   150 MB of output;
 * - one poll of the database per deployment, shared by all its clients (a feed), not one per
 *   client: 100 streams made every other read 16 times slower; an environment's stream
 *   (environment-events.ts) is a feed of the same kind (PolledFeed);
 * - at most STREAMS_PER_ADDRESS open streams per client address and STREAMS_IN_ALL in all; past
 *   them a stream is refused with 429 before anything is read.
 */
import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { HttpError } from '../../errors.js';

/** What one client may leave unread before it is dropped (characters of events). */
export const CLIENT_BUFFER_LIMIT = 4 * 1024 * 1024;
/** Open streams one client address may hold (a browser tab follows one or two). */
export const STREAMS_PER_ADDRESS = 16;
/** Open streams of all clients together. */
export const STREAMS_IN_ALL = 256;
/** How often a deployment's feed looks at the database. */
export const POLL_MS = 500;
/** A dropped client gets this long to read its last event before its connection is cut. */
const DROP_GRACE_MS = 10_000;

export const eventText = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** One client's stream: writes while the socket takes them, queues (bounded) while it does not. */
export class EventClient {
  private queue: string[] = [];
  private queued = 0;
  private waiting = false;
  private closed = false;
  private readonly onClose: Array<() => void> = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly limit = CLIENT_BUFFER_LIMIT,
  ) {
    res.on('close', () => this.close());
  }

  /** Called once when the stream is over, whatever ended it. */
  whenClosed(f: () => void): void {
    if (this.closed) f();
    else this.onClose.push(f);
  }

  get open(): boolean {
    return !this.closed && !this.res.writableEnded;
  }

  send(text: string): void {
    if (!this.open) return;
    if (this.waiting) {
      this.queue.push(text);
      this.queued += text.length;
      if (this.queued > this.limit) this.drop();
      return;
    }
    if (!this.res.write(text)) this.wait();
  }

  /** Ends the stream after what is queued and `last`. */
  end(last?: string): void {
    if (!this.open) return;
    const rest = this.queue.join('') + (last ?? '');
    this.queue = [];
    this.queued = 0;
    this.res.end(rest);
  }

  /** Drops a client that does not read: its queue is forgotten, a last event says why. */
  drop(): void {
    if (!this.open) return;
    this.queue = [];
    this.queued = 0;
    this.res.end(eventText('dropped', { code: 'stream/too-slow', message: `this client left more than ${Math.round(this.limit / 1024 / 1024)} MiB of events unread; the server stopped sending them`, hint: 'read the stream as it comes, or read GET /deployments/{id}/tasks' }));
    // What the socket still holds is freed when the client reads it, or when the connection is cut.
    const cut = setTimeout(() => this.res.destroy(), DROP_GRACE_MS);
    cut.unref();
    this.res.once('close', () => clearTimeout(cut));
  }

  private wait(): void {
    this.waiting = true;
    this.res.once('drain', () => {
      this.waiting = false;
      if (!this.open || !this.queue.length) return;
      const text = this.queue.join('');
      this.queue = [];
      this.queued = 0;
      if (!this.res.write(text)) this.wait();
    });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    for (const f of this.onClose.splice(0)) f();
  }
}

/** A task as the feed reads it: what tells one of its events from the next. */
export interface FeedTask {
  node: string;
  task_id: string;
  status: string;
  attempts: number;
}

/** Where a feed reads its deployment: the route supplies it (the views are the API's). */
export interface FeedSource<T extends FeedTask = FeedTask> {
  /** Tasks started or finished after `since`, the deployment's view, and whether it still runs. */
  poll(since: string): Promise<{ tasks: T[]; until: string; deployment: unknown; running: boolean }>;
  taskView(task: T): unknown;
  /** The running tasks' output, when this server runs the deployment. */
  output(): EventEmitter | undefined;
  log: { warn(obj: object, msg: string): void };
}

/**
 * One subject's feed (a deployment, an environment): a single poll loop of the database while
 * anyone follows it, its events fanned out to every client. A subclass says what one look sends
 * (`look`, answering false when the subject is over) and what a client joining late is sent first
 * (`greet`).
 */
export abstract class PolledFeed {
  protected readonly clients = new Set<EventClient>();
  private polling = false;
  protected ended = false;

  constructor(
    protected readonly log: { warn(obj: object, msg: string): void },
    private readonly onIdle: () => void,
    private readonly what: string,
  ) {}

  get followers(): number {
    return this.clients.size;
  }

  join(client: EventClient): void {
    this.clients.add(client);
    client.whenClosed(() => this.clients.delete(client));
    this.greet(client);
    if (!this.polling) void this.loop();
  }

  protected broadcast(text: string): void {
    for (const c of this.clients) c.send(text);
  }

  /** Ends every client's stream, with `last` as its last event. */
  protected endAll(last?: string): void {
    this.ended = true;
    for (const c of this.clients) c.end(last);
  }

  protected abstract greet(client: EventClient): void;
  /** One look at the database; false when the subject is over (the clients were ended). */
  protected abstract look(): Promise<boolean>;
  /** Called when the loop stops (nobody follows, or the subject is over). */
  protected idle(): void {}

  private async loop(): Promise<void> {
    this.polling = true;
    try {
      while (this.clients.size && !this.ended) {
        if (!(await this.look())) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } catch (err) {
      this.log.warn({ err }, `${this.what} stream ended by an error`);
      this.endAll();
    } finally {
      this.polling = false;
      this.idle();
      this.onIdle();
    }
  }
}

/**
 * One deployment's feed: `task` events as tasks change, `output` chunks of running tasks (when this
 * server runs it), `deployment` with progress and `end`; a client that joins late first gets each
 * task's latest event and the deployment's.
 */
export class DeploymentFeed<T extends FeedTask = FeedTask> extends PolledFeed {
  // Latest event of each task, in the order they last changed (the snapshot a late client gets).
  private readonly tasks = new Map<string, { signature: string; text: string }>();
  private last?: string;
  private since = new Date(0).toISOString();
  private output?: EventEmitter;
  private readonly onChunk = (chunk: unknown) => this.broadcast(eventText('output', chunk));

  constructor(
    private readonly source: FeedSource<T>,
    onIdle: () => void,
  ) {
    super(source.log, onIdle, 'deployment');
  }

  protected greet(client: EventClient): void {
    for (const t of this.tasks.values()) client.send(t.text);
    if (this.last) client.send(this.last);
  }

  private follow(): void {
    if (this.output) return;
    this.output = this.source.output();
    this.output?.on('chunk', this.onChunk);
  }

  protected async look(): Promise<boolean> {
    this.follow();
    // Tasks after the status: a run's last reports are stored before it ends.
    const { tasks, until, deployment, running } = await this.source.poll(this.since);
    for (const t of tasks) {
      const key = `${t.node}\u0000${t.task_id}`;
      const signature = `${t.status}\u0000${t.attempts}`;
      if (this.tasks.get(key)?.signature === signature) continue;
      const text = eventText('task', this.source.taskView(t));
      this.tasks.delete(key);
      this.tasks.set(key, { signature, text });
      this.broadcast(text);
    }
    // Reports reach the database in batches, stamped when they happened: each look goes back
    // 10 s, and what was sent already is not sent again.
    this.since = new Date(Date.parse(until) - 10_000).toISOString();
    this.last = eventText('deployment', deployment);
    this.broadcast(this.last);
    if (!running) {
      this.endAll(eventText('end', deployment));
      return false;
    }
    return true;
  }

  protected override idle(): void {
    this.output?.off('chunk', this.onChunk);
    this.output = undefined;
  }
}

/** Feeds by deployment, and open streams by client address, of one server. */
export interface StreamRegistry {
  feeds: Map<number, DeploymentFeed>;
  /** Feeds by environment (GET /clusters/:id/events, domain/environment-events.ts). */
  environments: Map<number, PolledFeed>;
  byAddress: Map<string, number>;
  total: number;
}

const registries = new WeakMap<object, StreamRegistry>();
export function streamsOf(owner: object): StreamRegistry {
  let r = registries.get(owner);
  if (!r) registries.set(owner, (r = { feeds: new Map(), environments: new Map(), byAddress: new Map(), total: 0 }));
  return r;
}

/**
 * Counts a new stream of `address`, or refuses it (429) past the limits; answers the function
 * that gives the place back, to call once when the stream is over.
 */
export function admitStream(streams: StreamRegistry, address: string, limits = { perAddress: STREAMS_PER_ADDRESS, inAll: STREAMS_IN_ALL }): () => void {
  const mine = streams.byAddress.get(address) ?? 0;
  if (mine >= limits.perAddress) {
    throw new HttpError(429, 'stream/too-many', `this client (${address}) already has ${mine} event streams open, the most one address may`, { hint: 'close the streams you no longer read; one stream per deployment is enough' });
  }
  if (streams.total >= limits.inAll) {
    throw new HttpError(429, 'stream/too-many', `the server already has ${streams.total} event streams open, the most it keeps`, { hint: 'try again later, or read GET /deployments/{id}/tasks' });
  }
  streams.byAddress.set(address, mine + 1);
  streams.total++;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    streams.total--;
    const left = (streams.byAddress.get(address) ?? 1) - 1;
    if (left > 0) streams.byAddress.set(address, left);
    else streams.byAddress.delete(address);
  };
}

/** Adds a client to the feed of `key` in `feeds`, starting the feed when nobody followed it yet. */
export function followFeed<F extends PolledFeed>(feeds: Map<number, F>, key: number, client: EventClient, make: (onIdle: () => void) => F): void {
  let feed = feeds.get(key);
  if (!feed) {
    const made: F = make(() => {
      if (feeds.get(key) === made) feeds.delete(key);
    });
    feeds.set(key, made);
    feed = made;
  }
  feed.join(client);
}

/** Adds a client to its deployment's feed, starting the feed when nobody followed it yet. */
export function followDeployment<T extends FeedTask>(streams: StreamRegistry, id: number, client: EventClient, source: () => FeedSource<T>): void {
  followFeed(streams.feeds, id, client, (onIdle) => new DeploymentFeed(source() as unknown as FeedSource, onIdle));
}
