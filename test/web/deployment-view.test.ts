/**
 * The Deploy tab's view of a large run draws a page of it, not all of it: 200 rows of the
 * per-node table and 200 task rows (failures first), each with a button for the rest, so a run
 * of 10,000 nodes is not drawn whole at every look of its live stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, TaskRun } from '../../web/src/deploy/model.js';

// The page, React and react-dom/server are imported by paths tsc does not follow: the root project
// type-checks Node code, and react-dom's types bring the DOM's into every file of it. tsx compiles
// the page's .tsx with React's classic JSX transform (the root tsconfig has no `jsx` setting; web/
// has its own, for Vite), which calls the global React.
const load = (name: string) => import(name);
const React = (await load('react')) as { createElement: (type: unknown, props: unknown) => unknown };
(globalThis as { React?: unknown }).React = React;
const { renderToStaticMarkup } = (await load('react-dom/server')) as { renderToStaticMarkup: (element: unknown) => string };
const { DeploymentView } = (await load(new URL('../../web/src/deploy/DeploymentView.js', import.meta.url).href)) as { DeploymentView: unknown };
const createElement = React.createElement;

function run(nodes: number, perNode: number, failedOn: number): Deployment {
  const tasks: TaskRun[] = [];
  for (let n = 1; n <= nodes; n++) {
    for (let i = 0; i < perNode; i++) tasks.push({ node: String(n), taskId: `task-${i}`, position: tasks.length, status: n === failedOn && i === 0 ? 'error' : 'ready' });
  }
  return { id: 7, cluster_id: 1, status: 'failed', mode: 'real', total: tasks.length, done: tasks.length - 1, started_at: null, finished_at: null, tasks } as unknown as Deployment;
}

const rows = (html: string, attribute: string) => html.match(new RegExp(`<tr[^>]* ${attribute}="`, 'g'))?.length ?? 0;

test('a run of 250 nodes draws 200 nodes and 200 tasks, failures first, each with a button for the rest', () => {
  const html = renderToStaticMarkup(createElement(DeploymentView, { deployment: run(250, 2, 240), nodeName: (id: string) => `node-${id}` }));
  assert.equal(rows(html, 'data-node'), 200, 'the per-node table shows its first 200 nodes');
  assert.match(html, /Show more nodes \(50 more\)/);
  assert.equal(rows(html, 'data-task'), 200, 'the task table shows its first 200 tasks');
  assert.match(html, /Show more tasks \(300 more\)/);
  // The one failure is on node 240, beyond the nodes shown: the task table still puts it first.
  assert.match(html, /<tr data-task="task-0" data-state="error" data-outcome="failed"/);
  assert.ok(html.indexOf('data-outcome="failed"') < html.indexOf('data-outcome="succeeded"'), 'failures first');
  // Every node can still be chosen in the task table's node filter.
  assert.equal(html.match(/<option value="\d+">/g)?.length, 250);
});

test('a small run is drawn whole, with no button', () => {
  const html = renderToStaticMarkup(createElement(DeploymentView, { deployment: run(3, 4, 0), nodeName: (id: string) => `node-${id}` }));
  assert.equal(rows(html, 'data-node'), 3);
  assert.equal(rows(html, 'data-task'), 12);
  assert.doesNotMatch(html, /Show more/);
});
