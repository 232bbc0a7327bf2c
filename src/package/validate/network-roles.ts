/**
 * Network roles against the networks they live on (issue 27): a `default_mapping` to a network the
 * release does not have (its VIPs would never be allocated, its tasks would find no address), a VIP
 * on a network that does not take VIPs, and a role another plugin, or the release, defines
 * differently (the composition's merge rule: one id, one mapping; only VIPs may be added).
 * Nailgun said none of this before a deployment failed.
 */
import { finding, type Finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import type { Release } from '../../core/release/model.js';
import { ADMIN_NETWORK } from '../../core/networks/index.js';
import { closestSuffix } from './spelling.js';
import { isMapping, type ValidationContext } from './context.js';

/** Fuel's networks (Neutron), known when no release is given; those taking VIPs in Fuel 9's release. */
const CORE_NETWORKS = [ADMIN_NETWORK, 'public', 'management', 'storage', 'private', 'baremetal'];
const CORE_VIP_NETWORKS = ['public', 'management'];

/** Another plugin's network roles, as installed or enabled beside the one validated. */
export interface OtherPluginNetworkRoles {
  name: string;
  networkRoles: ReadonlyArray<Record<string, unknown>>;
}

interface KnownNetworks {
  names: Set<string>;
  vips: Set<string>;
  /** Where the names come from, for messages. */
  source: string;
  /** True when the release said: an unknown mapping is then an error. */
  certain: boolean;
}

function networksOf(release: Pick<Release, 'networks_metadata' | 'name'> | undefined): KnownNetworks {
  const metadata = release?.networks_metadata;
  const section = isMapping(metadata) && isMapping(metadata.neutron) ? metadata.neutron : metadata;
  const entries = isMapping(section) && Array.isArray(section.networks) ? section.networks.filter(isMapping) : [];
  if (!release || entries.length === 0) return { names: new Set(CORE_NETWORKS), vips: new Set(CORE_VIP_NETWORKS), source: "Fuel's core networks", certain: false };
  const names = new Set<string>([ADMIN_NETWORK]);
  const vips = new Set<string>();
  for (const e of entries) {
    if (typeof e.name !== 'string') continue;
    names.add(e.name);
    if (e.assign_vip === true || (Array.isArray(e.vips) && e.vips.length > 0)) vips.add(e.name);
  }
  return { names, vips, source: `release ${release.name}`, certain: true };
}

/** The merge rule of composition: the same role twice must be identical but for its VIPs. */
function sameButVips(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = (r: Record<string, unknown>) => {
    const props = isMapping(r.properties) ? { ...r.properties } : {};
    delete props.vip;
    return JSON.stringify({ ...r, properties: props });
  };
  return strip(a) === strip(b);
}

/** Checks network roles (a plugin's, or a release's own) against the networks of `release`. */
export function checkNetworkRoleList(roles: ReadonlyArray<Record<string, unknown>>, file: string, release: Pick<Release, 'networks_metadata' | 'name'> | undefined, findings: Finding[]): void {
  const known = networksOf(release);
  for (const role of roles) {
    const id = typeof role.id === 'string' ? role.id : '(no id)';
    const mapping = role.default_mapping;
    if (typeof mapping !== 'string') continue; // the schema says so
    if (!known.names.has(mapping)) {
      findings.push(
        finding(
          'network-role/unknown-network',
          known.certain ? 'error' : 'warning',
          `network role '${id}' in ${file} is mapped to network '${mapping}', which ${known.source} does not have${closestSuffix(mapping, known.names)}: its VIPs get no address and its tasks find none`,
          positionOf(role, 'default_mapping') ?? { file },
          `map it to one of: ${[...known.names].join(', ')}`,
        ),
      );
      continue;
    }
    const props = isMapping(role.properties) ? role.properties : {};
    const vips = Array.isArray(props.vip) ? props.vip.filter(isMapping) : [];
    if (vips.length > 0 && !known.vips.has(mapping)) {
      findings.push(
        finding(
          'network-role/vip-without-assign-vip',
          'warning',
          `network role '${id}' in ${file} asks for VIP${vips.length > 1 ? 's' : ''} ${vips.map((v) => `'${String(v.name)}'`).join(', ')} on network '${mapping}', which ${known.source} does not give VIPs${known.vips.size ? ` (only ${[...known.vips].join(', ')} do)` : ''}`,
          positionOf(props, 'vip') ?? positionOf(role, 'properties') ?? { file },
          `put the VIP on a network role mapped to ${[...known.vips].join(' or ') || 'a network with VIPs'}, or let the release's '${mapping}' network take VIPs (vips: [...] in its networks metadata)`,
        ),
      );
    }
  }
}

function differingProperties(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const pa = isMapping(a.properties) ? a.properties : {};
  const pb = isMapping(b.properties) ? b.properties : {};
  const keys = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].filter((k) => k !== 'vip' && JSON.stringify(pa[k]) !== JSON.stringify(pb[k]));
  return keys.map((k) => `properties.${k} (${JSON.stringify(pb[k] ?? null)}, not ${JSON.stringify(pa[k] ?? null)})`);
}

/** Network roles of the same id, defined differently by the release, another plugin, and this one. */
export function checkNetworkRoleClaims(roles: ReadonlyArray<Record<string, unknown>>, file: string, pluginName: string, release: Pick<Release, 'network_roles_metadata' | 'name'> | undefined, others: readonly OtherPluginNetworkRoles[], findings: Finding[]): void {
  const claims = new Map<string, { role: Record<string, unknown>; owner: string }>();
  for (const role of release?.network_roles_metadata ?? []) if (typeof role.id === 'string') claims.set(role.id, { role, owner: `release ${release?.name}` });
  for (const other of others) {
    if (other.name === pluginName) continue;
    for (const role of other.networkRoles) if (typeof role.id === 'string' && !claims.has(role.id)) claims.set(role.id, { role, owner: `plugin ${other.name}` });
  }
  for (const role of roles) {
    if (typeof role.id !== 'string') continue;
    const claim = claims.get(role.id);
    if (!claim || sameButVips(claim.role, role)) continue;
    const theirs = claim.role.default_mapping;
    const differs = theirs !== role.default_mapping ? `maps it to '${String(role.default_mapping)}' where ${claim.owner} maps it to '${String(theirs)}'` : `sets ${differingProperties(claim.role, role).join(', ') || 'its fields'} differently from ${claim.owner}`;
    findings.push(
      finding(
        'network-role/conflict',
        'error',
        `network role '${role.id}' in ${file} ${differs}: one network role has one definition, and plugins may only add VIPs to it`,
        positionOf(role, 'id') ?? { file },
        `give the role a new id of your own, or keep ${claim.owner}'s definition and add only VIPs`,
      ),
    );
  }
}

/** The validator's entry: the plugin's `network_roles.yaml`, or each release of a release plugin. */
export function checkNetworkRoles(ctx: ValidationContext, others: readonly OtherPluginNetworkRoles[] = [], releases: readonly Release[] = []): void {
  const { plugin, findings } = ctx;
  if (plugin.isReleasePlugin) {
    for (const r of releases) checkNetworkRoleList(r.network_roles_metadata, positionOf(r.network_roles_metadata)?.file ?? `the network roles of release ${r.name}`, r, findings);
    return;
  }
  const roles = ctx.major >= 3 && Array.isArray(plugin.files.network_roles) ? plugin.files.network_roles.filter(isMapping) : [];
  if (roles.length === 0) return;
  const file = plugin.filePaths.network_roles ?? 'network_roles.yaml';
  checkNetworkRoleList(roles, file, ctx.release, findings);
  checkNetworkRoleClaims(roles, file, plugin.name, ctx.release, others, findings);
}
