/**
 * The script of the sign-in and account pages, served as `/assets/sign-in.js` (a file of this server, so the pages'
 * Content-Security-Policy needs no inline script). Plain browser JavaScript, no framework.
 */
export const BROWSER_SCRIPT = String.raw`'use strict';
const TOKEN_KEY = 'dataplatform.session';
const $ = (id) => document.getElementById(id);
const say = (text) => { $('status').textContent = text; };

async function api(path, options = {}) {
  const headers = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = 'Bearer ' + options.token;
  const res = await fetch(path, {
    method: options.method || 'POST',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.error) || res.statusText);
  return data;
}

const fromB64url = (text) => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
};
const toB64url = (buffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const withIds = (list) => (list || []).map((c) => ({ ...c, id: fromB64url(c.id) }));

function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: toB64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

// After any sign-in: hand the token to where the sign-in was asked for (see docs/auth.md, "Browser sign-in").
function finish(session) {
  const target = document.body.dataset;
  if (target.redirectKind === 'loopback') {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = target.redirectUrl;
    for (const [name, value] of Object.entries({ token: session.token, expiresAt: session.expiresAt, state: target.state || '' })) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
    return;
  }
  location.assign(target.redirectPath + '#' + new URLSearchParams({ token: session.token, expiresAt: session.expiresAt }));
}

async function guarded(work) {
  try { await work(); } catch (error) { say(error.message); }
}

function loginPage() {
  $('signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    guarded(async () => finish(await api('/api/auth/signin', { body: { email: $('signin-email').value, password: $('signin-password').value } })));
  });
  $('signup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    guarded(async () => finish(await api('/api/auth/signup', {
      body: { name: $('signup-name').value, email: $('signup-email').value, password: $('signup-password').value },
    })));
  });
  $('passkey-signin').addEventListener('click', () => guarded(async () => {
    say('Waiting for your passkey…');
    const { flowId, options } = await api('/api/webauthn/authenticate/options');
    const credential = await navigator.credentials.get({
      publicKey: { ...options, challenge: fromB64url(options.challenge), allowCredentials: withIds(options.allowCredentials) },
    });
    finish(await api('/api/webauthn/authenticate/verify', { body: { flowId, response: credentialJson(credential) } }));
  }));
}

// The signed-in user of a page of this server, or null after sending the browser to sign in and come back.
async function signedIn(back) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('token')) {
    sessionStorage.setItem(TOKEN_KEY, fragment.get('token'));
    // The token leaves the address bar and the history at once.
    history.replaceState(null, '', location.pathname);
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  const toLogin = () => location.assign(back === '/account' ? '/login' : '/login?redirect_to=' + encodeURIComponent(back));
  if (!token) return toLogin(), null;
  try {
    const me = await api('/api/auth/me', { method: 'GET', token });
    $('who').textContent = me.user.name + ' <' + me.user.email + '>';
    return { token, me };
  } catch {
    sessionStorage.removeItem(TOKEN_KEY);
    return toLogin(), null;
  }
}

const DEVICE_CODE_KEY = 'dataplatform.device-code';

async function devicePage() {
  // The code survives the trip through /login in sessionStorage: redirect_to names the page, not its query.
  if (document.body.dataset.code) sessionStorage.setItem(DEVICE_CODE_KEY, document.body.dataset.code);
  const session = await signedIn('/device');
  if (!session) return;
  $('device-code').value = sessionStorage.getItem(DEVICE_CODE_KEY) || '';
  const decide = (verdict) => guarded(async () => {
    const answer = await api('/api/auth/device/' + verdict, { token: session.token, body: { userCode: $('device-code').value } });
    sessionStorage.removeItem(DEVICE_CODE_KEY);
    $('device-form').hidden = true;
    say(answer.status === 'approved'
      ? 'Approved ' + answer.userCode + '. The program is signed in; you can close this tab.'
      : 'Denied ' + answer.userCode + '. The program is not signed in.');
  });
  $('device-form').addEventListener('submit', (event) => {
    event.preventDefault();
    decide('approve');
  });
  $('device-deny').addEventListener('click', () => decide('deny'));
}

async function accountPage() {
  const session = await signedIn('/account');
  if (!session) return;
  const { token } = session;
  const list = async () => {
    const { data } = await api('/api/webauthn/passkeys', { method: 'GET', token });
    $('passkeys').replaceChildren(...data.map((p) => {
      const item = document.createElement('li');
      item.textContent = p.name + ' (added ' + p.createdAt.slice(0, 10) + ')';
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', 'Remove passkey ' + p.name);
      remove.addEventListener('click', () => guarded(async () => {
        await api('/api/webauthn/passkeys/' + encodeURIComponent(p._id), { method: 'DELETE', token });
        await list();
      }));
      item.append(' ', remove);
      return item;
    }));
    $('passkey-count').textContent = String(data.length);
  };
  await list();
  $('add-passkey-form').addEventListener('submit', (event) => {
    event.preventDefault();
    guarded(async () => {
      say('Waiting for your authenticator…');
      const { flowId, options } = await api('/api/webauthn/register/options', { token });
      const credential = await navigator.credentials.create({
        publicKey: {
          ...options,
          challenge: fromB64url(options.challenge),
          user: { ...options.user, id: fromB64url(options.user.id) },
          excludeCredentials: withIds(options.excludeCredentials),
        },
      });
      const name = $('passkey-name').value.trim() || undefined;
      await api('/api/webauthn/register/verify', { token, body: { flowId, name, response: credentialJson(credential) } });
      await list();
      say('Passkey added.');
    });
  });
  $('sign-out').addEventListener('click', () => guarded(async () => {
    await api('/api/auth/logout', { token });
    sessionStorage.removeItem(TOKEN_KEY);
    location.assign('/login');
  }));
  say('');
}

if (document.body.dataset.page === 'login') loginPage();
else if (document.body.dataset.page === 'device') devicePage().catch((error) => say(error.message));
else accountPage().catch((error) => say(error.message));
`;
