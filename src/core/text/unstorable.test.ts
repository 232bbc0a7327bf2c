import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findUnstorable, holdsUnstorable, storableText, storableValue, unstorableCharacter } from './unstorable.js';

test('NUL and lone surrogates are named; paired surrogates (emoji) and other text are fine', () => {
  assert.equal(unstorableCharacter('a\u0000b'), 'a NUL byte');
  assert.equal(unstorableCharacter('a\ud800b'), 'a lone UTF-16 surrogate');
  assert.equal(unstorableCharacter('\udc00'), 'a lone UTF-16 surrogate');
  assert.equal(unstorableCharacter('x\ud83d'), 'a lone UTF-16 surrogate');
  assert.equal(unstorableCharacter('fire 🔥, naïve, 日本'), undefined);
  assert.equal(unstorableCharacter('\u0001\u001b[31m'), undefined, 'other controls are a matter for the terminal, not storage');
});

test('the first bad place in a body is named by its JSON Pointer, keys included', () => {
  assert.deepEqual(findUnstorable({ name: 'ok', tags: ['a', 'b\u0000'] }), { pointer: '/tags/1', what: 'a NUL byte' });
  assert.deepEqual(findUnstorable({ 'a/b': { 'c\ud800': 1 } }), { pointer: '/a~1b/c\ufffd', what: 'a lone UTF-16 surrogate in its name' });
  assert.deepEqual(findUnstorable('\u0000'), { pointer: '', what: 'a NUL byte' });
  assert.equal(findUnstorable({ a: [1, true, null, { b: '🔥' }] }), undefined);
  let deep: unknown = 'x\u0000';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(findUnstorable(deep)?.what, 'a NUL byte', 'no stack overflow on a deep body');
});

test('storable copies replace each bad character with U+FFFD', () => {
  assert.equal(storableText('a\u0000b\ud800c🔥'), 'a\ufffdb\ufffdc🔥');
  assert.deepEqual(storableValue({ 'k\u0000': ['v\udc00', 3, null] }), { 'k\ufffd': ['v\ufffd', 3, null] });
});

test('the quick yes/no pass (every request) agrees with the walk that says where', () => {
  const values: unknown[] = [{ name: 'ok', tags: ['a', 'b\u0000'] }, { 'a/b': { 'c\ud800': 1 } }, '\u0000', 'fine', { a: [1, true, null, { b: '🔥' }] }, Object.assign(Object.create(null), { q: 'x\udc00' }), Object.create(null), [], null, 7, undefined, Buffer.from([0])];
  for (const v of values) assert.equal(holdsUnstorable(v), findUnstorable(v) !== undefined, JSON.stringify(v));
  let deep: unknown = 'x\u0000';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(holdsUnstorable(deep), true, 'no stack overflow on a deep body');
});
