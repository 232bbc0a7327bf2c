/**
 * The OpenAPI document as a server answers it, built without a server: the routes registered over
 * an in-memory database, and the document asked for. `npm run api:types` generates the clients'
 * TypeScript types from it (scripts/api-types.ts).
 */
import { openStore } from '../store/index.js';
import { buildApp } from './app.js';

export async function apiDocument(): Promise<Record<string, unknown>> {
  const db = await openStore({ inMemory: true });
  try {
    const app = await buildApp({ db, adminToken: 'api-document-token-0123456789' });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`the OpenAPI document answered ${res.statusCode}: ${res.body}`);
      return res.json() as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}
