import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { vectors } from './vectors.js';

// Debian's Chromium, as in the server's browser tests; CI installs it (see .ci/run).
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ENTRY = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const PAGE = `<!doctype html><title>receiver</title>
<script type="module">import * as webhooks from './webhooks.js'; window.webhooks = webhooks;</script>`;

async function browserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('the main entry outside Node.js', () => {
  it('bundles for the browser with nothing from Node.js', async () => {
    const code = await browserBundle();
    expect(code).not.toMatch(/["']node:|\brequire\(|\bBuffer\.\w+\(|\bprocess\.\w/);
  });

  describe.skipIf(!existsSync(CHROMIUM_PATH) && !process.env.CI)('in headless Chromium', () => {
    it('gives every vector its expected result, and signs what it verifies', async () => {
      const code = await browserBundle();
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage();
        // An https page (Web Crypto needs a secure context), answered here instead of by a network.
        await page.route('https://receiver.test/**', (route) =>
          route.fulfill(
            route.request().url().endsWith('.js')
              ? { contentType: 'text/javascript', body: code }
              : { contentType: 'text/html', body: PAGE },
          ),
        );
        await page.goto('https://receiver.test/');
        await page.waitForFunction(() => 'webhooks' in window);
        const results = await page.evaluate(async (all) => {
          // biome-ignore lint/suspicious/noExplicitAny: the page's global, set by PAGE's module script
          const { verifyAsync, signAsync } = (window as any).webhooks;
          const outcomes: Record<string, unknown> = {};
          for (const v of all) {
            const secret = v.secrets.length === 1 ? v.secrets[0] : v.secrets;
            const options = { now: new Date(v.now * 1000), toleranceSeconds: v.toleranceSeconds };
            outcomes[v.id] = await verifyAsync(
              new TextEncoder().encode(v.body),
              v.headers,
              secret,
              options,
            ).then(
              () => ({ valid: true }),
              (error: { code?: string; name: string }) => ({ valid: false, code: error.code ?? error.name }),
            );
          }
          const headers = await signAsync('{"browser":true}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
          await verifyAsync(
            '{"browser":true}',
            new Headers(headers),
            'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          );
          return { outcomes, userAgent: navigator.userAgent, hasProcess: 'process' in globalThis };
        }, vectors);
        expect(results.userAgent).toContain('Chrome');
        expect(results.hasProcess).toBe(false);
        expect(results.outcomes).toEqual(Object.fromEntries(vectors.map((v) => [v.id, v.expected])));
      } finally {
        await browser.close();
      }
    }, 60_000);
  });
});
