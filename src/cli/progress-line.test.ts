import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressLine } from './progress-line.js';

/** A stream that keeps what is written; a terminal or not. */
function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, s: { isTTY, write: (t: string) => chunks.push(t) > 0 } as unknown as NodeJS.WriteStream };
}

test("on a terminal each step redraws the line with Hearth's own return-and-erase; the text's own controls are escaped", () => {
  const { chunks, s } = stream(true);
  const line = progressLine(s);
  line.update('step 1');
  line.update('step 2 from a node\r\u001b[2Jcleared');
  line.end();
  assert.deepEqual(chunks, ['\r\u001b[2Kstep 1', '\r\u001b[2Kstep 2 from a node\\u000d\\u001b[2Jcleared', '\n']);
});

test('in a pipe a step is a line, printed once, at most once a second; the latest held-back step ends the log', () => {
  const { chunks, s } = stream(false);
  const line = progressLine(s, { minIntervalMs: 60_000 });
  line.update('a');
  line.update('a');
  line.update('b');
  line.update('c');
  line.end();
  assert.deepEqual(chunks, ['a\n', 'c\n']);
  const fast = stream(false);
  const each = progressLine(fast.s, { minIntervalMs: 0 });
  for (const t of ['1', '1', '2', '3']) each.update(t);
  each.end();
  assert.deepEqual(fast.chunks, ['1\n', '2\n', '3\n']);
});
