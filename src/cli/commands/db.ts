/**
 * `hearth db export | import`: the whole database as one versioned JSON file and back, to move an
 * embedded database to PostgreSQL (DATABASE_URL) or across a PGlite upgrade. Run while no server
 * uses the embedded folder (it is locked while one does).
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';

interface DbOptions {
  dataDir?: string;
  output?: string;
}

export async function withStore<T>(options: DbOptions, work: (db: import('../../store/index.js').Database) => Promise<T>): Promise<T | undefined> {
  const store = await import('../../store/index.js');
  let db;
  try {
    // The embedded folder is claimed here, so that what was readable by others (an older Hearth's
    // files) is said as it is made private (store/private-files.ts).
    const embedded = process.env.DATABASE_URL ? undefined : (options.dataDir ?? store.defaultDataDir());
    const lockPath = embedded ? store.claimDataFolder(embedded, (paths) => process.stderr.write(`hearth: ${store.describeRepair(embedded, paths)}\n`)) : undefined;
    db = await store.openStore({ ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}), ...(embedded ? { dataDir: embedded } : {}), ...(lockPath ? { lockPath } : {}) });
    return await work(db);
  } catch (err) {
    if (err instanceof store.StoreError) {
      process.stderr.write(`hearth: ${err.message}\n${err.hint ? `  hint: ${err.hint}\n` : ''}`);
      process.exitCode = EXIT_FINDINGS;
      return undefined;
    }
    throw err;
  } finally {
    await db?.close();
  }
}

export function registerDb(program: Command): void {
  const db = program.command('db').description('Move the database: export it to a JSON file, import one into an empty database');

  db.command('export')
    .description('Write every plugin, release, environment, node and deployment to a versioned JSON file (DATABASE_URL, else the embedded folder)')
    .option('-o, --output <file>', 'where to write, mode 0600: the export holds the admin token and the SSH private key (default: standard output)')
    .option('--data-dir <dir>', 'the embedded database folder (default: $XDG_DATA_HOME/hearth or ~/.local/share/hearth)')
    .action(async (options: DbOptions) => {
      await withStore(options, async (store) => {
        const { exportDatabase } = await import('../../store/index.js');
        const { progressLine } = await import('../progress-line.js');
        const line = progressLine(process.stderr);
        let dump;
        try {
          dump = await exportDatabase(store, (table, i, n) => line.update(`exporting table ${i + 1}/${n}: ${table}`));
          line.update(`exporting: writing ${options.output ?? 'standard output'}`);
        } finally {
          line.end();
        }
        const text = `${JSON.stringify(dump)}\n`;
        if (!options.output) {
          // The export holds the admin token and Hearth's SSH private key: not for a screen or a scrollback.
          if (process.stdout.isTTY) process.stderr.write('hearth: warning: this export holds the admin token and the SSH private key that logs into every node; write it to a file only you can read with -o FILE (made 0600)\n');
          process.stdout.write(text);
        } else {
          // Whole or not at all: an interrupted export never leaves a file that looks complete.
          const { renameSync, writeFileSync } = await import('node:fs');
          const partial = `${options.output}.partial-${process.pid}`;
          writeFileSync(partial, text, { mode: 0o600 });
          renameSync(partial, options.output);
          process.stderr.write(`exported to ${options.output}\n`);
        }
        process.exitCode = EXIT_OK;
      });
    });

  db.command('import')
    .description('Load an export into an empty database (DATABASE_URL, else the embedded folder), all of it or nothing')
    .argument('<file>', 'a file written by hearth db export')
    .option('--data-dir <dir>', 'the embedded database folder')
    .action(async (file: string, options: DbOptions) => {
      const { existsSync, readFileSync } = await import('node:fs');
      if (!existsSync(file)) return usageError(`no such file: ${file}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        process.stderr.write(`hearth: ${file} is not JSON: ${(err as Error).message}\n  hint: give a file written by hearth db export\n`);
        process.exitCode = EXIT_FINDINGS;
        return;
      }
      // The file is judged before the database is opened: a refusal costs nothing and writes nothing.
      const { StoreError, checkDump, importDatabase } = await import('../../store/index.js');
      let dump: import('../../store/index.js').Dump;
      try {
        const { checkImportedPlugins } = await import('../../server/domain/plugin-import.js');
        const { packageRoot } = await import('../../package/root.js');
        dump = checkDump(parsed);
        // Stored plugins decide what the server reads and serves: judged as an install judges them.
        for (const note of checkImportedPlugins(dump, join(packageRoot(), 'release'))) process.stderr.write(`hearth: ${note}\n`);
      } catch (err) {
        if (!(err instanceof StoreError)) throw err;
        process.stderr.write(`hearth: ${err.message}\n${err.hint ? `  hint: ${err.hint}\n` : ''}`);
        process.exitCode = EXIT_FINDINGS;
        return;
      }
      await withStore(options, async (store) => {
        const { progressLine } = await import('../progress-line.js');
        const line = progressLine(process.stderr);
        let counts;
        try {
          counts = await importDatabase(store, dump, (table, i, n) => line.update(`importing table ${i + 1}/${n}: ${table} (${dump.tables[table]?.length ?? 0} rows)`));
        } finally {
          line.end();
        }
        const summary = Object.entries(counts).filter(([, n]) => n > 0).map(([t, n]) => `${n} ${t}`).join(', ');
        process.stdout.write(`imported ${summary || 'nothing (the export was empty)'}\n`);
        process.exitCode = EXIT_OK;
      });
    });
}
