import type { FastifyInstance, FastifyReply } from 'fastify';
import type { IdentityProviderSettings } from '../auth/providers/settings.js';
import { type RedirectTarget, redirectTarget } from '../auth/redirect-target.js';
import { ApiError } from '../http/errors.js';
import { BROWSER_SCRIPT } from '../pages/browser-script.js';
import { accountPage, devicePage, loginPage } from '../pages/pages.js';
import { PAGES_CSS } from '../pages/styles.js';

function sendPage(reply: FastifyReply, html: string, target?: RedirectTarget, status = 200) {
  // Forms may post a token only here or to the loopback program that asked for it.
  const formAction = target?.kind === 'loopback' ? `'self' ${new URL(target.url).origin}` : "'self'";
  return reply
    .code(status)
    .header(
      'content-security-policy',
      `default-src 'self'; script-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** Serves the sign-in page (`/login`), the account page (`/account`), device confirmation (`/device`) and their script. */
export function registerPages(app: FastifyInstance, providers: IdentityProviderSettings) {
  const configured = { google: providers.google.configured, github: providers.github.configured };
  app.get('/login', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const redirectTo = typeof query.redirect_to === 'string' ? query.redirect_to : undefined;
    const state = typeof query.state === 'string' && query.state.length <= 512 ? query.state : undefined;
    try {
      const target = redirectTarget(redirectTo, state);
      return sendPage(reply, loginPage(target, configured), target);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A refused redirect_to is shown, and the page signs in to this server's own account page instead.
      const fallback = redirectTarget(undefined);
      return sendPage(reply, loginPage(fallback, configured, error.message), fallback, 400);
    }
  });
  app.get('/account', async (_request, reply) => sendPage(reply, accountPage()));
  app.get('/device', async (request, reply) => {
    const code = (request.query as Record<string, unknown>).code;
    return sendPage(reply, devicePage(typeof code === 'string' && code.length <= 32 ? code : undefined));
  });
  app.get('/assets/pages.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(PAGES_CSS),
  );
  app.get('/assets/sign-in.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(BROWSER_SCRIPT),
  );
}
