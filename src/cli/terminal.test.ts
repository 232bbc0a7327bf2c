import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeForTerminal } from './terminal.js';

test("what the CLI prints: control characters escaped, Hearth's own colours and progress erase kept", () => {
  assert.equal(sanitizeForTerminal('Evil \u001b]0;pwned\u0007\u001b[2J title\n'), 'Evil \\u001b]0;pwned\\u0007\\u001b[2J title\n');
  assert.equal(sanitizeForTerminal('\u001b[31merror\u001b[0m  a\tb\n'), '\u001b[31merror\u001b[0m  a\tb\n');
  assert.equal(sanitizeForTerminal('\r\u001b[2Kbuild: collect files: ok'), '\r\u001b[2Kbuild: collect files: ok');
  assert.equal(sanitizeForTerminal('over\rwrite \u001b[8mhidden \u009b2J \u202eesrever'), 'over\\u000dwrite \\u001b[8mhidden \\u009b2J \\u202eesrever');
  // Inside JSON strings the escapes stay valid JSON and read back as the same text.
  const json = JSON.stringify({ title: 'a\u202eb\u0085c' });
  assert.deepEqual(JSON.parse(sanitizeForTerminal(json)), { title: 'a\u202eb\u0085c' });
});
