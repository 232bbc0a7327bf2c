import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FUEL_GENERATORS, calcRootSize, calcSwapSize, callGenerator, glanceCacheSize, isFuelGenerator, sizeOf, type GeneratorContext } from './generators.js';

const ctx = (over: Partial<GeneratorContext> = {}): GeneratorContext => ({ ram: 4096, rootDiskSize: 100_000, vgSize: () => 0, ...over });
const gen = (name: string, c = ctx(), ...args: unknown[]) => callGenerator(name, args, c);

test("swap follows Fuel's RAM table (test_root_size_calculation's cases)", () => {
  const cases: Array<[number, number]> = [[2, 4], [2048, 4096], [2049, 2049], [8192, 8192], [8193, 4096], [65536, 32768], [65537, 4096], [81920, 4096]];
  for (const [ram, swap] of cases) {
    assert.equal(calcSwapSize(ram), swap, `ram ${ram}`);
    assert.equal(gen('calc_swap_size', ctx({ ram })), swap);
  }
});

test('root is 20% of the first disk, clamped to 15..50 GB', () => {
  assert.equal(calcRootSize(10_000), 15 * 1024);
  assert.equal(calcRootSize(100_000), 20_000);
  assert.equal(calcRootSize(1_000_000), 50 * 1024);
  assert.equal(gen('calc_root_size', ctx({ rootDiskSize: 100_000 })), 20_000);
});

test("every constant generator has Fuel's value in MB", () => {
  const expected: Record<string, number> = {
    calc_boot_size: 200,
    calc_boot_records_size: 300,
    calc_mbr_size: 10,
    calc_lvm_meta_size: 64,
    calc_min_vm_size: 5120,
    calc_min_glance_size: 5120,
    calc_min_cinder_size: 1536,
    calc_min_mongo_size: 10240,
    calc_min_ceph_size: 3072,
    calc_min_ceph_journal_size: 0,
    calc_min_mysql_size: 20480,
    calc_min_log_size: 10240,
    calc_min_controller_log_size: 10240,
    calc_min_controller_var_size: 15360,
  };
  for (const [name, mb] of Object.entries(expected)) assert.equal(gen(name), mb, name);
});

test('os size is root plus swap, under its three names', () => {
  const c = ctx({ ram: 4096, rootDiskSize: 100_000 });
  for (const name of ['calc_os_size', 'calc_os_vg_size', 'calc_min_os_size']) assert.equal(gen(name, c), 20_000 + 4096, name);
});

test('calc_gb_to_mb takes GB; calc_total_vg sums a group (named, or the one being sized); calc_total_root_vg leaves swap out', () => {
  assert.equal(gen('calc_gb_to_mb', ctx(), 11), 11264);
  assert.equal(gen('calc_gb_to_mb', ctx(), 1.5), 1536);
  const c = ctx({ ram: 1024, vgSize: (vg) => (vg === 'os' ? 30_000 : vg === 'vm' ? 7000 : 0) });
  assert.equal(gen('calc_total_vg', c, 'vm'), 7000);
  assert.equal(gen('calc_total_vg', { ...c, vg: 'vm' }), 7000);
  assert.equal(gen('calc_total_root_vg', c), 30_000 - 2048);
});

test('sizes: numbers pass, generators are called, an unknown generator counts as 0 and is not a Fuel generator', () => {
  assert.equal(sizeOf(42, ctx()), 42);
  assert.equal(sizeOf({ generator: 'calc_gb_to_mb', generator_args: [2] }, ctx()), 2048);
  assert.equal(sizeOf({ generator: 'calc_everything' }, ctx()), 0);
  assert.equal(isFuelGenerator('calc_everything'), false);
  assert.equal(isFuelGenerator('constructor'), false);
  assert.ok(FUEL_GENERATORS.includes('calc_total_root_vg'));
});

test("glance cache is 10% of the glance volume, at least 5 GB (Fuel's cache size tests)", () => {
  const vgs = (mb: number) => [{ type: 'vg', id: 'image', volumes: [{ name: 'glance', size: mb }] }];
  assert.equal(glanceCacheSize(vgs(100 * 1024)), String(Math.trunc(0.1 * 100 * 1024 ** 3)));
  assert.equal(glanceCacheSize(vgs(20 * 1024)), String(5 * 1024 ** 3));
  assert.equal(glanceCacheSize([]), '0');
});
