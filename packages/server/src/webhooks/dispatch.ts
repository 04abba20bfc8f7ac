import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { ReceiverPolicy } from './addresses.js';

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
  private readonly agent: Agent;

  constructor(
    private readonly policy: ReceiverPolicy,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {
    this.agent = new Agent({
      connect: { lookup: policy.lookup as never, timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      this.policy.checkLiteral(new URL(url));
      const answer = await request(url, {
        method: 'POST',
        body,
        headers,
        dispatcher: this.agent,
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
    await this.agent.close();
  }
}
