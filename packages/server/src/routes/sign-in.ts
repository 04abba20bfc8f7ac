import { createHash } from 'node:crypto';
import type {
  IdentityProvider,
  identityProviderRoutes,
  ProviderCallbackQuery,
  ProviderStartQuery,
} from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { clientOf } from '../auth/client.js';
import { type HandOff, handOff } from '../auth/redirect-target.js';
import type { RouteHandlers } from '../http/route-call.js';
import { type ExternalSignIn, stateCookieName } from '../services/external-sign-in.js';

function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function setStateCookie(
  reply: FastifyReply,
  provider: IdentityProvider,
  value: string,
  maxAge: number,
  secure: boolean,
) {
  // Lax: the cookie rides along on the provider's top-level redirect back, but not on cross-site subrequests.
  const attributes = [`Path=/api/auth/${provider}/callback`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`];
  if (secure) attributes.push('Secure');
  reply.header('set-cookie', `${stateCookieName(provider)}=${value}; ${attributes.join('; ')}`);
}

/** Sends a finished sign-in on: a redirect, or the form page for a loopback program, locked down by its CSP. */
export function sendHandOff(reply: FastifyReply, handoff: HandOff): FastifyReply {
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  if (handoff.kind === 'redirect') return reply.redirect(handoff.location, 302);
  const script = /<script>([^<]*)<\/script>/.exec(handoff.html)![1]!;
  const hash = createHash('sha256').update(script).digest('base64');
  reply.header(
    'content-security-policy',
    `default-src 'none'; script-src 'sha256-${hash}'; form-action ${handoff.formAction}; base-uri 'none'`,
  );
  return reply.code(200).type('text/html; charset=utf-8').send(handoff.html);
}

/** `/api/auth/google`, `/api/auth/github` and their callbacks: each answers with a redirect or a hand-off page. */
export function signInHandlers(
  service: ExternalSignIn,
  secureCookies: () => boolean,
): RouteHandlers<typeof identityProviderRoutes> {
  const start = async (
    { reply, query }: { reply: FastifyReply; query: z.output<typeof ProviderStartQuery> },
    provider: IdentityProvider,
  ) => {
    const started = await service.start(provider, query);
    setStateCookie(reply, provider, started.state, 600, secureCookies());
    return reply.header('cache-control', 'no-store').redirect(started.location, 302);
  };
  const finish = async (
    {
      request,
      reply,
      query,
    }: { request: FastifyRequest; reply: FastifyReply; query: z.output<typeof ProviderCallbackQuery> },
    provider: IdentityProvider,
  ) => {
    // The state cookie has done its work, whatever the outcome.
    setStateCookie(reply, provider, '', 0, secureCookies());
    const cookieState = cookie(request, stateCookieName(provider));
    const done = await service.finish(provider, query, cookieState, clientOf(request));
    return sendHandOff(reply, handOff(done.target, done));
  };
  return {
    'auth.google': (call) => start(call, 'google'),
    'auth.googleCallback': (call) => finish(call, 'google'),
    'auth.github': (call) => start(call, 'github'),
    'auth.githubCallback': (call) => finish(call, 'github'),
  };
}
