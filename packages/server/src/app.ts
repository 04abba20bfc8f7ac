import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { Authenticator } from './auth/authenticate.js';
import { KeyRateLimiter } from './auth/rate-limit.js';
import type { ServerConfig } from './config.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerJsonBody } from './http/json-body.js';
import { requestIdOf } from './http/request-id.js';
import { registerBatch } from './routes/batch.js';
import { registerData } from './routes/data.js';
import { registerDocs } from './routes/docs.js';
import { registerHealth } from './routes/health.js';
import { registerSql } from './routes/sql.js';
import { registerWebhooks } from './routes/webhooks.js';
import { BatchService } from './services/batch.js';
import { DocumentService } from './services/documents.js';
import type { SharedState } from './shared-state.js';
import type { Storage } from './storage/types.js';
import type { Clock } from './webhooks/clock.js';
import { openWebhooks, type WebhookRuntime } from './webhooks/runtime.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook machinery; its delivery worker is started by `startServer`. */
    webhooks: WebhookRuntime;
  }
}

/** What `buildApp` may be given besides configuration and storage. */
export interface AppOptions {
  /** Redis and anything else several instances share. */
  shared?: SharedState;
  /** The clock of the webhook machinery (tests move it forward). */
  clock?: Clock;
}

/** Builds the HTTP application over an open storage (and Redis, when shared); nothing listens yet. */
export async function buildApp(
  config: ServerConfig,
  storage: Storage,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { shared } = options;
  const app = Fastify({
    logger: { level: config.logLevel },
    // Per-request log lines cost a fifth of the throughput; failures are still logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // One logger for every request instead of a child per request; failures log their request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: config.bodyLimit,
    genReqId: requestIdOf,
    requestIdHeader: false,
    return503OnClosing: true,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.decorateRequest('principal', undefined);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerHealth(app, storage);
  await registerDocs(app);
  const auth = new Authenticator(storage, new KeyRateLimiter(shared?.redis));
  registerData(app, auth, new DocumentService(storage));
  registerSql(app, auth, storage);
  registerBatch(app, auth, new BatchService(storage), config.batchBodyLimit);
  const webhooks = await openWebhooks(config, storage, app.log, options.clock);
  app.decorate('webhooks', webhooks);
  registerWebhooks(app, auth, webhooks.service, webhooks.streams);
  app.addHook('onClose', async () => webhooks.close());
  return app;
}
