import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../../../server/test/browser/chromium.js';
import { tempConfigDir } from '../harness.js';
import { dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();
let browser: Browser;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/**
 * A stand-in for the user's browser, named by BROWSER: it writes the address `dp login` asked it to open into a
 * file, and the test opens that address in Chromium.
 */
function browserScript(dir: string) {
  const urlFile = join(dir, 'opened-url');
  const script = join(dir, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > '${urlFile}'\n`);
  chmodSync(script, 0o755);
  const opened = async () => {
    await expect.poll(() => existsSync(urlFile), { timeout: 15_000 }).toBe(true);
    return readFileSync(urlFile, 'utf8');
  };
  return { script, opened };
}

describe.skipIf(!hasChromium && !process.env.CI)('dp login in the browser (headless Chromium)', () => {
  it('opens the sign-in page, receives the session on loopback, saves it, and whoami shows the user', async () => {
    const ref = reference();
    const dir = tempConfigDir();
    const { script, opened } = browserScript(dir);
    const env = { DATAPLATFORM_BASE_URL: ref.url, DATAPLATFORM_CONFIG_DIR: dir, BROWSER: script };
    const login = dp(['login', '--timeout', '60'], { env });

    const url = new URL(await opened());
    expect(`${url.origin}${url.pathname}`).toBe(`${ref.url}/login`);
    const redirectTo = new URL(url.searchParams.get('redirect_to') ?? '');
    expect(redirectTo.hostname).toBe('127.0.0.1');
    expect(redirectTo.pathname).toBe('/callback');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url.toString());
    await page.locator('#signin-email').fill(ref.email);
    await page.locator('#signin-password').fill(ref.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Signed in — you can close this tab');
    expect(page.url()).toBe(redirectTo.toString());
    await page.close();

    const result = await login;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(url.toString());
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(saved.profiles.default.token).toEqual(expect.any(String));
    const whoami = await dp(['whoami', '--json'], {
      env: { DATAPLATFORM_BASE_URL: ref.url, DATAPLATFORM_CONFIG_DIR: dir },
    });
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      user: { email: ref.email },
      credential: { kind: 'token' },
    });
  }, 90_000);

  it('ignores a post with another state and still takes the right one', async () => {
    const ref = reference();
    const dir = tempConfigDir();
    const { script, opened } = browserScript(dir);
    const login = dp(['login', '--timeout', '60', '--json'], {
      env: { DATAPLATFORM_BASE_URL: ref.url, DATAPLATFORM_CONFIG_DIR: dir, BROWSER: script },
    });
    const url = new URL(await opened());
    const callback = url.searchParams.get('redirect_to') ?? '';
    const forged = await fetch(callback, {
      method: 'POST',
      body: new URLSearchParams({ token: 'forged', expiresAt: '', state: 'guessed' }),
    });
    expect(forged.status).toBe(400);
    expect((await fetch(callback)).status).toBe(405);

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url.toString());
    await page.locator('#signin-email').fill(ref.email);
    await page.locator('#signin-password').fill(ref.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Signed in — you can close this tab');
    await page.close();

    const result = await login;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ credential: 'token', user: { email: ref.email } });
    // The listener has stopped: the address answers nothing any more.
    await expect(fetch(callback, { method: 'POST', body: 'state=x' })).rejects.toThrow();
  }, 90_000);
});

describe('dp login in the browser: giving up', () => {
  it('ends with status 3 and a clear message when no sign-in arrives in time', async () => {
    const ref = reference();
    const result = await dp(['login', '--no-open', '--timeout', '1'], {
      env: { DATAPLATFORM_BASE_URL: ref.url, DATAPLATFORM_CONFIG_DIR: tempConfigDir() },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Open this address in a browser on this machine to sign in:');
    expect(result.stderr).toContain('error: no sign-in arrived from the browser within 1 second');
  });
});
