/**
 * Throughput of the condition languages over the corpus: parsing every restriction/condition and
 * every YAQL expression, and evaluating the YAQL conditions as the graph engine does — the same
 * parsed trees on every node of a 1,000-node cluster. Baseline: parsing the YAQL texts again for
 * each evaluation (what caching parsed trees saves).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '../src/package/yaml/index.js';
import { checkRestrictions, parseExpression } from '../src/core/expressions/index.js';
import { dependsOnNode, evaluateYaql, parseYaql, type YaqlNode } from '../src/core/yaql/index.js';
import { deploymentData } from '../test/differential/deployment-data.js';
import { report, time } from './harness.js';

const corpus = process.env.HEARTH_CORPUS!;
const yaqlTexts = new Set<string>();
const conditions = new Set<string>();
const visit = (v: unknown): void => {
  if (Array.isArray(v)) v.forEach(visit);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'yaql_exp' && typeof x === 'string') yaqlTexts.add(x);
      else if ((k === 'condition' || k === 'restrictions') && typeof x === 'string') conditions.add(x);
      else if (k === 'restrictions' && Array.isArray(x)) x.forEach((r) => (typeof r === 'string' ? conditions.add(r) : r && typeof r === 'object' && typeof (r as { condition?: unknown }).condition === 'string' && conditions.add((r as { condition: string }).condition)));
      visit(x);
    }
  }
};
const walk = (dir: string): void => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.ya?ml$/.test(name)) visit(parseYaml(readFileSync(p, 'utf8'), p).value);
  }
};
walk(join(corpus, 'release'));
walk(join(corpus, 'plugins'));
const yaql = [...yaqlTexts];
const legacy = [...conditions];
const trees = yaql.map((t) => parseYaql(t).ast).filter((a): a is YaqlNode => a !== undefined);
const [controller] = deploymentData();
const nodes = 1_000;
const perNode = trees.filter((t) => dependsOnNode(t));
const clusterWide = trees.filter((t) => !dependsOnNode(t));
const oldState = { ...controller };

const rows = [
  time(`parse ${legacy.length} restriction conditions`, () => legacy.forEach((c) => parseExpression(c)), { runs: 30 }),
  time(`check ${legacy.length} restrictions (parse cached)`, () => checkRestrictions(legacy, { settings: {}, cluster: {}, version: {} }), { runs: 30 }),
  time(`parse + validate ${yaql.length} YAQL expressions`, () => yaql.forEach((t) => parseYaql(t)), { runs: 30 }),
];
const evalAll = time(`evaluate ${trees.length} YAQL × ${nodes} nodes (first deployment)`, () => {
  for (let n = 0; n < nodes; n++) for (const t of trees) evaluateYaql(t, { data: controller });
}, { runs: 5, warmup: 1 });
const evalRedeploy = time(`evaluate ${trees.length} YAQL × ${nodes} nodes (with old state)`, () => {
  for (let n = 0; n < nodes; n++) for (const t of trees) evaluateYaql(t, { data: controller, old: oldState });
}, { runs: 5, warmup: 1 });
const shared = time(`${clusterWide.length} cluster-wide once + ${perNode.length} per node × ${nodes}`, () => {
  for (const t of clusterWide) evaluateYaql(t, { data: controller, old: oldState });
  for (let n = 0; n < nodes; n++) for (const t of perNode) evaluateYaql(t, { data: controller, old: oldState });
}, { runs: 5, warmup: 1 });
const reparse = time(`baseline: re-parse + evaluate ${trees.length} YAQL × 100 nodes`, () => {
  for (let n = 0; n < 100; n++) for (const t of yaql) { const a = parseYaql(t).ast; if (a) evaluateYaql(a, { data: controller, old: oldState }); }
}, { runs: 3, warmup: 1 });
report('Condition languages over the corpus', [
  ...rows,
  evalAll,
  { ...evalRedeploy, baselineMs: evalAll.medianMs },
  { ...shared, baselineMs: evalRedeploy.medianMs, note: 'dependsOnNode split' },
  { ...reparse, note: `x10 for 1,000 nodes ≈ ${(reparse.medianMs * 10).toFixed(0)} ms` },
]);
const evaluations = trees.length * nodes;
console.log(`\nYAQL evaluations per second (with old state): ${Math.round(evaluations / (evalRedeploy.medianMs / 1000)).toLocaleString('en')}`);
