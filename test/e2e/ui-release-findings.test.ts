/**
 * Issue 18, class 5 on the Plugins page: what validating a plugin against the installed release
 * it declares finds (`release_findings` of GET /plugins/{id}) is shown on the plugin's card, errors
 * first, each with its severity, code, file:line:column, message and hint. Walked in Debian's
 * Chromium against a real `hearth serve`; the plugin is the validator's hand-made case whose
 * references match nothing in the bundled release (test/validator/fixtures/references-bad).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { needsBrowser } from '../support/browser.js';
import { startUi, type UiSession } from '../support/ui.js';

const fixture = (name: string) => join(import.meta.dirname, '..', 'validator', 'fixtures', name);

interface Check {
  release: string;
  findings: Array<{ code: string; severity: string; file: string; line: number; column: number; message: string; hint?: string }>;
}

describe('web UI: a plugin checked against its release', { skip: needsBrowser.skip, timeout: 300_000 }, () => {
  let ui: UiSession;

  before(async () => {
    ui = await startUi();
    await ui.call('POST', '/plugins/folders', { path: fixture('references-bad') });
  });
  after(async () => {
    await ui?.close();
  });

  test("the plugin's card shows what the release adds: errors first, each with code, place, message and hint", async () => {
    const [check] = (await ui.call<{ release_findings: Check[] }>('GET', '/plugins/references_bad@1.0.0')).release_findings;
    assert.ok(check && check.findings.some((f) => f.severity === 'error'), 'the fixture has release-level errors');
    const p = await ui.page('#/plugins');
    const card = p.locator('article[data-plugin="references_bad"]');
    await card.waitFor();
    const row = card.locator('tr', { has: p.locator('th', { hasText: 'Checked against its releases' }) });
    const summary = row.locator('summary');
    const errors = check.findings.filter((f) => f.severity === 'error').length;
    const warnings = check.findings.length - errors;
    assert.equal(await summary.innerText(), `${check.release}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
    // With errors the list is open at once: an error means the plugin will not deploy with that release.
    const items = row.locator('li[data-severity]');
    await items.first().waitFor();
    const shown = await items.evaluateAll((els) => els.map((el) => ({ severity: el.getAttribute('data-severity'), text: (el as unknown as { innerText: string }).innerText })));
    assert.equal(shown.length, check.findings.length);
    const firstWarning = shown.findIndex((s) => s.severity !== 'error');
    assert.equal(firstWarning, errors, `errors first: ${shown.map((s) => s.severity).join(', ')}`);
    for (const f of check.findings) {
      const item = shown.find((s) => s.text.includes(f.code) && s.text.includes(`${f.file}:${f.line}:${f.column}`));
      assert.ok(item, `${f.code} at ${f.file}:${f.line}:${f.column} in ${JSON.stringify(shown)}`);
      assert.ok(item.text.includes(f.message), `${f.code}: its message`);
      if (f.hint) assert.ok(item.text.includes(`Hint: ${f.hint}`), `${f.code}: its hint`);
      assert.ok(item.text.startsWith(f.severity), `${f.code}: its severity first`);
    }
    const runsNowhere = shown.find((s) => s.text.includes('task/runs-nowhere'));
    assert.match(runsNowhere?.text ?? '', /^error task\/runs-nowhere deployment_tasks\.yaml:29:10 /);
    await row.scrollIntoViewIfNeeded();
    await ui.shot(p, 'plugin-release-findings');
    await p.close();
  });
});
