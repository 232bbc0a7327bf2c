/**
 * The Deploy tab's reading of the deployments' live stream (Server-Sent Events): events arrive in
 * network chunks cut anywhere, and an event is handed on only once its blank line has arrived.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEvents } from '../../web/src/deploy/events.js';

const feed = (chunks: string[]) => {
  const seen: Array<[string, string]> = [];
  let rest = '';
  for (const c of chunks) rest = parseEvents(rest + c, (event, data) => seen.push([event, data]));
  return { seen, rest };
};

test('events cut across chunks are handed on whole, in order', () => {
  const text = 'event: task\ndata: {"node":"7","task_id":"prepare","status":"running"}\n\nevent: output\ndata: {"node":"7","task_id":"prepare","chunk":"tick-1\\n"}\n\nevent: end\ndata: {"id":3,"status":"succeeded"}\n\n';
  const whole = feed([text]).seen;
  assert.deepEqual(
    whole.map(([e]) => e),
    ['task', 'output', 'end'],
  );
  assert.deepEqual(JSON.parse(whole[1][1]), { node: '7', task_id: 'prepare', chunk: 'tick-1\n' });
  // Every way of cutting the same text in two gives the same events.
  for (let i = 1; i < text.length; i++) assert.deepEqual(feed([text.slice(0, i), text.slice(i)]).seen, whole, `cut at ${i}`);
});

test('an unfinished event waits; CRLF lines, several data lines and comments are read as the format says', () => {
  const partial = feed(['event: deployment\ndata: {"done":1}\n']);
  assert.deepEqual(partial.seen, []);
  assert.equal(partial.rest, 'event: deployment\ndata: {"done":1}\n');
  assert.deepEqual(feed(['event: task\r\ndata: a\r\ndata: b\r\n\r\n']).seen, [['task', 'a\nb']]);
  assert.deepEqual(feed([': keep-alive\n\ndata: plain\n\n']).seen, [['message', 'plain']], 'a comment alone is no event; an event without a name is a message');
});
