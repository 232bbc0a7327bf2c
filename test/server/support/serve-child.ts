/**
 * A Hearth server in a child process, for tests that need a real socket or kill the process.
 * Configured by environment (HEARTH_CHILD_DATA_DIR, HEARTH_CHILD_DATABASE_URL, HEARTH_CHILD_SCHEMA,
 * HEARTH_CHILD_SWEEP_MS: how often it looks for runs whose server is gone; HEARTH_CHILD_SHUTDOWN_GRACE_MS,
 * HEARTH_CHILD_RESUME_INTERRUPTED as `--shutdown-grace` and `--resume-interrupted`);
 * prints one JSON line `{url, token}` once listening.
 */
import { startServer } from '../../../src/server/start.js';

const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  ...(process.env.HEARTH_CHILD_DATA_DIR ? { dataDir: process.env.HEARTH_CHILD_DATA_DIR } : {}),
  ...(process.env.HEARTH_CHILD_DATABASE_URL ? { databaseUrl: process.env.HEARTH_CHILD_DATABASE_URL } : {}),
  ...(process.env.HEARTH_CHILD_SCHEMA ? { schema: process.env.HEARTH_CHILD_SCHEMA } : {}),
  adminToken: 'child-admin-token-0123456789',
  deploy: { sliceDelayMs: 5, sliceSize: 20 },
  ...(process.env.HEARTH_CHILD_SWEEP_MS ? { sweepMs: Number(process.env.HEARTH_CHILD_SWEEP_MS) } : {}),
  ...(process.env.HEARTH_CHILD_SHUTDOWN_GRACE_MS ? { shutdownGraceMs: Number(process.env.HEARTH_CHILD_SHUTDOWN_GRACE_MS) } : {}),
  ...(process.env.HEARTH_CHILD_RESUME_INTERRUPTED ? { resumeInterrupted: true } : {}),
});
process.stdout.write(`${JSON.stringify({ url: server.url, token: server.adminToken })}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
