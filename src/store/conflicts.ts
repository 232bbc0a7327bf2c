/**
 * A write that lost a race. Two servers sharing PostgreSQL (or two requests on one) can both pass
 * the checks a route makes before writing; the database's constraints then refuse the second
 * write (a duplicate key, a row referenced or gone). That is a conflict with another change, not a
 * bug: it becomes `StoreConflict`, which the API answers with 409 and a message in plain words.
 */
import { StoreError } from './database.js';

export class StoreConflict extends StoreError {
  constructor(code: string, message: string, hint = 'Another change got there first: read the current state and try again.') {
    super(code, message, hint);
    this.name = 'StoreConflict';
  }
}

type Meaning = [code: string, message: (value: string) => string];
const named = (what: string) => (v: string) => (v ? `${what} '${v}'` : what);

/**
 * What each constraint's violation means to a user, by constraint name (PostgreSQL's default names
 * for the schema in migrations.ts) and by what happened: a duplicate, a row that is gone (an
 * insert naming it), or a row still referenced (a delete of it). `value` is the key in question.
 */
const MEANINGS: Record<string, { duplicate?: Meaning; gone?: Meaning; referenced?: Meaning }> = {
  plugins_pkey: { duplicate: ['plugin/already-installed', (v) => `${named('plugin')(v)} was installed by another request meanwhile`] },
  plugins_name_version_key: { duplicate: ['plugin/already-installed', () => 'this version of the plugin was installed by another request meanwhile'] },
  releases_pkey: { duplicate: ['release/already-exists', (v) => `${named('release')(v)} was installed by another request meanwhile`] },
  releases_plugin_id_fkey: { gone: ['plugin/gone', (v) => `${named('plugin')(v)} was uninstalled meanwhile`] },
  clusters_name_key: { duplicate: ['cluster/name-taken', (v) => `an environment named '${v}' exists already (another request took the name meanwhile)`] },
  clusters_release_id_fkey: {
    gone: ['release/gone', (v) => `${named('release')(v)} was removed meanwhile`],
    referenced: ['release/in-use', (v) => `${named('release')(v)} is used by an environment created meanwhile`],
  },
  cluster_plugins_plugin_id_fkey: {
    gone: ['plugin/gone', (v) => `${named('plugin')(v)}, which a chosen component needs, was uninstalled meanwhile`],
    referenced: ['plugin/in-use', (v) => `${named('plugin')(v)} was enabled in an environment meanwhile`],
  },
  cluster_plugins_cluster_id_fkey: { gone: ['cluster/gone', () => 'the environment was deleted meanwhile'] },
  cluster_plugins_pkey: { duplicate: ['cluster/plugin-conflict', () => 'another request changed the plugins of this environment meanwhile'] },
  nodes_cluster_id_fkey: { gone: ['cluster/gone', () => 'the environment was deleted meanwhile'] },
  network_addresses_ip_key: { duplicate: ['network/address-taken', (v) => `the address ${v.split(', ').pop() ?? ''} was given to another node or VIP meanwhile (another request or server planned the same network)`] },
  network_addresses_node: { duplicate: ['network/address-taken', () => 'another request gave this node an address on the same network meanwhile'] },
  network_addresses_cluster_id_fkey: { gone: ['cluster/gone', () => 'the environment was deleted meanwhile'] },
  network_addresses_node_id_fkey: { gone: ['node/gone', () => 'the node was removed meanwhile'] },
  deployments_cluster_id_fkey: { gone: ['cluster/gone', () => 'the environment was deleted meanwhile'] },
  users_pkey: { duplicate: ['user/name-taken', (v) => `a user named '${v}' exists already`] },
  api_tokens_owner_name: { duplicate: ['token/name-taken', (v) => `you have a token named '${v.split(', ').pop() ?? ''}' already`] },
  api_tokens_owner_fkey: { gone: ['user/gone', () => 'the user was deleted meanwhile'] },
  sessions_user_name_fkey: { gone: ['user/gone', () => 'the user was deleted meanwhile'] },
};

/** SQLSTATEs of a lost race: a duplicate key, a missing or still referenced row, serialization failures and deadlocks (not NOT NULL or CHECK violations: those are bugs). */
const RACE_STATES = /^(23505|23503|23P01|40001|40P01)$/;

/** The conflict a database error stands for, or undefined when it is something else (a bug, an outage). */
export function conflictFrom(err: unknown): StoreConflict | undefined {
  if (err instanceof StoreConflict) return err;
  if (err === null || typeof err !== 'object') return undefined;
  const { code, constraint, detail } = err as { code?: unknown; constraint?: unknown; detail?: unknown };
  if (typeof code !== 'string' || !RACE_STATES.test(code)) return undefined;
  const text = typeof detail === 'string' ? detail : '';
  // "Key (name)=(x) already exists." / "... is not present in table ..." / "... is still referenced from table ...".
  const value = /^Key \([^)]*\)=\((.*)\) (?:already exists|is not present|is still referenced)/.exec(text)?.[1] ?? '';
  const kind = code === '23505' ? 'duplicate' : / is still referenced/.test(text) ? 'referenced' : code === '23503' ? 'gone' : undefined;
  const known = typeof constraint === 'string' && kind ? MEANINGS[constraint]?.[kind] : undefined;
  if (known) return new StoreConflict(known[0], known[1](value.length > 200 ? `${value.slice(0, 200)}…` : value));
  if (code === '40001' || code === '40P01') return new StoreConflict('store/concurrent-change', 'another request changed the same data at the same moment');
  return new StoreConflict('store/conflict', `the change conflicts with the stored data${text ? ` (${text})` : ''}`);
}

/** Runs a database call, turning a lost race into `StoreConflict`. */
export async function conflictsAsErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw conflictFrom(err) ?? err;
  }
}
