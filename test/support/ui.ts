/**
 * One web UI session for end-to-end tests: a real `hearth serve`, Debian's Chromium, the API
 * called as a script would (to set up what a test does not walk), and screenshots under
 * test-results/. `close` stops both on every path; a failed start stops what did start.
 *
 * Every page it opens is watched: its uncaught errors (`pageerror`) and console errors are kept,
 * and a page that crashes (an uncaught error, or a part of it that failed to draw and says so) is
 * photographed and closed with the reason, so whatever the test was waiting for fails at once
 * with the page's own words instead of a bare timeout.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, resultsDir } from './browser.js';
import { hearthBin, startServer, type RunningServer } from './serve.js';
import { copyWithReleaseFolders } from './plugin-copy.js';
import { tempFolder } from './temp.js';
import { corpusPath } from './corpus.js';
import { CRASH_LOG } from '../../web/src/components/crashLog.js';

/** What a page said went wrong: uncaught errors and console errors, in order, with their time. */
export interface PageTrouble {
  errors: string[];
  console: string[];
}

export interface UiSession {
  server: RunningServer;
  browser: Browser;
  /** The API with the admin token; throws with the answer on a non-2xx status. */
  call: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
  /**
   * A new page, signed in with the server's token unless `token: null`, at `hash` (`#/plugins`).
   * A crash closes it with the reason unless `crashes: 'expected'` (a test of the crash itself);
   * `init` is a script run in the page before its own (Playwright's addInitScript).
   */
  page: (hash?: string, options?: { token?: string | null; crashes?: 'fail' | 'expected'; init?: string }) => Promise<Page>;
  /** What a page opened by `page` said went wrong so far. */
  trouble: (p: Page) => PageTrouble;
  /** For a failure message: the page's address, what its main part shows, and its trouble. */
  explain: (p: Page) => Promise<string>;
  shot: (p: Page, name: string) => Promise<void>;
  close: () => Promise<void>;
}

export async function startUi(options: { args?: string[]; dataDir?: string; env?: Record<string, string> } = {}): Promise<UiSession> {
  const server = await startServer({ ...(options.args ? { args: options.args } : {}), ...(options.dataDir ? { dataDir: options.dataDir } : {}), ...(options.env ? { env: options.env } : {}) });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (err) {
    await server.stop();
    throw err;
  }
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const troubles = new WeakMap<Page, PageTrouble>();
  let crashes = 0;
  const trouble = (p: Page): PageTrouble => troubles.get(p) ?? { errors: [], console: [] };
  const watch = (p: Page, onCrash: 'fail' | 'expected') => {
    const seen: PageTrouble = { errors: [], console: [] };
    troubles.set(p, seen);
    const at = () => new Date().toISOString().slice(11, 23);
    let closing = false;
    const crashed = (what: string) => {
      if (onCrash === 'expected' || closing) return;
      closing = true;
      const shot = join(resultsDir, `ui-crash-${process.pid}-${++crashes}.png`);
      const reason = `the page crashed: ${what}\n${summary(p.url(), seen)}\n(screenshot: ${shot})`;
      void p
        .screenshot({ path: shot, fullPage: true })
        .catch(() => undefined)
        // The page's own context (browser.newPage makes one a page): its reason reaches every wait, a page's does not.
        .then(() => p.context().close({ reason }))
        .catch(() => undefined);
    };
    p.on('pageerror', (err) => {
      seen.errors.push(`${at()} ${err.stack ?? err.message}`);
      crashed(err.message);
    });
    p.on('console', (m) => {
      if (m.type() !== 'error') return;
      const loc = m.location();
      seen.console.push(`${at()} ${m.text()}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
      if (m.text().startsWith(CRASH_LOG)) crashed(m.text());
    });
  };
  const page = async (hash = '#/', { token = server.token, crashes: onCrash = 'fail', init }: { token?: string | null; crashes?: 'fail' | 'expected'; init?: string } = {}) => {
    const p = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    watch(p, onCrash);
    if (init) await p.addInitScript(init);
    // The token as `hearth serve` prints it in the URL; the page keeps it and drops it from the address.
    const first = await p.goto(token ? `${server.url}/#token=${encodeURIComponent(token)}` : `${server.url}/`);
    // The page itself not served (a server in trouble, web/dist being rebuilt meanwhile) is said as such.
    if (first && !first.ok()) throw new Error(`the server answered ${first.status()} for the page itself: ${(await first.text().catch(() => '')).slice(0, 300)}`);
    if (hash !== '#/') await p.goto(`${server.url}/${hash}`);
    return p;
  };
  return {
    server,
    browser,
    call,
    page,
    trouble,
    explain: async (p) => {
      const main = p.isClosed() ? '(the page is closed)' : await p.locator('main').innerText({ timeout: 2000 }).catch((err: Error) => `(unreadable: ${err.message.split('\n')[0]})`);
      return `${summary(p.url(), trouble(p))}\nthe page showed: ${JSON.stringify(main.slice(0, 400))}`;
    },
    shot: async (p, name) => {
      await p.screenshot({ path: join(resultsDir, `ui-${name}.png`), fullPage: true });
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      await server.stop();
    },
  };
}

/** A page's address and trouble, for a failure message. */
function summary(url: string, t: PageTrouble): string {
  const list = (title: string, items: string[]) => (items.length ? `\n${title}:\n  ${items.slice(-10).join('\n  ')}` : '');
  return `at ${url}${list('uncaught errors', t.errors)}${list('console errors', t.console)}` + (t.errors.length + t.console.length === 0 ? ' (no page error or console error)' : '');
}

/**
 * `locator.waitFor`, failing with what the page showed and said (`ui.explain`) and what `about`
 * adds (the header's text, say) instead of a bare timeout.
 */
export async function waitOrSay(ui: UiSession, p: Page, locator: Locator, options: Parameters<Locator['waitFor']>[0] = {}, about?: () => Promise<string>): Promise<void> {
  try {
    await locator.waitFor(options);
  } catch (err) {
    const extra = about && !p.isClosed() ? await about().catch((e: Error) => `(${e.message.split('\n')[0]})`) : '';
    throw new Error(`${(err as Error).message}\n${extra ? `${extra}\n` : ''}${await ui.explain(p)}`, { cause: err });
  }
}

/** The bundled release's id on a server. */
export async function bundledRelease(ui: UiSession): Promise<string> {
  const releases = await ui.call<Array<{ id: string }>>('GET', '/releases');
  return releases[0].id;
}

/** An environment of the bundled release with its default components (and `extra` ones), made through the API. */
export async function makeEnvironment(ui: UiSession, name: string, extra: string[] = []): Promise<{ id: number; name: string }> {
  const release = await bundledRelease(ui);
  const catalog = await ui.call<Array<{ name: string; default?: boolean }>>('GET', `/releases/${encodeURIComponent(release)}/components`);
  const components = [...catalog.filter((c) => c.default).map((c) => c.name), ...extra];
  return ui.call('POST', '/clusters', { name, release_id: release, components });
}

/** A corpus plugin registered from a temporary copy (a folder on the server's disk). */
export async function registerCorpusPlugin(ui: UiSession, name: string): Promise<void> {
  await ui.call('POST', '/plugins/folders', { path: copyWithReleaseFolders(corpusPath('plugins', name)) });
}

/** A corpus plugin built into a package with `hearth plugin build` (no hook: corpus copies hold no scripts). */
export function buildCorpusPackage(name: string): string {
  // The package outlives this call (the caller uploads it): removed when the test process ends (issue 31).
  const out = tempFolder('hearth-pkg-');
  const copies = mkdtempSync(join(tmpdir(), 'hearth-plugin-'));
  try {
    execFileSync(process.execPath, [hearthBin, 'plugin', 'build', copyWithReleaseFolders(corpusPath('plugins', name), copies), '--no-hook', '--out', out], { stdio: 'pipe', timeout: 120_000 });
  } catch (err) {
    // Warnings exit 0; an error is the test's problem to see.
    throw new Error(`hearth plugin build ${name} failed: ${(err as { stderr?: Buffer }).stderr?.toString() ?? err}`);
  } finally {
    rmSync(copies, { recursive: true, force: true });
  }
  const file = readdirSync(out).find((f) => f.endsWith('.tar.gz'));
  if (!file) throw new Error(`hearth plugin build ${name} wrote no package`);
  return join(out, file);
}
