import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

// How the server hands out the dashboard's files (src/routes/dashboard.ts); the app itself is tested in Chromium
// (test/browser/dashboard*.test.ts). No storage is involved, so one engine is enough.
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
}, 60_000);

afterAll(() => t?.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers });

describe('the dashboard route', () => {
  it('answers every address under /dashboard with the app page, revalidated and under a strict policy', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/documents/orders', '/dashboard/keys?x=1']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain('<div id="app">');
    }
  });

  it('sends hashed files for a year, gzipped when asked, and other files revalidated', async () => {
    const page = await (await get('/dashboard')).text();
    const css = page.match(/href="(\/dashboard\/assets\/[^"]+\.css)"/)?.[1];
    expect(css).toBeDefined();
    const plain = await get(css!, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const zipped = await get(css!, { 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(await plain.text());
    const mark = await get('/dashboard/mark.svg');
    expect([mark.status, mark.headers.get('content-type'), mark.headers.get('cache-control')]).toEqual([
      200,
      'image/svg+xml',
      'no-cache',
    ]);
  });

  it('answers 404 for a missing build file and never reads outside the build', async () => {
    for (const path of [
      '/dashboard/assets/index-missing.js',
      '/dashboard/assets/..%2f..%2fpackage.json',
      '/dashboard/assets/.env.js',
      '/dashboard/assets/index.html.gz',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    }
    // Outside assets/, a name the build could not write is an app address like any other, not a file.
    const escaped = await get('/dashboard/..%2f..%2fpackage.json');
    expect(await escaped.text()).toContain('<div id="app">');
  });

  it('lets sign-in return to the dashboard', async () => {
    const res = await get('/login?redirect_to=%2Fdashboard');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-redirect-path="/dashboard"');
  });
});
