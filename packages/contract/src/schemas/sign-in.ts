import { z } from 'zod';
import { label, Timestamp } from './common.js';

/** External identity providers the server can sign people in with. */
export const IDENTITY_PROVIDERS = ['google', 'github'] as const;

/** An external identity provider. */
export type IdentityProvider = (typeof IDENTITY_PROVIDERS)[number];

/** Query of a provider's start route. */
export const ProviderStartQuery = z
  .object({
    redirect_to: z.string().max(2048).optional().meta({
      description:
        'Where the browser goes after sign-in: a page of this server (`/account`, `/login`) or a loopback address (`http://127.0.0.1:<port>/…`, `http://localhost:<port>/…`, `http://[::1]:<port>/…`) of a local program such as the CLI. Anything else is refused. Default `/account`.',
    }),
    state: z.string().min(1).max(512).optional().meta({
      description: 'An opaque value of the caller, handed back with the token to a loopback `redirect_to`.',
    }),
  })
  .meta({ id: 'ProviderStartQuery' });

/** Query the provider sends the browser back with. */
export const ProviderCallbackQuery = z
  .object({
    code: z.string().max(2048).optional(),
    state: z.string().max(512).optional(),
    error: z.string().max(256).optional(),
  })
  .meta({ id: 'ProviderCallbackQuery' });

/** The answer of a redirect: no body, a Location header. */
export const Redirect = z.null().meta({ id: 'Redirect', description: 'No body; see the Location header.' });

/** A WebAuthn ceremony's options for `navigator.credentials`, and the id of the flow to send back with the result. */
export const PasskeyOptions = z
  .object({
    flowId: z
      .string()
      .meta({ description: 'Send it back with the authenticator’s response; valid once, 5 minutes' }),
    options: z.record(z.string(), z.unknown()).meta({
      description:
        'PublicKeyCredentialCreationOptionsJSON (registration) or PublicKeyCredentialRequestOptionsJSON (authentication), with base64url binary fields',
    }),
  })
  .meta({ id: 'PasskeyOptions', description: 'Options of a passkey ceremony.' });

/** An authenticator's answer in its JSON form (`PublicKeyCredential.toJSON()`). */
export const PasskeyCredentialJson = z
  .looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
  })
  .meta({
    id: 'PasskeyCredentialJson',
    description: 'A PublicKeyCredential in JSON form (base64url fields).',
  });

/** Request to register a passkey for the signed-in user. */
export const PasskeyRegisterRequest = z
  .strictObject({
    flowId: z.string().min(1).max(128),
    response: PasskeyCredentialJson,
    name: label(100).optional().meta({ description: 'A label; default "Passkey"' }),
  })
  .meta({ id: 'PasskeyRegisterRequest' });

/** Request to sign in with a passkey. */
export const PasskeyAuthenticateRequest = z
  .strictObject({ flowId: z.string().min(1).max(128), response: PasskeyCredentialJson })
  .meta({ id: 'PasskeyAuthenticateRequest' });

/** A passkey of the user. Never carries the public key. */
export const Passkey = z
  .object({
    _id: z.string().meta({ description: 'The credential id (base64url)' }),
    name: z.string(),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    deviceType: z.enum(['singleDevice', 'multiDevice']),
    backedUp: z.boolean(),
    transports: z.array(z.string()),
  })
  .meta({ id: 'Passkey', description: 'A passkey (WebAuthn credential) that signs the user in.' });

/** The user's passkeys. */
export const PasskeyList = z.object({ data: z.array(Passkey) }).meta({ id: 'PasskeyList' });

/** Path of a passkey's routes. */
export const PasskeyParams = z.object({ passkeyId: z.string().min(1).max(1024) });

export type PasskeyOptions = z.infer<typeof PasskeyOptions>;
export type Passkey = z.infer<typeof Passkey>;
export type PasskeyList = z.infer<typeof PasskeyList>;
