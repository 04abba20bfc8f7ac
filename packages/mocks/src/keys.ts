import {
  effectiveScopes,
  isScope,
  type RouteDefinition,
  SCOPES,
  satisfiesScope,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { randomToken } from './ids.js';

/** The life-cycle states of an API key that decide whether it may be used. */
export type KeyStatus = 'active' | 'paused' | 'expired';

/** What a test asks for when it adds a key: its scopes and, to test refusals, its status. */
export interface AddKeyOptions {
  scopes: readonly string[];
  status?: KeyStatus;
}

/** The key every mock instance starts with; it holds every scope the contract knows. */
export const MOCK_API_KEY = 'svc_mock_all_scopes';

interface MockKey {
  scopes: ReadonlySet<string>;
  status: KeyStatus;
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
  readonly #keys = new Map<string, MockKey>([[MOCK_API_KEY, { scopes: new Set(SCOPES), status: 'active' }]]);

  /** Adds a key and returns its secret; unknown scope names throw, because a typo would pass as a 403 test. */
  add({ scopes, status = 'active' }: AddKeyOptions): string {
    const unknown = scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0) {
      throw new Error(`Unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(', ')}`);
    }
    const secret = `svc_mock_${randomToken(24)}`;
    this.#keys.set(secret, { scopes: new Set(scopes), status });
    return secret;
  }

  /** Throws the 401 or 403 the server would answer when the request may not call the route; else the key's effective scopes. */
  authorize(request: Request, route: RouteDefinition): ReadonlySet<string> {
    if (route.auth === 'public') return new Set();
    const key = this.#keys.get(credentialOf(request) ?? '');
    // Session tokens are not modelled: every credential that is not a known key is unknown.
    if (!key) throw new ApiError('unauthorized');
    if (route.auth === 'session') {
      throw new ApiError('unauthorized', 'This route needs a session token; API keys are refused');
    }
    if (key.status === 'paused') throw new ApiError('key_paused');
    if (key.status === 'expired') throw new ApiError('key_expired');
    const granted = effectiveScopes([...key.scopes]);
    if (!satisfiesScope(granted, route.scopes)) {
      throw new ApiError('insufficient_scope', undefined, { required: [...route.scopes] });
    }
    return granted;
  }
}
