/**
 * Hostile requests to a real `hearth serve`: methods it does not know, bodies too big or of the
 * wrong type, ids that do not exist, tokens that are wrong, and bodies that try to pollute.
 * Each must get a 4xx with the one error shape, quickly, and change nothing stored.
 */
import { gzipSync } from 'node:zlib';

export interface ApiRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** false: send no Authorization header; a string: send it as is. Default: the right token. */
  auth?: false | string;
}

export interface ApiCase {
  name: string;
  request: ApiRequest | ((ids: KnownIds) => ApiRequest);
  /** The HTTP status expected. */
  status: number;
  /** The error code expected: the body's `code`, or one of its `details.findings`. */
  code?: string;
}

/** Ids that exist on the server under test, for cases that need a real one beside a bad one. */
export interface KnownIds {
  release: string;
  cluster: number;
  node: number;
}

const json = (method: string, path: string, body: unknown, extra: Partial<ApiRequest> = {}): ApiRequest => ({
  method,
  path,
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
  ...extra,
});

const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

export const apiCases: ApiCase[] = [
  { name: 'an unknown HTTP method (PROPFIND)', request: { method: 'PROPFIND', path: '/api/v1/clusters' }, status: 404 },
  { name: 'a method the route lacks (PUT /releases)', request: json('PUT', '/api/v1/releases', {}), status: 404 },
  { name: 'a 2 MB JSON body', request: json('POST', '/api/v1/clusters', { name: 'x'.repeat(2 * 1024 * 1024), release_id: 'r', components: [] }), status: 413 },
  { name: 'a body sent as text/plain', request: { method: 'POST', path: '/api/v1/clusters', headers: { 'content-type': 'text/plain' }, body: 'name=x' }, status: 400, code: 'request/invalid' },
  { name: 'a body sent as multipart/form-data', request: { method: 'POST', path: '/api/v1/clusters', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' }, status: 415 },
  { name: 'malformed JSON', request: json('POST', '/api/v1/clusters', '{"name": "x",'), status: 400 },
  { name: 'JSON nested 10,000 deep', request: (ids) => json('PUT', `/api/v1/clusters/${ids.cluster}/attributes`, `{"editable":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}`), status: 400 },
  { name: 'a __proto__ key in the body', request: json('POST', '/api/v1/clusters', '{"name":"p","release_id":"x","components":[],"__proto__":{"polluted":true}}'), status: 400 },
  { name: 'a constructor.prototype key in the body', request: json('POST', '/api/v1/clusters', '{"name":"p","release_id":"x","components":[],"constructor":{"prototype":{"polluted":true}}}'), status: 400 },
  { name: 'a cluster name that is a number', request: (ids) => json('POST', '/api/v1/clusters', { name: 12345, release_id: ids.release, components: BASE }), status: 400 },
  { name: 'components given as one string', request: (ids) => json('POST', '/api/v1/clusters', { name: 'str', release_id: ids.release, components: BASE.join(',') }), status: 400 },
  { name: 'an environment with incompatible wildcards and unknown components', request: (ids) => json('POST', '/api/v1/clusters', { name: 'w', release_id: ids.release, components: ['hypervisor:*', '__proto__', 'constructor'] }), status: 400 },
  { name: 'a cluster id that does not exist', request: { method: 'GET', path: '/api/v1/clusters/999999' }, status: 404 },
  { name: 'a cluster id that is not a number', request: { method: 'GET', path: '/api/v1/clusters/abc' }, status: 400 },
  { name: 'a cluster id past 2^63', request: { method: 'GET', path: '/api/v1/clusters/99999999999999999999999' }, status: 400 },
  { name: 'a release id with ../ encoded', request: { method: 'GET', path: '/api/v1/releases/..%2F..%2Fetc%2Fpasswd' }, status: 404 },
  { name: 'a plugin id of 300 characters', request: { method: 'GET', path: `/api/v1/plugins/${'p'.repeat(300)}` }, status: 414 },
  { name: 'deploying an environment that does not exist', request: json('POST', '/api/v1/clusters/424242/deploy', {}), status: 404 },
  { name: 'assigning the role __proto__', request: (ids) => json('POST', `/api/v1/clusters/${ids.cluster}/nodes`, { assignments: [{ node_id: ids.node, roles: ['__proto__'] }] }), status: 400, code: 'role/unknown' },
  { name: 'assigning a role to a node that does not exist', request: (ids) => json('POST', `/api/v1/clusters/${ids.cluster}/nodes`, { assignments: [{ node_id: 987654, roles: ['controller'] }] }), status: 404 },
  { name: 'a change with no token', request: json('POST', '/api/v1/nodes', { simulate: { count: 1 } }, { auth: false }), status: 401, code: 'auth/missing-token' },
  { name: 'a change with a wrong token', request: json('POST', '/api/v1/nodes', { simulate: { count: 1 } }, { auth: 'Bearer not-the-token-at-all-000000' }), status: 401, code: 'auth/bad-token' },
  { name: 'a change with an empty bearer token', request: json('POST', '/api/v1/nodes', { simulate: { count: 1 } }, { auth: 'Bearer ' }), status: 401 },
  { name: 'a change with a 100 KB token (refused unread)', request: json('POST', '/api/v1/nodes', { simulate: { count: 1 } }, { auth: `Bearer ${'t'.repeat(100_000)}` }), status: 431 },
  { name: 'a change with a 600-character token', request: json('POST', '/api/v1/nodes', { simulate: { count: 1 } }, { auth: `Bearer ${'t'.repeat(600)}` }), status: 401, code: 'auth/bad-token' },
  { name: 'a change with a Basic scheme', request: json('POST', '/api/v1/nodes', { simulate: { count: 1 } }, { auth: 'Basic YWRtaW46YWRtaW4=' }), status: 401, code: 'auth/bad-scheme' },
  { name: 'a change with no token through /%61pi/ (the router decodes it to /api/)', request: json('POST', '/%61pi/v1/nodes', { simulate: { count: 1 } }, { auth: false }), status: 401, code: 'auth/missing-token' },
  { name: 'deleting an environment with no token through /%61pi/ and a trailing slash', request: (ids) => ({ method: 'DELETE', path: `/%61pi/v1/clusters/${ids.cluster}/`, auth: false }), status: 401, code: 'auth/missing-token' },
  { name: 'a change with no token through /api/v1/nodes/ (trailing slash)', request: json('POST', '/api/v1/nodes/', { simulate: { count: 1 } }, { auth: false }), status: 401, code: 'auth/missing-token' },
  { name: 'a change with no token through /%41PI/ (no such route)', request: json('POST', '/%41PI/v1/nodes', { simulate: { count: 1 } }, { auth: false }), status: 404, code: 'request/no-such-route' },
  { name: 'a change with no token through //api/ (no such route)', request: json('POST', '//api/v1/nodes', { simulate: { count: 1 } }, { auth: false }), status: 404, code: 'request/no-such-route' },
  { name: 'a change with no token through /api//v1/ (no such route)', request: json('POST', '/api//v1/nodes', { simulate: { count: 1 } }, { auth: false }), status: 404, code: 'request/no-such-route' },
  { name: 'a change with no token through %2f for slashes', request: json('POST', '/api%2fv1%2fnodes', { simulate: { count: 1 } }, { auth: false }), status: 404, code: 'request/no-such-route' },
  { name: 'a change with the token in the query string only', request: json('POST', '/api/v1/nodes?token=whatever-it-is', { simulate: { count: 1 } }, { auth: false }), status: 400, code: 'auth/token-in-query' },
  { name: 'a path that is not valid percent-encoding (%zz)', request: { method: 'GET', path: '/api/v1/clusters/%zz' }, status: 400, code: 'request/bad-url' },
  { name: 'a change whose path breaks off inside a %-escape, with no token', request: json('POST', '/api/v1/nodes%E0%A4%A', { simulate: { count: 1 } }, { auth: false }), status: 400, code: 'request/bad-url' },
  { name: 'registering a plugin folder by a relative path', request: json('POST', '/api/v1/plugins/folders', { path: '../../etc' }), status: 400, code: 'plugin/relative-path' },
  { name: 'registering /etc as a plugin folder', request: json('POST', '/api/v1/plugins/folders', { path: '/etc' }), status: 400 },
  { name: 'installing a package that is a gzip bomb', request: { method: 'POST', path: '/api/v1/plugins', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.concat(Array(4).fill(gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }))) }, status: 400, code: 'package/too-large' },
  { name: 'installing a package that is not gzip', request: { method: 'POST', path: '/api/v1/plugins', headers: { 'content-type': 'application/octet-stream' }, body: 'name: evil\n' }, status: 400, code: 'package/not-gzip' },
  { name: 'installing an empty package', request: { method: 'POST', path: '/api/v1/plugins', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(0) }, status: 400 },
  { name: 'simulating a billion nodes', request: json('POST', '/api/v1/nodes', { simulate: { count: 1_000_000_000 } }), status: 400 },
  { name: 'a wizard state for 700 unknown components (answered, each named)', request: (ids) => ({ method: 'GET', path: `/api/v1/releases/${ids.release}/components/state?select=${Array.from({ length: 700 }, (_, i) => `network:x${i}`).join(',')}` }), status: 200, code: 'component/unknown' },
  // Real nodes (issue 17): values that could reach ssh's command line or a remote shell are refused by the schema.
  { name: 'a node address that is an ssh option', request: json('POST', '/api/v1/nodes', { address: '-oProxyCommand=touch /tmp/pwned' }), status: 400, code: 'request/invalid' },
  { name: 'a node address with a command substitution', request: json('POST', '/api/v1/nodes', { address: '$(touch /tmp/pwned)' }), status: 400, code: 'request/invalid' },
  { name: 'an ssh user with a space and an option', request: json('POST', '/api/v1/nodes', { address: '10.77.0.250', ssh_user: 'root -oProxyCommand=x' }), status: 400, code: 'request/invalid' },
  { name: 'an ssh port of 0', request: json('POST', '/api/v1/nodes', { address: '10.77.0.250', ssh_port: 0 }), status: 400, code: 'request/invalid' },
  { name: 'an address and simulated nodes together', request: json('POST', '/api/v1/nodes', { address: '10.77.0.250', simulate: { count: 1 } }), status: 400, code: 'request/invalid' },
  { name: 'refreshing a simulated node', request: (ids) => json('POST', `/api/v1/nodes/${ids.node}/refresh`, {}), status: 409, code: 'node/simulated' },
  { name: 'accepting a host key that is not a fingerprint', request: (ids) => json('POST', `/api/v1/nodes/${ids.node}/refresh`, { accept_host_key: "SHA256:'; reboot; '" }), status: 400, code: 'request/invalid' },
  { name: 'a deployment with max_parallel 0', request: (ids) => json('POST', `/api/v1/clusters/${ids.cluster}/deploy`, { max_parallel: 0 }), status: 400, code: 'request/invalid' },
  { name: 'resuming a dry run', request: (ids) => json('POST', `/api/v1/clusters/${ids.cluster}/deploy`, { resume: true, dry_run: true }), status: 400, code: 'request/invalid' },
  { name: 'deployment tasks with an unknown status', request: { method: 'GET', path: '/api/v1/deployments/1/tasks?status=pwned' }, status: 400, code: 'request/invalid' },
  { name: 'stopping an environment that is not deploying', request: (ids) => json('POST', `/api/v1/clusters/${ids.cluster}/stop`, {}), status: 409, code: 'deployment/not-running' },
  // Issue 24, item 14: NUL bytes and lone surrogates, at each entry point (every route: bad-characters.test.ts).
  { name: 'a NUL in a release id', request: { method: 'GET', path: '/api/v1/releases/a%00b' }, status: 400, code: 'request/bad-characters' },
  { name: 'a NUL in a plugin id to uninstall', request: { method: 'DELETE', path: '/api/v1/plugins/x%00' }, status: 400, code: 'request/bad-characters' },
  { name: 'a NUL in a query parameter', request: { method: 'GET', path: '/api/v1/plugins?name=%00' }, status: 400, code: 'request/bad-characters' },
  { name: 'a NUL in a paging marker', request: { method: 'GET', path: '/api/v1/nodes?limit=1&marker=%00' }, status: 400, code: 'request/bad-characters' },
  { name: 'a lone surrogate in a JSON body', request: json('POST', '/api/v1/clusters', '{"name":"\\ud800","release_id":"x","components":[]}'), status: 400, code: 'request/bad-characters' },
  { name: 'a NUL in a JSON key, tokenless template route', request: json('POST', '/api/v1/templates/find', '{"files":{"a\\u0000":"x"}}', { auth: false }), status: 400, code: 'request/bad-characters' },
  // Item 15: every spelling of a token in the query is refused (and masked in the log: token-query.test.ts).
  { name: 'a token in the query as %74oken', request: { method: 'GET', path: '/api/v1/clusters?%74oken=hearth_x' }, status: 400, code: 'auth/token-in-query' },
  { name: 'a token in the query as access%5Ftoken', request: { method: 'GET', path: '/api/v1/clusters?access%5Ftoken=hearth_x' }, status: 400, code: 'auth/token-in-query' },
  { name: 'a token in the query as token[]', request: { method: 'GET', path: '/api/v1/clusters?token[]=hearth_x' }, status: 400, code: 'auth/token-in-query' },
  { name: 'a token in the query as X-Auth-Token', request: { method: 'GET', path: '/api/v1/clusters?X-Auth-Token=hearth_x' }, status: 400, code: 'auth/token-in-query' },
];
