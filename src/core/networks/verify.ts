/**
 * Verify networks, the pure half (issue 27): what each node's probe should send and listen for
 * (`probePlan`), and from what each node sent and heard, the answer (`analyseVerification`): a
 * matrix per network (who heard whom on its VLAN), Fuel's `absent_vlans` per node and interface,
 * and findings that name the link most likely broken and what to check, in the operator's words.
 * The probe itself (src/deploy/net-probe.ts) and how it reaches nodes (src/deploy/verify-networks.ts)
 * are the deploy layer's.
 */
import { finding, type Finding } from '../findings.js';

/** A network as verification sees it: its VLAN (null: untagged), its gateway, the MTU to try. */
export interface VerifyNetwork {
  name: string;
  vlan: number | null;
  gateway: string | null;
  /** Bytes of Ethernet payload a frame must carry through (a large frame is sent); null: not tried. */
  mtu?: number | null;
}

/** One node on one network: the interface the network is mapped to, and its address there. */
export interface VerifyMember {
  node: string;
  /** The node's name, for messages. */
  name: string;
  network: string;
  interface: string;
  ip: string | null;
}

export interface VerifyPlan {
  networks: VerifyNetwork[];
  members: VerifyMember[];
}

/** What one node's probe is asked to do (the JSON it is given, less the token and budget). */
export interface ProbeInput {
  node: string;
  interfaces: Array<{ name: string; vlans: number[]; mtu: number | null }>;
  addresses: Array<{ network: string; interface: string; vlan: number; ip: string }>;
  gateways: Array<{ network: string; interface: string; vlan: number; ip: string; source: string | null }>;
}

/** What one node's probe answered, or why there is no answer. */
export interface ProbeReport {
  node: string;
  /** The probe ran and answered. */
  answered: boolean;
  /** Why not, in plain words (unreachable, python3 missing, stopped). */
  failure?: string;
  /** `"<interface>|<vlan>"` → `"<node>|<their interface>"` of the probe frames heard there. */
  heard: Record<string, string[]>;
  /** The same for the large (MTU) frames. */
  big_heard: Record<string, string[]>;
  errors: Array<{ interface: string; message: string }>;
  duplicates: Array<{ network: string; ip: string; macs: string[] }>;
  gateways: Array<{ network: string; interface: string; vlan: number; ip: string; arp: boolean; ping: boolean | null; mac: string | null }>;
}

export interface NetworkMatrix {
  network: string;
  vlan: number | null;
  /** Every node with its interface on the network. */
  nodes: Array<{ node: string; name: string; interface: string }>;
  /** `heard[a][b]`: node a heard node b; null when a did not answer. */
  heard: Record<string, Record<string, boolean | null>>;
  /** Every pair heard both ways. */
  passes: boolean;
}

/** Fuel's per node and interface entry of a verification's result. */
export interface AbsentVlans {
  uid: string;
  name: string;
  interface: string;
  absent_vlans: number[];
}

export interface VerificationResult {
  status: 'passed' | 'failed';
  networks: NetworkMatrix[];
  absent_vlans: AbsentVlans[];
  findings: Finding[];
}

const vlanOf = (n: VerifyNetwork): number => n.vlan ?? 0;
const key = (iface: string, vlan: number) => `${iface}|${vlan}`;
const on = (n: VerifyNetwork) => (n.vlan === null ? `the untagged network ${n.name}` : `VLAN ${n.vlan} (${n.name})`);

/** Each node's probe input: its interfaces with their VLANs, its addresses, the gateways to try. */
export function probePlan(plan: VerifyPlan): ProbeInput[] {
  const networks = new Map(plan.networks.map((n) => [n.name, n]));
  const inputs = new Map<string, ProbeInput>();
  for (const m of plan.members) {
    const net = networks.get(m.network);
    if (!net) continue;
    let input = inputs.get(m.node);
    if (!input) inputs.set(m.node, (input = { node: m.node, interfaces: [], addresses: [], gateways: [] }));
    let iface = input.interfaces.find((i) => i.name === m.interface);
    if (!iface) input.interfaces.push((iface = { name: m.interface, vlans: [], mtu: null }));
    if (!iface.vlans.includes(vlanOf(net))) iface.vlans.push(vlanOf(net));
    if (net.mtu) iface.mtu = Math.max(iface.mtu ?? 0, net.mtu);
    if (m.ip) input.addresses.push({ network: net.name, interface: m.interface, vlan: vlanOf(net), ip: m.ip });
    if (net.gateway) input.gateways.push({ network: net.name, interface: m.interface, vlan: vlanOf(net), ip: net.gateway, source: m.ip });
  }
  for (const input of inputs.values()) for (const i of input.interfaces) i.vlans.sort((a, b) => a - b);
  return [...inputs.values()];
}

const names = (list: readonly string[]): string => (list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`);

/** The answer of a verification from every node's report. */
export function analyseVerification(plan: VerifyPlan, reports: readonly ProbeReport[]): VerificationResult {
  const byNode = new Map(reports.map((r) => [r.node, r]));
  const findings: Finding[] = [];
  const matrices: NetworkMatrix[] = [];
  const absent = new Map<string, AbsentVlans>();
  const nameOf = new Map(plan.members.map((m) => [m.node, m.name]));
  const label = (node: string) => nameOf.get(node) ?? node;

  for (const r of reports) {
    if (!r.answered) findings.push(finding('verify/no-answer', 'error', `${label(r.node)} gave no answer: ${r.failure ?? 'the probe did not finish'}; its links were not checked`, undefined, 'make the node reachable over SSH with python3 and root, then verify again'));
    for (const e of r.errors) findings.push(finding('verify/probe-error', 'error', `${label(r.node)}'s ${e.interface}: ${e.message}`, undefined, 'check the interface exists and the probe runs as root'));
  }

  for (const net of plan.networks) {
    const members = plan.members.filter((m) => m.network === net.name);
    if (members.length === 0) continue;
    const vlan = vlanOf(net);
    const heardBy = (a: VerifyMember, b: VerifyMember, big = false): boolean | null => {
      const r = byNode.get(a.node);
      if (!r?.answered) return null;
      return ((big ? r.big_heard : r.heard)[key(a.interface, vlan)] ?? []).some((w) => w.split('|')[0] === b.node);
    };
    const heard: NetworkMatrix['heard'] = {};
    let passes = true;
    for (const a of members) {
      heard[a.node] = {};
      for (const b of members) {
        if (a === b) continue;
        const h = heardBy(a, b);
        heard[a.node][b.node] = h;
        if (h !== true) passes = false;
      }
    }
    matrices.push({ network: net.name, vlan: net.vlan, nodes: members.map((m) => ({ node: m.node, name: m.name, interface: m.interface })), heard, passes });

    // Fuel's absent_vlans: the VLANs of an interface on which the node heard none of its peers.
    const live = members.filter((m) => byNode.get(m.node)?.answered);
    for (const a of live) {
      const peers = live.filter((b) => b !== a);
      if (peers.length === 0 || peers.some((b) => heardBy(a, b))) continue;
      const k = `${a.node}|${a.interface}`;
      const entry = absent.get(k) ?? { uid: a.node, name: a.name, interface: a.interface, absent_vlans: [] };
      if (!entry.absent_vlans.includes(vlan)) entry.absent_vlans.push(vlan);
      absent.set(k, entry);
    }
    if (!passes) findings.push(...explainLinks(net, live, heardBy));
    findings.push(...explainMtu(net, live, heardBy));
    findings.push(...explainGateway(net, live, byNode));
  }

  for (const r of reports) {
    for (const d of r.duplicates) {
      findings.push(finding('verify/duplicate-address', 'error', `${d.ip}, ${label(r.node)}'s address on ${d.network}, is also answered by ${names(d.macs)}: another host uses it`, undefined, `find the host with MAC ${d.macs[0]} and change its address, or give ${label(r.node)} another one`));
    }
  }
  const absentList = [...absent.values()].map((e) => ({ ...e, absent_vlans: e.absent_vlans.sort((a, b) => a - b) })).sort((a, b) => a.uid.localeCompare(b.uid, undefined, { numeric: true }) || a.interface.localeCompare(b.interface));
  return { status: findings.some((f) => f.severity === 'error') ? 'failed' : 'passed', networks: matrices, absent_vlans: absentList, findings };
}

type HeardBy = (a: VerifyMember, b: VerifyMember, big?: boolean) => boolean | null;

/** The likely cause of the pairs that do not hear each other on one network. */
function explainLinks(net: VerifyNetwork, live: VerifyMember[], heardBy: HeardBy): Finding[] {
  const out: Finding[] = [];
  if (live.length < 2) return out;
  const inAny = (a: VerifyMember) => live.some((b) => b !== a && heardBy(b, a));
  const outAny = (a: VerifyMember) => live.some((b) => b !== a && heardBy(a, b));
  const talking = live.filter((a) => inAny(a) || outAny(a));
  if (talking.length === 0) {
    out.push(finding('verify/vlan-nowhere', 'error', `${on(net)} passes between none of ${names(live.map((m) => `${m.name}'s ${m.interface}`))}`, undefined, `check that the switches carry ${net.vlan === null ? 'untagged frames' : `VLAN ${net.vlan}`} on these ports and between them`));
    return out;
  }
  // Cut off: heard nobody and heard by nobody, while the others talk.
  const cut = live.filter((a) => !inAny(a) && !outAny(a));
  for (const a of cut) {
    out.push(finding('verify/vlan-cut-off', 'error', `${net.vlan === null ? `untagged frames (${net.name})` : `VLAN ${net.vlan} (${net.name})`} do${net.vlan === null ? '' : 'es'} not pass between ${a.name}'s ${a.interface} and the others`, undefined, `check the switch port of ${a.name} (${a.interface}): it must carry ${net.vlan === null ? 'untagged frames' : `VLAN ${net.vlan} tagged`}`));
  }
  const rest = live.filter((a) => !cut.includes(a));
  const explained = new Set<VerifyMember>();
  const sends = net.vlan === null ? 'untagged frames' : `VLAN ${net.vlan}`;
  for (const a of rest) {
    const others = rest.filter((b) => b !== a);
    if (others.length < 2) continue;
    if (others.every((b) => heardBy(a, b)) && others.every((b) => !heardBy(b, a))) {
      explained.add(a);
      out.push(finding('verify/vlan-one-way', 'error', `${a.name} hears the others on ${on(net)} but none hears it: frames from ${a.name}'s ${a.interface} are lost on the way`, undefined, `check that the switch port of ${a.name} (${a.interface}) accepts ${sends} coming in`));
    } else if (others.every((b) => !heardBy(a, b)) && others.every((b) => heardBy(b, a))) {
      explained.add(a);
      out.push(finding('verify/vlan-one-way', 'error', `${a.name}'s ${a.interface} hears nothing on ${on(net)} though the others hear it`, undefined, `check that the switch port of ${a.name} (${a.interface}) sends ${sends} out to it`));
    }
  }
  for (const a of rest) {
    for (const b of rest) {
      if (a === b || explained.has(a) || explained.has(b) || heardBy(a, b) !== false) continue;
      out.push(finding('verify/pair-unreachable', 'error', `${a.name}'s ${a.interface} does not hear ${b.name}'s ${b.interface} on ${on(net)}`, undefined, `check the path between the switch ports of ${a.name} and ${b.name} for ${sends}`));
    }
  }
  return out;
}

/** Large frames that do not pass where small ones do. */
function explainMtu(net: VerifyNetwork, live: VerifyMember[], heardBy: HeardBy): Finding[] {
  if (!net.mtu) return [];
  const out: Finding[] = [];
  for (const b of live) {
    const losing = live.filter((a) => a !== b && heardBy(a, b) === true && heardBy(a, b, true) === false);
    if (losing.length === 0) continue;
    out.push(finding('verify/mtu', 'error', `frames of ${net.mtu} bytes from ${b.name}'s ${b.interface} do not reach ${names(losing.map((a) => a.name))} on ${on(net)}, small ones do`, undefined, `raise the MTU of the switch ports on the way (and of ${b.interface}) to ${net.mtu}, or lower the network's MTU`));
  }
  return out;
}

function explainGateway(net: VerifyNetwork, live: VerifyMember[], byNode: Map<string, ProbeReport>): Finding[] {
  if (!net.gateway || live.length === 0) return [];
  const answers = live.map((m) => ({ m, g: byNode.get(m.node)?.gateways.find((x) => x.network === net.name && x.interface === m.interface) }));
  const noArp = answers.filter((a) => !a.g?.arp).map((a) => a.m.name);
  const noPing = answers.filter((a) => a.g?.arp && a.g.ping === false).map((a) => a.m.name);
  const out: Finding[] = [];
  const where = net.vlan === null ? 'untagged' : `on VLAN ${net.vlan}`;
  if (noArp.length === live.length) out.push(finding('verify/gateway-silent', 'error', `the gateway ${net.gateway} of ${net.name} does not answer ARP ${where} from any node`, undefined, `check the router has ${net.gateway} and that its port carries ${net.vlan === null ? 'untagged frames' : `VLAN ${net.vlan}`}, or correct the network's gateway`));
  else if (noArp.length > 0) out.push(finding('verify/gateway-silent', 'error', `the gateway ${net.gateway} of ${net.name} does not answer ARP ${where} from ${names(noArp)} (it does from the others)`, undefined, `check the switch ports of ${names(noArp)}`));
  if (noPing.length > 0) out.push(finding('verify/gateway-no-ping', 'warning', `the gateway ${net.gateway} of ${net.name} answers ARP but not ping ${where} from ${names(noPing)}`, undefined, 'the router may filter ICMP; check it routes for this network'));
  return out;
}
