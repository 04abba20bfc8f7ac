import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { AuthLimiter } from './auth/auth-limits.js';
import { Authenticator } from './auth/authenticate.js';
import { enforceIpAllowlist } from './auth/ip-allowlist.js';
import { OpenAccess } from './auth/open-access.js';
import { KeyRateLimiter } from './auth/rate-limit.js';
import { SessionTokens } from './auth/session-tokens.js';
import { Sessions } from './auth/sessions.js';
import { registerUsageRecording } from './auth/usage-hook.js';
import type { ServerConfig } from './config.js';
import { registerErrorHandling } from './http/error-handler.js';
import { ApiError } from './http/errors.js';
import { registerJsonBody } from './http/json-body.js';
import { answerClientError, answerFrameworkError, MAX_PATH_SEGMENT } from './http/protocol-errors.js';
import { requestIdOf } from './http/request-id.js';
import { createMailer } from './mail/mailer.js';
import type { ServerOptions } from './options.js';
import { registerAuth } from './routes/auth.js';
import { registerBatch } from './routes/batch.js';
import { registerData } from './routes/data.js';
import { registerDeviceSignIn } from './routes/device.js';
import { registerDocs } from './routes/docs.js';
import { registerHealth } from './routes/health.js';
import { registerJobs } from './routes/jobs.js';
import { registerKeys } from './routes/keys.js';
import { registerLogs } from './routes/logs.js';
import { registerPages } from './routes/pages.js';
import { registerSettings } from './routes/settings.js';
import { registerExternalSignIn } from './routes/sign-in.js';
import { registerSql } from './routes/sql.js';
import { registerWebauthn } from './routes/webauthn.js';
import { registerWebhooks } from './routes/webhooks.js';
import { AccountService } from './services/accounts.js';
import { ActivityLog } from './services/activity.js';
import { BatchService } from './services/batch.js';
import { BatchPlanner } from './services/batch-planner.js';
import { DeviceSignIn } from './services/device-sign-in.js';
import { DocumentService } from './services/documents.js';
import { ExternalSignIn } from './services/external-sign-in.js';
import { ImportService } from './services/import/import-service.js';
import { JobService } from './services/jobs.js';
import { KeyService } from './services/keys.js';
import { PasskeyService } from './services/passkeys.js';
import { PasswordResetService } from './services/password-reset.js';
import { RobotService } from './services/robots.js';
import { SettingsService } from './services/settings.js';
import { UsageRecorder } from './services/usage-recorder.js';
import type { SharedState } from './shared-state.js';
import type { Storage } from './storage/types.js';
import { openWebhooks, type WebhookRuntime } from './webhooks/runtime.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook machinery; its delivery worker is started by `startServer`. */
    webhooks: WebhookRuntime;
  }
}

/** What `buildApp` may be given besides configuration and storage. */
export interface AppOptions extends ServerOptions {
  /** Redis and anything else several instances share. */
  shared?: SharedState;
}

/** Builds the HTTP application over an open storage (and Redis, when shared); nothing listens yet. */
export async function buildApp(
  config: ServerConfig,
  storage: Storage,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { shared } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Credentials never reach a log line, whatever a future log call passes in.
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
        censor: '[redacted]',
      },
      ...(config.logStream ? { stream: config.logStream } : {}),
    },
    // Per-request log lines cost a fifth of the throughput; failures are still logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // One logger for every request instead of a child per request; failures log their request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    // Refusals that come before a route or hook runs still answer in the API's error shape, with a request id.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    genReqId: requestIdOf,
    requestIdHeader: false,
    return503OnClosing: true,
    // X-Forwarded-For names the client only when the request comes from a configured proxy.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // U+0000 cannot be stored by every engine, so no path segment or query value may carry it.
    if (request.url.includes('%00')) {
      done(new ApiError('validation_error', 'The URL carries U+0000 (%00), which no value may contain'));
      return;
    }
    done();
  });
  app.decorateRequest('principal', undefined);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerHealth(app, storage);
  await registerDocs(app);
  const limiter = new KeyRateLimiter(shared?.redis, options.rateLimits);
  const sessions = new Sessions(
    storage,
    await SessionTokens.load(config, storage),
    limiter,
    config.sessionTtlSeconds,
  );
  const auth = options.unauthenticatedCluster
    ? new OpenAccess(storage, limiter, options.unauthenticatedCluster)
    : new Authenticator(storage, limiter, sessions);
  const usage = new UsageRecorder(storage.usage, app.log, { flushIntervalMs: options.usageFlushIntervalMs });
  registerUsageRecording(app, usage);
  registerData(app, auth, new DocumentService(storage));
  registerSql(app, auth, storage);
  const planner = new BatchPlanner(config.bodyLimit);
  app.addHook('onClose', () => planner.close());
  registerBatch(app, auth, new BatchService(storage, planner), config.batchBodyLimit);

  // Dashboard and account routes: `sessions.requireSession` refuses API keys; `ipAllowlist` guards sensitive ones.
  const requireSession = sessions.requireSession;
  const ipAllowlist = enforceIpAllowlist(storage);
  const authLimiter = new AuthLimiter(config.authLimits, shared?.redis);
  const activity = new ActivityLog(storage);
  const mailer = createMailer(config);
  const resets = new PasswordResetService(storage, mailer, authLimiter, activity, app.log, () =>
    (config.appUrl ?? ownUrl(app)).replace(/\/+$/, ''),
  );
  const accounts = new AccountService(storage, sessions, authLimiter, activity);
  registerAuth(app, { accounts, resets, requireSession, ipAllowlist });
  const publicUrl = () => (config.publicUrl ?? ownUrl(app)).replace(/\/+$/, '');
  registerExternalSignIn(
    app,
    new ExternalSignIn(config.identityProviders, storage, accounts, publicUrl),
    () => publicUrl().startsWith('https:'),
  );
  const relyingParty = () => {
    const origin = new URL(publicUrl());
    return {
      id: config.webauthnRpId ?? origin.hostname,
      origins: config.webauthnOrigins.length > 0 ? config.webauthnOrigins : [origin.origin],
      name: 'dataplatform',
    };
  };
  registerWebauthn(app, new PasskeyService(storage, accounts, activity, relyingParty), requireSession);
  registerDeviceSignIn(
    app,
    new DeviceSignIn(storage, accounts, authLimiter, config.deviceSignIn, publicUrl),
    requireSession,
  );
  registerPages(app, config.identityProviders);
  registerSettings(app, new SettingsService(storage, activity), requireSession, ipAllowlist);
  registerLogs(app, activity, requireSession);
  const keys = new KeyService(storage);
  registerKeys(app, { keys, robots: new RobotService(storage, keys) }, requireSession, ipAllowlist);
  registerJobs(
    app,
    auth,
    { imports: new ImportService(storage), jobs: new JobService(storage), maxRowBytes: config.bodyLimit },
    requireSession,
  );
  app.addHook('onClose', async () => {
    await resets.drain();
    mailer.close();
  });
  const webhooks = await openWebhooks(config, storage, app.log, options.clock);
  app.decorate('webhooks', webhooks);
  registerWebhooks(app, auth, webhooks.service, webhooks.streams);
  app.addHook('onClose', async () => webhooks.close());
  return app;
}

/** The address this server listens on, as a base for links when DATAPLATFORM_APP_URL is not set. */
function ownUrl(app: FastifyInstance): string {
  const address = app.server.address();
  return `http://localhost:${typeof address === 'object' && address ? address.port : 5000}`;
}
