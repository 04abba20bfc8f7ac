import type { webauthnRoutes } from '@dataplatform/contract';
import { clientOf } from '../auth/client.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { PasskeyService } from '../services/passkeys.js';

/** `/api/webauthn/*`: passkey registration, passkey sign-in, and the user's passkeys. */
export function webauthnHandlers(passkeys: PasskeyService): RouteHandlers<typeof webauthnRoutes> {
  return {
    'webauthn.registrationOptions': ({ request }) => passkeys.registrationOptions(request.session!.userId),
    'webauthn.register': ({ request, body }) =>
      passkeys.register(request.session!.userId, body, clientOf(request)),
    'webauthn.authenticationOptions': ({ request }) => passkeys.authenticationOptions(clientOf(request)),
    'webauthn.authenticate': ({ request, body }) => passkeys.authenticate(body, clientOf(request)),
    'webauthn.list': ({ request }) => passkeys.list(request.session!.userId),
    'webauthn.delete': ({ request, params }) =>
      passkeys.remove(request.session!.userId, params.passkeyId, clientOf(request)),
  };
}
