import { performance } from 'node:perf_hooks';
import type { Agent } from 'undici';
import { lazy } from '../lazy.js';
import type { ReceiverPolicy } from './addresses.js';

/** undici, loaded by the first delivery: a server without webhooks never needs it. */
const undici = lazy(() => import('undici'));

/** API.md: a delivery succeeds on a 2xx within 10 s. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is read (and thrown away) so the connection can be reused. */
const ANSWER_LIMIT = 64 * 1024;

/** What one POST to a receiver gave. */
export interface PostResult {
  /** The answer's HTTP status, or null when none came. */
  responseStatus: number | null;
  /** Why the attempt failed; null for a 2xx. */
  error: string | null;
  durationMs: number;
}

function failureOf(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `receiver answered ${status}; redirects are not followed`;
  return `receiver answered ${status}`;
}

function describe(error: unknown): string {
  const { name, message } = error as Error;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: Error }).cause;
  return cause?.message && cause.message !== message ? `${message}: ${cause.message}` : message;
}

/**
 * Posts deliveries with undici over kept-alive connections. Redirects are never followed (a 3xx is a failed
 * attempt), and connections go only to addresses the receiver policy allows, vetted when they are made.
 */
export class DeliveryDispatcher {
  /** Made with the first delivery. */
  private agent: Promise<Agent> | undefined;

  constructor(
    private readonly policy: ReceiverPolicy,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {}

  private connections(): Promise<Agent> {
    this.agent ??= undici().then(
      ({ Agent }) =>
        new Agent({
          connect: { lookup: this.policy.lookup as never, timeout: this.timeoutMs },
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
          keepAliveTimeout: 4_000,
        }),
    );
    return this.agent;
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      this.policy.checkLiteral(new URL(url));
      const dispatcher = await this.connections();
      const answer = await (await undici()).request(url, {
        method: 'POST',
        body,
        headers,
        dispatcher,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await answer.body.dump({ limit: ANSWER_LIMIT }).catch(() => {});
      return {
        responseStatus: answer.statusCode,
        error: failureOf(answer.statusCode),
        durationMs: elapsed(),
      };
    } catch (error) {
      return { responseStatus: null, error: describe(error), durationMs: elapsed() };
    }
  }

  async close(): Promise<void> {
    await (await this.agent)?.close();
  }
}
