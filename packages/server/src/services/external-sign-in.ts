import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IdentityProvider } from '@dataplatform/contract';
import type { ClientInfo } from '../auth/client.js';
import { GitHubProvider } from '../auth/providers/github.js';
import { GoogleProvider } from '../auth/providers/google.js';
import type { IdentityProviderClient } from '../auth/providers/provider.js';
import type { IdentityProviderSettings } from '../auth/providers/settings.js';
import { type RedirectTarget, redirectTarget } from '../auth/redirect-target.js';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/types.js';
import type { AccountService } from './accounts.js';

/** How long a started provider sign-in may take before its state expires. */
const FLOW_MINUTES = 10;

const random = () => randomBytes(32).toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Name of the cookie that binds a provider sign-in to the browser that started it. */
export function stateCookieName(provider: IdentityProvider): string {
  return `dp_${provider}_state`;
}

/** A started sign-in: where to send the browser, and the state to keep in its cookie. */
export interface StartedSignIn {
  location: string;
  state: string;
}

interface FlowPayload {
  verifier: string;
  nonce: string;
  target: RedirectTarget;
}

/**
 * Sign-in through Google and GitHub: the authorization-code flow with `state` and PKCE (S256). The flow's secrets
 * (PKCE verifier, nonce, where to go next) stay in the database under the hash of `state`, and `state` is also
 * kept in a cookie of the browser, so a callback only works once and only in the browser that started it.
 */
export class ExternalSignIn {
  private readonly clients: Partial<Record<IdentityProvider, IdentityProviderClient>> = {};

  constructor(
    private readonly settings: IdentityProviderSettings,
    private readonly storage: Storage,
    private readonly accounts: AccountService,
    /** This server's address as browsers reach it, for the callback address. */
    private readonly publicUrl: () => string,
  ) {
    if (settings.google.configured) this.clients.google = new GoogleProvider(settings.google.settings);
    if (settings.github.configured) this.clients.github = new GitHubProvider(settings.github.settings);
  }

  /** The callback address registered with the provider. */
  callbackUrl(provider: IdentityProvider): string {
    return `${this.publicUrl()}/api/auth/${provider}/callback`;
  }

  /** Starts a sign-in: checks `redirect_to`, stores the flow and answers the provider's authorization address. */
  async start(
    provider: IdentityProvider,
    query: { redirect_to?: string; state?: string },
  ): Promise<StartedSignIn> {
    const client = this.client(provider);
    const target = redirectTarget(query.redirect_to, query.state);
    const state = random();
    const payload: FlowPayload = { verifier: random(), nonce: random(), target };
    await this.storage.signIn.createFlow({
      id: sha256(state),
      purpose: `oauth:${provider}`,
      payload: payload as unknown as Record<string, unknown>,
      expiresAt: new Date(Date.now() + FLOW_MINUTES * 60_000).toISOString(),
    });
    const location = client.authorizationUrl({
      state,
      codeChallenge: sha256(payload.verifier),
      nonce: payload.nonce,
      redirectUri: this.callbackUrl(provider),
    });
    return { location, state };
  }

  /**
   * Finishes a sign-in: the state must match the browser's cookie and a stored, unused flow; the code is exchanged
   * with the PKCE verifier; the person is found (or created) and signed in.
   */
  async finish(
    provider: IdentityProvider,
    query: { code?: string; state?: string; error?: string },
    cookieState: string | undefined,
    client: ClientInfo,
  ) {
    const idp = this.client(provider);
    if (query.error !== undefined)
      throw new ApiError('invalid_credentials', `The provider ended the sign-in: ${query.error}`);
    if (!query.state || !cookieState || !sameText(query.state, cookieState))
      throw new ApiError('validation_error', 'state does not match the sign-in this browser started', {
        in: 'query',
        field: 'state',
      });
    if (!query.code)
      throw new ApiError('validation_error', 'code is missing', { in: 'query', field: 'code' });
    await this.accounts.countSignInAttempt(client);
    const flow = await this.storage.signIn.takeFlow(
      sha256(query.state),
      `oauth:${provider}`,
      new Date().toISOString(),
    );
    if (!flow)
      throw new ApiError('validation_error', 'This sign-in expired or was used already; start again', {
        in: 'query',
        field: 'state',
      });
    const payload = flow.payload as unknown as FlowPayload;
    const person = await idp.identify(query.code, payload.verifier, {
      nonce: payload.nonce,
      redirectUri: this.callbackUrl(provider),
    });
    const signedIn = await this.accounts.signInWithIdentity({ provider, ...person }, client);
    return { ...signedIn, target: payload.target };
  }

  private client(provider: IdentityProvider): IdentityProviderClient {
    const client = this.clients[provider];
    if (client) return client;
    const setting = this.settings[provider];
    const missing = setting.configured ? [] : setting.missing;
    throw new ApiError(
      'not_found',
      `Sign-in with ${provider === 'google' ? 'Google' : 'GitHub'} is not configured on this server: set ${missing.join(' and ')}`,
      { missing },
    );
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
