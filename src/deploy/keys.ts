/**
 * Hearth's own SSH key pair, the one identity it logs into nodes with. Made with OpenSSH's
 * ssh-keygen (ed25519, no passphrase: the server must use it unattended), kept in the data folder
 * with mode 0600. The caller decides where the pair of record lives (the database, so several
 * servers on one PostgreSQL share it); these functions only make and place the files.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SshKeyPair {
  /** OpenSSH private key (PEM-like text). */
  private: string;
  /** `ssh-ed25519 AAAA… hearth` */
  public: string;
}

export const keyFiles = (dataDir: string) => ({ dir: join(dataDir, 'ssh'), private: join(dataDir, 'ssh', 'id_ed25519'), public: join(dataDir, 'ssh', 'id_ed25519.pub') });

export function generateKeyPair(comment = 'hearth'): SshKeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-keygen-'));
  try {
    const file = join(dir, 'key');
    const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file], { encoding: 'utf8' });
    if (r.error || r.status !== 0) throw new Error(`ssh-keygen failed: ${r.error?.message ?? r.stderr.trim()} (install openssh-client)`);
    return { private: readFileSync(file, 'utf8'), public: readFileSync(`${file}.pub`, 'utf8').trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The pair in the data folder, when both files are there. */
export function readKeyFiles(dataDir: string): SshKeyPair | undefined {
  const f = keyFiles(dataDir);
  if (!existsSync(f.private) || !existsSync(f.public)) return undefined;
  return { private: readFileSync(f.private, 'utf8'), public: readFileSync(f.public, 'utf8').trim() };
}

/** Write the pair (both 0600, folder 0700: the data folder is the server user's alone); returns the private key's path. */
export function writeKeyFiles(dataDir: string, pair: SshKeyPair): string {
  const f = keyFiles(dataDir);
  mkdirSync(f.dir, { recursive: true, mode: 0o700 });
  chmodSync(f.dir, 0o700);
  const current = readKeyFiles(dataDir);
  if (current?.private !== pair.private) writeFileSync(f.private, pair.private.endsWith('\n') ? pair.private : `${pair.private}\n`, { mode: 0o600 });
  chmodSync(f.private, 0o600);
  if (current?.public !== pair.public) writeFileSync(f.public, `${pair.public}\n`, { mode: 0o600 });
  chmodSync(f.public, 0o600);
  return f.private;
}
