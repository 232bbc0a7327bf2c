/**
 * Every YAML example in docs/plugin-guide.md is a fenced block marked `yaml file=<path>`, with
 * `example=<group>` and `package=<version>` or `release=true`. Each group is written into a fresh
 * skeleton and must validate with no errors and no warnings.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Finding } from '../../src/core/findings.js';
import { createPlugin } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { tempDir } from './support.js';

const guide = readFileSync(new URL('../../docs/plugin-guide.md', import.meta.url), 'utf8');
const work = tempDir();
after(() => work.remove());

interface Block {
  attrs: Record<string, string>;
  text: string;
  line: number;
}

export function yamlBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `unclosed code block at line ${i + 1}`);
    if (open[1] === 'yaml' || open[1] === 'yml') {
      const attrs = Object.fromEntries(open[2].split(/\s+/).filter(Boolean).map((kv) => kv.split('=') as [string, string]));
      blocks.push({ attrs, text: `${lines.slice(i + 1, end).join('\n')}\n`, line: i + 1 });
    }
    i = end;
  }
  return blocks;
}

const blocks = yamlBlocks(guide);

test('every YAML block in the guide is marked with a file and an example group', () => {
  assert.ok(blocks.length >= 15, `only ${blocks.length} YAML examples`);
  for (const b of blocks) assert.ok(b.attrs.file && b.attrs.example, `docs/plugin-guide.md:${b.line}: mark the block with file= and example=`);
});

const groups = new Map<string, Block[]>();
for (const b of blocks) groups.set(b.attrs.example, [...(groups.get(b.attrs.example) ?? []), b]);

const show = (fs: readonly Finding[]): string => fs.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.code}: ${f.message}`).join('\n');

for (const [name, members] of groups) {
  test(`guide example "${name}" validates cleanly in a fresh skeleton`, () => {
    const release = members.some((b) => b.attrs.release === 'true');
    const packageVersion = members.find((b) => b.attrs.package)?.attrs.package ?? '5.0.0';
    const parent = join(work.path, name);
    mkdirSync(parent);
    const created = createPlugin('example', { parentDir: parent, packageVersion, releasePlugin: release });
    assert.ok(created.ok, show(created.findings));
    for (const b of members) {
      const target = join(created.dir!, b.attrs.file);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, b.text);
    }
    const result = validatePlugin(created.dir!);
    const relevant = result.findings.filter((f) => f.severity !== 'info');
    assert.equal(show(relevant), '', `docs/plugin-guide.md lines ${members.map((b) => b.line).join(', ')}`);
    assert.equal(result.valid, true);
  });
}
