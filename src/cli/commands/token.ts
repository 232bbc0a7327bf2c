/**
 * `hearth token show | reset`: the admin token, offline against the data folder (or DATABASE_URL),
 * for an operator whose first start's output scrolled away. Run while no server uses the embedded
 * folder: a running server keeps its token in memory, so the folder's lock refuses the command
 * rather than let the two disagree.
 *
 * `hearth token create | list | revoke` (issue 29): personal API tokens, on a running server
 * (HEARTH_SERVER, HEARTH_TOKEN); their actions are in ../client/accounts.ts.
 */
import type { Command } from 'commander';
import { EXIT_FINDINGS, EXIT_OK } from '../exit.js';
import { withStore } from './db.js';

interface TokenOptions {
  dataDir?: string;
}

const DATA_DIR = 'the embedded database folder (default: $XDG_DATA_HOME/hearth or ~/.local/share/hearth)';
/** What the token becomes at the next start when the server's environment sets one. */
const ENVIRONMENT_WINS = 'a server started with HEARTH_ADMIN_TOKEN set takes that token instead, and stores it';

/** A folder that is not there is a mistyped --data-dir, not a database to create. */
async function folderThere(options: TokenOptions): Promise<boolean> {
  if (process.env.DATABASE_URL) return true;
  const { existsSync } = await import('node:fs');
  const { defaultDataDir } = await import('../../store/index.js');
  const dir = options.dataDir ?? defaultDataDir();
  if (existsSync(dir)) return true;
  process.stderr.write(`hearth: there is no Hearth data folder at ${dir}\n  hint: give the server's folder with --data-dir (hearth serve prints it as 'storage:'), or set DATABASE_URL for PostgreSQL\n`);
  process.exitCode = EXIT_FINDINGS;
  return false;
}

export function registerToken(program: Command): void {
  const token = program
    .command('token')
    .description('Personal API tokens on a server (create, list, revoke); the admin token, offline against the data folder (show, reset: stop the server first)')
    .addHelpText('after', `\nExamples:\n  HEARTH_TOKEN=$(hearth token create ci --role viewer --expires 30d)\n  hearth token list\n  hearth token revoke ci\n  hearth token show\n  hearth token reset --data-dir /var/lib/hearth\n\nOn PostgreSQL (DATABASE_URL) the admin token is the database's: restart the servers after a reset.\n`);

  const SERVER = 'the Hearth server (default: $HEARTH_SERVER or http://127.0.0.1:8420)';
  const AS = 'the token to ask with: yours, or the admin token (default: $HEARTH_TOKEN)';
  const actions = () => import('../client/accounts.js');
  token
    .command('create')
    .argument('<name>', 'a name to know it by (unique among your tokens)')
    .description('Create a personal API token and print it (this once); it acts with --role, never more than its owner has')
    .option('--role <role>', 'viewer, operator or admin (default: the owner\'s role)')
    .option('--expires <duration>', 'it stops working after this long: 30d, 12h, 90m (default: when revoked)')
    .option('--user <name>', 'an admin: make it for this user (needed with the admin token, which belongs to nobody)')
    .option('--sign-in <name>', 'sign in as this user to make it (asks the password; for a first token, with no HEARTH_TOKEN yet)')
    .option('--password-stdin', 'with --sign-in: read the password from stdin')
    .option('--server <url>', SERVER)
    .option('--token <token>', AS)
    .option('--json', 'print the answer as JSON')
    .action(async (name, o) => (await actions()).tokenCreate(name, o));
  token
    .command('list')
    .description('Your personal tokens (an admin: everyone\'s) with role, expiry and last use; never the tokens themselves')
    .option('--user <name>', 'an admin: only this user\'s')
    .option('--server <url>', SERVER)
    .option('--token <token>', AS)
    .option('--json', 'print the answer as JSON')
    .action(async (o) => (await actions()).tokenList(o));
  token
    .command('revoke')
    .argument('<name>', 'the token\'s name')
    .description('Revoke one of your tokens by name: every server refuses it at once')
    .option('--user <name>', 'an admin: another user\'s token')
    .option('--server <url>', SERVER)
    .option('--token <token>', AS)
    .option('--json', 'print the answer as JSON')
    .action(async (name, o) => (await actions()).tokenRevoke(name, o));

  token
    .command('show')
    .description('Print the admin token stored in the database (the one the server printed at its first start)')
    .option('--data-dir <dir>', DATA_DIR)
    .action(async (options: TokenOptions) => {
      if (!(await folderThere(options))) return;
      await withStore(options, async (db) => {
        const store = await import('../../store/index.js');
        const stored = await store.getMeta<unknown>(db, store.META_ADMIN_TOKEN);
        if (typeof stored !== 'string') {
          process.stderr.write(`hearth: no admin token is stored in ${db.location} yet\n  hint: the first start of hearth serve makes one and prints it\n`);
          process.exitCode = EXIT_FINDINGS;
          return;
        }
        process.stdout.write(`${stored}\n`);
        if (process.env.HEARTH_ADMIN_TOKEN) process.stderr.write(`hearth: note: HEARTH_ADMIN_TOKEN is set here; ${ENVIRONMENT_WINS}\n`);
        process.exitCode = EXIT_OK;
      });
    });

  token
    .command('reset')
    .description('Replace the admin token with a new random one and print it (the old one stops working at the next start)')
    .option('--data-dir <dir>', DATA_DIR)
    .action(async (options: TokenOptions) => {
      if (!(await folderThere(options))) return;
      await withStore(options, async (db) => {
        const store = await import('../../store/index.js');
        const { generateToken } = await import('../../server/auth.js');
        const fresh = generateToken();
        await store.setMeta(db, store.META_ADMIN_TOKEN, fresh);
        process.stdout.write(`${fresh}\n`);
        process.stderr.write(
          `hearth: the admin token in ${db.location} is replaced; the old one no longer works once the server starts\n` +
            `  note: ${ENVIRONMENT_WINS}${process.env.DATABASE_URL ? '; restart every server using this database' : ''}\n`,
        );
        process.exitCode = EXIT_OK;
      });
    });
}
