import type { RedirectTarget } from '../auth/redirect-target.js';
import { escapeHtml } from '../http/html.js';

function layout(title: string, attributes: Record<string, string>, main: string): string {
  const data = Object.entries(attributes)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="/dashboard/mark.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/pages.css">
<title>${escapeHtml(title)} · dataplatform</title>
</head>
<body${data}>
<a class="brand" href="/dashboard"><img src="/dashboard/mark.svg" alt=""><span>dataplatform</span></a>
<main>
${main}
<p id="status" role="status" aria-live="polite"></p>
</main>
<script src="/assets/sign-in.js" defer></script>
</body>
</html>
`;
}

function targetAttributes(target: RedirectTarget): Record<string, string> {
  return target.kind === 'page'
    ? { 'redirect-kind': 'page', 'redirect-path': target.path }
    : { 'redirect-kind': 'loopback', 'redirect-url': target.url, state: target.state ?? '' };
}

function providerLink(provider: 'google' | 'github', name: string, target: RedirectTarget): string {
  const query = new URLSearchParams(
    target.kind === 'page'
      ? { redirect_to: target.path }
      : { redirect_to: target.url, ...(target.state ? { state: target.state } : {}) },
  );
  return `<li><a id="${provider}-signin" href="/api/auth/${provider}?${escapeHtml(query.toString())}">Sign in with ${name}</a></li>`;
}

/** The sign-in page: e-mail and password, the configured providers, a passkey, and sign-up. */
export function loginPage(
  target: RedirectTarget,
  providers: { google: boolean; github: boolean },
  problem?: string,
): string {
  const links = [
    providers.google ? providerLink('google', 'Google', target) : '',
    providers.github ? providerLink('github', 'GitHub', target) : '',
  ].join('');
  return layout(
    'Sign in',
    { page: 'login', ...targetAttributes(target) },
    `<h1>Sign in</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form id="signin-form">
<p><label for="signin-email">E-mail</label><br><input id="signin-email" name="email" type="email" autocomplete="username webauthn" required></p>
<p><label for="signin-password">Password</label><br><input id="signin-password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
<h2>Other ways to sign in</h2>
<ul>
${links}<li><button id="passkey-signin" type="button">Sign in with a passkey</button></li>
</ul>
<h2>New here?</h2>
<form id="signup-form">
<p><label for="signup-name">Full name</label><br><input id="signup-name" name="name" autocomplete="name" required></p>
<p><label for="signup-email">E-mail</label><br><input id="signup-email" name="email" type="email" autocomplete="email" required></p>
<p><label for="signup-password">Password (8 to 128 characters)</label><br><input id="signup-password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required></p>
<p><button type="submit">Create account</button></p>
</form>`,
  );
}

/** The page of a signed-in user: who they are, their passkeys, adding one, and signing out. */
export function accountPage(): string {
  return layout(
    'Your account',
    { page: 'account' },
    `<h1>Your account</h1>
<p>Signed in as <strong id="who">…</strong></p>
<p><a href="/dashboard">Open the dashboard</a></p>
<h2>Passkeys (<span id="passkey-count">0</span>)</h2>
<ul id="passkeys"></ul>
<form id="add-passkey-form">
<p><label for="passkey-name">Name of the new passkey</label><br><input id="passkey-name" name="name" maxlength="100" placeholder="Passkey"></p>
<p><button id="add-passkey" type="submit">Add a passkey</button></p>
</form>
<p><button id="sign-out" type="button">Sign out</button></p>`,
  );
}

/**
 * The page where a signed-in person confirms a device sign-in (`dp login --no-browser`): it shows the code the
 * program printed, to compare, and approves or denies it. `code` comes from `?code=`; the person may type it.
 */
export function devicePage(code: string | undefined): string {
  return layout(
    'Confirm a device sign-in',
    { page: 'device', code: code ?? '' },
    `<h1>Confirm a device sign-in</h1>
<p>Signed in as <strong id="who">…</strong></p>
<p>A program asks to sign in as you. Approve only if it shows the same code and you started it.</p>
<form id="device-form">
<p><label for="device-code">Code</label><br><input id="device-code" name="userCode" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" required></p>
<p><button id="device-approve" type="submit">Approve</button> <button id="device-deny" type="button">Deny</button></p>
</form>`,
  );
}
