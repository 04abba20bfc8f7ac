import type { FastifyInstance } from 'fastify';
import type { UsageRecorder } from '../services/usage-recorder.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key the request was made with, once its secret matched (set by authentication, even when it refuses). */
    usageKeyId?: string;
    /** The cluster of that key (set with `usageKeyId`), for the request log and metrics of refused requests. */
    usageClusterId?: string;
  }
}

/** Longest path kept in the history; longer ones are cut. */
const MAX_PATH = 2048;

/**
 * Records every answer to a request made with a known key in that key's usage history, with its final status
 * (401, 403 and 429 count as `denied`, anything else as `success`). Runs after the answer is sent, and only buffers.
 * The recorder's buffer is written when the app closes, before the storage does.
 */
export function registerUsageRecording(app: FastifyInstance, recorder: UsageRecorder): void {
  app.decorateRequest('usageKeyId', undefined);
  app.decorateRequest('usageClusterId', undefined);
  app.addHook('onResponse', (request, reply, done) => {
    const keyId = request.usageKeyId;
    if (keyId !== undefined) {
      const url = request.url;
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      recorder.record(
        keyId,
        request.method,
        path.length > MAX_PATH ? path.slice(0, MAX_PATH) : path,
        reply.statusCode,
        request.ip,
        request.headers['user-agent'],
      );
    }
    done();
  });
  app.addHook('onClose', () => recorder.close());
}
