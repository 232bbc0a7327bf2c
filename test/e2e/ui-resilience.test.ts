/**
 * The web UI when things happen out of the expected order or go wrong: an address followed while
 * the page is starting is still the page shown (the cause of ui-live's CI failure: the page stayed
 * on the environments list, so the environment's header never came); a part of the page that
 * fails to draw says what went wrong in its place, with a way to reload, and leaves the rest
 * usable; and a page that crashes makes the UI tests fail at once with its own words. Debian's
 * Chromium against a real `hearth serve`; screenshots in test-results/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { needsBrowser } from '../support/browser.js';
import { makeEnvironment, startUi, type UiSession } from '../support/ui.js';
import { CRASH_LOG } from '../../web/src/components/crashLog.js';

/** The environment's deployments answered in a shape the page does not expect (an object, not a list). */
const DEPLOYMENTS = '**/api/v1/clusters/*/deployments';
const unexpected = { status: 200, contentType: 'application/json', body: JSON.stringify({ unexpected: 'shape' }) };

describe('web UI: out of order and broken', { skip: needsBrowser.skip, timeout: 300_000 }, () => {
  let ui: UiSession;
  let env: { id: number; name: string };
  before(async () => {
    ui = await startUi();
    env = await makeEnvironment(ui, 'sturdy');
  });
  after(async () => {
    await ui?.close();
  });

  test('an address followed while the page starts is the page shown', async () => {
    // On a loaded machine, `goto('/#/env/…')` right after the first page load can land after the
    // app first drew the page and before it listened for address changes. Made certain here: the
    // address moves (and says so) just before the app adds its listener.
    const init = `(() => {
      const add = window.addEventListener;
      let moved = false;
      window.addEventListener = function (type, ...rest) {
        if (type === 'hashchange' && !moved) {
          moved = true;
          history.replaceState(null, '', '#/env/${env.id}/deploy');
          window.dispatchEvent(new HashChangeEvent('hashchange'));
        }
        return add.call(this, type, ...rest);
      };
    })()`;
    const p = await ui.page('#/', { init });
    const header = p.locator('[data-testid="env-status"][data-status="new"]');
    await header.waitFor({ timeout: 20_000 }).catch(async (err: Error) => assert.fail(`${err.message}\n${await ui.explain(p)}`));
    assert.equal(await p.evaluate('location.hash'), `#/env/${env.id}/deploy`);
    await p.locator('.deploy').waitFor();
    await ui.shot(p, 'resilience-1-address-followed');
    await p.close();
  });

  test('a tab that fails to draw says what went wrong, offers a reload, and leaves the page usable', async () => {
    const p = await ui.page(`#/env/${env.id}/nodes`, { crashes: 'expected' });
    await p.locator('[data-testid="env-status"]').waitFor();
    await p.route(DEPLOYMENTS, (route) => (route.request().method() === 'GET' ? route.fulfill(unexpected) : route.continue()));
    await p.click('nav.tabs a:has-text("Deploy")');
    const crashed = p.locator('[data-testid="crashed"]');
    await crashed.waitFor();
    assert.match(await crashed.locator('strong').innerText(), /^Something went wrong in the Deploy tab$/);
    assert.match(await crashed.innerText(), /It could not be shown: .*(map|not a function|iterable)/);
    // Only the tab is gone: the header and the tabs are still there, and another tab works.
    assert.match(await p.locator('[data-testid="env-status"]').innerText(), /New/);
    assert.ok(ui.trouble(p).console.some((m) => m.includes(`${CRASH_LOG}: the Deploy tab: `)), ui.trouble(p).console.join('\n'));
    await ui.shot(p, 'resilience-2-tab-crashed');
    await p.click('nav.tabs a:has-text("Nodes")');
    await p.locator('[data-testid="crashed"]').waitFor({ state: 'detached' });
    await p.locator('nav.tabs a[aria-current="page"]:has-text("Nodes")').waitFor();
    // Back on Deploy with the server answering as it should, Reload brings the tab back.
    await p.click('nav.tabs a:has-text("Deploy")');
    await crashed.waitFor();
    await p.unroute(DEPLOYMENTS);
    await p.evaluate('window.__notReloaded = true');
    await crashed.locator('button:has-text("Reload the page")').click();
    await p.locator('text=No deployment yet.').waitFor();
    assert.equal(await p.evaluate('window.__notReloaded'), undefined, 'the page was reloaded');
    assert.equal(await p.locator('[data-testid="crashed"]').count(), 0);
    await p.close();
  });

  test('the Deploy tab says it is loading until the history is read, never "No deployment yet." before', async () => {
    const p = await ui.page(`#/env/${env.id}/nodes`);
    await p.locator('[data-testid="env-status"]').waitFor();
    // The history's answer held back until the test lets it go.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await p.route(DEPLOYMENTS, async (route) => {
      await held;
      await route.continue();
    });
    await p.click('nav.tabs a:has-text("Deploy")');
    await p.locator('.deploy p[aria-busy="true"]:has-text("Loading")').waitFor({ timeout: 60_000 });
    assert.equal(await p.locator('text=No deployment yet.').count(), 0, 'no claim about the history before it is read');
    release();
    await p.locator('text=No deployment yet.').waitFor({ timeout: 60_000 });
    assert.equal(await p.locator('.deploy p[aria-busy="true"]').count(), 0);
    await p.close();
  });

  test('a page that crashes fails the test at once, with what the page said', async () => {
    // A part that fails to draw: whatever the test waits for fails with the page's words, not a timeout.
    const p = await ui.page(`#/env/${env.id}/nodes`);
    await p.locator('[data-testid="env-status"]').waitFor();
    await p.route(DEPLOYMENTS, (route) => route.fulfill(unexpected));
    const started = Date.now();
    await p.click('nav.tabs a:has-text("Deploy")');
    await assert.rejects(p.locator('text=No deployment yet.').waitFor({ timeout: 60_000 }), (err: Error) => {
      assert.match(err.message, /the page crashed: Hearth UI: a part of the page failed: the Deploy tab: /);
      assert.match(err.message, /console errors:/);
      return true;
    });
    assert.ok(Date.now() - started < 30_000, `failed after ${Date.now() - started} ms, not at once`);

    // An uncaught error (a handler that throws) likewise.
    const q = await ui.page('#/');
    await q.locator('main h1').waitFor();
    await q.evaluate("setTimeout(() => { throw new Error('a handler threw') })");
    await assert.rejects(q.locator('text=never shown').waitFor({ timeout: 60_000 }), /the page crashed: a handler threw[\s\S]*uncaught errors:/);
    assert.equal(ui.trouble(q).errors.length, 1);
  });
});
