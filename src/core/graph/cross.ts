/**
 * Cross-node dependencies without a quadratic number of edges. "Task T on each compute waits for
 * task X on every controller" is, pair by pair, computes × controllers edges. Instead, one barrier
 * vertex B per distinct (name, role, policy): X on each controller → B, and B → T on each compute.
 * B finishes exactly when the last X finishes, so T still waits for every X — the same orderings,
 * with controllers + computes edges. Barriers are keyed, so a hundred tasks that wait for the same
 * thing share one.
 *
 * The one place a barrier would say more than Fuel did is a task that matches its own dependency
 * (T cross-depends on T on other nodes): Fuel leaves out the pair (n, T) → (n, T). Those rare
 * dependencies are expanded pair by pair, within a cap.
 */
import { finding, type Finding } from '../findings.js';
import type { CrossDependency, RoleSelector } from '../tasks/model.js';
import { resolveName, type ClassTemplate } from './classes.js';
import { EdgeBuffer } from './edges.js';
import { selectorMatches } from './labels.js';
import type { Barrier, GraphNode } from './model.js';
import { compileName } from './selectors.js';

/** Above this many explicit pairs, a self-matching dependency is reported instead of expanded. */
const MAX_EXPLICIT_PAIRS = 2_000_000;

export class CrossLinker {
  readonly barriers: Barrier[] = [];
  private keys = new Map<string, number>();
  private targetsCache = new Map<string, ClassTemplate[]>();
  /** Edges to and from barriers, in barrier-local ids (resolved once barriers are numbered). */
  readonly intoBarrier = new EdgeBuffer();
  readonly outOfBarrier = new EdgeBuffer();

  constructor(
    private readonly classes: ClassTemplate[],
    private readonly nodes: GraphNode[],
    private readonly edges: EdgeBuffer,
    private readonly findings: Finding[],
  ) {}

  private targets(role: RoleSelector | undefined): ClassTemplate[] {
    const selector = role ?? '*';
    const key = selector === '*' ? '*' : selector.join('\n');
    let hit = this.targetsCache.get(key);
    if (!hit) {
      hit = this.classes.filter((c) => !c.isSync && c.nodes.length > 0 && selectorMatches(selector, c.labels, c.isMaster));
      this.targetsCache.set(key, hit);
    }
    return hit;
  }

  /** Every (vertex) of `name` on the target nodes; for policy `any`, those on the first such node. */
  private matches(dep: CrossDependency): number[] {
    const out: number[] = [];
    let firstNode = Infinity;
    const found: Array<{ node: number; slots: number[] }> = [];
    for (const target of this.targets(dep.role)) {
      const slots = resolveName(dep.name, target, undefined).own;
      if (slots.length === 0) continue;
      if (dep.policy === 'any') {
        const node = target.nodes[0];
        if (node < firstNode) {
          firstNode = node;
          found.length = 0;
          found.push({ node, slots });
        }
        continue;
      }
      const nodes = target.nodes;
      for (let n = 0; n < nodes.length; n++) for (let s = 0; s < slots.length; s++) out.push(this.nodes[nodes[n]].base + slots[s]);
    }
    for (const f of found) for (const slot of f.slots) out.push(this.nodes[f.node].base + slot);
    return out;
  }

  private barrier(kind: 'after' | 'before', dep: CrossDependency, build: (id: number) => boolean): number | undefined {
    const role = dep.role === undefined ? '*' : dep.role === '*' ? '*' : dep.role.join(',');
    const policy = dep.policy ?? 'all';
    const key = `${kind}\n${dep.name}\n${role}\n${policy}`;
    const known = this.keys.get(key);
    if (known !== undefined) return known < 0 ? undefined : known;
    const id = this.barriers.length;
    if (!build(id)) {
      this.keys.set(key, -1);
      return undefined;
    }
    this.barriers.push({ kind, name: dep.name, role, policy });
    this.keys.set(key, id);
    return id;
  }

  private selfMatching(template: ClassTemplate, taskId: string, dep: CrossDependency): boolean {
    return compileName(dep.name).matches(taskId) && this.targets(dep.role).includes(template);
  }

  private explicit(template: ClassTemplate, slot: number, taskId: string, dep: CrossDependency, waits: boolean): void {
    const others = this.matches(dep);
    const pairs = others.length * template.nodes.length;
    if (pairs > MAX_EXPLICIT_PAIRS) {
      const task = template.slots[slot].task;
      this.findings.push(
        finding('graph/self-cross-dependency', 'error', `task '${taskId}' ${waits ? 'waits for' : 'must finish before'} '${dep.name}' on ${others.length} nodes including nodes that run '${taskId}' itself: every such pair of nodes waits for each other, a cycle; the dependency was left out`, task?.origin, "restrict the dependency's role so the task does not wait for itself"),
      );
      return;
    }
    for (const node of template.nodes) {
      const here = this.nodes[node].base + slot;
      for (const there of others) {
        if (there === here) continue;
        if (waits) this.edges.add(there, here);
        else this.edges.add(here, there);
      }
    }
  }

  /** `cross-depends`: the task on every node of `template` waits for `dep`. */
  after(template: ClassTemplate, slot: number, taskId: string, dep: CrossDependency): void {
    if (this.selfMatching(template, taskId, dep)) return this.explicit(template, slot, taskId, dep, true);
    const id = this.barrier('after', dep, (b) => {
      const preds = this.matches(dep);
      for (let i = 0; i < preds.length; i++) this.intoBarrier.add(preds[i], b);
      return preds.length > 0;
    });
    if (id === undefined) return;
    const nodes = template.nodes;
    for (let n = 0; n < nodes.length; n++) this.outOfBarrier.add(id, this.nodes[nodes[n]].base + slot);
  }

  /** `cross-depended-by`: `dep` on its nodes waits for the task on every node of `template`. */
  before(template: ClassTemplate, slot: number, taskId: string, dep: CrossDependency): void {
    if (this.selfMatching(template, taskId, dep)) return this.explicit(template, slot, taskId, dep, false);
    const id = this.barrier('before', dep, (b) => {
      const succs = this.matches(dep);
      for (let i = 0; i < succs.length; i++) this.outOfBarrier.add(b, succs[i]);
      return succs.length > 0;
    });
    if (id === undefined) return;
    const nodes = template.nodes;
    for (let n = 0; n < nodes.length; n++) this.intoBarrier.add(this.nodes[nodes[n]].base + slot, id);
  }

  /**
   * Every vertex of a task across the cluster, in node order, which is also ascending: nodes'
   * vertices are numbered node after node, and a node runs a task id once at most.
   */
  vertices(taskId: string): number[] {
    const slotIn = this.classes.map((c) => c.slotOf.get(taskId) ?? -1);
    const out: number[] = [];
    for (let n = 0; n < this.nodes.length; n++) {
      const node = this.nodes[n];
      const slot = slotIn[node.classIndex];
      if (slot >= 0) out.push(node.base + slot);
    }
    return out;
  }

  /** A plain "all of `first` before any of `second`" through a barrier (legacy hooks in a stage). */
  sequence(first: string, second: string): void {
    const preds = this.vertices(first);
    const succs = this.vertices(second);
    if (preds.length === 0 || succs.length === 0) return;
    const id = this.barriers.length;
    this.barriers.push({ kind: 'after', name: first, role: '*', policy: 'all' });
    for (let i = 0; i < preds.length; i++) this.intoBarrier.add(preds[i], id);
    for (let i = 0; i < succs.length; i++) this.outOfBarrier.add(id, succs[i]);
  }

  /** Move barrier edges into the main buffer once barriers have vertex ids starting at `base`. */
  flush(base: number): void {
    // Room for both at once: the graph's arrays then end exactly full (no doubling, no trimming copy).
    this.edges.reserve(this.intoBarrier.length + this.outOfBarrier.length);
    this.edges.addBuffer(this.intoBarrier, 0, base);
    this.edges.addBuffer(this.outOfBarrier, base, 0);
  }
}
