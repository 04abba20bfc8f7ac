import type {
  authRoutes,
  deviceRoutes,
  identityProviderRoutes,
  logsKeyRoutes,
  logsRoutes,
  RequestLogQuery,
  SettingsPatch,
  settingsRoutes,
  webauthnRoutes,
} from '@dataplatform/contract';
import type { AccountModel } from './accounts.js';
import type { Answer } from './answers.js';
import { ApiError } from './answers.js';
import type { Operation } from './document-operations.js';
import { randomToken } from './ids.js';
import type { AccountInput, OperationInput } from './request-input.js';

type RouteId =
  | (typeof authRoutes)[number]['id']
  | (typeof deviceRoutes)[number]['id']
  | (typeof settingsRoutes)[number]['id']
  | (typeof logsRoutes)[number]['id']
  | (typeof logsKeyRoutes)[number]['id']
  | (typeof identityProviderRoutes)[number]['id']
  | (typeof webauthnRoutes)[number]['id'];

/** An account route's behaviour, given the validated body and query and the account context. */
type AccountOperation = (input: OperationInput & { account: AccountInput }) => {
  status?: number;
  body: unknown;
};

function operation(run: AccountOperation, status = 200): Operation {
  return (input): Answer => {
    if (!input.account) throw new Error('account routes need the account context');
    const answer = run(input as OperationInput & { account: AccountInput });
    return { status: answer.status ?? status, body: answer.body };
  };
}

const userId = (account: AccountInput) => account.session!.userId;

/**
 * A provider that approves at once: the start route sends the browser straight to the callback, and the callback
 * signs in the provider's one mock person and hands the token to `/account` in the fragment, as the server does.
 */
function providerStart(provider: string): Operation {
  return () => ({
    status: 302,
    body: null,
    headers: { location: `/api/auth/${provider}/callback?code=mock_code&state=${randomToken(32)}` },
  });
}

function providerCallback(provider: string): Operation {
  return (input) => {
    const query = input.query as { code?: string; state?: string };
    if (!query.code || !query.state)
      throw new ApiError('validation_error', 'state does not match the sign-in this browser started', {
        in: 'query',
        field: 'state',
      });
    const session = input.account!.model.signInWithProvider(provider, input.account!.client);
    const fragment = new URLSearchParams({ token: session.token, expiresAt: session.expiresAt });
    return { status: 302, body: null, headers: { location: `/account#${fragment}` } };
  };
}

type Passkeys = AccountInput['model']['passkeys'];

/** The behaviour of `/api/auth/*`, `/api/settings/*` and `/api/logs/*`, as on the server. */
export const accountOperations: Record<RouteId, Operation> = {
  'auth.signup': operation(
    ({ body, account }) => ({
      body: account.model.signUp(body as Parameters<AccountModel['signUp']>[0], account.client),
    }),
    201,
  ),
  'auth.signin': operation(({ body, account }) => ({
    body: account.model.signIn(body as Parameters<AccountModel['signIn']>[0], account.client),
  })),
  'auth.me': operation(({ account }) => ({
    body: {
      user: account.model.user(userId(account)),
      session: { id: account.session!.id, expiresAt: account.session!.expiresAt },
      billing: account.model.billing(userId(account)),
    },
  })),
  'auth.profile': operation(({ account }) => ({ body: account.model.user(userId(account)) })),
  'auth.logout': operation(({ account }) => ({
    body: account.model.logout(account.session!, account.client),
  })),
  'auth.logoutAll': operation(({ account }) => ({
    body: account.model.logoutAll(userId(account), account.client),
  })),
  'auth.forgotPassword': operation(
    ({ body, account }) => ({
      body: account.model.forgotPassword((body as { email: string }).email, account.client),
    }),
    202,
  ),
  'auth.resetPassword': operation(({ body, account }) => ({
    body: account.model.resetPassword(body as Parameters<AccountModel['resetPassword']>[0], account.client),
  })),
  'auth.planChoice': operation(({ body, account }) => ({
    body: account.model.choosePlan(userId(account), (body as { plan: string }).plan, account.client),
  })),
  'auth.deviceStart': operation(({ account }) => ({ body: account.model.devices.start() })),
  'auth.deviceApprove': operation(({ body, account }) => ({
    body: account.model.devices.decide(userId(account), (body as { userCode: string }).userCode, 'approved'),
  })),
  'auth.deviceDeny': operation(({ body, account }) => ({
    body: account.model.devices.decide(userId(account), (body as { userCode: string }).userCode, 'denied'),
  })),
  'auth.deviceToken': operation(({ body, account }) => ({
    body: account.model.devices.poll((body as { deviceCode: string }).deviceCode, account.client),
  })),
  'auth.google': providerStart('google'),
  'auth.googleCallback': providerCallback('google'),
  'auth.github': providerStart('github'),
  'auth.githubCallback': providerCallback('github'),
  'webauthn.registrationOptions': operation(({ account }) => ({
    body: account.model.passkeys.registrationOptions(userId(account)),
  })),
  'webauthn.register': operation(
    ({ body, account }) => ({
      body: account.model.passkeys.register(userId(account), body as Parameters<Passkeys['register']>[1]),
    }),
    201,
  ),
  'webauthn.authenticationOptions': operation(({ account }) => ({
    body: account.model.passkeys.authenticationOptions(),
  })),
  'webauthn.authenticate': operation(({ body, account }) => ({
    body: account.model.passkeys.authenticate(
      body as Parameters<Passkeys['authenticate']>[0],
      account.client,
    ),
  })),
  'webauthn.list': operation(({ account }) => ({ body: account.model.passkeys.list(userId(account)) })),
  'webauthn.delete': operation(({ params, account }) => ({
    body: account.model.passkeys.remove(userId(account), params.passkeyId!),
  })),
  'settings.get': operation(({ account }) => ({ body: account.model.settings(userId(account)) })),
  'settings.update': operation(({ body, account }) => ({
    body: account.model.updateSettings(userId(account), body as SettingsPatch, account.client),
  })),
  'settings.getIpAllowlist': operation(({ account }) => ({
    body: account.model.ipAllowlist(userId(account), account.client),
  })),
  'settings.setIpAllowlist': operation(({ body, account }) => {
    const { entries } = body as { entries: string[] };
    return { body: account.model.setIpAllowlist(userId(account), entries, account.client) };
  }),
  'logs.requests.list': operation(({ query, account }) => ({
    body: account.model.requestLogs.list(userId(account), query as RequestLogQuery),
  })),
  'logs.requests.get': operation(({ params, account }) => ({
    body: account.model.requestLogs.get(userId(account), params.requestId!),
  })),
  'logs.requests.listByKey': operation(({ query, account, userId: caller }) => ({
    body: account.model.requestLogs.list(caller ?? null, query as RequestLogQuery),
  })),
  'logs.activity': operation(({ query, account }) => {
    const { limit, skip } = query as { limit: number; skip: number };
    return { body: account.model.activity(userId(account), limit, skip) };
  }),
};
