#!/usr/bin/env node
// Makes dist/pgdata-template/: an embedded database with Hearth's migrations applied and nothing
// else (no release, no token, no key: those are each server's own, made at its first start), as a
// tar.gz from PGlite's dumpDataDir, that a server's first start restores instead of creating one
// (store/pglite-worker.ts): initdb takes 8 to 14 s on a busy 2-core machine, restoring this about
// 3 s. Migrating at first start ran PostgreSQL's DDL hot enough for V8 to optimise much of PGlite,
// and that compilation's memory stayed: an idle server after its first start held 171-174 MB, one
// restored from a migrated database about 148 (issue 30). Its meta.json says which PGlite made it
// and which migrations it holds (store/template-stamp.ts); it is made again when either changes.
// Run after tsc (npm run build): it applies dist/'s migrations.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'pgdata-template');
const pgliteEntry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
const pglite = JSON.parse(readFileSync(join(dirname(pgliteEntry), '..', 'package.json'), 'utf8')).version;
const metaFile = join(out, 'meta.json');
const { MIGRATIONS } = await import(pathToFileURL(join(root, 'dist', 'store', 'migrations.js')).href);
const { migrate } = await import(pathToFileURL(join(root, 'dist', 'store', 'migrate.js')).href);
const { schemaStamp } = await import(pathToFileURL(join(root, 'dist', 'store', 'template-stamp.js')).href);
const schema = schemaStamp(MIGRATIONS);
const current = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) : undefined;
if (current?.pglite === pglite && JSON.stringify(current?.schema) === JSON.stringify(schema) && existsSync(join(out, 'pgdata.tar.gz'))) {
  console.log(`pgdata template: up to date (PGlite ${pglite}, migrations 1-${schema.at(-1)?.[0]})`);
} else {
  const started = Date.now();
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create('memory://');
  // migrate() as a server runs it, on this PGlite: its transaction, query and exec.
  const asStore = { transaction: (work) => pg.transaction((tx) => work({ query: async (sql, params) => (await tx.query(sql, params)).rows, exec: (sql) => tx.exec(sql) })) };
  await migrate(asStore, MIGRATIONS);
  // Checkpointed, so the archive holds the tables themselves, not only the WAL that made them.
  await pg.exec('CHECKPOINT');
  const dump = await pg.dumpDataDir('gzip');
  await pg.close();
  mkdirSync(out, { recursive: true });
  // Written beside and renamed, so a server starting meanwhile never reads half of it.
  writeFileSync(join(out, 'pgdata.tar.gz.part'), Buffer.from(await dump.arrayBuffer()));
  renameSync(join(out, 'pgdata.tar.gz.part'), join(out, 'pgdata.tar.gz'));
  writeFileSync(metaFile, `${JSON.stringify({ pglite, schema }, null, 2)}\n`);
  console.log(`pgdata template: made for PGlite ${pglite} with migrations 1-${schema.at(-1)?.[0]} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
