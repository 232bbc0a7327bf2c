/**
 * Settings changes are checked against their definitions (issue 20 item 11): a radio takes one of
 * its options, a text its `regex`, a number its bounds; a section's metadata sent back unchanged
 * is ignored (issue 16: the web UI sends whole sections), and every refusal names its setting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySettingsChanges } from '../../src/server/domain/settings.js';

const editable = () => ({
  syslog: {
    metadata: { label: 'Syslog', weight: 50, toggleable: true, enabled: false },
    syslog_server: { type: 'text', value: '', label: 'Hostname', regex: { source: '^[a-z0-9.-]*$', error: 'Invalid hostname' } },
    syslog_port: { type: 'text', value: '514', label: 'Port', regex: { source: '^([1-9][0-9]{0,4})$', error: 'Invalid syslog port' } },
    syslog_transport: { type: 'radio', value: 'tcp', label: 'Transport', values: [{ data: 'udp', label: 'UDP' }, { data: 'tcp', label: 'TCP' }] },
    ntp: { type: 'text_list', value: ['pool.ntp.org'], label: 'NTP servers', regex: { source: '^[a-z0-9.-]+$', error: 'Invalid NTP server' } },
    workers: { type: 'number', value: 4, label: 'Workers', min: 1, max: 64 },
  },
  murano: { metadata: { class: 'plugin', label: 'Murano', enabled: true, plugin_version: '1.2.0' }, repo: { type: 'text', value: 'x', label: 'Repo' } },
});

test('a value against its regex, outside its radio options or bounds is refused, with the setting named', () => {
  const change = applySettingsChanges(editable(), {
    syslog: { syslog_port: { value: '-1; rm -rf /' }, syslog_transport: { value: 'carrier-pigeon' }, ntp: { value: ['ok.example', 'bad one'] }, workers: { value: 65 } },
  });
  const byPath = Object.fromEntries(change.findings.map((f) => [f.setting, f.message]));
  assert.equal(byPath['syslog.syslog_port'], 'Port: Invalid syslog port.');
  assert.match(byPath['syslog.syslog_transport'], /'carrier-pigeon' is not one of the choices \(UDP, TCP\)/);
  assert.equal(byPath['syslog.ntp'], 'NTP servers: Invalid NTP server.');
  assert.equal(byPath['syslog.workers'], 'Workers: The largest value is 64.');
  assert.deepEqual(change.changed, []);
  assert.equal(((change.editable.syslog as Record<string, { value: unknown }>).syslog_port.value), '514', 'nothing refused is stored');
});

test('values that fit are stored', () => {
  const change = applySettingsChanges(editable(), { syslog: { syslog_port: { value: '6514' }, syslog_transport: { value: 'udp' }, ntp: { value: [] }, workers: 8 } });
  assert.deepEqual(change.findings, []);
  assert.deepEqual(change.changed.sort(), ['syslog.ntp', 'syslog.syslog_port', 'syslog.syslog_transport', 'syslog.workers']);
});

test('metadata sent back unchanged is ignored; a toggleable section switches; a plugin section is enabled elsewhere', () => {
  const tree = editable();
  const whole = structuredClone(tree);
  (whole.syslog.syslog_server as { value: string }).value = 'logs.example';
  assert.deepEqual(applySettingsChanges(tree, whole).findings, [], 'every section sent back whole, one value changed');
  const toggled = applySettingsChanges(tree, { syslog: { metadata: { ...tree.syslog.metadata, enabled: true } } });
  assert.deepEqual(toggled.findings, []);
  assert.equal(((toggled.editable.syslog as Record<string, { enabled?: unknown }>).metadata.enabled), true);
  const plugin = applySettingsChanges(tree, { murano: { metadata: { ...tree.murano.metadata, enabled: false } } });
  assert.equal(plugin.findings[0]?.code, 'settings/metadata-read-only');
  assert.equal(plugin.findings[0]?.setting, 'murano');
  assert.match(plugin.findings[0]?.hint ?? '', /plugins/);
});

test('a pattern that could backtrack exponentially is not run, and a huge value is refused unread', () => {
  const tree = editable();
  (tree.syslog.syslog_server as { regex: { source: string } }).regex.source = '^(a+)+$';
  const slow = applySettingsChanges(tree, { syslog: { syslog_server: 'a'.repeat(40) + '!' } });
  assert.deepEqual(slow.findings, []);
  const huge = applySettingsChanges(editable(), { syslog: { syslog_server: 'a'.repeat(20_000) } });
  assert.match(huge.findings[0]?.message ?? '', /at most 16384 characters/);
});
