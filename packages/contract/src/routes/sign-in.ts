import { AuthSession } from '../schemas/auth.js';
import { Deleted } from '../schemas/common.js';
import {
  Passkey,
  PasskeyAuthenticateRequest,
  PasskeyList,
  PasskeyOptions,
  PasskeyParams,
  PasskeyRegisterRequest,
  ProviderCallbackQuery,
  ProviderStartQuery,
  Redirect,
} from '../schemas/sign-in.js';
import type { RouteDefinition } from './types.js';

const NOT_CONFIGURED =
  'When the provider has no client credentials configured, every route of it answers 404 `not_found` naming the missing settings.';

function providerRoutes<const P extends 'google' | 'github'>(provider: P, name: string) {
  return [
    {
      id: `auth.${provider}`,
      method: 'GET',
      path: `/api/auth/${provider}`,
      tag: 'auth',
      summary: `Start sign-in with ${name}`,
      description: `Sends the browser to ${name} (authorization code with \`state\` and PKCE S256). ${NOT_CONFIGURED}`,
      auth: 'public',
      scopes: [],
      query: ProviderStartQuery,
      success: {
        status: 302,
        description: `To ${name}'s sign-in page`,
        schema: Redirect,
        headers: ['redirectTo'],
      },
      errors: ['validation_error', 'not_found'],
    },
    {
      id: `auth.${provider}Callback`,
      method: 'GET',
      path: `/api/auth/${provider}/callback`,
      tag: 'auth',
      summary: `Finish sign-in with ${name}`,
      description: `Where ${name} sends the browser back. Checks \`state\` against the browser's sign-in, exchanges the code with the PKCE verifier, reads the verified e-mail, finds or creates the user, links the identity and starts a session. The token goes to \`redirect_to\`: a page of this server gets \`#token=…&expiresAt=…\` in the fragment (302); a loopback address gets an HTML form that POSTs \`token\`, \`expiresAt\` and \`state\` to it (200 text/html). ${NOT_CONFIGURED}`,
      auth: 'public',
      scopes: [],
      query: ProviderCallbackQuery,
      success: {
        status: 302,
        description: 'To `redirect_to` with the token',
        schema: Redirect,
        headers: ['redirectTo'],
      },
      errors: ['validation_error', 'invalid_credentials', 'forbidden', 'not_found', 'rate_limited'],
    },
  ] as const satisfies readonly RouteDefinition[];
}

/** Sign-in through Google (OpenID Connect) and GitHub. */
export const identityProviderRoutes = [
  ...providerRoutes('google', 'Google'),
  ...providerRoutes('github', 'GitHub'),
] as const satisfies readonly RouteDefinition[];

const tag = 'webauthn';
const bodyErrors = ['validation_error', 'invalid_json', 'invalid_body'] as const;

/** Passkeys under /api/webauthn. */
export const webauthnRoutes = [
  {
    id: 'webauthn.registrationOptions',
    method: 'POST',
    path: '/api/webauthn/register/options',
    tag,
    summary: 'Start registering a passkey',
    description:
      'Options for `navigator.credentials.create()` for the signed-in user (a discoverable credential).',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The ceremony options', schema: PasskeyOptions },
    errors: [],
  },
  {
    id: 'webauthn.register',
    method: 'POST',
    path: '/api/webauthn/register/verify',
    tag,
    summary: 'Register a passkey',
    description:
      'Verifies the authenticator’s response against the flow’s challenge, the relying-party id and the origin, and stores the passkey. A used, expired or unknown `flowId` and a response that does not verify are 400 `validation_error`; a passkey registered already is 409 `conflict`.',
    auth: 'session',
    scopes: [],
    body: PasskeyRegisterRequest,
    success: { status: 201, description: 'The new passkey', schema: Passkey },
    errors: [...bodyErrors, 'conflict'],
  },
  {
    id: 'webauthn.authenticationOptions',
    method: 'POST',
    path: '/api/webauthn/authenticate/options',
    tag,
    summary: 'Start signing in with a passkey',
    description:
      'Options for `navigator.credentials.get()`. No e-mail is needed: the authenticator offers the passkeys it holds for this site.',
    auth: 'public',
    scopes: [],
    success: { status: 200, description: 'The ceremony options', schema: PasskeyOptions },
    errors: ['rate_limited'],
  },
  {
    id: 'webauthn.authenticate',
    method: 'POST',
    path: '/api/webauthn/authenticate/verify',
    tag,
    summary: 'Sign in with a passkey',
    description:
      'Verifies the assertion (challenge, relying-party id, origin, signature and counter) and starts a session, with the same token as a password sign-in. An unknown passkey, a bad signature or a counter that went back is 401 `invalid_credentials`. Counts against the per-address sign-in limit.',
    auth: 'public',
    scopes: [],
    body: PasskeyAuthenticateRequest,
    success: { status: 200, description: 'The user and a session token', schema: AuthSession },
    errors: [...bodyErrors, 'invalid_credentials', 'rate_limited'],
  },
  {
    id: 'webauthn.list',
    method: 'GET',
    path: '/api/webauthn/passkeys',
    tag,
    summary: 'List passkeys',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The user’s passkeys, oldest first', schema: PasskeyList },
    errors: [],
  },
  {
    id: 'webauthn.delete',
    method: 'DELETE',
    path: '/api/webauthn/passkeys/{passkeyId}',
    tag,
    summary: 'Delete a passkey',
    auth: 'session',
    scopes: [],
    params: PasskeyParams,
    success: { status: 200, description: 'The passkey no longer signs in', schema: Deleted },
    errors: ['not_found'],
  },
] as const satisfies readonly RouteDefinition[];
