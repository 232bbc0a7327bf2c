/**
 * The web UI's words for the server's refusals (issue 16, forms): a schema refusal is a sentence
 * about the field, never `body /simulate/prefix must match pattern`; "cluster" reads "environment".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inOurWords, schemaErrorWords, sentence } from '../../web/src/components/words.js';

test('schema refusals are sentences about the field', () => {
  assert.equal(schemaErrorWords({ instancePath: '/simulate/prefix', keyword: 'pattern', params: { pattern: '^[A-Za-z0-9_.-]*$' } }), 'The prefix holds characters that are not allowed here.');
  assert.equal(schemaErrorWords({ instancePath: '/name', keyword: 'maxLength', params: { limit: 100 } }), 'The name can have at most 100 characters.');
  assert.equal(schemaErrorWords({ instancePath: '/name', keyword: 'minLength', params: { limit: 1 } }), 'The name cannot be empty.');
  assert.equal(schemaErrorWords({ instancePath: '', keyword: 'required', params: { missingProperty: 'release_id' } }), 'The release is needed.');
  assert.equal(schemaErrorWords({ instancePath: '/simulate/count', keyword: 'maximum', params: { limit: 5000 } }), 'The count can be at most 5000.');
  assert.equal(schemaErrorWords({ instancePath: '/assignments/0/node_id', keyword: 'type', params: { type: 'integer' } }), 'The node id must be a whole number.');
});

test("'cluster' reads 'environment', but not inside a quoted name", () => {
  assert.equal(inOurWords('the cluster is being deployed'), 'the environment is being deployed');
  assert.equal(inOurWords("there is no cluster 'my cluster'"), "there is no environment 'my cluster'");
  assert.equal(sentence('there is no release'), 'There is no release.');
});
