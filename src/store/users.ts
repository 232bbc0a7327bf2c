/**
 * People who sign in (issue 29): name, scrypt password hash, role, disabled. Plain rows; the
 * rules (who may change whom, what a role allows) live in server/, the hashing in server/passwords.ts.
 */
import type { Queryable } from './database.js';

export type UserRole = 'viewer' | 'operator' | 'admin';

export interface UserRecord {
  name: string;
  role: UserRole;
  disabled: boolean;
  createdAt: Date;
}

interface UserRow {
  name: string;
  role: UserRole;
  disabled: boolean;
  created_at: Date | string;
  password_hash?: string;
}

const user = (r: UserRow): UserRecord => ({ name: r.name, role: r.role, disabled: r.disabled, createdAt: new Date(r.created_at) });

export async function listUsers(q: Queryable): Promise<UserRecord[]> {
  return (await q.query<UserRow>('SELECT name, role, disabled, created_at FROM users ORDER BY name')).map(user);
}

export async function countUsers(q: Queryable): Promise<number> {
  const [row] = await q.query<{ n: number | string }>('SELECT count(*) AS n FROM users');
  return Number(row?.n ?? 0);
}

/** The user with their password hash, for signing in. */
export async function userWithPassword(q: Queryable, name: string): Promise<(UserRecord & { passwordHash: string }) | undefined> {
  const [row] = await q.query<UserRow>('SELECT name, role, disabled, created_at, password_hash FROM users WHERE name = $1', [name]);
  return row ? { ...user(row), passwordHash: row.password_hash ?? '' } : undefined;
}

export async function getUser(q: Queryable, name: string): Promise<UserRecord | undefined> {
  const [row] = await q.query<UserRow>('SELECT name, role, disabled, created_at FROM users WHERE name = $1', [name]);
  return row ? user(row) : undefined;
}

export async function insertUser(q: Queryable, u: { name: string; passwordHash: string; role: UserRole }): Promise<UserRecord> {
  const [row] = await q.query<UserRow>('INSERT INTO users (name, password_hash, role) VALUES ($1, $2, $3) RETURNING name, role, disabled, created_at', [u.name, u.passwordHash, u.role]);
  return user(row!);
}

/** Changes what is given; undefined when there is no such user. */
export async function updateUser(q: Queryable, name: string, change: { role?: UserRole; disabled?: boolean; passwordHash?: string }): Promise<UserRecord | undefined> {
  const [row] = await q.query<UserRow>(
    `UPDATE users SET role = coalesce($2, role), disabled = coalesce($3, disabled), password_hash = coalesce($4, password_hash)
     WHERE name = $1 RETURNING name, role, disabled, created_at`,
    [name, change.role ?? null, change.disabled ?? null, change.passwordHash ?? null],
  );
  return row ? user(row) : undefined;
}

/** Deletes the user with their tokens and sessions (foreign keys cascade); whether there was one. */
export async function deleteUser(q: Queryable, name: string): Promise<boolean> {
  return (await q.query('DELETE FROM users WHERE name = $1 RETURNING name', [name])).length > 0;
}
