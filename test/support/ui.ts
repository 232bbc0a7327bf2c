/**
 * One web UI session for end-to-end tests: a real `hearth serve`, Debian's Chromium, the API
 * called as a script would (to set up what a test does not walk), and screenshots under
 * test-results/. `close` stops both on every path; a failed start stops what did start.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, resultsDir } from './browser.js';
import { hearthBin, startServer, type RunningServer } from './serve.js';
import { copyWithReleaseFolders } from './plugin-copy.js';
import { corpusPath } from './corpus.js';

export interface UiSession {
  server: RunningServer;
  browser: Browser;
  /** The API with the admin token; throws with the answer on a non-2xx status. */
  call: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
  /** A new page, signed in with the server's token unless `token: null`, at `hash` (`#/plugins`). */
  page: (hash?: string, options?: { token?: string | null }) => Promise<Page>;
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
  const page = async (hash = '#/', { token = server.token }: { token?: string | null } = {}) => {
    const p = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    // The token as `hearth serve` prints it in the URL; the page keeps it and drops it from the address.
    await p.goto(token ? `${server.url}/#token=${encodeURIComponent(token)}` : `${server.url}/`);
    if (hash !== '#/') await p.goto(`${server.url}/${hash}`);
    return p;
  };
  return {
    server,
    browser,
    call,
    page,
    shot: async (p, name) => {
      await p.screenshot({ path: join(resultsDir, `ui-${name}.png`), fullPage: true });
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      await server.stop();
    },
  };
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
  const out = mkdtempSync(join(tmpdir(), 'hearth-pkg-'));
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
