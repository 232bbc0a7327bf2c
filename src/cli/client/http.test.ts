import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasDotSegment } from './http.js';

test('the CLI client never sends a path with a "." or ".." segment, which fetch would resolve to another resource', () => {
  for (const path of ['/plugins/x@0/../../clusters/2', '/plugins/./x', '/plugins/%2e%2E/clusters/2', '/plugins/x/..?a=b', '/..']) assert.ok(hasDotSegment(path), path);
  for (const path of [`/plugins/${encodeURIComponent('x@0/../../clusters/2')}`, '/plugins/x@1.0.0', '/releases/a..b', '/clusters/1?select=..']) assert.equal(hasDotSegment(path), false, path);
});
