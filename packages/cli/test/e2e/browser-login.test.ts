import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../../../server/test/browser/chromium.js';
import { tempConfigDir } from '../harness.js';
import { BIN, type BinResult, dp } from './binary.js';
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

/** Starts the binary and lets the test read its standard error while it runs. */
function dpLive(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end();
  const done = new Promise<BinResult>((resolve) => {
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  return { done, stderr: () => stderr };
}

async function printedCode(stderr: () => string) {
  await expect.poll(() => /^ {4}([A-Z]{4}-[A-Z]{4})$/m.test(stderr()), { timeout: 15_000 }).toBe(true);
  const code = /^ {4}([A-Z]{4}-[A-Z]{4})$/m.exec(stderr())![1]!;
  const complete = /\(or open (\S+)\)/.exec(stderr())![1]!;
  return { code, complete };
}

describe.skipIf(!hasChromium && !process.env.CI)(
  'dp login --no-browser (device flow) in headless Chromium',
  () => {
    it('prints a code; the person opens the page, signs in, sees the same code and approves; dp saves a working token', async () => {
      const ref = reference();
      const dir = tempConfigDir();
      const env = { DATAPLATFORM_BASE_URL: ref.url, DATAPLATFORM_CONFIG_DIR: dir };
      const login = dpLive(['login', '--no-browser', '--timeout', '60'], env);
      const { code, complete } = await printedCode(login.stderr);
      // The server names itself by its public address, here `localhost`; the test's browser uses the numeric one.
      const printed = new URL(complete);
      expect(`${printed.port}${printed.pathname}${printed.search}`).toBe(
        `${new URL(ref.url).port}/device?code=${code}`,
      );

      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${ref.url}/device?code=${code}`);
      // Not signed in yet: the page sends the browser to sign in, and comes back after.
      await page.waitForURL(`${ref.url}/login?redirect_to=%2Fdevice`);
      await page.locator('#signin-email').fill(ref.email);
      await page.locator('#signin-password').fill(ref.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${ref.url}/device`);
      await expect.poll(() => page.locator('#device-code').inputValue()).toBe(code);
      await expect.poll(() => page.locator('#who').textContent()).toContain(ref.email);
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect
        .poll(() => page.locator('#status').textContent())
        .toBe(`Approved ${code}. The program is signed in; you can close this tab.`);
      await page.close();

      const result = await login.done;
      expect(result.code).toBe(0);
      const whoami = await dp(['whoami', '--json'], { env });
      expect(whoami.code).toBe(0);
      expect(JSON.parse(whoami.stdout)).toMatchObject({
        user: { email: ref.email },
        credential: { kind: 'token' },
      });
    }, 90_000);
  },
);

describe('dp login --no-browser against the reference server', () => {
  it('ends with status 3 when the code is denied through the route', async () => {
    const ref = reference();
    const env = { DATAPLATFORM_BASE_URL: ref.url, DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    const login = dpLive(['login', '--no-browser', '--timeout', '60'], env);
    const { code } = await printedCode(login.stderr);
    const signIn = await fetch(`${ref.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ref.email, password: ref.password }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const denied = await fetch(`${ref.url}/api/auth/device/deny`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ userCode: code }),
    });
    expect(denied.status).toBe(200);
    const result = await login.done;
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `error: the sign-in with code ${code} was denied on the confirmation page`,
    );
  }, 60_000);
});
