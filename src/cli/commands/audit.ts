/** `hearth audit` (issue 29): who changed what, from where, and how it ended; for admins. */
import type { Command } from 'commander';

const SERVER = 'the Hearth server (default: $HEARTH_SERVER or http://127.0.0.1:8420)';
const TOKEN = "an admin's token: the admin token or an admin's personal token (default: $HEARTH_TOKEN)";

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('The audit log: every change asked of the server and every refusal of one (who, from where, which route, what it acted on, how it ended), oldest first')
    .option('--actor <name>', "only this user's (or admin-token's)")
    .option('--object <kind[/id]>', 'only what acted on this: environment, node, plugin, release, user, token or deployment, optionally /id (environment/3)')
    .option('--since <when>', 'from this time (ISO 8601) or this long ago (30m, 12h, 7d)')
    .option('--limit <n>', 'the newest this many, at most 1000 (default: 50)')
    .option('--follow', 'keep printing new entries as they come (every 2 s; with --json one JSON object a line)')
    .option('--server <url>', SERVER)
    .option('--token <token>', TOKEN)
    .option('--json', 'print the entries as JSON')
    .action(async (o) => (await import('../client/audit.js')).audit(o));
}
