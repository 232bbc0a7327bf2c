/**
 * Hearth's SSH key pair, settled at start: the pair of record is in the database (so several
 * servers on one PostgreSQL log into nodes as one), and each server keeps a copy in its data folder
 * (ssh/id_ed25519, mode 0600) for OpenSSH to read. The first server to start makes it, or adopts a
 * pair already in its data folder.
 */
import { hostname } from 'node:os';
import { generateKeyPair, readKeyFiles, writeKeyFiles, type SshKeyPair } from '../../deploy/keys.js';
import { fingerprint } from '../../deploy/ssh.js';
import * as store from '../../store/index.js';

export const META_SSH_KEY = 'ssh_key';

export interface ServerSshKey {
  keyFile: string;
  publicKey: string;
  fingerprint: string;
}

export async function settleSshKey(db: store.Queryable, dataDir: string): Promise<ServerSshKey> {
  let pair = await store.getMeta<SshKeyPair>(db, META_SSH_KEY);
  if (!pair) pair = await store.setMetaIfAbsent(db, META_SSH_KEY, readKeyFiles(dataDir) ?? generateKeyPair(`hearth@${hostname()}`));
  const keyFile = writeKeyFiles(dataDir, pair);
  return { keyFile, publicKey: pair.public, fingerprint: fingerprint(pair.public) };
}
