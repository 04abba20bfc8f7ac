import type {
  PasskeyAuthenticateRequest,
  PasskeyParams,
  PasskeyRegisterRequest,
  RouteDefinition,
} from '@dataplatform/contract';
import { webauthnRoutes } from '@dataplatform/contract';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import { clientOf } from '../auth/client.js';
import { validate } from '../http/validate.js';
import type { PasskeyService } from '../services/passkeys.js';
import { type AccountCall, type AccountHandler, registerAccountRoutes } from './account-routes.js';

type RouteId = (typeof webauthnRoutes)[number]['id'];
type Call<T extends z.ZodType> = AccountCall<z.output<T>>;

function handlers(passkeys: PasskeyService): Record<RouteId, AccountHandler> {
  return {
    'webauthn.registrationOptions': ({ request }) => passkeys.registrationOptions(request.session!.userId),
    'webauthn.register': ({ request, body }: Call<typeof PasskeyRegisterRequest>) =>
      passkeys.register(request.session!.userId, body, clientOf(request)),
    'webauthn.authenticationOptions': ({ request }) => passkeys.authenticationOptions(clientOf(request)),
    'webauthn.authenticate': ({ request, body }: Call<typeof PasskeyAuthenticateRequest>) =>
      passkeys.authenticate(body, clientOf(request)),
    'webauthn.list': ({ request }) => passkeys.list(request.session!.userId),
    'webauthn.delete': ({ request }) => {
      const route = webauthnRoutes.find((r) => r.id === 'webauthn.delete')!;
      const { passkeyId } = validate(route.params, request.params, 'path') as z.output<typeof PasskeyParams>;
      return passkeys.remove(request.session!.userId, passkeyId, clientOf(request));
    },
  };
}

/** Registers `/api/webauthn/*`: passkey registration, passkey sign-in, and the user's passkeys. */
export function registerWebauthn(
  app: FastifyInstance,
  passkeys: PasskeyService,
  requireSession: onRequestHookHandler,
) {
  registerAccountRoutes(
    app,
    webauthnRoutes as readonly RouteDefinition[],
    handlers(passkeys),
    requireSession,
  );
}
