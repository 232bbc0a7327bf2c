/**
 * The test hosts of scripts/test-hosts.sh, for tests of real deployments over SSH. CI exports
 * HEARTH_TEST_HOSTS (comma-separated addresses) and HEARTH_TEST_HOSTS_KEY (a private key root may
 * log in with). Each test file claims its own hosts by index so files running side by side never
 * share one: 1-3 the deploy layer, 4 transport and facts, 5 host-key changes, 6 the server's node API,
 * 7-9 and 13 deployments through the server, 10-11 a server killed mid-deployment, 12 the CLI,
 * 14-15 the web UI's real deployment, 16-17 the release skeleton deployed from its package, 18-19 a
 * run's lease between two servers, 20 an odd data folder's name, 21 a server killed while a task
 * runs, 22 a full disk during a deployment, 23 a client that never reads its event stream, 24-25 a shutdown mid-deployment, 26-27 node removal
 * (the deletion graph), 28-30 the deploy plan, 31-33 disk layouts (each given loop-device disks of
 * its own by the test), 34-37 Verify networks, 38 the README's walk, 39-40 the Ansible inventory
 * (ansible -m ping), 41 links out of a plugin folder. Two files sharing a host once failed CI: one
 * found the other's plugin in /etc/hearth/plugins.
 */
import { readFileSync } from 'node:fs';
import type { DeployTarget } from '../../src/deploy/transport.js';

export const HOSTS_NOTE = 'HEARTH_TEST_HOSTS is not set: tests on real hosts skipped (sudo scripts/test-hosts.sh up 41; CI sets it)';

export interface TestHosts {
  addresses: string[];
  keyFile: string;
  key: { private: string; public: string };
}

export function testHosts(): TestHosts | undefined {
  const list = (process.env.HEARTH_TEST_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const keyFile = process.env.HEARTH_TEST_HOSTS_KEY ?? '/run/hearth-test-hosts/client_key';
  if (!list.length) return undefined;
  // Only loopback and the test network may ever be a target.
  for (const a of list) if (!/^10\.77\.0\.\d+$/.test(a) && a !== '127.0.0.1') throw new Error(`HEARTH_TEST_HOSTS has ${a}, outside 10.77.0.0/24`);
  return { addresses: list, keyFile, key: readKey(keyFile) };
}

/** The hosts' key pair; its absence means the hosts are down (a CI run tears them down), said as such. */
function readKey(keyFile: string): TestHosts['key'] {
  try {
    return { private: readFileSync(keyFile, 'utf8'), public: readFileSync(`${keyFile}.pub`, 'utf8').trim() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw error;
    throw new Error(`HEARTH_TEST_HOSTS is set but the test hosts' key ${keyFile} is missing: the hosts are down. Start them (sudo scripts/test-hosts.sh up 41) or unset HEARTH_TEST_HOSTS to skip these tests`);
  }
}

/** Host `index` (1-based) as a target, or undefined when there are not that many. */
export function host(hosts: TestHosts, index: number, name = `host-${index}`): DeployTarget | undefined {
  const address = hosts.addresses[index - 1];
  return address ? { id: String(index), name, address, port: 22, user: 'root' } : undefined;
}

/** Runs a command inside test host `index` (its namespaces), for checks the tests make there. */
export async function onHost(index: number, command: string): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  const script = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;
  return execFileSync(script, ['run', String(index), 'sh', '-c', command], { encoding: 'utf8', timeout: 30_000 });
}
