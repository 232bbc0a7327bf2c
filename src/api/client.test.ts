/**
 * The typed calls both clients use: URLs built as the document's paths say, every parameter one
 * encoded segment, and (checked by the type check, `npx tsc`) requests the document does not allow
 * refused at compile time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiPathError, apiUrl, typedCaller, type Schemas } from './client.js';

test('a path is filled from its parameters, each encoded as one segment, with the query after it', () => {
  assert.equal(apiUrl('/clusters/{id}/graphs/{type}', { id: 3, type: 'default' }, { format: 'dot', limit: 2 }), '/api/v1/clusters/3/graphs/default?format=dot&limit=2');
  // A plugin version that looks like a path stays inside its own segment.
  assert.equal(apiUrl('/plugins/{id}', { id: 'x@0/../../clusters/2' }), '/api/v1/plugins/x%400%2F..%2F..%2Fclusters%2F2');
  assert.equal(apiUrl('/nodes', undefined, { unassigned: true, cluster_id: undefined }), '/api/v1/nodes?unassigned=true');
  assert.equal(apiUrl('/templates/find'), '/api/v1/templates/find');
});

test('a parameter that is missing, empty, "." or ".." is refused before anything is sent', () => {
  assert.throws(() => apiUrl('/clusters/{id}', {}), (err: Error) => err instanceof ApiPathError && /no value for \{id\}/.test(err.message));
  assert.throws(() => apiUrl('/plugins/{id}', { id: '' }), ApiPathError);
  for (const id of ['.', '..']) assert.throws(() => apiUrl('/plugins/{id}', { id }), (err: Error) => err instanceof ApiPathError && err.message.includes(`"${id}"`));
});

test('a typed call hands its transport the method, the URL and the body', async () => {
  const sent: unknown[] = [];
  const call = typedCaller(async (method, url, body) => {
    sent.push([method, url, body]);
    return { id: 7 };
  });
  await call('post', '/clusters/{id}/nodes', { params: { id: 7 }, query: { dry_run: true }, body: { assignments: [{ node_id: 1, roles: ['controller'] }] } });
  await call('get', '/releases');
  assert.deepEqual(sent, [
    ['POST', '/api/v1/clusters/7/nodes?dry_run=true', { assignments: [{ node_id: 1, roles: ['controller'] }] }],
    ['GET', '/api/v1/releases', undefined],
  ]);
});

/** Never run: the type check holds these to the document (each expected error must occur). */
export async function typeChecks(call: ReturnType<typeof typedCaller>): Promise<unknown[]> {
  const cluster: Schemas['Cluster'] = await call('get', '/clusters/{id}', { params: { id: 1 } });
  const deleted: undefined = await call('delete', '/nodes/{id}', { params: { id: 1 } });
  const started: Schemas['Deployment'] = await call('post', '/clusters/{id}/deploy', { params: { id: 1 }, body: { dry_run: true } });
  // @ts-expect-error the path has a parameter, so params are required
  await call('get', '/clusters/{id}');
  // @ts-expect-error a body field the route does not take
  await call('post', '/clusters', { body: { nam: 'x', release_id: 'r' } });
  // @ts-expect-error no such path
  await call('get', '/no-such-path');
  // @ts-expect-error the id of an environment is a number
  await call('get', '/clusters/{id}', { params: { id: 'one' } });
  // @ts-expect-error GET /releases answers a list, not one release
  const one: Schemas['Release'] = await call('get', '/releases');
  return [cluster, deleted, started, one];
}
