/** The audit log (issue 29): one row per change asked of the API, or refusal of one. */
import { type Queryable, json } from './database.js';

export type AuditOutcome = 'done' | 'refused' | 'failed';

export interface AuditEntry {
  at: Date;
  actor: string | null;
  via: string;
  tokenName?: string;
  address: string | null;
  method: string;
  route: string;
  object?: { kind: string; id?: string };
  status: number;
  outcome: AuditOutcome;
  code?: string;
  deploymentId?: number;
}

export interface AuditRecord extends AuditEntry {
  id: number;
}

interface Row {
  id: string | number;
  at: Date | string;
  actor: string | null;
  via: string;
  token_name: string | null;
  address: string | null;
  method: string;
  route: string;
  object_kind: string | null;
  object_id: string | null;
  status: number;
  outcome: AuditOutcome;
  code: string | null;
  deployment_id: number | null;
}

function toRecord(r: Row): AuditRecord {
  return {
    id: Number(r.id),
    at: new Date(r.at),
    actor: r.actor,
    via: r.via,
    ...(r.token_name !== null ? { tokenName: r.token_name } : {}),
    address: r.address,
    method: r.method,
    route: r.route,
    ...(r.object_kind !== null ? { object: { kind: r.object_kind, ...(r.object_id !== null ? { id: r.object_id } : {}) } } : {}),
    status: r.status,
    outcome: r.outcome,
    ...(r.code !== null ? { code: r.code } : {}),
    ...(r.deployment_id !== null ? { deploymentId: r.deployment_id } : {}),
  };
}

/** An entry as a row of audit_log, for jsonb_to_recordset (AUDIT_COLUMNS). */
export function auditRow(e: AuditEntry) {
  return {
    at: e.at.toISOString(),
    actor: e.actor,
    via: e.via,
    token_name: e.tokenName ?? null,
    address: e.address,
    method: e.method,
    route: e.route,
    object_kind: e.object?.kind ?? null,
    object_id: e.object?.id ?? null,
    status: e.status,
    outcome: e.outcome,
    code: e.code ?? null,
    deployment_id: e.deploymentId ?? null,
  };
}

/** auditRow's columns and their types, as jsonb_to_recordset reads them. */
export const AUDIT_COLUMNS = 'at timestamptz, actor text, via text, token_name text, address text, method text, route text, object_kind text, object_id text, status integer, outcome text, code text, deployment_id integer';

/** Writes entries in one statement (the recorder batches what arrived meanwhile). */
export async function recordAudit(q: Queryable, entries: readonly AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  await q.query(
    `INSERT INTO audit_log (at, actor, via, token_name, address, method, route, object_kind, object_id, status, outcome, code, deployment_id)
     SELECT at, actor, via, token_name, address, method, route, object_kind, object_id, status, outcome, code, deployment_id
     FROM jsonb_to_recordset($1::jsonb) AS x(${AUDIT_COLUMNS})`,
    [json(entries.map(auditRow))],
  );
}

export interface AuditFilter {
  actor?: string;
  /** `kind` (every object of a kind) or `kind/id`. */
  object?: { kind: string; id?: string };
  since?: Date;
}

/**
 * One page of the log, newest first: entries older than entry `after` (undefined when `after` is
 * no entry), at most `limit`.
 */
export async function pageOfAudit(q: Queryable, filter: AuditFilter, page: { after?: number; limit?: number }): Promise<AuditRecord[] | undefined> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.actor !== undefined) where.push(`actor = $${params.push(filter.actor)}`);
  if (filter.object !== undefined) {
    where.push(`object_kind = $${params.push(filter.object.kind)}`);
    if (filter.object.id !== undefined) where.push(`object_id = $${params.push(filter.object.id)}`);
  }
  if (filter.since !== undefined) where.push(`at >= $${params.push(filter.since.toISOString())}`);
  if (page.after !== undefined) {
    const marker = await q.query('SELECT 1 FROM audit_log WHERE id = $1', [page.after]);
    if (!marker.length) return undefined;
    where.push(`id < $${params.push(page.after)}`);
  }
  const limit = page.limit !== undefined ? ` LIMIT $${params.push(page.limit)}` : ' LIMIT 1000';
  return (await q.query<Row>(`SELECT * FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC${limit}`, params)).map(toRecord);
}
