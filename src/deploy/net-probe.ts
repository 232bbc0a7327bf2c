/**
 * The probe of Verify networks (issue 27), a python3 script of the standard library alone, run as root
 * on each node (verify.ts sends it on the command line, so it runs under the session watcher that
 * kills it with its connection). Kept as text here so that the bundle carries it; its own docstring
 * says what it does.
 */
export const NET_PROBE_SCRIPT = String.raw`"""Hearth's network probe: one run on one node of Verify networks (issue 27).

Sends Ethernet frames, tagged with 802.1Q VLAN tags written here (untagged for untagged networks),
on raw AF_PACKET sockets, and listens for the frames of the other nodes, reading their tags here too
(from the frame, or from PACKET_AUXDATA when the kernel took the tag off into the socket's
metadata, as Fuel's net_probe did). Nothing of the node's configuration changes: no subinterface,
no address, no promiscuous mode, so a node without the 8021q module verifies as well.
Also: ARP probes for the node's own addresses (a reply from another MAC is a duplicate address),
ARP and ICMP echo to each network's gateway on its VLAN, and one large frame per VLAN (the MTU).

Input: one argument, base64 of JSON (see verify.ts in src/deploy). Output: one line
"HEARTH-PROBE-RESULT <json>" at the end. It stops on its own after "budget" seconds, and with its
SSH session (Hearth's session watcher kills it when the connection goes).
Only python3's standard library; root (raw sockets).
"""
import base64
import json
import os
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
ETH_P_ARP = 0x0806
ETH_P_8021Q = 0x8100
ETH_P_8021AD = 0x88A8
PROBE_TYPE = 0x88B5  # IEEE 802 local experimental ethertype
SOL_PACKET = 263
PACKET_AUXDATA = 8
TP_STATUS_VLAN_VALID = 0x10
PACKET_OUTGOING = 4
MAGIC = b"HEARTHNP"
BROADCAST = b"\xff" * 6
AUX = struct.Struct("IIIHHHH")


def mac_of(iface):
    with open("/sys/class/net/%s/address" % iface) as f:
        return bytes.fromhex(f.read().strip().replace(":", ""))


def mtu_of(iface):
    try:
        with open("/sys/class/net/%s/mtu" % iface) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def fmt_mac(b):
    return ":".join("%02x" % x for x in b)


def frame(dst, src, vlan, ethertype, payload):
    tag = struct.pack("!HH", ETH_P_8021Q, vlan & 0xFFF) if vlan else b""
    body = dst + src + tag + struct.pack("!H", ethertype) + payload
    return body + b"\x00" * max(0, 60 + len(tag) - len(body))


def checksum(data):
    if len(data) % 2:
        data += b"\x00"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def arp(op, src_mac, src_ip, dst_mac, dst_ip):
    return struct.pack("!HHBBH6s4s6s4s", 1, ETH_P_IP, 6, 4, op, src_mac, socket.inet_aton(src_ip), dst_mac, socket.inet_aton(dst_ip))


def icmp_echo(src_ip, dst_ip, ident, seq):
    icmp = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + b"hearth-verify"
    icmp = icmp[:2] + struct.pack("!H", checksum(icmp)) + icmp[4:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), ident, 0, 64, 1, 0, socket.inet_aton(src_ip), socket.inet_aton(dst_ip))
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    return ip + icmp


def parse(data, ancdata):
    """(vlan, ethertype, payload) of a received frame; vlan 0 when untagged."""
    vlan = 0
    for level, kind, value in ancdata:
        if level == SOL_PACKET and kind == PACKET_AUXDATA and len(value) >= AUX.size:
            status, _, _, _, _, tci, _ = AUX.unpack(value[: AUX.size])
            if status & TP_STATUS_VLAN_VALID:
                vlan = tci & 0xFFF
    ethertype = struct.unpack("!H", data[12:14])[0]
    rest = data[14:]
    if ethertype in (ETH_P_8021Q, ETH_P_8021AD) and len(rest) >= 4:
        inner = struct.unpack("!HH", rest[:4])
        if not vlan:
            vlan = inner[0] & 0xFFF
        ethertype, rest = inner[1], rest[4:]
    return vlan, ethertype, rest


def main():
    conf = json.loads(base64.b64decode(sys.argv[1]))
    token, node = conf["token"], str(conf["node"])
    start = time.time()
    deadline = start + float(conf.get("budget", 8))
    send_until = start + float(conf.get("send", 5))
    result = {"node": node, "sent": [], "heard": {}, "big_heard": {}, "errors": [], "duplicates": [], "gateways": [], "mtu": []}
    socks, macs = {}, {}
    for entry in conf["interfaces"]:
        name = entry["name"]
        try:
            macs[name] = mac_of(name)
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
            s.bind((name, 0))
            s.setblocking(False)
            socks[name] = s
        except OSError as e:
            result["errors"].append({"interface": name, "message": "cannot open a raw socket on %s: %s" % (name, e.strerror or e)})
    own_macs = set(macs.values())
    gateways = [dict(g, mac=None, arp=False, ping=False) for g in conf.get("gateways", []) if g["interface"] in socks]
    addresses = [a for a in conf.get("addresses", []) if a["interface"] in socks]
    dups = {}
    big_sent = {}
    ident = os.getpid() & 0xFFFF
    next_send = start
    round_no = 0

    def send(iface, data, what):
        try:
            socks[iface].send(data)
            return True
        except OSError as e:
            result["errors"].append({"interface": iface, "message": "%s: %s" % (what, e.strerror or e)})
            return False

    while time.time() < deadline:
        now = time.time()
        if now >= next_send and now < send_until:
            round_no += 1
            for entry in conf["interfaces"]:
                name = entry["name"]
                if name not in socks:
                    continue
                for vlan in entry["vlans"]:
                    body = MAGIC + json.dumps({"t": token, "n": node, "i": name, "v": vlan}).encode()
                    if send(name, frame(BROADCAST, macs[name], vlan, PROBE_TYPE, body), "sending on VLAN %d" % vlan) and round_no == 1:
                        result["sent"].append({"interface": name, "vlan": vlan})
                    mtu = entry.get("mtus", {}).get(str(vlan))
                    # Large frames from the second round on, three times (one may be lost like any
                    # frame); one the interface refuses (its own MTU is smaller) is said once.
                    if mtu and round_no >= 2 and big_sent.get((name, vlan), 0) < 3:
                        big_sent[(name, vlan)] = big_sent.get((name, vlan), 0) + 1
                        big = MAGIC + json.dumps({"t": token, "n": node, "i": name, "v": vlan, "big": mtu}).encode()
                        big += b"\x00" * (mtu - len(big))
                        try:
                            socks[name].send(frame(BROADCAST, macs[name], vlan, PROBE_TYPE, big))
                        except OSError:
                            big_sent[(name, vlan)] = 3
                            result["mtu"].append({"interface": name, "vlan": vlan, "mtu": mtu, "interface_mtu": mtu_of(name), "sent": False})
            for a in addresses:
                if round_no <= 3:
                    send(a["interface"], frame(BROADCAST, macs[a["interface"]], a["vlan"], ETH_P_ARP, arp(1, macs[a["interface"]], "0.0.0.0", b"\x00" * 6, a["ip"])), "ARP probe")
            for g in gateways:
                mac = macs[g["interface"]]
                if not g["arp"]:
                    send(g["interface"], frame(BROADCAST, mac, g["vlan"], ETH_P_ARP, arp(1, mac, g.get("source") or "0.0.0.0", b"\x00" * 6, g["ip"])), "ARP to the gateway")
                elif not g["ping"] and g.get("source"):
                    send(g["interface"], frame(g["mac"], mac, g["vlan"], ETH_P_IP, icmp_echo(g["source"], g["ip"], ident, round_no)), "ping to the gateway")
            next_send = now + float(conf.get("interval", 0.5))
        wait = max(0.0, min(deadline, next_send if now < send_until else deadline) - time.time())
        ready, _, _ = select.select(list(socks.values()), [], [], min(wait, 0.25))
        for s in ready:
            iface = next(n for n, x in socks.items() if x is s)
            for _ in range(64):
                try:
                    data, ancdata, _, addr = s.recvmsg(65536, socket.CMSG_SPACE(AUX.size))
                except (BlockingIOError, InterruptedError):
                    break
                if addr[2] == PACKET_OUTGOING or len(data) < 14:
                    continue
                vlan, ethertype, payload = parse(data, ancdata)
                src = data[6:12]
                if ethertype == PROBE_TYPE and payload.startswith(MAGIC):
                    try:
                        msg = json.loads(payload[len(MAGIC):].rstrip(b"\x00"))
                    except ValueError:
                        continue
                    if msg.get("t") != token or str(msg.get("n")) == node:
                        continue
                    key = "%s|%d" % (iface, vlan)
                    who = "%s|%s" % (msg.get("n"), msg.get("i"))
                    bucket = result["big_heard" if msg.get("big") else "heard"].setdefault(key, [])
                    if who not in bucket:
                        bucket.append(who)
                elif ethertype == ETH_P_ARP and len(payload) >= 28:
                    op, smac, sip, tmac, tip = struct.unpack("!6xH6s4s6s4s", payload[:28])
                    sip = socket.inet_ntoa(sip)
                    for a in addresses:
                        if a["interface"] == iface and a["vlan"] == vlan and sip == a["ip"] and smac not in own_macs:
                            dups.setdefault((a["network"], a["ip"]), set()).add(fmt_mac(smac))
                    for g in gateways:
                        if op == 2 and g["interface"] == iface and g["vlan"] == vlan and sip == g["ip"]:
                            g["arp"], g["mac"] = True, smac
                elif ethertype == ETH_P_IP and len(payload) >= 28:
                    ihl = (payload[0] & 0x0F) * 4
                    if payload[9] == 1 and len(payload) >= ihl + 8 and payload[ihl] == 0:
                        sip = socket.inet_ntoa(payload[12:16])
                        rid = struct.unpack("!H", payload[ihl + 4: ihl + 6])[0]
                        for g in gateways:
                            if g["interface"] == iface and g["vlan"] == vlan and sip == g["ip"] and rid == ident:
                                g["ping"] = True
    for s in socks.values():
        s.close()
    result["duplicates"] = [{"network": n, "ip": ip, "macs": sorted(m)} for (n, ip), m in sorted(dups.items())]
    result["gateways"] = [{"network": g["network"], "interface": g["interface"], "vlan": g["vlan"], "ip": g["ip"], "arp": g["arp"], "ping": g["ping"] if g.get("source") else None, "mac": fmt_mac(g["mac"]) if g["mac"] else None} for g in gateways]
    sys.stdout.write("HEARTH-PROBE-RESULT " + json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
`;
