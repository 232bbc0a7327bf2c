/**
 * Tests of file modes run the server as `nobody` when they run as root (root reads any file
 * whatever its mode). Whether `nobody` can, and if not, exactly why: a Node binary under a folder
 * closed to others (as in a CI image's 0700 home) is not the same fault as an unreadable checkout,
 * and the skip must say which and what to do.
 */
import { spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { dirname } from 'node:path';
import { hearthBin } from './serve.js';

export const NOBODY = 65534;
export const asRoot = process.getuid?.() === 0;

/** false when the test can run (not root, or nobody can run Node and read Hearth); else why not. */
export function nobodyCannotRun(): string | false {
  if (!asRoot) return false;
  const node = spawnSync(process.execPath, ['-e', '0'], { uid: NOBODY, gid: NOBODY });
  if (node.error || node.status !== 0) {
    return `running as root, and user nobody cannot run Node (${process.execPath}): open its folders to others (chmod o+x on each folder down to ${dirname(process.execPath)}, as .ci/run does)`;
  }
  const read = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(hearthBin)}, ${constants.R_OK})`], { uid: NOBODY, gid: NOBODY });
  if (read.status !== 0) return `running as root, and user nobody cannot read the checkout (${hearthBin}): open its folders to others (chmod o+x)`;
  return false;
}
