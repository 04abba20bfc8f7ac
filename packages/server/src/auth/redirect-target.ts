import { ApiError } from '../http/errors.js';
import { escapeHtml } from '../http/html.js';

/** The server's own pages a sign-in may end on. */
export const OWN_PAGES = ['/account', '/login', '/device', '/dashboard'] as const;

/** Where a finished sign-in sends the browser. */
export type RedirectTarget =
  | { kind: 'page'; path: (typeof OWN_PAGES)[number] }
  | { kind: 'loopback'; url: string; state: string | null };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Checks `redirect_to` against the allowlist: a page of this server, or an `http` address on loopback with a port
 * (a local program such as the CLI). Anything else would turn sign-in into an open redirect that hands a session
 * token to another site, so it is refused (400 `validation_error` on `redirect_to`).
 */
export function redirectTarget(value: string | undefined, state?: string): RedirectTarget {
  if (value === undefined || value === '') return { kind: 'page', path: '/account' };
  const page = OWN_PAGES.find((path) => path === value);
  if (page) return { kind: 'page', path: page };
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    url &&
    url.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(url.hostname) &&
    url.port !== '' &&
    url.username === '' &&
    url.password === '' &&
    url.hash === ''
  )
    return { kind: 'loopback', url: url.toString(), state: state ?? null };
  throw new ApiError(
    'validation_error',
    `redirect_to must be a page of this server (${OWN_PAGES.join(', ')}) or an http address on loopback with a port`,
    { in: 'query', field: 'redirect_to' },
  );
}

/** What a finished sign-in answers: a redirect, or a page that posts the token on. */
export type HandOff =
  | { kind: 'redirect'; location: string }
  | { kind: 'html'; html: string; formAction: string };

/**
 * Hands a session token to the target without putting it where logs or third parties see it: a page of this
 * server gets it in the fragment (never sent to a server, never in a Referer); a loopback program gets it in the
 * body of a form POST (not in its URL, so not in its access log or the browser's history).
 */
export function handOff(target: RedirectTarget, session: { token: string; expiresAt: string }): HandOff {
  if (target.kind === 'page') {
    const fragment = new URLSearchParams({ token: session.token, expiresAt: session.expiresAt });
    return { kind: 'redirect', location: `${target.path}#${fragment}` };
  }
  const fields = { token: session.token, expiresAt: session.expiresAt, state: target.state ?? '' };
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title>
<meta name="referrer" content="no-referrer"></head><body>
<form method="post" action="${escapeHtml(target.url)}">${inputs}
<p>Signed in. Returning to the program that asked… <button type="submit">Continue</button></p></form>
<script>document.forms[0].submit()</script></body></html>`;
  return { kind: 'html', html, formAction: new URL(target.url).origin };
}
