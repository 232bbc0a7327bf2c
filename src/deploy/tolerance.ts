/**
 * Roles' `fault_tolerance` (Fuel 9): how many nodes of a role may fail without failing the
 * deployment, as a count (`2`) or a share of the role's nodes (`"10%"`, rounded down). A failed
 * node with a role that tolerates nothing (no `fault_tolerance`, or 0) fails the deployment; a
 * node with several roles is within tolerance only if each of its roles still is.
 */
export interface ToleranceBreach {
  role: string;
  failed: number;
  allowed: number;
  of: number;
}

export function allowedFailures(spec: unknown, count: number): number {
  if (typeof spec === 'number' && Number.isFinite(spec) && spec >= 0) return Math.floor(spec);
  if (typeof spec === 'string') {
    const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(spec);
    if (pct) return Math.floor((count * Math.min(100, Number(pct[1]))) / 100);
    if (/^\s*\d+\s*$/.test(spec)) return Number(spec);
  }
  return 0;
}

/** The roles whose failed nodes exceed what they tolerate; empty when the deployment may succeed. */
export function toleranceBreaches(roles: Record<string, { fault_tolerance?: unknown }>, nodes: ReadonlyArray<{ id: string; roles: readonly string[] }>, failed: ReadonlySet<string>): ToleranceBreach[] {
  const byRole = new Map<string, { of: number; failed: number }>();
  for (const n of nodes) {
    for (const r of n.roles) {
      const e = byRole.get(r) ?? { of: 0, failed: 0 };
      e.of++;
      if (failed.has(n.id)) e.failed++;
      byRole.set(r, e);
    }
  }
  const out: ToleranceBreach[] = [];
  for (const [role, e] of byRole) {
    if (!e.failed) continue;
    const allowed = allowedFailures(roles[role]?.fault_tolerance, e.of);
    if (e.failed > allowed) out.push({ role, failed: e.failed, allowed, of: e.of });
  }
  return out.sort((a, b) => a.role.localeCompare(b.role));
}
