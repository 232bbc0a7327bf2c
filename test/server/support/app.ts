/** A Hearth app over a fresh database of the engine under test, driven with `inject`. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { join } from 'node:path';
import { buildApp } from '../../../src/server/app.js';
import { readPluginFolder, storePlugin } from '../../../src/server/domain/plugins.js';
import type { Database } from '../../../src/store/index.js';
import type { EngineUnderTest } from './engines.js';

export const TOKEN = 'test-admin-token-0123456789';
export const repoRoot = join(import.meta.dirname, '..', '..', '..');
export const bundledRelease = join(repoRoot, 'release');

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  /** JSON request with the admin token. */
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function testApp(engine: EngineUnderTest, options: { withRelease?: boolean } = {}): Promise<TestApp> {
  return appOn(await engine.open(), options);
}

/** Another app over the same database (as a second server would be), e.g. with a slower orchestrator. */
export async function appOn(db: Database, options: { withRelease?: boolean; deploy?: { sliceDelayMs?: number; sliceSize?: number } } = {}): Promise<TestApp> {
  if (options.withRelease !== false) await storePlugin(db, readPluginFolder(bundledRelease), { kind: 'bundled', path: bundledRelease });
  const app = await buildApp({ db, adminToken: TOKEN, deploy: options.deploy ?? { sliceDelayMs: 0, sliceSize: 100 } });
  return {
    app,
    db,
    call: (method, url, body, headers = {}) =>
      app.inject({ method: method as never, url, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, ...(body === undefined ? {} : { payload: body as never }) }),
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** Poll a deployment until it ends. */
export async function waitForDeployment(t: TestApp, clusterId: number, deploymentId: number, timeoutMs = 20_000): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.call('GET', `/api/v1/clusters/${clusterId}/deployments/${deploymentId}?tasks=true`);
    const body = res.json();
    if (body.status !== 'running') return body;
    if (Date.now() > until) throw new Error(`deployment ${deploymentId} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
