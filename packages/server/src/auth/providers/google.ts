import { ApiError } from '../../http/errors.js';
import { type AuthorizationRequest, exchangeCode, type IdentityProviderClient } from './provider.js';
import type { GoogleSettings } from './settings.js';

/** Google sign-in over OpenID Connect: the e-mail comes from an ID token checked against Google's published keys. */
export class GoogleProvider implements IdentityProviderClient {
  // jose (loaded by the first sign-in) caches the key set and refetches it when a token names a key it has not
  // seen (key rotation).
  private keys: ReturnType<typeof import('jose').createRemoteJWKSet> | undefined;

  constructor(private readonly settings: GoogleSettings) {}

  authorizationUrl(request: AuthorizationRequest): string {
    const url = new URL(this.settings.authorizationUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.settings.clientId,
      redirect_uri: request.redirectUri,
      scope: 'openid email profile',
      state: request.state,
      nonce: request.nonce,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  async identify(code: string, verifier: string, request: { nonce: string; redirectUri: string }) {
    const tokens = await exchangeCode(this.settings.tokenUrl, {
      code,
      code_verifier: verifier,
      redirect_uri: request.redirectUri,
      client_id: this.settings.clientId,
      client_secret: this.settings.clientSecret,
    });
    if (typeof tokens.id_token !== 'string')
      throw new ApiError('invalid_credentials', 'The provider answered without an ID token');
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    this.keys ??= createRemoteJWKSet(new URL(this.settings.jwksUrl));
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(tokens.id_token, this.keys, {
        issuer: this.settings.issuer,
        audience: this.settings.clientId,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch {
      throw new ApiError('invalid_credentials', 'The ID token did not verify against the provider’s keys');
    }
    // The nonce ties the ID token to this browser's authorization, so a token issued for another one is refused.
    if (claims.nonce !== request.nonce)
      throw new ApiError('invalid_credentials', 'The ID token belongs to another sign-in');
    if (typeof claims.email !== 'string' || claims.email_verified !== true)
      throw new ApiError('forbidden', 'The Google account has no verified e-mail address');
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name : claims.email;
    return { subject: String(claims.sub), email: claims.email, name: name.slice(0, 100) };
  }
}
