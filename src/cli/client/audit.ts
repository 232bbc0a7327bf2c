/**
 * `hearth audit` (issue 29): the audit log, newest last as a terminal reads it; `--follow` polls
 * for entries after the newest shown (the log has no event stream; a poll every 2 s is light: one
 * indexed page read).
 */
import { escapeControls } from '../../core/text/controls.js';
import { run, type Client, type ServerOptions } from './http.js';
import type { AnswerOf } from '../../api/client.js';

type Entry = AnswerOf<'/audit', 'get'>[number];

export interface AuditOptions extends ServerOptions {
  actor?: string;
  object?: string;
  since?: string;
  limit?: string;
  follow?: boolean;
}

const who = (e: Entry) => `${e.actor ?? '(nobody)'}${e.token_name ? ` [token ${e.token_name}]` : e.via === 'session' || e.via === 'none' || e.via === 'admin-token' ? '' : ` [${e.via}]`}`;
const line = (e: Entry) =>
  `${e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}  ${who(e)}  ${e.method} ${e.route}${e.object ? `  ${e.object}` : ''}  ${e.outcome} ${e.status}${e.code ? ` ${e.code}` : ''}${e.deployment_id !== undefined ? `  deployment ${e.deployment_id}` : ''}  from ${e.address ?? '?'}\n`;

async function page(c: Client, o: AuditOptions, limit: number): Promise<Entry[]> {
  const query: { limit: number; actor?: string; object?: string; since?: string } = { limit };
  if (o.actor !== undefined) query.actor = o.actor;
  if (o.object !== undefined) query.object = o.object;
  if (o.since !== undefined) query.since = o.since;
  return c.call('get', '/audit', { query });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const audit = (o: AuditOptions) =>
  run(o, async (c) => {
    const limit = Math.min(1000, Math.max(1, Number(o.limit ?? 50) || 50));
    const entries = (await page(c, o, limit)).reverse();
    const write = (e: Entry) => process.stdout.write(o.json ? `${JSON.stringify(e)}\n` : escapeControls(line(e)));
    if (o.json && !o.follow) {
      process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      return;
    }
    if (!entries.length && !o.follow) process.stdout.write('no entries\n');
    for (const e of entries) write(e);
    if (!o.follow) return;
    // Followed as JSON, one entry a line (JSON Lines), so a script reads each as it comes.
    let newest = entries.length ? entries[entries.length - 1].id : 0;
    for (;;) {
      await sleep(2000);
      const fresh = (await page(c, o, 1000)).filter((e) => e.id > newest).reverse();
      for (const e of fresh) write(e);
      if (fresh.length) newest = fresh[fresh.length - 1].id;
    }
  });
