import type {
  AuthSession,
  BillingAccount,
  CurrentSession,
  LoggedOut,
  PasswordReset,
  Plan,
  ResetRequested,
  SignInRequest,
  SignUpRequest,
  User,
} from '@dataplatform/contract';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';

/** Options of `signUp` and `signIn`. */
export interface SignInOptions extends RequestOptions {
  /** Keep the new session token on this client, so its later calls are signed in (default false). */
  storeToken?: boolean;
}

const BASE = '/api/auth/';

/**
 * Accounts and sessions, under `/api/auth`. Routes that need a signed-in user take the client's `token`.
 * @example
 * const client = new DataPlatform();
 * await client.auth.signIn({ email, password }, { storeToken: true });
 * const { user } = await client.auth.me();
 */
export class Auth extends APIResource {
  /** Creates an account (free plan, 14-day trial) and signs it in: `{ user, token, expiresAt }`. */
  signUp(body: SignUpRequest, options: SignInOptions = {}): APIPromise<AuthSession> {
    return this.#session('signup', body, options);
  }

  /** Signs in; AuthenticationError `invalid_credentials` for a wrong e-mail or password alike. */
  signIn(body: SignInRequest, options: SignInOptions = {}): APIPromise<AuthSession> {
    return this.#session('signin', body, options);
  }

  /** The signed-in user and the current session; AuthenticationError `session_expired` once it ended. */
  me(options?: RequestOptions): APIPromise<CurrentSession> {
    return this._client.get(`${BASE}me`, options);
  }

  /** The signed-in user's profile; PermissionDeniedError `ip_blocked` from outside the IP allowlist. */
  profile(options?: RequestOptions): APIPromise<User> {
    return this._client.get(`${BASE}profile`, options);
  }

  /** Ends this session; a token stored on the client is dropped. */
  logout(options?: RequestOptions): APIPromise<LoggedOut> {
    return this._client.request('POST', `${BASE}logout`, options, () => this.#forget(options));
  }

  /** Ends every session of the user, this one included; a token stored on the client is dropped. */
  logoutAll(options?: RequestOptions): APIPromise<LoggedOut> {
    return this._client.request('POST', `${BASE}logout-all`, options, () => this.#forget(options));
  }

  /** Asks for a reset link by e-mail; always `{ accepted: true }`, whether or not the address has an account. */
  forgotPassword(email: string, options?: RequestOptions): APIPromise<ResetRequested> {
    return this._client.post(`${BASE}forgot-password`, { ...options, body: { email } });
  }

  /** Sets a new password with the token from the reset e-mail; every session of the user ends. */
  resetPassword(
    body: { token: string; password: string },
    options?: RequestOptions,
  ): APIPromise<PasswordReset> {
    return this._client.post(`${BASE}reset-password`, { ...options, body });
  }

  /** Switches the billing account to `free`, `starter`, `team` or `payg`, and returns it. */
  choosePlan(plan: Plan, options?: RequestOptions): APIPromise<BillingAccount> {
    return this._client.post(`${BASE}plan-choice`, { ...options, body: { plan } });
  }

  #session(route: string, body: object, { storeToken, ...options }: SignInOptions): APIPromise<AuthSession> {
    return this._client.request<AuthSession>('POST', BASE + route, { ...options, body }, (session) => {
      if (storeToken) this._client.setToken(session.token);
    });
  }

  /** After a logout made with the client's own token, that token is dead: stop sending it. */
  #forget(options: RequestOptions | undefined): void {
    const own = !Object.keys(options?.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
    if (own) this._client.setToken(undefined);
  }
}
