import type {
  AuthSession,
  BillingAccount,
  CurrentSession,
  DeletedResponse,
  DeviceAuthorization,
  DeviceDecision,
  LoggedOut,
  Passkey,
  PasskeyList,
  PasskeyOptions,
  PasswordReset,
  Plan,
  ResetRequested,
  SignInRequest,
  SignUpRequest,
  User,
} from '../contract-types.js';
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

  /**
   * The address that starts sign-in with Google or GitHub in a browser. `redirectTo` is a page of the server
   * (`/account`, the default) or a loopback address of a local program, which then receives `token`, `expiresAt`
   * and `state` in a form POST (see docs/auth.md, "Browser sign-in").
   */
  providerSignInUrl(
    provider: 'google' | 'github',
    options: { redirectTo?: string; state?: string } = {},
  ): string {
    const query = new URLSearchParams();
    if (options.redirectTo !== undefined) query.set('redirect_to', options.redirectTo);
    if (options.state !== undefined) query.set('state', options.state);
    const search = query.toString();
    return `${this._client.baseUrl}${BASE}${provider}${search ? `?${search}` : ''}`;
  }

  /** The sign-in page of the server, as the CLI opens it: it hands the token to `redirectTo` with `state`. */
  loginPageUrl(options: { redirectTo?: string; state?: string } = {}): string {
    const query = new URLSearchParams();
    if (options.redirectTo !== undefined) query.set('redirect_to', options.redirectTo);
    if (options.state !== undefined) query.set('state', options.state);
    const search = query.toString();
    return `${this._client.baseUrl}/login${search ? `?${search}` : ''}`;
  }

  /** Passkeys under `/api/webauthn`: registration needs a signed-in client; sign-in needs none. */
  get passkeys(): Passkeys {
    this.#passkeys ??= new Passkeys(this._client);
    return this.#passkeys;
  }

  #passkeys: Passkeys | undefined;

  /** Device sign-in (RFC 8628) under `/api/auth/device`, for programs without a browser. */
  get device(): DeviceSignIn {
    this.#device ??= new DeviceSignIn(this._client);
    return this.#device;
  }

  #device: DeviceSignIn | undefined;

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

const WEBAUTHN = '/api/webauthn/';

/**
 * Passkey routes. The browser's `navigator.credentials` does the ceremony between the options and the verify call.
 * @example
 * const { flowId, options } = await client.auth.passkeys.registrationOptions();
 * // … navigator.credentials.create({ publicKey: decoded options }) …
 * await client.auth.passkeys.register({ flowId, response: credential.toJSON(), name: 'Laptop' });
 */
export class Passkeys extends APIResource {
  /** Options for `navigator.credentials.create()` for the signed-in user, and the flow id to send back. */
  registrationOptions(options?: RequestOptions): APIPromise<PasskeyOptions> {
    return this._client.post(`${WEBAUTHN}register/options`, options);
  }

  /** Stores the new passkey after the server verified the authenticator's response. */
  register(
    body: { flowId: string; response: Record<string, unknown>; name?: string },
    options?: RequestOptions,
  ): APIPromise<Passkey> {
    return this._client.post(`${WEBAUTHN}register/verify`, { ...options, body });
  }

  /** Options for `navigator.credentials.get()`; no e-mail needed. */
  authenticationOptions(options?: RequestOptions): APIPromise<PasskeyOptions> {
    return this._client.post(`${WEBAUTHN}authenticate/options`, options);
  }

  /** Signs in with the authenticator's assertion: `{ user, token, expiresAt }`, like a password sign-in. */
  authenticate(
    body: { flowId: string; response: Record<string, unknown> },
    { storeToken, ...options }: SignInOptions = {},
  ): APIPromise<AuthSession> {
    return this._client.request<AuthSession>(
      'POST',
      `${WEBAUTHN}authenticate/verify`,
      { ...options, body },
      (session) => {
        if (storeToken) this._client.setToken(session.token);
      },
    );
  }

  /** The signed-in user's passkeys, oldest first. */
  list(options?: RequestOptions): APIPromise<PasskeyList> {
    return this._client.get(`${WEBAUTHN}passkeys`, options);
  }

  /** Deletes a passkey; NotFoundError when the user has none with that id. */
  delete(passkeyId: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(`${WEBAUTHN}passkeys/${encodeURIComponent(passkeyId)}`, options);
  }
}

/**
 * Device sign-in (RFC 8628): a program without a browser starts it and polls; the person confirms the short code
 * on `verificationUri` while signed in there.
 * @example
 * const started = await client.auth.device.start();
 * console.log(`Open ${started.verificationUri} and enter ${started.userCode}`);
 * // poll every `interval` seconds: 428 authorization_pending, 400 slow_down, then the session
 * const session = await client.auth.device.token(started.deviceCode);
 */
export class DeviceSignIn extends APIResource {
  /** Starts a sign-in: the secret device code, the short user code and where to confirm it. */
  start(options?: RequestOptions): APIPromise<DeviceAuthorization> {
    return this._client.post(`${BASE}device`, options);
  }

  /** The signed-in person approves the code: the program's next poll gets a session of this person. */
  approve(userCode: string, options?: RequestOptions): APIPromise<DeviceDecision> {
    return this._client.post(`${BASE}device/approve`, { ...options, body: { userCode } });
  }

  /** The signed-in person refuses the code: the program's next poll gets `access_denied`. */
  deny(userCode: string, options?: RequestOptions): APIPromise<DeviceDecision> {
    return this._client.post(`${BASE}device/deny`, { ...options, body: { userCode } });
  }

  /**
   * One poll: the session once approved (handed out once). Until then an APIError with `code`
   * `authorization_pending` (428), `slow_down` (400, `details.interval` is the new wait), `access_denied` (403),
   * `expired_token` or `invalid_grant` (400).
   */
  token(deviceCode: string, options?: RequestOptions): APIPromise<AuthSession> {
    return this._client.post(`${BASE}device/token`, { ...options, body: { deviceCode } });
  }
}
