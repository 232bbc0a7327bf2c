/**
 * People in the web UI (issue 29), end to end: a real `hearth serve` and Chromium. An operator signs
 * in with name and password, sees no admin pages in the navigation and is refused one opened by
 * its address (the API's 403, in words); an admin signs in, creates a user on the Users page, and
 * finds that action, and the operator's sign-in, on the Activity page. Screenshots in test-results/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { needsBrowser } from '../support/browser.js';
import { startUi, type UiSession } from '../support/ui.js';

describe('accounts in the web UI', { skip: needsBrowser.skip, timeout: 300_000 }, () => {
  let ui: UiSession;

  before(async () => {
    ui = await startUi();
    await ui.call('POST', '/users', { name: 'olga', role: 'operator', password: 'olga long password' });
    await ui.call('POST', '/users', { name: 'ada', role: 'admin', password: 'ada long password' });
  });
  after(async () => {
    await ui?.close();
  });

  const signIn = async (name: string, password: string): Promise<Page> => {
    const p = await ui.page('#/sign-in', { token: null });
    await p.fill('#signin-name', name);
    await p.fill('#signin-password', password);
    await p.click('form.signin button[type=submit]');
    await p.locator('.who', { hasText: `${name} (` }).waitFor({ timeout: 30_000 });
    return p;
  };

  test('an operator signs in, sees no admin pages, and is refused one opened by its address', async () => {
    const p = await signIn('olga', 'olga long password');
    assert.equal(await p.locator('.who').innerText().then((t) => t.includes('olga (operator)')), true);
    assert.equal(await p.locator('nav[aria-label=Main] a', { hasText: 'Activity' }).count(), 0, 'no Activity link for an operator');
    assert.equal(await p.locator('nav[aria-label=Main] a', { hasText: 'Users' }).count(), 0, 'no Users link for an operator');
    await p.goto(`${ui.server.url}/#/activity`);
    const refusal = p.locator('[role=alert]', { hasText: 'The Activity page is for admins' });
    await refusal.waitFor({ timeout: 30_000 }).catch(async (err: unknown) => assert.fail(`${String(err)}\n${await ui.explain(p)}`));
    assert.match(await refusal.innerText(), /admin role/, "the API's own words say which role it needs");
    await ui.shot(p, 'accounts-operator-refused');
    // Signing out ends the session: the page offers to sign in again.
    await p.click('.who button:has-text("Sign out")');
    await p.locator('a.who', { hasText: 'Sign in with a name' }).waitFor({ timeout: 30_000 });
    await p.close();
  });

  test('an admin creates a user on the Users page and finds it, and the sign-ins, on the Activity page', async () => {
    const p = await signIn('ada', 'ada long password');
    await p.click('nav[aria-label=Main] a:has-text("Users")');
    await p.fill('#new-user-name', 'tom');
    await p.selectOption('#new-user-role', 'viewer');
    await p.fill('#new-user-password', 'tom long password');
    await p.click('form.new-user button[type=submit]');
    await p.locator('tr[data-user=tom]').waitFor({ timeout: 30_000 }).catch(async (err: unknown) => assert.fail(`${String(err)}\n${await ui.explain(p)}`));
    await ui.shot(p, 'accounts-users');
    await p.click('nav[aria-label=Main] a:has-text("Activity")');
    const created = p.locator('table.activity tr', { hasText: 'user/tom' });
    await created.waitFor({ timeout: 30_000 }).catch(async (err: unknown) => assert.fail(`${String(err)}\n${await ui.explain(p)}`));
    const row = await created.first().innerText();
    assert.match(row, /ada/);
    assert.match(row, /POST \/users/);
    assert.match(row, /done \(201/);
    // The operator's sign-in and her refusal are there too, filtered by who.
    await p.fill('#activity-actor', 'olga');
    await p.click('form.filters button[type=submit]');
    // The page keeps the unfiltered rows until the filtered ones come: wait for ada's to go.
    for (const until = Date.now() + 30_000; (await p.locator('table.activity tbody tr', { hasText: 'ada' }).count()) > 0; ) {
      if (Date.now() > until) assert.fail(`the filter left ada's rows\n${await ui.explain(p)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok((await p.locator('table.activity tbody tr[data-outcome=done]', { hasText: 'POST /session' }).count()) >= 1, "olga's sign-in is recorded");
    await ui.shot(p, 'accounts-activity');
    await p.close();
  });

  test("an admin sets another user's password on the Users page: the old one no longer signs in, the new one does", async () => {
    await ui.call('POST', '/users', { name: 'pia', role: 'viewer', password: 'pia first password' });
    const p = await signIn('ada', 'ada long password');
    await p.click('nav[aria-label=Main] a:has-text("Users")');
    await p.locator('tr[data-user=pia]').waitFor({ timeout: 30_000 });
    await p.selectOption('#password-user', 'pia');
    await p.fill('#password-new', 'pia second password');
    await p.click('form.set-password button[type=submit]');
    await p.locator('[role=status]', { hasText: 'The password of pia is set' }).waitFor({ timeout: 30_000 }).catch(async (err: unknown) => assert.fail(`${String(err)}\n${await ui.explain(p)}`));
    await ui.shot(p, 'accounts-password');
    await p.close();
    const signInAs = (password: string) => fetch(`${ui.server.url}/api/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'pia', password }) });
    assert.equal((await signInAs('pia first password')).status, 401);
    assert.equal((await signInAs('pia second password')).status, 200);
  });
});
