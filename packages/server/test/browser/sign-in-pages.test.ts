import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers.js';
import { providerSettings, startGitHub, startGoogle } from '../identity-providers.js';
import { hasChromium, launchChromium } from './chromium.js';

let t: TestServer;
let browser: Browser;
let google: Awaited<ReturnType<typeof startGoogle>>;
let github: Awaited<ReturnType<typeof startGitHub>>;

beforeAll(async () => {
  google = await startGoogle();
  github = await startGitHub();
  t = await startTestServer({ config: { identityProviders: providerSettings(google, github) } });
  if (hasChromium) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await google?.stop();
  await github?.stop();
});

/** A browser context with a virtual platform authenticator that holds discoverable credentials. */
async function withAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

const storedToken = (page: Page) => page.evaluate(() => sessionStorage.getItem('dataplatform.session'));

async function me(token: string | null) {
  expect(token).toBeTruthy();
  const res = await fetch(`${t.url}/api/auth/me`, { headers: bearer(token!) });
  expect(res.status).toBe(200);
  return (await res.json()) as { user: { _id: string; email: string } };
}

describe.skipIf(!hasChromium && !process.env.CI)('the sign-in pages in Chromium', () => {
  it('signs up, adds a passkey, signs out and signs in again with the passkey only', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const authenticator = await withAuthenticator(context, page);
    const email = `passkey-${Date.now()}@example.com`;

    await page.goto(`${t.url}/login`);
    await page.getByLabel('Full name').fill('Pat Passkey');
    await page.locator('#signup-email').fill(email);
    await page.getByLabel('Password (8 to 128 characters)').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${t.url}/account`);
    // The page fills these in after its own requests; poll as long as the page's other steps may take, not
    // expect.poll's one-second default, which a loaded machine overruns.
    const settled = { timeout: 10_000 };
    await expect.poll(() => page.locator('#who').textContent(), settled).toContain(email);
    const signUpToken = await storedToken(page);
    const { user } = await me(signUpToken);
    expect(page.url()).not.toContain('token');

    await page.getByLabel('Name of the new passkey').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.locator('#passkey-count').textContent(), settled).toBe('1');
    expect(await authenticator.credentials()).toHaveLength(1);
    const listed = await fetch(`${t.url}/api/webauthn/passkeys`, { headers: bearer(signUpToken!) });
    expect((await listed.json()).data).toMatchObject([{ name: 'Test laptop', lastUsedAt: null }]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.url}/login`);
    expect((await fetch(`${t.url}/api/auth/me`, { headers: bearer(signUpToken!) })).status).toBe(401);

    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${t.url}/account`);
    const passkeyToken = await storedToken(page);
    expect(passkeyToken).not.toBe(signUpToken);
    expect((await me(passkeyToken)).user._id).toBe(user._id);
    const after = await fetch(`${t.url}/api/webauthn/passkeys`, { headers: bearer(passkeyToken!) });
    expect((await after.json()).data[0].lastUsedAt).not.toBeNull();
    const log = await fetch(`${t.url}/api/logs/activity`, { headers: bearer(passkeyToken!) });
    expect((await log.json()).data[0]).toMatchObject({ action: 'signin', details: { method: 'passkey' } });
    await context.close();
  }, 60_000);

  it('signs in through the Google provider on loopback', async () => {
    Object.assign(google.person, {
      sub: 'browser-google',
      email: `browser-google-${Date.now()}@example.com`,
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${t.url}/login`);
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await page.waitForURL(`${t.url}/account`);
    expect((await me(await storedToken(page))).user.email).toBe(google.person.email);
    await page.close();
  }, 60_000);

  describe('handing the token to a program on loopback (the CLI)', () => {
    let receiver: Server;
    let received: Promise<{ url: string; form: URLSearchParams; referer: string | undefined }>;
    let receiverUrl: string;

    beforeAll(async () => {
      let deliver!: (value: Awaited<typeof received>) => void;
      received = new Promise((resolve) => {
        deliver = resolve;
      });
      receiver = createServer(async (req, res) => {
        let body = '';
        for await (const chunk of req) body += chunk;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
        if (req.method === 'POST')
          deliver({ url: req.url!, form: new URLSearchParams(body), referer: req.headers.referer });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    });

    afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    it('posts the token and the same state to the receiver after a password sign-in', async () => {
      const email = `cli-${Date.now()}@example.com`;
      const signup = await t.call('POST', '/api/auth/signup', {
        key: null,
        body: { email, password: 'a long enough passphrase', name: 'Cli User' },
      });
      expect(signup.status).toBe(201);
      const page = await browser.newPage();
      page.setDefaultTimeout(10_000);
      const query = new URLSearchParams({ redirect_to: receiverUrl, state: 'st-7f3a' });
      await page.goto(`${t.url}/login?${query}`);
      await page.locator('#signin-email').fill(email);
      await page.locator('#signin-password').fill('a long enough passphrase');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const got = await received;
      expect(got.url).toBe('/callback');
      expect(got.form.get('state')).toBe('st-7f3a');
      expect(got.referer).toBeUndefined();
      expect((await me(got.form.get('token'))).user.email).toBe(email);
      await page.close();
    }, 60_000);
  });
});
