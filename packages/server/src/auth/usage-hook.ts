import type { FastifyInstance } from 'fastify';
import type { UsageRecorder } from '../services/usage-recorder.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key the request was made with, once its secret matched (set by authentication, even when it refuses). */
    usageKeyId?: string;
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
  app.addHook('onResponse', (request, reply, done) => {
    const keyId = request.usageKeyId;
    if (keyId !== undefined) {
      const path = request.url.split('?', 1)[0]!;
      recorder.record({
        keyId,
        method: request.method,
        path: path.length > MAX_PATH ? path.slice(0, MAX_PATH) : path,
        status: reply.statusCode,
        at: Date.now(),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
    }
    done();
  });
  app.addHook('onClose', () => recorder.close());
}
