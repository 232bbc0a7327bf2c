import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXED_EPOCH, readTarGz, reproducibleMtime, writeTar, writeTarGz, type TarEntry } from '../../src/package/build/tar.js';

const sample = (): TarEntry[] => [
  { path: 'p', type: 'dir' },
  { path: 'p/b.txt', type: 'file', data: Buffer.from('bee\n') },
  { path: 'p/a.sh', type: 'file', executable: true, data: Buffer.from('#!/bin/sh\n') },
  { path: 'p/empty', type: 'file', data: Buffer.alloc(0) },
  { path: 'p/exact', type: 'file', data: Buffer.alloc(512, 7) },
];

test('what the writer writes, the reader reads back: paths, kinds, executable bits and bytes', () => {
  const back = readTarGz(writeTarGz(sample()));
  assert.deepEqual(
    back.map((e) => [e.path, e.type, e.executable, e.data.toString('hex')]),
    [...sample()].sort((a, b) => a.path.localeCompare(b.path)).map((e) => [e.path, e.type, e.executable === true, (e.data ?? Buffer.alloc(0)).toString('hex')]),
  );
});

test('entries are sorted, so the input order does not change the bytes', () => {
  const forward = writeTarGz(sample());
  const backward = writeTarGz([...sample()].reverse());
  assert.ok(forward.equals(backward));
});

test('the gzip header carries no timestamp and a fixed OS byte', () => {
  const gz = writeTarGz(sample());
  assert.equal(gz.readUInt32LE(4), 0);
  assert.equal(gz[9], 3);
});

test('owners are 0/0 with empty names, modes are 0644/0755, mtimes are the given epoch', () => {
  const tar = writeTar(sample(), 1700000000);
  const headerOf = (name: string): Buffer => {
    for (let at = 0; at < tar.length; at += 512) if (tar.subarray(at, at + 100).toString('utf8').replace(/\0.*$/s, '') === name) return tar.subarray(at, at + 512);
    throw new Error(`no header ${name}`);
  };
  const field = (h: Buffer, o: number, l: number): string => h.subarray(o, o + l).toString('utf8').replace(/\0.*$/s, '');
  for (const [name, mode] of [['p/', '0000755'], ['p/a.sh', '0000755'], ['p/b.txt', '0000644']] as const) {
    const h = headerOf(name);
    assert.equal(field(h, 100, 8), mode, name);
    assert.equal(field(h, 108, 8), '0000000');
    assert.equal(field(h, 116, 8), '0000000');
    assert.equal(field(h, 265, 32), '');
    assert.equal(field(h, 297, 32), '');
    assert.equal(parseInt(field(h, 136, 12), 8), 1700000000);
  }
});

test('paths too long for ustar travel in a pax record and come back whole', () => {
  const long = `p/${'deep/'.repeat(40)}${'n'.repeat(150)}.yaml`;
  const unicode = 'p/ünïcödé-файл.yaml';
  const back = readTarGz(writeTarGz([{ path: long, type: 'file', data: Buffer.from('x') }, { path: unicode, type: 'file', data: Buffer.from('y') }]));
  assert.deepEqual(back.map((e) => e.path).sort(), [long, unicode].sort());
});

test('SOURCE_DATE_EPOCH sets the mtime; anything but a whole number falls back to the fixed epoch', () => {
  assert.equal(reproducibleMtime({ SOURCE_DATE_EPOCH: '1600000000' }), 1600000000);
  assert.equal(reproducibleMtime({}), FIXED_EPOCH);
  assert.equal(reproducibleMtime({ SOURCE_DATE_EPOCH: 'yesterday' }), FIXED_EPOCH);
  assert.equal(reproducibleMtime({ SOURCE_DATE_EPOCH: '-5' }), FIXED_EPOCH);
  assert.notDeepEqual(writeTarGz(sample(), 1), writeTarGz(sample(), 2));
});
