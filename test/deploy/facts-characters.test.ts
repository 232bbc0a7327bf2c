/**
 * A node's facts answer holding a NUL byte or a lone UTF-16 surrogate (a hostname, a disk model
 * escaped as `\ud800` in lsblk's JSON, an interface name) is the node's text: it is stored with
 * U+FFFD in place of each such character, where before PostgreSQL refused the write and the
 * registration answered 500 "this is a bug" (issue 24, item 14).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFacts } from '../../src/deploy/facts.js';
import { insertRealNode } from '../../src/store/real-nodes.js';
import { engines } from '../server/support/engines.js';

const HOSTILE_ANSWER = [
  '==hostname',
  'node\u0000one',
  '==os',
  'ID=ubuntu',
  'PRETTY_NAME="Ubuntu \u0000 24.04"',
  '==cpus',
  '4',
  '==memory',
  'MemTotal:        8000000 kB',
  '==disks',
  '{"blockdevices": [{"name": "vda", "size": 10737418240, "type": "disk", "model": "QEMU \\ud800 disk\\u0000", "rota": false}]}',
  '==interfaces',
  '[{"ifname": "eth\\udc00", "address": "52:54:00:00:00:01", "operstate": "UP", "link_type": "ether", "addr_info": [{"local": "10.77.0.11", "prefixlen": 24}]}]',
  '==speed',
  'eth0 1000',
  '',
].join('\n');

test("a node's facts with NUL bytes and lone surrogates are read with U+FFFD in their place, and stored", async () => {
  const facts = parseFacts(HOSTILE_ANSWER);
  assert.equal(facts.hostname, 'node\ufffdone');
  assert.equal(facts.os.pretty_name, 'Ubuntu \ufffd 24.04');
  assert.equal(facts.disks[0].model, 'QEMU \ufffd disk\ufffd');
  assert.equal(facts.interfaces[0].name, 'eth\ufffd');
  assert.equal(facts.cpus, 4, 'the rest is read as before');
  assert.deepEqual(facts.interfaces[0].addresses, ['10.77.0.11/24']);

  for (const engine of engines()) {
    const db = await engine.open();
    try {
      const id = await insertRealNode(db, { name: 'facts-with-nul', address: '10.77.0.99', sshUser: 'root', sshPort: 22, hostKey: 'ssh-ed25519 AAAA', facts, hardware: {} });
      const [row] = await db.query<{ facts: { hostname: string; disks: Array<{ model: string }> } }>('SELECT facts FROM nodes WHERE id = $1', [id]);
      assert.equal(row.facts.hostname, 'node\ufffdone', engine.name);
      assert.equal(row.facts.disks[0].model, 'QEMU \ufffd disk\ufffd', engine.name);
    } finally {
      await db.close();
      await engine.dispose();
    }
  }
});
