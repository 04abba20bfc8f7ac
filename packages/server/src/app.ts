import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { Authenticator } from './auth/authenticate.js';
import { OpenAccess } from './auth/open-access.js';
import { KeyRateLimiter } from './auth/rate-limit.js';
import { registerUsageRecording } from './auth/usage-hook.js';
import type { ServerConfig } from './config.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerJsonBody } from './http/json-body.js';
import { requestIdOf } from './http/request-id.js';
import type { ServerOptions } from './options.js';
import { registerBatch } from './routes/batch.js';
import { registerData } from './routes/data.js';
import { registerDocs } from './routes/docs.js';
import { registerHealth } from './routes/health.js';
import { registerSql } from './routes/sql.js';
import { BatchService } from './services/batch.js';
import { DocumentService } from './services/documents.js';
import { UsageRecorder } from './services/usage-recorder.js';
import type { SharedState } from './shared-state.js';
import type { Storage } from './storage/types.js';

/** Builds the HTTP application over an open storage (and Redis, when shared); nothing listens yet. */
export async function buildApp(
  config: ServerConfig,
  storage: Storage,
  shared?: SharedState,
  options: ServerOptions = {},
): Promise<FastifyInstance> {
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
  const limiter = new KeyRateLimiter(shared?.redis, options.rateLimits);
  const auth = options.unauthenticatedCluster
    ? new OpenAccess(storage, limiter, options.unauthenticatedCluster)
    : new Authenticator(storage, limiter);
  const usage = new UsageRecorder(storage.usage, app.log, { flushIntervalMs: options.usageFlushIntervalMs });
  registerUsageRecording(app, usage);
  registerData(app, auth, new DocumentService(storage));
  registerSql(app, auth, storage);
  registerBatch(app, auth, new BatchService(storage), config.batchBodyLimit);
  return app;
}
