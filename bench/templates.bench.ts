/**
 * `template find -r` over the corpus Heat trees, against the baseline of reading and parsing every
 * `*.yaml` file of the same tree (what a naive find would have to do). Targets: under 300 ms, and
 * within 2x of the baseline. find parses only files whose text could hold a `capabilities` key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { report, summarise, time } from './harness.js';
import { findTemplates, resolveEnvironments } from '../src/package/templates/index.js';
import { parseYaml } from '../src/package/yaml/index.js';

const corpus = process.env.HEARTH_CORPUS as string;
const heat = join(corpus, 'heat');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? yamlFiles(path) : e.name.endsWith('.yaml') ? [path] : [];
  });
}

/** Baseline and find timed alternately, so that a busy machine slows both alike and the ratio holds. */
function interleaved(label: string, files: string[], root: string, runs: number) {
  const parse = () => {
    for (const file of files) parseYaml(readFileSync(file, 'utf8'), file);
  };
  const find = () => findTemplates([root], { resource_type: 'OS::TripleO::Services::MySQL' }, { recursive: true });
  parse();
  find();
  const parseSamples: number[] = [];
  const findSamples: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    parse();
    parseSamples.push(performance.now() - t0);
    t0 = performance.now();
    find();
    findSamples.push(performance.now() - t0);
  }
  return [summarise(`read+parse ${files.length} files: ${label}`, parseSamples), summarise(`find -r: ${label}`, findSamples)] as const;
}

const rows = [];
for (const [label, root] of [
  ['wallaby/tree (plain THT files)', join(heat, 'wallaby', 'tree')],
  ['wallaby/annotated (51 templates with capabilities)', join(heat, 'wallaby', 'annotated')],
  ['heat/ (tree + annotated)', heat],
] as const) {
  const files = yamlFiles(root);
  const found = findTemplates([root], {}, { recursive: true }).templates.length;
  const [baseline, find] = interleaved(label, files, root, 7);
  rows.push(baseline, { ...find, targetMs: 300, baselineMs: baseline.medianMs, note: `${found} templates with capabilities; ratio find/baseline ${(find.medianMs / baseline.medianMs).toFixed(2)}` });
}
const wallaby = join(heat, 'wallaby');
const env = join(wallaby, 'cases', 'resolve-real-env-environments-docker-ha', 'env.yaml');
rows.push(time('resolve: docker-ha real environment (7 lists, nested walk)', () => resolveEnvironments([env], { root: join(wallaby, 'annotated') }), { runs: 10, warmup: 2 }));
report('Heat template capabilities', rows);
