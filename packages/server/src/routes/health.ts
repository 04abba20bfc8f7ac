import type { FastifyInstance } from 'fastify';
import type { Storage } from '../storage/types.js';

/** The answer of `/healthz`, also given before the app is ready (http/front-door.ts). */
export const ALIVE = { status: 'ok' } as const;

/** `/healthz` answers while the process runs; `/readyz` also checks that the database answers. */
export function registerHealth(app: FastifyInstance, storage: Storage): void {
  app.get('/healthz', async () => ALIVE);
  app.get('/readyz', async (_request, reply) => {
    try {
      await storage.ping();
      return { status: 'ready', engine: storage.engine };
    } catch {
      return reply.code(503).send({ status: 'unavailable', engine: storage.engine });
    }
  });
}
