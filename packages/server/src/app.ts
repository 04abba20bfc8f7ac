import { join } from 'node:path';
import { routes } from '@dataplatform/contract';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { AuthLimiter } from './auth/auth-limits.js';
import { Authenticator } from './auth/authenticate.js';
import { enforceIpAllowlist } from './auth/ip-allowlist.js';
import { OpenAccess } from './auth/open-access.js';
import { KeyRateLimiter } from './auth/rate-limit.js';
import { SessionTokens } from './auth/session-tokens.js';
import { Sessions } from './auth/sessions.js';
import { registerUsageRecording } from './auth/usage-hook.js';
import { StreamGuard } from './changes/guard.js';
import { Realtime } from './changes/realtime.js';
import { ChangeStreams } from './changes/streams.js';
import type { ServerConfig } from './config.js';
import { Sandbox } from './functions/sandbox.js';
import { contractValidation } from './http/contract-validation.js';
import { registerErrorHandling } from './http/error-handler.js';
import { ApiError } from './http/errors.js';
import { SERVER_TIMEOUTS } from './http/front-door.js';
import { registerJsonBody } from './http/json-body.js';
import { observeRequests, type RequestObserver } from './http/observe-requests.js';
import { answerClientError, answerFrameworkError, MAX_PATH_SEGMENT } from './http/protocol-errors.js';
import { serveRoutes } from './http/register-route.js';
import { requestIdOf } from './http/request-id.js';
import { endUnusedConnectionsOnClose } from './http/unused-connections.js';
import { createMailer } from './mail/mailer.js';
import { HttpCounters } from './metrics/http-counters.js';
import { MetricsRecorder } from './metrics/recorder.js';
import { Notifier } from './notifications/notifier.js';
import { NotificationStreams } from './notifications/stream.js';
import type { ServerOptions } from './options.js';
import { authHandlers } from './routes/auth.js';
import { backupHandlers } from './routes/backups.js';
import { batchHandlers } from './routes/batch.js';
import { billingHandlers } from './routes/billing.js';
import { clusterHandlers, memberHandlers } from './routes/clusters.js';
import { registerDashboard } from './routes/dashboard.js';
import { dataHandlers } from './routes/data.js';
import { deviceHandlers } from './routes/device.js';
import { registerDocs } from './routes/docs.js';
import { functionHandlers } from './routes/functions.js';
import { registerHealth } from './routes/health.js';
import { intelligenceHandlers } from './routes/intelligence.js';
import { jobHandlers } from './routes/jobs.js';
import { keyHandlers } from './routes/keys.js';
import { logsHandlers, logsKeyHandlers } from './routes/logs.js';
import { metricsHandlers } from './routes/metrics.js';
import { notificationHandlers } from './routes/notifications.js';
import { registerPages } from './routes/pages.js';
import { registerPrometheus } from './routes/prometheus.js';
import { realtimeHandlers } from './routes/realtime.js';
import { schemaHandlers } from './routes/schema.js';
import { settingsHandlers } from './routes/settings.js';
import { signInHandlers } from './routes/sign-in.js';
import { sqlHandlers } from './routes/sql.js';
import { triggerHandlers } from './routes/triggers.js';
import { webauthnHandlers } from './routes/webauthn.js';
import { webhookHandlers } from './routes/webhooks.js';
import { AccountService } from './services/accounts.js';
import { ActivityLog } from './services/activity.js';
import { BackupJobs } from './services/backup-jobs.js';
import { S3Archives } from './services/backup-s3.js';
import { BackupSchedules } from './services/backup-schedules.js';
import { DiskArchives } from './services/backup-storage.js';
import { BackupService } from './services/backups.js';
import { BatchService } from './services/batch.js';
import { BatchPlanner } from './services/batch-planner.js';
import { billedStatus } from './services/billing.js';
import { type BillingRuntime, openBilling } from './services/billing-runtime.js';
import { ClusterAccess } from './services/cluster-access.js';
import { ClusterDeletions } from './services/cluster-deletions.js';
import { ClusterMembers } from './services/cluster-members.js';
import { ClusterService } from './services/clusters.js';
import { DeviceSignIn } from './services/device-sign-in.js';
import { DocumentService } from './services/documents.js';
import { ExternalSignIn } from './services/external-sign-in.js';
import { FunctionService } from './services/functions.js';
import { ImportService } from './services/import/import-service.js';
import { IntelligenceJobs } from './services/intelligence/jobs.js';
import { Predictors } from './services/intelligence/predictors.js';
import { IntelligenceService } from './services/intelligence/service.js';
import { JobService } from './services/jobs.js';
import { KeyService } from './services/keys.js';
import { MetricsService } from './services/metrics.js';
import { NotificationService } from './services/notifications.js';
import { PasskeyService } from './services/passkeys.js';
import { PasswordResetService } from './services/password-reset.js';
import { RequestLogRecorder } from './services/request-log-recorder.js';
import { RequestLogService } from './services/request-logs.js';
import { RobotService } from './services/robots.js';
import { SchemaService } from './services/schema.js';
import { SchemaGuards } from './services/schema-guards.js';
import { SchemaJobs } from './services/schema-jobs.js';
import { SettingsService } from './services/settings.js';
import { SqlService } from './services/sql.js';
import { TriggerService } from './services/triggers.js';
import { UsageRecorder } from './services/usage-recorder.js';
import type { SharedState } from './shared-state.js';
import type { Storage } from './storage/types.js';
import { TriggerRunner } from './triggers/runner.js';
import { TickScheduler, triggerTicks } from './triggers/scheduler.js';
import { systemClock } from './webhooks/clock.js';
import { openWebhooks, type WebhookRuntime } from './webhooks/runtime.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook machinery; its delivery worker is started by `startServer`. */
    webhooks: WebhookRuntime;
    /** The runner of validator checks and collection drops (`idle()` lets tests wait for them). */
    schemaJobs: SchemaJobs;
    /** The runner of backups and restores (`idle()` lets tests wait for them). */
    backupJobs: BackupJobs;
    /** The runner of dataset builds, trainings and batch predictions (`idle()` lets tests wait for them). */
    intelligenceJobs: IntelligenceJobs;
    /** The runner of cluster deletions (`idle()` lets tests wait for a purge). */
    clusterDeletions: ClusterDeletions;
    /** Billing's services, its usage meter and its periodic tasks. */
    billing: BillingRuntime;
    /** Fires schedule triggers and scheduled backups; started by `startServer`, polled by tests that move their clock. */
    triggerScheduler: TickScheduler;
    /** Runs triggers' targets (`drain()` lets tests wait for runs in flight). */
    triggerRunner: TriggerRunner;
    /** Writes the request log (`flush()` lets tests read what was just answered); absent when turned off. */
    requestLog?: RequestLogRecorder;
    /** Counts request metrics (`flush()` writes them); absent when turned off. */
    metricsRecorder?: MetricsRecorder;
    /** Raises notifications (`drain()` lets tests wait for their e-mail). */
    notifier: Notifier;
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
    schemaController: contractValidation,
    // Refusals that come before a route or hook runs still answer in the API's error shape, with a request id.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    genReqId: requestIdOf,
    requestIdHeader: false,
    return503OnClosing: true,
    // X-Forwarded-For names the client only when the request comes from a configured proxy.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ...SERVER_TIMEOUTS,
    // A socket that listened before the app was built (startServer) is served once the app is ready.
    ...(options.frontDoor ? { serverFactory: options.frontDoor.serverFactory } : {}),
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
  endUnusedConnectionsOnClose(app);
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
    : new Authenticator(storage, limiter, sessions, options.clusterChecks ?? true);
  const usage = new UsageRecorder(storage.usage, app.log, { flushIntervalMs: options.usageFlushIntervalMs });
  registerUsageRecording(app, usage);
  // The request log and the request metrics see every answer; a benchmark may turn them off.
  const clock = options.clock ?? systemClock;
  const observers: RequestObserver[] = [];
  let requestLog: RequestLogRecorder | undefined;
  let metricsRecorder: MetricsRecorder | undefined;
  let httpCounters: HttpCounters | undefined;
  if (options.observability !== false) {
    const log = new RequestLogRecorder(storage.requestLogs, app.log, options.requestLogFlushIntervalMs);
    const recorder = new MetricsRecorder(storage.metrics, app.log);
    httpCounters = new HttpCounters();
    observers.push(log, recorder, httpCounters);
    app.decorate('requestLog', log);
    app.decorate('metricsRecorder', recorder);
    app.addHook('onClose', () => log.close());
    app.addHook('onClose', () => recorder.close());
    requestLog = log;
    metricsRecorder = recorder;
  }
  observeRequests(app, observers, clock);
  registerPrometheus(app, {
    storage,
    http: httpCounters,
    token: config.metricsToken,
    ...(requestLog ? { requestLogBuffered: () => requestLog.buffered } : {}),
  });
  const planner = new BatchPlanner(config.bodyLimit);
  app.addHook('onClose', () => planner.close());

  const authLimiter = new AuthLimiter(config.authLimits, shared?.redis);
  const activity = new ActivityLog(storage);
  const mailer = createMailer(config);
  const notifier = new Notifier(storage, mailer, app.log, clock);
  app.decorate('notifier', notifier);
  const notificationStreams = new NotificationStreams(storage, notifier);
  app.addHook('preClose', (done) => {
    notificationStreams.closeAll();
    done();
  });
  const resets = new PasswordResetService(storage, mailer, authLimiter, activity, app.log, () =>
    (config.appUrl ?? ownUrl(app)).replace(/\/+$/, ''),
  );
  const accounts = new AccountService(storage, sessions, authLimiter, activity, notifier);
  const publicUrl = () => (config.publicUrl ?? ownUrl(app)).replace(/\/+$/, '');
  const relyingParty = () => {
    const origin = new URL(publicUrl());
    return {
      id: config.webauthnRpId ?? origin.hostname,
      origins: config.webauthnOrigins.length > 0 ? config.webauthnOrigins : [origin.origin],
      name: 'dataplatform',
    };
  };
  registerPages(app, config.identityProviders);
  registerDashboard(app);
  const keys = new KeyService(storage);
  app.addHook('onClose', async () => {
    await resets.drain();
    await notifier.drain();
    mailer.close();
  });
  const billing = openBilling(app, config, storage, activity, options, publicUrl, notifier);
  app.decorate('billing', billing);
  const meter = billing.meter;
  const webhooks = await openWebhooks(
    config,
    storage,
    app.log,
    options.clock,
    meter ? (clusterId) => meter.count(clusterId, 'webhookDeliveries') : undefined,
    notifier,
  );
  app.decorate('webhooks', webhooks);
  app.addHook('preClose', (done) => {
    webhooks.streams.closeAll();
    done();
  });
  app.addHook('onClose', async () => webhooks.close());
  // After the webhook worker stopped: its last attempts are counted too.
  app.addHook('onClose', async () => billing.meter?.close());

  const deletions = new ClusterDeletions(storage, app.log);
  app.decorate('clusterDeletions', deletions);
  app.addHook('onClose', () => deletions.close());
  await deletions.resumeUnfinished();

  const guards = new SchemaGuards(storage);
  const documents = new DocumentService(storage, guards);
  const sql = new SqlService(storage);
  const sandbox = new Sandbox();
  app.addHook('onClose', () => sandbox.close());
  const functions = new FunctionService(
    storage,
    sandbox,
    { documents, sql, billingStatus: (clusterId) => billedStatus(storage, clusterId) },
    { activity, notifier },
    meter ? (clusterId) => meter.recordFunctionInvocation(clusterId) : undefined,
    (error) => app.log.error({ err: error }, 'function invocations not recorded'),
  );
  const triggerRunner = new TriggerRunner(storage, functions, app.log, webhooks.sender);
  webhooks.worker?.useTriggers((delivery) => triggerRunner.deliverEvent(delivery));
  const archives = config.backupUrl
    ? new S3Archives(config.backupUrl, config.backupS3Endpoint)
    : new DiskArchives(join(config.dataDir, 'backups'));
  const backupJobs = new BackupJobs(storage, guards, archives, app.log, notifier);
  app.decorate('backupJobs', backupJobs);
  app.addHook('onClose', async () => {
    await backupJobs.close();
    if (archives instanceof S3Archives) archives.close();
  });
  await backupJobs.resumeUnfinished();
  backupJobs.sweepStale();
  const backups = new BackupService(storage, backupJobs);
  const backupSchedules = new BackupSchedules(storage, backups, backupJobs, clock);
  const scheduler = new TickScheduler(
    [triggerTicks(storage, triggerRunner), backupSchedules],
    clock,
    app.log,
  );
  app.decorate('triggerScheduler', scheduler);
  app.decorate('triggerRunner', triggerRunner);
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await triggerRunner.drain();
    // Runs of the last few milliseconds are still in the invocation log's batch; the storage closes after this.
    await functions.flushInvocations();
  });
  const triggers = new TriggerService(storage, triggerRunner, clock);

  const requestLogs = new RequestLogService(storage);
  const clusters = new ClusterService(storage, config.regions, deletions);
  const metrics = new MetricsService(storage, new ClusterAccess(storage), clusters, clock, metricsRecorder);

  // Every route of the contract, each with its handler; a route without one (or the reverse) stops the start.
  const ipAllowlist = enforceIpAllowlist(storage);
  const schemaJobs = new SchemaJobs(storage, guards, app.log);
  app.decorate('schemaJobs', schemaJobs);
  app.addHook('onClose', () => schemaJobs.close());
  const schema = new SchemaService(storage, guards, schemaJobs);
  await schema.failInterruptedBuilds();
  await schemaJobs.resumeUnfinished();
  schemaJobs.sweepStale();
  const predictors = new Predictors(storage);
  const intelligenceJobs = new IntelligenceJobs(storage, predictors, guards, app.log);
  app.decorate('intelligenceJobs', intelligenceJobs);
  app.addHook('onClose', () => intelligenceJobs.close());
  await intelligenceJobs.resumeUnfinished();
  intelligenceJobs.sweepStale();
  const streamGuard = new StreamGuard(config.maxStreams, (listener) => storage.onAuthChange(listener));
  app.addHook('onClose', () => streamGuard.close());
  const changeStreams = new ChangeStreams(storage, webhooks.streams, streamGuard, auth);
  const realtime = new Realtime(changeStreams);
  // Upgrades are routed through Fastify (hooks included) before the socket is handed over.
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  serveRoutes(
    app,
    routes,
    {
      ...dataHandlers(documents, changeStreams),
      ...realtimeHandlers(),
      ...sqlHandlers(sql),
      ...batchHandlers(new BatchService(storage, planner, guards)),
      ...jobHandlers({
        imports: new ImportService(storage, guards),
        jobs: new JobService(storage),
        maxRowBytes: config.bodyLimit,
      }),
      ...authHandlers({ accounts, resets }),
      ...deviceHandlers(new DeviceSignIn(storage, accounts, authLimiter, config.deviceSignIn, publicUrl)),
      ...signInHandlers(new ExternalSignIn(config.identityProviders, storage, accounts, publicUrl), () =>
        publicUrl().startsWith('https:'),
      ),
      ...webauthnHandlers(new PasskeyService(storage, accounts, activity, relyingParty)),
      ...settingsHandlers(new SettingsService(storage, activity, config.sessionTtlSeconds)),
      ...logsHandlers(activity, requestLogs),
      ...logsKeyHandlers(requestLogs),
      ...clusterHandlers(clusters),
      ...metricsHandlers(metrics),
      ...notificationHandlers(new NotificationService(storage, clock), notificationStreams),
      ...memberHandlers(
        new ClusterMembers(storage, mailer, () => (config.appUrl ?? ownUrl(app)).replace(/\/+$/, '')),
      ),
      ...keyHandlers({ keys, robots: new RobotService(storage, keys) }),
      ...webhookHandlers(webhooks.service, webhooks.streams),
      ...billingHandlers(billing.service, billing.payments),
      ...schemaHandlers(schema),
      ...functionHandlers(functions),
      ...triggerHandlers(triggers),
      ...backupHandlers(backups, backupSchedules),
      ...intelligenceHandlers(new IntelligenceService(storage, intelligenceJobs, predictors)),
    },
    {
      auth,
      requireSession: sessions.requireSession,
      ipAllowlist,
      // The batch route's limit is a setting (DATAPLATFORM_BATCH_BODY_LIMIT); Stripe's webhook keeps its own.
      ownBodyLimits: { 'data.batch': config.batchBodyLimit },
      websockets: { 'realtime.connect': (socket, request) => realtime.serve(socket, request) },
    },
  );
  return app;
}

/** The address this server listens on, as a base for links when DATAPLATFORM_APP_URL is not set. */
function ownUrl(app: FastifyInstance): string {
  const address = app.server.address();
  return `http://localhost:${typeof address === 'object' && address ? address.port : 5000}`;
}
