#!/usr/bin/env node
// Makes dist/pgdata-template/: an empty embedded database (PGlite's initdb, as a tar.gz from
// dumpDataDir) that a server's first start restores instead of creating one (store/pglite-worker.ts):
// initdb takes 8 to 14 s on a busy 2-core machine, restoring this about 3 s. It depends only on the
// PGlite version (its meta.json says which), so it is made again only when PGlite changes.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'pgdata-template');
const pgliteEntry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
const pglite = JSON.parse(readFileSync(join(dirname(pgliteEntry), '..', 'package.json'), 'utf8')).version;
const metaFile = join(out, 'meta.json');
const current = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) : undefined;
if (current?.pglite === pglite && existsSync(join(out, 'pgdata.tar.gz'))) {
  console.log(`pgdata template: up to date (PGlite ${pglite})`);
} else {
  const started = Date.now();
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create('memory://');
  const dump = await pg.dumpDataDir('gzip');
  await pg.close();
  mkdirSync(out, { recursive: true });
  // Written beside and renamed, so a server starting meanwhile never reads half of it.
  writeFileSync(join(out, 'pgdata.tar.gz.part'), Buffer.from(await dump.arrayBuffer()));
  renameSync(join(out, 'pgdata.tar.gz.part'), join(out, 'pgdata.tar.gz'));
  writeFileSync(metaFile, `${JSON.stringify({ pglite }, null, 2)}\n`);
  console.log(`pgdata template: made for PGlite ${pglite} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
