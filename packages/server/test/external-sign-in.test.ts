import { afterAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, signUp, startTestServer } from './helpers.js';
import {
  fragmentToken,
  providerSettings,
  providerSignIn,
  startGitHub,
  startGoogle,
} from './identity-providers.js';

const google = await startGoogle();
const github = await startGitHub();
afterAll(async () => {
  await google.stop();
  await github.stop();
});

async function me(url: string, token: string) {
  const res = await fetch(`${url}/api/auth/me`, { headers: bearer(token) });
  expect(res.status).toBe(200);
  return (await res.json()) as { user: { _id: string; email: string; name: string } };
}

forEachEngine(
  (t) => {
    describe('Google (OpenID Connect)', () => {
      it('creates the account on first sign-in and signs the same user in again', async () => {
        Object.assign(google.person, { sub: `g-${Date.now()}`, email: `new-${Date.now()}@example.com` });
        const first = await providerSignIn(t().url, 'google');
        expect(first.status).toBe(302);
        expect(first.headers.get('location')).toMatch(/^\/account#token=/);
        expect(first.headers.get('cache-control')).toBe('no-store');
        const { user } = await me(t().url, fragmentToken(first));
        expect(user).toMatchObject({ email: google.person.email, name: 'G User' });

        const again = await me(t().url, fragmentToken(await providerSignIn(t().url, 'google')));
        expect(again.user._id).toBe(user._id);
        const log = await fetch(`${t().url}/api/logs/activity`, { headers: bearer(fragmentToken(first)) });
        const actions = ((await log.json()) as { data: { action: string; details: unknown }[] }).data;
        expect(actions.filter((a) => a.action === 'signin')).toHaveLength(2);
        expect(actions).toContainEqual(
          expect.objectContaining({ action: 'signup', details: { method: 'google' } }),
        );
        expect(actions.filter((a) => a.action === 'identity.linked')).toHaveLength(1);
      });

      it('links a verified e-mail to the existing password account of that address', async () => {
        const existing = await signUp(t());
        Object.assign(google.person, { sub: `g-link-${Date.now()}`, email: existing.email.toUpperCase() });
        const { user } = await me(t().url, fragmentToken(await providerSignIn(t().url, 'google')));
        expect(user._id).toBe(existing.user._id);
      });

      it('refuses an e-mail the provider has not verified (403 forbidden)', async () => {
        Object.assign(google.person, {
          sub: 'g-unverified',
          email: 'unverified@example.com',
          email_verified: false,
        });
        try {
          const res = await providerSignIn(t().url, 'google');
          expect(res.status).toBe(403);
          expect(await res.json()).toMatchObject({ code: 'forbidden' });
        } finally {
          google.person.email_verified = true;
        }
      });

      it('sends the PKCE challenge (S256), a nonce and a fresh state to the provider', async () => {
        const start = await fetch(`${t().url}/api/auth/google`, { redirect: 'manual' });
        const to = new URL(start.headers.get('location')!);
        expect(to.origin + to.pathname).toBe(google.settings.authorizationUrl);
        expect(to.searchParams.get('code_challenge_method')).toBe('S256');
        expect(to.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
        expect(to.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
        expect(to.searchParams.get('redirect_uri')).toBe(`${t().url}/api/auth/google/callback`);
        const cookie = start.headers.get('set-cookie')!;
        expect(cookie).toContain(`dp_google_state=${to.searchParams.get('state')}`);
        expect(cookie).toMatch(/HttpOnly/);
        expect(cookie).toMatch(/SameSite=Lax/);
      });
    });

    describe('GitHub', () => {
      it('signs in with the verified primary e-mail', async () => {
        const res = await providerSignIn(t().url, 'github');
        const { user } = await me(t().url, fragmentToken(res));
        expect(user).toMatchObject({ email: 'octo@example.com', name: 'Octo Cat' });
      });

      it('refuses an account whose primary e-mail is not verified', async () => {
        const saved = github.person.emails;
        github.person.id = 999;
        github.person.emails = [
          { email: 'unverified-primary@example.com', primary: true, verified: false },
          { email: 'verified-secondary@example.com', primary: false, verified: true },
        ];
        try {
          const res = await providerSignIn(t().url, 'github');
          expect(res.status).toBe(403);
          expect(await res.json()).toMatchObject({ code: 'forbidden' });
        } finally {
          github.person.id = 4242;
          github.person.emails = saved;
        }
      });
    });

    describe('state, PKCE and redirect_to', () => {
      async function started(provider: 'google' | 'github') {
        const start = await fetch(`${t().url}/api/auth/${provider}`, { redirect: 'manual' });
        const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
        const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
        return { cookie, callback: new URL(atProvider.headers.get('location')!) };
      }

      it('refuses a callback without the state cookie of the browser that started it', async () => {
        const { callback } = await started('github');
        const res = await fetch(callback, { redirect: 'manual' });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'validation_error', details: { field: 'state' } });
      });

      it('refuses a state that does not match the cookie', async () => {
        const { callback, cookie } = await started('github');
        callback.searchParams.set('state', 'forged-state');
        const res = await fetch(callback, { redirect: 'manual', headers: { cookie } });
        expect(res.status).toBe(400);
      });

      it('uses a flow once: the same callback a second time is refused', async () => {
        const { callback, cookie } = await started('github');
        const first = await fetch(callback, { redirect: 'manual', headers: { cookie } });
        expect(first.status).toBe(302);
        const second = await fetch(callback, { redirect: 'manual', headers: { cookie } });
        expect(second.status).toBe(400);
        expect(await second.json()).toMatchObject({ details: { field: 'state' } });
      });

      it('fails the code exchange when the code is not the one issued for this flow (PKCE)', async () => {
        const a = await started('github');
        const b = await started('github');
        // b's code with a's state: the verifier of a's flow does not match b's challenge.
        a.callback.searchParams.set('code', b.callback.searchParams.get('code')!);
        const res = await fetch(a.callback, { redirect: 'manual', headers: { cookie: a.cookie } });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ code: 'invalid_credentials' });
      });

      it.each([
        'https://evil.example/steal',
        '//evil.example/steal',
        'http://evil.example:8080/callback',
        'http://127.0.0.1/callback',
        'https://127.0.0.1:8080/callback',
        'http://user@127.0.0.1:8080/callback',
        'http://10.0.0.1:8080/callback',
        'javascript:alert(1)',
        '/api/auth/me',
        '/account/../api/keys',
      ])('refuses redirect_to=%s', async (target) => {
        const res = await fetch(`${t().url}/api/auth/google?redirect_to=${encodeURIComponent(target)}`, {
          redirect: 'manual',
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          code: 'validation_error',
          details: { field: 'redirect_to' },
        });
      });

      it('hands the token to a loopback program in a form POST with its state, never in a URL', async () => {
        const receiver = 'http://127.0.0.1:45678/callback';
        const res = await providerSignIn(
          t().url,
          'github',
          `redirect_to=${encodeURIComponent(receiver)}&state=cli-state-123`,
        );
        expect(res.status).toBe(200);
        expect(res.headers.get('location')).toBeNull();
        expect(res.headers.get('content-security-policy')).toContain('form-action http://127.0.0.1:45678');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
        const html = await res.text();
        expect(html).toContain(`<form method="post" action="${receiver}">`);
        expect(html).toContain('name="state" value="cli-state-123"');
        const token = /name="token" value="([^"]+)"/.exec(html)![1]!;
        await me(t().url, token);
      });
    });
  },
  { config: { identityProviders: providerSettings(google, github) } },
);

describe('a provider without credentials', () => {
  it('answers 404 not_found naming the missing settings on every route', async () => {
    const t = await startTestServer({
      config: {
        identityProviders: {
          google: {
            configured: false,
            missing: ['DATAPLATFORM_GOOGLE_CLIENT_ID', 'DATAPLATFORM_GOOGLE_CLIENT_SECRET'],
          },
          github: { configured: false, missing: ['DATAPLATFORM_GITHUB_CLIENT_SECRET'] },
        },
      },
    });
    try {
      for (const path of ['/api/auth/google', '/api/auth/google/callback?code=x&state=y']) {
        const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
        expect(res.status).toBe(404);
        const body = await res.json();
        expect(body).toMatchObject({ code: 'not_found' });
        expect(body.error).toContain('DATAPLATFORM_GOOGLE_CLIENT_ID and DATAPLATFORM_GOOGLE_CLIENT_SECRET');
      }
      const gh = await fetch(`${t.url}/api/auth/github`, { redirect: 'manual' });
      expect(gh.status).toBe(404);
      expect((await gh.json()).error).toContain('DATAPLATFORM_GITHUB_CLIENT_SECRET');
    } finally {
      await t.stop();
    }
  }, 30_000);
});
