/**
 * The inventory in Ansible's INI and YAML forms, and what the CLI changes on the way (another key
 * file; the recorded host keys as a known_hosts file). Every host's variables are written once,
 * with the host in the top part (INI: before the first section; YAML: under `all.hosts`); the
 * groups then name their hosts only. Ansible takes a host out of `ungrouped` once another group
 * holds it.
 */
import { stringify } from 'yaml';
import { groupsOf, type DynamicInventory, type HostVars } from './model.js';

/** What Python's splitlines (Ansible reads an INI file so) ends a line at, beyond JSON's escapes. */
const LINE_BREAKS = /[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]/g;

const header = (inv: DynamicInventory, comment: string): string => {
  const { environment, simulated_nodes: simulated } = inv._meta.hearth;
  const lines = [`Ansible inventory of Hearth environment '${environment.name}' (id ${environment.id}): its real nodes, grouped by role (deployed and pending).`];
  if (simulated.length) lines.push(`${simulated.length} simulated node${simulated.length === 1 ? ' is' : 's are'} left out (nothing to connect to): ${simulated.map((n) => n.name).join(', ')}.`);
  // Names and roles come from users: a line break in one must not end the comment.
  return lines.map((l) => `${comment} ${l.replace(LINE_BREAKS, ' ')}\n`).join('');
};

/** A value as Python's `ast.literal_eval` reads it (Ansible parses INI host variables so). */
function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  // JSON's string escapes are Python's; a quote becomes \x27 so the whole can sit in shell quotes.
  if (typeof value === 'string') return JSON.stringify(value).replace(/'/g, '\\x27').replace(LINE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonLiteral(k)}: ${pythonLiteral(v)}`).join(', ')}}`;
}

/**
 * A string Ansible's INI parser keeps as written when it stands bare: only characters its shell-style
 * split leaves alone, and nothing `literal_eval` turns into a number, a boolean or None (a name, a
 * path, a dotted address like 10.0.0.1, which is no Python literal).
 */
const BARE = /^(?:[A-Za-z_/][A-Za-z0-9_./:@+-]*|\d+(?:\.\d+){2,})$/;

function iniValue(value: unknown): string {
  if (typeof value === 'string' && BARE.test(value) && !['True', 'False', 'None'].includes(value)) return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return pythonLiteral(value);
  // In single quotes for the shell-style split, then read by literal_eval.
  return `'${pythonLiteral(value)}'`;
}

const iniHost = (host: string, vars: HostVars) => [host, ...Object.entries(vars).map(([k, v]) => `${k}=${iniValue(v)}`)].join(' ');

/** Ansible's INI inventory. */
export function inventoryAsIni(inv: DynamicInventory): string {
  let out = header(inv, '#');
  for (const [host, vars] of Object.entries(inv._meta.hostvars)) out += `${iniHost(host, vars)}\n`;
  for (const g of groupsOf(inv)) out += `\n[${g.name}]\n${g.hosts.map((h) => `${h}\n`).join('')}`;
  return out;
}

/** Ansible's YAML inventory. YAML 1.1, as Ansible reads it: `yes`, `no`, `on` and `off` stay strings. */
export function inventoryAsYaml(inv: DynamicInventory): string {
  const children: Record<string, { hosts: Record<string, null> }> = {};
  for (const g of groupsOf(inv)) children[g.name] = { hosts: Object.fromEntries(g.hosts.map((h) => [h, null])) };
  const doc = { all: { hosts: inv._meta.hostvars, children } };
  return header(inv, '#') + stringify(doc, { version: '1.1', lineWidth: 0 });
}

/** The inventory with every host logging in with this key file. */
export function withKeyFile(inv: DynamicInventory, keyFile: string): DynamicInventory {
  return mapHostVars(inv, (vars) => ({ ...vars, ansible_ssh_private_key_file: keyFile }));
}

/**
 * known_hosts lines of the host keys Hearth recorded (OpenSSH's `[address]:port` for a port other
 * than 22), so Ansible checks each node's key against the one Hearth trusts.
 */
export function knownHostsOf(inv: DynamicInventory): string {
  let out = '';
  for (const vars of Object.values(inv._meta.hostvars)) {
    if (typeof vars.hearth_host_key !== 'string' || typeof vars.ansible_host !== 'string') continue;
    const where = vars.ansible_port === 22 ? vars.ansible_host : `[${vars.ansible_host}]:${String(vars.ansible_port)}`;
    out += `${where} ${vars.hearth_host_key.trim()}\n`;
  }
  return out;
}

/** The inventory with every host's key checked against `file` (written from knownHostsOf) and only it. */
export function withKnownHosts(inv: DynamicInventory, file: string): DynamicInventory {
  // OpenSSH splits its options' values at spaces: a path with one is quoted.
  const path = /\s/.test(file) ? `"${file}"` : file;
  return mapHostVars(inv, (vars) => ({ ...vars, ansible_ssh_common_args: `-o UserKnownHostsFile=${path} -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes` }));
}

function mapHostVars(inv: DynamicInventory, change: (vars: HostVars) => HostVars): DynamicInventory {
  const hostvars = Object.fromEntries(Object.entries(inv._meta.hostvars).map(([h, v]) => [h, change(v)]));
  return { ...inv, _meta: { ...inv._meta, hostvars } };
}
