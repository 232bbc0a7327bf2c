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
  /**
   * Every VLAN of a network that is a range, not one VLAN: Neutron's tenant VLANs on `private`
   * (VLAN segmentation), each probed as Fuel's verification did; `vlan` is then the first.
   */
  vlans?: number[];
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
  /** Each interface's VLANs (0: untagged), and the MTU to try on each VLAN that has one (by VLAN). */
  interfaces: Array<{ name: string; vlans: number[]; mtus: Record<string, number> }>;
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
  /** Large frames the node could not even send (its interface's MTU is smaller). */
  mtu?: Array<{ interface: string; vlan: number; mtu: number; interface_mtu: number | null; sent: boolean }>;
  errors: Array<{ interface: string; message: string }>;
  duplicates: Array<{ network: string; ip: string; macs: string[] }>;
  gateways: Array<{ network: string; interface: string; vlan: number; ip: string; arp: boolean; ping: boolean | null; mac: string | null }>;
}

export interface NetworkMatrix {
  network: string;
  vlan: number | null;
  /** A network of many VLANs (Neutron's tenant range): all of them; a pair is heard when it is on every one. */
  vlans?: number[];
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

/** A network, or some VLANs of a ranged one, as findings name it (`label`: `VLANs 1000-1003, 1010`). */
type Shown = VerifyNetwork & { label?: string; plural?: boolean };

const vlanOf = (n: VerifyNetwork): number => n.vlan ?? 0;
const vlansOf = (n: VerifyNetwork): number[] => (n.vlans?.length ? n.vlans : [vlanOf(n)]);
const key = (iface: string, vlan: number) => `${iface}|${vlan}`;
const vlanText = (n: Shown) => n.label ?? `VLAN ${n.vlan}`;
const on = (n: Shown) => (n.vlan === null ? `the untagged network ${n.name}` : `${vlanText(n)} (${n.name})`);

/** `1000-1003, 1010`: VLANs in runs. */
export function vlanRuns(vlans: readonly number[]): string {
  const sorted = [...new Set(vlans)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    runs.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

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
    if (!iface) input.interfaces.push((iface = { name: m.interface, vlans: [], mtus: {} }));
    for (const v of vlansOf(net)) {
      if (!iface.vlans.includes(v)) iface.vlans.push(v);
      if (net.mtu) iface.mtus[v] = net.mtu;
    }
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
    const vlans = vlansOf(net);
    const heardOn = (vlan: number): HeardBy => (a, b, big = false) => {
      const r = byNode.get(a.node);
      if (!r?.answered) return null;
      return ((big ? r.big_heard : r.heard)[key(a.interface, vlan)] ?? []).some((w) => w.split('|')[0] === b.node);
    };
    const perVlan = vlans.map(heardOn);
    // A pair is heard on a ranged network when it is heard on every one of its VLANs.
    const heardBy: HeardBy = (a, b) => {
      let all: boolean | null = true;
      for (const h of perVlan) {
        const x = h(a, b);
        if (x === null) return null;
        if (!x) all = false;
      }
      return all;
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
    matrices.push({ network: net.name, vlan: net.vlan, ...(net.vlans?.length ? { vlans: [...vlans] } : {}), nodes: members.map((m) => ({ node: m.node, name: m.name, interface: m.interface })), heard, passes });

    // Fuel's absent_vlans: the VLANs of an interface on which the node heard none of its peers.
    const live = members.filter((m) => byNode.get(m.node)?.answered);
    vlans.forEach((vlan, i) => {
      for (const a of live) {
        const peers = live.filter((b) => b !== a);
        if (peers.length === 0 || peers.some((b) => perVlan[i](a, b))) continue;
        const k = `${a.node}|${a.interface}`;
        const entry = absent.get(k) ?? { uid: a.node, name: a.name, interface: a.interface, absent_vlans: [] };
        if (!entry.absent_vlans.includes(vlan)) entry.absent_vlans.push(vlan);
        absent.set(k, entry);
      }
    });
    if (!net.vlans?.length) {
      if (!passes) findings.push(...explainLinks(net, live, perVlan[0]));
      findings.push(...explainMtu(net, live, perVlan[0], byNode));
    } else {
      // A range: the VLANs that fail alike are said together ("VLANs 1005-1007 (private) do not
      // pass between node-3's eth1 and the others"), not once per VLAN.
      const groups = new Map<string, number[]>();
      vlans.forEach((vlan, i) => {
        const shown: Shown = { ...net, vlan, label: '\u0000' };
        const signature = JSON.stringify([...explainLinks(shown, live, perVlan[i]), ...explainMtu(shown, live, perVlan[i], byNode)]);
        if (signature !== '[]') groups.set(signature, [...(groups.get(signature) ?? []), i]);
      });
      for (const indexes of groups.values()) {
        const group = indexes.map((i) => vlans[i]);
        const shown: Shown = { ...net, vlan: group[0], label: `VLAN${group.length > 1 ? 's' : ''} ${vlanRuns(group)}`, plural: group.length > 1 };
        findings.push(...explainLinks(shown, live, perVlan[indexes[0]]), ...explainMtu(shown, live, perVlan[indexes[0]], byNode));
      }
    }
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
function explainLinks(net: Shown, live: VerifyMember[], heardBy: HeardBy): Finding[] {
  const out: Finding[] = [];
  if (live.length < 2) return out;
  const inAny = (a: VerifyMember) => live.some((b) => b !== a && heardBy(b, a));
  const outAny = (a: VerifyMember) => live.some((b) => b !== a && heardBy(a, b));
  const talking = live.filter((a) => inAny(a) || outAny(a));
  if (talking.length === 0) {
    out.push(finding('verify/vlan-nowhere', 'error', `${on(net)} pass${net.plural ? '' : 'es'} between none of ${names(live.map((m) => `${m.name}'s ${m.interface}`))}`, undefined, `check that the switches carry ${net.vlan === null ? 'untagged frames' : vlanText(net)} on these ports and between them`));
    return out;
  }
  // Cut off: heard nobody and heard by nobody, while the others talk.
  const cut = live.filter((a) => !inAny(a) && !outAny(a));
  for (const a of cut) {
    out.push(finding('verify/vlan-cut-off', 'error', `${net.vlan === null ? `untagged frames (${net.name})` : `${vlanText(net)} (${net.name})`} do${net.vlan === null || net.plural ? '' : 'es'} not pass between ${a.name}'s ${a.interface} and the others`, undefined, `check the switch port of ${a.name} (${a.interface}): it must carry ${net.vlan === null ? 'untagged frames' : `${vlanText(net)} tagged`}`));
  }
  const rest = live.filter((a) => !cut.includes(a));
  const explained = new Set<VerifyMember>();
  const sends = net.vlan === null ? 'untagged frames' : vlanText(net);
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

/**
 * Large frames (the network's MTU) that do not pass where small ones do; or that a node could not
 * even send, its interface's own MTU being smaller.
 */
function explainMtu(net: Shown, live: VerifyMember[], heardBy: HeardBy, byNode: ReadonlyMap<string, ProbeReport>): Finding[] {
  if (!net.mtu) return [];
  const out: Finding[] = [];
  const vlan = vlanOf(net);
  const unsent = new Set<VerifyMember>();
  for (const b of live) {
    const failed = byNode.get(b.node)?.mtu?.find((x) => x.interface === b.interface && x.vlan === vlan && !x.sent);
    if (!failed) continue;
    unsent.add(b);
    out.push(finding('verify/mtu-interface', 'error', `${b.name}'s ${b.interface} cannot send frames of ${net.mtu} bytes on ${on(net)}: its MTU is ${failed.interface_mtu ?? 'smaller'}`, undefined, `raise the MTU of ${b.name}'s ${b.interface} to ${net.mtu} or more (ip link set ${b.interface} mtu ${net.mtu}), or lower ${net.name}'s MTU`));
  }
  // A node that hears small frames from two or more senders and large ones from none: its own
  // interface or switch port takes no large frames in (one finding, not one per sender).
  const senders = live.filter((b) => !unsent.has(b));
  const deaf = new Set<VerifyMember>();
  for (const a of live) {
    const from = senders.filter((b) => b !== a && heardBy(a, b) === true);
    if (from.length >= 2 && from.every((b) => heardBy(a, b, true) === false)) deaf.add(a);
  }
  for (const a of deaf) {
    out.push(finding('verify/mtu', 'error', `${a.name}'s ${a.interface} receives no frames of ${net.mtu} bytes on ${on(net)}, small ones it does`, undefined, `raise the MTU of ${a.name}'s ${a.interface} and of its switch port to ${net.mtu}, or lower ${net.name}'s MTU`));
  }
  for (const b of senders) {
    const losing = live.filter((a) => a !== b && !deaf.has(a) && heardBy(a, b) === true && heardBy(a, b, true) === false);
    if (losing.length === 0) continue;
    out.push(finding('verify/mtu', 'error', `frames of ${net.mtu} bytes from ${b.name}'s ${b.interface} do not reach ${names(losing.map((a) => a.name))} on ${on(net)}, small ones do`, undefined, `raise the MTU of the switch ports on the way (and of ${names([b, ...losing].map((m) => `${m.name}'s ${m.interface}`))}) to ${net.mtu}, or lower ${net.name}'s MTU`));
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
