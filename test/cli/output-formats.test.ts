/**
 * Output formats of list and show commands, as fuelclient prints them (issue 31 item 8), through
 * the built bin against a real `hearth serve`: `-f table|json|yaml|csv|value`, `-c COLUMN`
 * (repeatable), `--json` the same as `-f json`, and a bad format or column refused with exit
 * status 2 naming the valid ones, before the server is asked.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { hearthBin, startServer, type RunningServer } from '../support/serve.js';

const release = fileURLToPath(new URL('../../release', import.meta.url));

describe('hearth list and show commands: -f and -c (the built bin)', { timeout: 240_000 }, () => {
  let server: RunningServer;
  let env: number;
  let nodes: number[];
  const hearth = (...args: string[]) => {
    const r = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const ok = (...args: string[]) => {
    const r = hearth(...args);
    assert.equal(r.code, 0, `hearth ${args.join(' ')}: ${r.err}`);
    return r.out;
  };
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  before(async () => {
    server = await startServer();
    const [r] = await api<Array<{ id: string }>>('GET', '/releases');
    env = (await api<{ id: number }>('POST', '/clusters', { name: 'formats', release_id: r.id })).id;
    nodes = (await api<{ ids: number[] }>('POST', '/nodes', { nodes: [{ name: 'ctl "one"' }, { name: 'cmp-two' }] })).ids;
    await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: nodes[0], roles: ['controller', 'database'] }] });
  });
  after(async () => {
    await server?.stop();
  });

  test('a list in each format: table, json (= --json), yaml, csv with a header, value without one', async () => {
    const table = ok('node', 'list');
    assert.match(table, /^id +name +env +roles +pending roles +status$/m);
    assert.match(table, new RegExp(`^${nodes[1]} +cmp-two +- +- +- +`, 'm'));

    const json = JSON.parse(ok('node', 'list', '-f', 'json'));
    assert.deepEqual(json, JSON.parse(ok('node', 'list', '--json')), '-f json prints what --json prints');
    assert.deepEqual(json, await api('GET', '/nodes'), 'the API objects, whole');
    assert.deepEqual(parse(ok('node', 'list', '-f', 'yaml')), json, 'yaml: the same objects');

    const csv = ok('node', 'list', '-f', 'csv').split('\n');
    assert.equal(csv[0], '"id","name","env","roles","pending_roles","status"');
    assert.ok(csv.includes(`${nodes[0]},"ctl ""one""",${env},"","controller,database","discover"`), csv.join('\n'));

    assert.equal(ok('node', 'list', '-f', 'value', '-c', 'id', '-c', 'name'), `${nodes[0]} ctl "one"\n${nodes[1]} cmp-two\n`);
  });

  test('-c picks columns in the order given, by key or header, in every format', async () => {
    assert.equal(ok('node', 'list', '-f', 'csv', '-c', 'name', '-c', 'Pending roles'), `"name","pending_roles"\n"ctl ""one""","controller,database"\n"cmp-two",""\n`);
    assert.deepEqual(JSON.parse(ok('node', 'list', '-f', 'json', '-c', 'id', '-c', 'pending_roles')), [
      { id: nodes[0], pending_roles: ['controller', 'database'] },
      { id: nodes[1], pending_roles: [] },
    ]);
    assert.deepEqual(parse(ok('env', 'list', '-f', 'yaml', '-c', 'name', '-c', 'id')), [{ name: 'formats', id: env }]);
    const table = ok('env', 'list', '-c', 'name', '-c', 'status').split('\n');
    assert.match(table[0], /^name +status$/);
    assert.match(table[2], /^formats +new$/);
    assert.equal(ok('release', 'list', '-f', 'value', '-c', 'id'), `${(await api<Array<{ id: string }>>('GET', '/releases'))[0].id}\n`);
  });

  test('a show in each format: the description, json (= --json), yaml, csv, one value a line', async () => {
    const id = String(nodes[0]);
    assert.match(ok('node', 'show', id), /^ctl "one" \(node \d+\), simulated, discover$/m);
    const json = JSON.parse(ok('node', 'show', id, '-f', 'json'));
    assert.deepEqual(json, JSON.parse(ok('node', 'show', id, '--json')));
    assert.deepEqual(json, await api('GET', `/nodes/${id}`));
    assert.deepEqual(parse(ok('node', 'show', id, '-f', 'yaml')), json);
    assert.equal(ok('node', 'show', id, '-f', 'value', '-c', 'name', '-c', 'pending_roles', '-c', 'cluster_id'), `ctl "one"\ncontroller,database\n${env}\n`);
    assert.equal(ok('node', 'show', id, '-f', 'csv', '-c', 'id', '-c', 'name'), `"id","name"\n${id},"ctl ""one"""\n`);
    assert.match(ok('env', 'show', 'formats', '-c', 'name', '-c', 'status'), /^field +value\n-+ +-+\nname +formats\nstatus +new\n$/);
    assert.deepEqual(JSON.parse(ok('env', 'show', 'formats', '-f', 'json', '-c', 'name')), { name: 'formats' });
  });

  test('settings, networks, disks and interfaces take -f and -c too: their page by default, their records otherwise', async () => {
    const settings = parse(ok('env', 'settings', 'formats', '-f', 'yaml'));
    assert.deepEqual(settings, await api('GET', `/clusters/${env}/attributes`), 'yaml without -c: the API object, as --json');
    const picked = ok('env', 'settings', 'formats', '-f', 'csv', '-c', 'setting').split('\n');
    assert.equal(picked[0], '"setting"');
    assert.ok(picked.length > 2 && picked.slice(1, -1).every((l) => /^"[^".]+\.[^"]+"$/.test(l)), picked.join('\n'));
    assert.match(ok('env', 'settings', 'formats'), /^plugins:$/m, 'the page people read stays the default');

    const networks = await api<{ networks: Array<{ name: string; cidr: string | null }> }>('GET', `/clusters/${env}/network_configuration`);
    const values = ok('env', 'networks', 'formats', '-f', 'value', '-c', 'network', '-c', 'cidr').trimEnd().split('\n');
    assert.deepEqual(values, networks.networks.map((n) => `${n.name} ${n.cidr ?? ''}`.trimEnd()));
    assert.deepEqual(JSON.parse(ok('env', 'networks', 'formats', '-f', 'json')), networks);
    assert.match(ok('env', 'networks', 'formats'), /^checks: /m);

    const disks = await api<Array<{ name: string }>>('GET', `/nodes/${nodes[0]}/disks`);
    assert.deepEqual(parse(ok('node', 'disks', String(nodes[0]), '-f', 'yaml')), disks);
    assert.equal(ok('node', 'disks', String(nodes[0]), '-f', 'csv').split('\n')[0], '"disk","size","state","volumes","id"');
    const interfaces = await api<Array<{ name: string }>>('GET', `/nodes/${nodes[0]}/interfaces`);
    assert.deepEqual(JSON.parse(ok('node', 'interfaces', String(nodes[0]), '-f', 'json')), interfaces);
    assert.ok(disks.length > 0 && interfaces.length > 0 && networks.networks.length > 0, 'a simulated node has disks and interfaces, the environment networks');
    assert.equal(ok('node', 'interfaces', String(nodes[0]), '-f', 'value', '-c', 'interface'), interfaces.map((i) => `${i.name}\n`).join(''));

    const bad = hearth('node', 'interfaces', String(nodes[0]), '-c', 'colour');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /-c 'colour' is not a column; the columns are interface, mac, state, speed, networks, admin/);
  });

  test('offline release show takes -f and -c too', () => {
    const shown = parse(ok('release', 'show', '--release', release, '-f', 'yaml', '-c', 'release'));
    assert.deepEqual(Object.keys(shown), ['release']);
    assert.equal(shown.release.name, 'hearth-openstack');
  });

  test('an unknown format or column, or --json beside another format: exit 2, naming the valid ones, nothing on stdout', () => {
    const format = hearth('env', 'list', '-f', 'xml');
    assert.equal(format.code, 2);
    assert.equal(format.out, '');
    assert.match(format.err, /-f 'xml' is not an output format; use one of table, json, yaml, csv, value/);

    const column = hearth('node', 'list', '-c', 'mac');
    assert.equal(column.code, 2);
    assert.equal(column.out, '');
    assert.match(column.err, /-c 'mac' is not a column; the columns are id, name, env, roles, pending_roles, status/);

    const field = hearth('env', 'show', 'formats', '-c', 'colour');
    assert.equal(field.code, 2);
    assert.equal(field.out, '');
    assert.match(field.err, /-c 'colour' is not a field; the fields are id, name, /);

    const both = hearth('deployment', 'list', '--json', '-f', 'csv');
    assert.equal(both.code, 2);
    assert.match(both.err, /--json means -f json/);

    const offline = hearth('release', 'show', '--release', release, '-f', 'toml');
    assert.equal(offline.code, 2);
    assert.match(offline.err, /-f 'toml' is not an output format/);

    // Refused before the server is asked: a server that does not answer is not the problem named.
    const unasked = spawnSync(process.execPath, [hearthBin, 'plugin', 'list', '-f', 'xml'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HEARTH_SERVER: 'http://127.0.0.1:9' } });
    assert.equal(unasked.status, 2);
    assert.match(unasked.stderr, /-f 'xml' is not an output format/);
  });
});
