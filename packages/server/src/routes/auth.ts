import type {
  ForgotPasswordRequest,
  PlanChoiceRequest,
  ResetPasswordRequest,
  RouteDefinition,
  SignInRequest,
  SignUpRequest,
} from '@dataplatform/contract';
import { authRoutes } from '@dataplatform/contract';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import { clientOf } from '../auth/client.js';
import type { AccountService } from '../services/accounts.js';
import type { PasswordResetService } from '../services/password-reset.js';
import { type AccountCall, type AccountHandler, registerAccountRoutes } from './account-routes.js';

type RouteId = (typeof authRoutes)[number]['id'];
type Call<T extends z.ZodType> = AccountCall<z.output<T>>;

/** What the auth routes need. */
export interface AuthRouteDeps {
  accounts: AccountService;
  resets: PasswordResetService;
  requireSession: onRequestHookHandler;
  /** The IP allowlist hook of `/api/auth/profile`. */
  ipAllowlist: onRequestHookHandler;
}

function handlers({ accounts, resets }: AuthRouteDeps): Record<RouteId, AccountHandler> {
  return {
    'auth.signup': ({ request, body }: Call<typeof SignUpRequest>) =>
      accounts.signUp(body, clientOf(request)),
    'auth.signin': ({ request, body }: Call<typeof SignInRequest>) =>
      accounts.signIn(body, clientOf(request)),
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
    'auth.forgotPassword': ({ request, body }: Call<typeof ForgotPasswordRequest>) =>
      resets.request(body.email, clientOf(request)),
    'auth.resetPassword': ({ request, body }: Call<typeof ResetPasswordRequest>) =>
      resets.complete(body.token, body.password, clientOf(request)),
    'auth.planChoice': ({ request, body }: Call<typeof PlanChoiceRequest>) =>
      accounts.choosePlan(request.session!.userId, body.plan, clientOf(request)),
  };
}

/** Registers `/api/auth/*`: sign-up, sign-in, the session, sign-out, password reset and plan choice. */
export function registerAuth(app: FastifyInstance, deps: AuthRouteDeps): void {
  registerAccountRoutes(app, authRoutes as readonly RouteDefinition[], handlers(deps), deps.requireSession, {
    'auth.profile': [deps.ipAllowlist],
  });
}
