import type { FastifyInstance } from 'fastify';
import type { ObservedRequest } from '../services/request-log-recorder.js';
import type { Clock } from '../webhooks/clock.js';

/** What is told of every answered request: the request log's recorder, the metrics. */
export interface RequestObserver {
  record(request: ObservedRequest): void;
}

/**
 * Tells the observers of every answered request, after the answer is sent: method, URL, status, duration, the
 * key, user and cluster it was made with, address, user agent, request id and bytes each way. Observers only
 * buffer; their writes happen off the request's path.
 */
export function observeRequests(
  app: FastifyInstance,
  observers: readonly RequestObserver[],
  clock: Clock,
): void {
  if (observers.length === 0) return;
  app.addHook('onResponse', (request, reply, done) => {
    const principal = request.principal;
    const userId =
      request.session?.userId ?? (principal?.kind === 'session' ? principal.userId : null) ?? null;
    const length = reply.getHeader('content-length');
    const observed: ObservedRequest = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
      keyId: request.usageKeyId ?? null,
      userId,
      clusterId: principal?.clusterId ?? request.usageClusterId ?? null,
      // A stream whose client has gone is answered with its socket destroyed: the address is no longer known.
      ip: (request.ip as string | undefined) ?? '',
      userAgent: request.headers['user-agent'] ?? null,
      requestId: request.id,
      bytesIn: Number(request.headers['content-length']) || 0,
      bytesOut: Number(length) || 0,
      at: clock.now(),
    };
    for (const observer of observers) observer.record(observed);
    done();
  });
}
