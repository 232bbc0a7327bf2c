/**
 * Debian's Chromium driven by playwright-core (no browser download). CI installs it; elsewhere
 * the UI tests skip with a note when it is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const chromiumPath = [process.env.HEARTH_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => Boolean(p && existsSync(p)));

export const needsBrowser = {
  skip: chromiumPath ? false : process.env.CI ? false : 'Chromium not installed: web UI tests skipped (CI installs it)',
};

export const resultsDir = join(process.cwd(), 'test-results');

export async function launchBrowser() {
  if (!chromiumPath) throw new Error('Chromium is required for the web UI tests (apt-get install chromium)');
  const { chromium } = await import('playwright-core');
  mkdirSync(resultsDir, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}
