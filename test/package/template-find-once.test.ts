/**
 * `template find -r` tells each finding once (issue 28, item 19): a template named on its own and
 * inside a folder also named, or reached through a link, was read, and its warnings told, once
 * per way it was reached. Real TripleO templates from the corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTemplates } from '../../src/package/templates/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';

const key = (f: { code: string; file?: string; line?: number; column?: number; message: string }) => `${f.file}:${f.line}:${f.column} ${f.code} ${f.message}`;

test('a template reached twice is read once: one warning for one place', needsCorpus, () => {
  const folder = corpusPath('heat', 'wallaby', 'annotated', 'deployment', 'haproxy');
  const file = join(folder, 'haproxy-container-puppet.yaml');
  const r = findTemplates([file, folder], {}, { recursive: true });
  const duplicates = r.findings.filter((f) => f.code === 'yaml/duplicate-key' && f.message.includes("'register'"));
  assert.equal(duplicates.length, 1, r.findings.map(key).join('\n'));
  assert.equal(new Set(r.findings.map(key)).size, r.findings.length, 'no finding told twice');
  assert.equal(r.templates.filter((t) => t.endsWith('haproxy-container-puppet.yaml')).length, 1);
});

test('a template reached through a link inside the folder is read once too', needsCorpus, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-find-once-'));
  try {
    const file = corpusPath('heat', 'wallaby', 'annotated', 'deployment', 'haproxy', 'haproxy-container-puppet.yaml');
    copyFileSync(file, join(dir, 'a.yaml'));
    symlinkSync(join(dir, 'a.yaml'), join(dir, 'b.yaml'));
    const r = findTemplates([dir], {}, { recursive: true });
    assert.equal(r.findings.filter((f) => f.code === 'yaml/duplicate-key').length, 1, r.findings.map(key).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
