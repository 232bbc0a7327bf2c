/**
 * `hearth user list | create | set-role | disable | enable | delete | passwd` (issue 29): users on a
 * Hearth server, for an admin (HEARTH_TOKEN: the admin token or an admin's personal token). The
 * actions are in ../client/accounts.ts, loaded when they run.
 */
import type { Command } from 'commander';
import { group } from '../group.js';

const SERVER = 'the Hearth server (default: $HEARTH_SERVER or http://127.0.0.1:8420)';
const TOKEN = 'an admin\'s token: the admin token or an admin\'s personal token (default: $HEARTH_TOKEN)';
const actions = () => import('../client/accounts.js');

export function registerUser(program: Command): void {
  const user = group(program, 'user', 'People who sign in, and their roles (viewer, operator, admin)');
  const common = (cmd: Command) => cmd.option('--server <url>', SERVER).option('--token <token>', TOKEN).option('--json', 'print the answer as JSON');
  common(user.command('list').description('List users with their role and whether they are disabled')).action(async (o) => (await actions()).userList(o));
  common(
    user
      .command('create')
      .argument('<name>', 'the name they sign in with')
      .requiredOption('--role <role>', 'viewer, operator or admin')
      .option('--password-stdin', 'read the password from stdin (scripts) instead of asking on the terminal')
      .description('Create a user; the password is asked on the terminal without echo. The first admin: hearth user create <name> --role admin (with HEARTH_TOKEN set to the admin token)'),
  ).action(async (name, o) => (await actions()).userCreate(name, o));
  common(user.command('set-role').argument('<name>').argument('<role>', 'viewer, operator or admin').description("Change a user's role (their tokens follow: a token never has more than its owner)")).action(async (name, role, o) => (await actions()).userSetRole(name, role, o));
  common(user.command('disable').argument('<name>').description('Disable a user: their sessions end and their tokens are refused, on every server at once')).action(async (name, o) => (await actions()).userDisable(name, o));
  common(user.command('enable').argument('<name>').description('Enable a disabled user again')).action(async (name, o) => (await actions()).userEnable(name, o));
  common(user.command('delete').argument('<name>').description('Delete a user with their tokens and sessions')).action(async (name, o) => (await actions()).userDelete(name, o));
  common(
    user
      .command('passwd')
      .argument('[name]', "the user whose password an admin sets; without it, your own (HEARTH_TOKEN: your personal token)")
      .option('--password-stdin', 'read the new password from stdin instead of asking on the terminal (your own: the current one on the first line, the new one on the second)')
      .description("Set a user's password (asked twice on the terminal without echo); their sessions end. Without a name, change your own, giving the current one; your other sessions end"),
  ).action(async (name, o) => (name === undefined ? (await actions()).ownPasswd(o) : (await actions()).userPasswd(name, o)));
}
