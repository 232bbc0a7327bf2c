import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scriptsNamedBy } from './scripts.js';

test('a script run by an interpreter or as ./file is named, as written, without ./', () => {
  assert.deepEqual(scriptsNamedBy('bash deploy.sh'), ['deploy.sh']);
  assert.deepEqual(scriptsNamedBy('/bin/bash -ex tools/setup.sh --force'), ['tools/setup.sh']);
  assert.deepEqual(scriptsNamedBy('bash -o pipefail run.sh'), ['run.sh']);
  assert.deepEqual(scriptsNamedBy('python3 -u ./check.py 3'), ['check.py']);
  assert.deepEqual(scriptsNamedBy("./start.sh && DEBUG=1 sh 'stop.sh'; exec perl x.pl | tee log"), ['start.sh', 'stop.sh', 'x.pl']);
  assert.deepEqual(scriptsNamedBy('bash a.sh && bash a.sh'), ['a.sh']);
  assert.deepEqual(scriptsNamedBy('if [ -f x ]; then bash a.sh; fi'), ['a.sh']);
});

test('what the shell computes, absolute paths, code and commands after a folder change are not guessed at', () => {
  for (const cmd of [
    'bash -c "./x.sh"',
    'python3 -m http.server',
    'bash $SCRIPT',
    'bash "$(pwd)/x.sh"',
    'sh ~/x.sh',
    'bash *.sh',
    'bash /usr/local/bin/x.sh',
    '/opt/tool/run.sh',
    'cd /opt && bash x.sh',
    'echo bash x.sh',
    'puppet apply site.pp',
    'bash',
    '',
  ]) {
    assert.deepEqual(scriptsNamedBy(cmd), [], cmd);
  }
  assert.deepEqual(scriptsNamedBy('bash first.sh; cd sub; bash second.sh'), ['first.sh']);
});
