import {
  effectiveScopes,
  errorCodes,
  isScope,
  RATE_WINDOW_SECONDS,
  type RateTier,
  type RouteDefinition,
  rateLimitHeaders,
  SCOPES,
  satisfiesScope,
  TIER_LIMITS,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { randomToken } from './ids.js';
import { isExpired, ManagedKeys } from './managed-keys.js';

/** The life-cycle states of an API key that decide whether it may be used. */
export type KeyStatus = 'active' | 'paused' | 'expired';

/** What a test asks for when it adds a key: its scopes and, to test refusals, its status and rate-limit tier. */
export interface AddKeyOptions {
  scopes: readonly string[];
  status?: KeyStatus;
  /**
   * The tier whose per-minute limit the key gets (`free` 100, `starter` 500, `pro` 2000), counted as the server
   * counts it, with the `RateLimit-*` headers on every answer after authentication and 429 `rate_limited` past
   * the limit. Default `enterprise`: no limit and no headers, like the development key.
   */
  tier?: RateTier;
}

/** The key every mock instance starts with; it holds every scope the contract knows. */
export const MOCK_API_KEY = 'svc_mock_all_scopes';

/** A key the ring accepts: scopes, status and rate-limit window (a managed key adds its record). */
export interface MockKey {
  scopes: ReadonlySet<string>;
  status: KeyStatus;
  tier: RateTier;
  /** The current fixed window of the rate limit: when it ends and how many requests it counted. */
  window?: { endsAt: number; count: number };
}

/** What authorization lets through: the key's effective scopes and the headers every answer then carries. */
export interface Authorized {
  scopes: ReadonlySet<string>;
  headers: Record<string, string>;
  /** The key that authenticated, so the answer's status can be recorded in its usage history. */
  key?: MockKey;
}

/** Reads the API key from `X-API-Key`, or from `Authorization: Bearer svc_…` (other bearer values are session tokens). */
function credentialOf(request: Request): string | null {
  const header = request.headers.get('x-api-key')?.trim();
  if (header) return header;
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  return match?.[1]?.startsWith('svc_') ? match[1] : null;
}

/** The API keys a mock instance accepts, and the checks the server makes before it looks at a request. */
export class KeyRing {
  readonly #keys = new Map<string, MockKey>([
    [MOCK_API_KEY, { scopes: new Set(SCOPES), status: 'active', tier: 'enterprise' }],
  ]);

  /** The tier a key counts at now, when it differs from its own: a managed key's comes from its owner's plan. */
  tierOf: (key: MockKey) => RateTier | undefined = () => undefined;

  /** Per-user windows of session tokens on data routes, counted at the user's tier. */
  readonly #users = new Map<string, MockKey>();

  /** Keys made through `/api/keys` and `/api/robots`: their secrets live in this ring from creation to deletion. */
  readonly managed = new ManagedKeys({
    set: (secret, key) => this.#keys.set(secret, key),
    remove: (key) => {
      for (const [secret, held] of this.#keys) if (held === key) this.#keys.delete(secret);
    },
  });

  /** Adds a key and returns its secret; unknown scope names throw, because a typo would pass as a 403 test. */
  add({ scopes, status = 'active', tier = 'enterprise' }: AddKeyOptions): string {
    const unknown = scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0) {
      throw new Error(`Unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(', ')}`);
    }
    const secret = `svc_mock_${randomToken(24)}`;
    this.#keys.set(secret, { scopes: new Set(scopes), status, tier });
    return secret;
  }

  /**
   * Throws the 401, 403 or 429 the server would answer when the request may not call the route; else the key's
   * effective scopes and its rate-limit headers. As on the server, a request is counted once its key is known to
   * work, before the scope check, so a 403 carries the headers too.
   */
  authorize(request: Request, route: RouteDefinition, ip: string): Authorized {
    if (route.auth === 'public') return { scopes: new Set(), headers: {} };
    const key = this.#keys.get(credentialOf(request) ?? '');
    // Session tokens are checked before the ring: every credential that reaches it and is not a known key is unknown.
    if (!key) throw new ApiError('unauthorized');
    if (route.auth === 'session') {
      throw new ApiError('unauthorized', 'This route needs a session token; API keys are refused');
    }
    try {
      return { ...this.#check(key, route), key };
    } catch (error) {
      // A known key's refusals are in its usage history, as on the server.
      if (error instanceof ApiError) this.managed.record(key, request, errorCodes[error.code].status, ip);
      throw error;
    }
  }

  /** Counts a session's request on a data route in its user's window, as the server does; the headers to send. */
  countUser(userId: string, tier: RateTier): Record<string, string> {
    let window = this.#users.get(userId);
    if (!window) {
      window = { scopes: new Set(), status: 'active', tier };
      this.#users.set(userId, window);
    }
    return count(window, tier);
  }

  #check(key: MockKey, route: RouteDefinition): Authorized {
    if (key.status === 'paused') throw new ApiError('key_paused');
    if (key.status === 'expired' || isExpired(key)) throw new ApiError('key_expired');
    const headers = count(key, this.tierOf(key) ?? key.tier);
    const granted = effectiveScopes([...key.scopes]);
    if (!satisfiesScope(granted, route.scopes)) {
      throw new ApiError('insufficient_scope', undefined, { required: [...route.scopes] }, headers);
    }
    return { scopes: granted, headers };
  }
}

/** Counts one request in the key's fixed one-minute window; throws 429 past the limit of its tier. */
function count(key: MockKey, tier: RateTier): Record<string, string> {
  const limit = TIER_LIMITS[tier];
  if (limit === null) return {};
  const now = Date.now();
  if (key.window === undefined || now >= key.window.endsAt) {
    key.window = { endsAt: now + RATE_WINDOW_SECONDS * 1000, count: 0 };
  }
  key.window.count++;
  const allowed = key.window.count <= limit;
  const headers = rateLimitHeaders({
    allowed,
    limit,
    remaining: limit - key.window.count,
    resetSeconds: Math.ceil((key.window.endsAt - now) / 1000),
  });
  if (!allowed) throw new ApiError('rate_limited', undefined, undefined, headers);
  return headers;
}
