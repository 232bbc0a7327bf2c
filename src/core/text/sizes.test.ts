import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMiB, parseMiB } from './sizes.js';

test('sizes print in binary units: MiB below 1 GiB, GiB with one decimal above (Fuel\'s MB are MiB)', () => {
  assert.equal(formatMiB(0), '0 MiB');
  assert.equal(formatMiB(512), '512 MiB');
  assert.equal(formatMiB(1024), '1 GiB');
  assert.equal(formatMiB(15872), '15.5 GiB');
  // A "1 TB" disk as Fuel showed it: 953,869 MB.
  assert.equal(formatMiB(953869), '931.5 GiB');
});

test('sizes people type are read as MB (MiB): units G/GiB/GB, M/MiB/MB, T, or none (MB)', () => {
  assert.equal(parseMiB('20G'), 20480);
  assert.equal(parseMiB('20 GiB'), 20480);
  assert.equal(parseMiB('1.5gb'), 1536);
  assert.equal(parseMiB('512M'), 512);
  assert.equal(parseMiB('512'), 512);
  assert.equal(parseMiB('1T'), 1048576);
  assert.equal(parseMiB('0'), 0);
  for (const bad of ['', 'G', '-5G', '5 parsecs', '1e3', '5G5']) assert.equal(parseMiB(bad), undefined, bad);
  // What is printed reads back to the same size, to the printed precision.
  assert.equal(parseMiB(formatMiB(15872)), 15872);
});
