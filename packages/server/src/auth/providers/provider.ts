import { ApiError } from '../../http/errors.js';

/** The person a provider vouches for: its stable id of them, their verified e-mail, and a display name. */
export interface ProviderIdentity {
  subject: string;
  email: string;
  name: string;
}

/** What one authorization of the flow carries to the provider and back. */
export interface AuthorizationRequest {
  state: string;
  codeChallenge: string;
  nonce: string;
  redirectUri: string;
}

/** One external identity provider: where to send the browser, and how to turn the returned code into a person. */
export interface IdentityProviderClient {
  authorizationUrl(request: AuthorizationRequest): string;
  identify(
    code: string,
    verifier: string,
    request: Omit<AuthorizationRequest, 'codeChallenge' | 'state'>,
  ): Promise<ProviderIdentity>;
}

/** Exchanges an authorization code at a token endpoint (with the PKCE verifier) and returns the JSON answer. */
export async function exchangeCode(
  tokenUrl: string,
  fields: Record<string, string>,
): Promise<Record<string, unknown>> {
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'authorization_code', ...fields }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  // A refused code (used, expired, wrong verifier) is the caller's problem, not the server's.
  if (!res.ok || typeof body.error === 'string')
    throw new ApiError('invalid_credentials', 'The provider did not accept the authorization code');
  return body;
}
