/**
 * Disk layouts at environment scale (issue 26): the default layout of 1,000 nodes with 4 disks each
 * (a free-disk running node and Fuel's provisioning mode), their checks, and their node_volumes, over
 * the bundled release's volumes and Fuel 9.0's. Target: 1,000 layouts in under 200 ms. Baseline: the
 * same layouts for 100 nodes, so the ratio shows the cost grows with the nodes and nothing else.
 */
import { readFileSync } from 'node:fs';
import { parseYaml } from '../src/package/yaml/index.js';
import { checkLayout, defaultLayout, nodeVolumes, type LayoutInput, type LayoutVolumesMetadata, type NodeDisk } from '../src/core/disks/index.js';
import { FUEL_90_VOLUMES } from '../test/support/fuel-volumes.js';
import { report, time } from './harness.js';

const bundled = parseYaml(readFileSync(new URL('../release/hearth-2026.1/metadata/volumes.yaml', import.meta.url), 'utf8'), 'volumes.yaml').value as LayoutVolumesMetadata;
const ROLE_SETS = [['controller'], ['compute'], ['ceph-osd'], ['cinder'], ['compute', 'ceph-osd'], ['controller', 'cinder', 'ceph-osd'], ['database'], ['monitoring']];

function nodes(count: number, volumes: LayoutVolumesMetadata, mode: 'running' | 'fuel'): LayoutInput[] {
  const out: LayoutInput[] = [];
  for (let i = 0; i < count; i++) {
    const disks: NodeDisk[] = [
      { id: `disk/by-path/pci-0000:00:0${i % 7}.0-sda`, name: 'sda', size: 240_000 + (i % 13) * 1024, inUse: mode === 'running', holdsRoot: mode === 'running' },
      { id: `disk/by-path/pci-0000:00:1${i % 7}.0-sdb`, name: 'sdb', size: 480_000 + (i % 5) * 4096, inUse: false },
      { id: `disk/by-path/pci-0000:00:2${i % 7}.0-sdc`, name: 'sdc', size: 960_000, inUse: false },
      { id: `disk/by-path/pci-0000:00:3${i % 7}.0-sdd`, name: 'sdd', size: 1_920_000, inUse: false, exclude: i % 10 === 0 },
    ];
    out.push({ disks, roles: ROLE_SETS[i % ROLE_SETS.length]!, volumes, ram: 8192 * (1 + (i % 8)), mode });
  }
  return out;
}

const bundledRunning = nodes(1_000, bundled, 'running');
const fuelMode = nodes(1_000, FUEL_90_VOLUMES, 'fuel');
const hundred = nodes(100, bundled, 'running');

const layouts = time('1,000 nodes × 4 disks: default layouts (bundled release, running nodes)', () => bundledRunning.map(defaultLayout), { runs: 30 });
const fuel = time('1,000 nodes × 4 disks: default layouts (Fuel 9.0 volumes, provisioning mode)', () => fuelMode.map(defaultLayout), { runs: 30 });
const computed = bundledRunning.map(defaultLayout);
const checks = time('1,000 nodes: checkLayout', () => computed.forEach((l, i) => checkLayout(l, bundledRunning[i]!)), { runs: 30 });
const whole = time('1,000 nodes: layout + check + node_volumes', () => {
  for (const input of bundledRunning) {
    const l = defaultLayout(input);
    checkLayout(l, input);
    nodeVolumes(l, input.volumes);
  }
}, { runs: 20 });
const base = time('baseline: 100 nodes × 4 disks: default layouts', () => hundred.map(defaultLayout), { runs: 50 });

report('Disk layouts (issue 26)', [
  { ...layouts, targetMs: 200, baselineMs: base.medianMs, note: 'ratio vs 100 nodes' },
  { ...fuel, targetMs: 200 },
  checks,
  { ...whole, note: 'what the Nodes tab and the deploy checks pay' },
  base,
]);
console.log(`\nlayouts per second: ${Math.round(1_000 / (layouts.medianMs / 1000)).toLocaleString('en')}`);
