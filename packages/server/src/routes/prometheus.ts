import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { ApiError } from '../http/errors.js';
import type { HttpCounters } from '../metrics/http-counters.js';
import type { Storage } from '../storage/types.js';

/** What a scrape reads besides the process itself. */
export interface ScrapeSources {
  storage: Storage;
  http: HttpCounters | undefined;
  /** The operator's token (`DATAPLATFORM_METRICS_TOKEN`); without it only loopback may scrape. */
  token: string | undefined;
  /** Entries waiting in the request log's buffer. */
  requestLogBuffered?: () => number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * `GET /metrics`: Prometheus text for the operator. Open to loopback (the socket's own address, whatever
 * X-Forwarded-For says); from elsewhere only with `Authorization: Bearer $DATAPLATFORM_METRICS_TOKEN`.
 */
export function registerPrometheus(app: FastifyInstance, sources: ScrapeSources): void {
  let registry: Promise<Registry> | undefined;
  app.get('/metrics', async (request, reply) => {
    if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) {
      const sent = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sources.token) throw new ApiError('forbidden', 'Metrics are open to loopback only on this server');
      if (!sameSecret(sent, sources.token)) throw new ApiError('unauthorized', 'Send the metrics token');
    }
    registry ??= makeRegistry(sources);
    const text = (await (await registry).metrics()) + (sources.http?.text() ?? '');
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
  });
}

const SCRAPE_WAIT_MS = 2000;

/** `work`, or a rejection once the scrape has waited `SCRAPE_WAIT_MS` for it. */
function withinScrape<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('The database did not answer within the scrape')),
      SCRAPE_WAIT_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** prom-client, loaded by the first scrape: the process's own metrics and gauges read at each scrape. */
async function makeRegistry(sources: ScrapeSources): Promise<Registry> {
  const client = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'dataplatform_' });
  const { storage } = sources;
  // A scrape answers even when every connection is taken: the database's figures wait at most this long, and a
  // figure not read in time keeps its last value (the pool gauges, read in memory, show why).
  const read = () => withinScrape(storage.metrics.operational());
  let last: ReturnType<typeof read> | undefined;
  // One database read per scrape, shared by the gauges that need it.
  const counts = () => {
    last ??= read().finally(() => setTimeout(() => (last = undefined), 500).unref());
    return last;
  };
  new client.Gauge({
    name: 'dataplatform_database_up',
    help: 'Whether the database answered a ping at the scrape, with its engine.',
    labelNames: ['engine'],
    registers: [registry],
    async collect() {
      const up = await withinScrape(storage.ping()).then(
        () => 1,
        () => 0,
      );
      this.set({ engine: storage.engine }, up);
    },
  });
  new client.Gauge({
    name: 'dataplatform_webhook_outbox_depth',
    help: 'Webhook deliveries waiting for an attempt.',
    registers: [registry],
    async collect() {
      const read = await counts().catch(() => undefined);
      if (read) this.set(read.pendingDeliveries);
    },
  });
  new client.Gauge({
    name: 'dataplatform_webhook_delivery_lag_seconds',
    help: 'Age of the oldest webhook delivery waiting for an attempt; 0 when none waits.',
    registers: [registry],
    async collect() {
      const read = await counts().catch(() => undefined);
      if (!read) return;
      const oldest = read.oldestPendingAt;
      this.set(oldest === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000));
    },
  });
  new client.Gauge({
    name: 'dataplatform_jobs',
    help: 'Jobs by status.',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const read = await counts().catch(() => undefined);
      if (!read) return;
      this.reset();
      for (const [status, n] of Object.entries(read.jobs)) this.set({ status }, n);
    },
  });
  const pool = storage.pool?.bind(storage);
  if (pool) {
    new client.Gauge({
      name: 'dataplatform_database_pool_connections',
      help: "Connections of this instance's database pool by state (max: the pool's size).",
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { waiting, ...connections } = pool();
        for (const [state, n] of Object.entries(connections)) this.set({ state }, n);
      },
    });
    new client.Gauge({
      name: 'dataplatform_database_pool_waiting_queries',
      help: 'Queries waiting for a free connection of the pool.',
      registers: [registry],
      collect() {
        this.set(pool().waiting);
      },
    });
  }
  if (sources.requestLogBuffered) {
    const buffered = sources.requestLogBuffered;
    new client.Gauge({
      name: 'dataplatform_request_log_buffered',
      help: 'Request log entries waiting to be written.',
      registers: [registry],
      collect() {
        this.set(buffered());
      },
    });
  }
  return registry;
}
