import type { authRoutes } from '@dataplatform/contract';
import { clientOf } from '../auth/client.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { AccountService } from '../services/accounts.js';
import type { PasswordResetService } from '../services/password-reset.js';

/** What the auth routes need. */
export interface AuthRouteServices {
  accounts: AccountService;
  resets: PasswordResetService;
}

/** `/api/auth/*`: sign-up, sign-in, the session, sign-out, password reset and plan choice. */
export function authHandlers({ accounts, resets }: AuthRouteServices): RouteHandlers<typeof authRoutes> {
  return {
    'auth.signup': ({ request, body }) => accounts.signUp(body, clientOf(request)),
    'auth.signin': ({ request, body }) => accounts.signIn(body, clientOf(request)),
    'auth.me': async ({ request }) => {
      const session = request.session!;
      return {
        user: await accounts.user(session.userId),
        session: { id: session.sessionId, expiresAt: session.expiresAt },
        billing: await accounts.billing(session.userId),
      };
    },
    'auth.profile': ({ request }) => accounts.user(request.session!.userId),
    'auth.logout': ({ request }) =>
      accounts.logout(request.session!.userId, request.session!.sessionId, clientOf(request)),
    'auth.logoutAll': ({ request }) => accounts.logoutAll(request.session!.userId, clientOf(request)),
    'auth.forgotPassword': ({ request, body }) => resets.request(body.email, clientOf(request)),
    'auth.resetPassword': ({ request, body }) =>
      resets.complete(body.token, body.password, clientOf(request)),
    'auth.planChoice': ({ request, body }) =>
      accounts.choosePlan(request.session!.userId, body.plan, clientOf(request)),
  };
}
