import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';

// Loading undici can take over the process-wide dispatcher that Node's own fetch uses (nodejs/undici#5500).
// The worker running this file has long since loaded fetch, so the check runs in a fresh Node process.
let dir: string;
beforeAll(async () => {
  // Inside the package's node_modules, so the bundle resolves `undici` the way an installed SDK would.
  dir = await mkdtemp(join(fileURLToPath(new URL('../node_modules/', import.meta.url)), '.node-fetch-test-'));
  await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'node',
    external: ['undici'],
    outfile: join(dir, 'sdk.mjs'),
    logLevel: 'silent',
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const script = `
import { createServer } from 'node:http';
import { DataPlatform } from './sdk.mjs';
const server = createServer((req, res) => {
  let n = 0;
  req.on('data', (c) => { n += c.length; });
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ bytes: n })); });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = 'http://127.0.0.1:' + server.address().port;
await new DataPlatform({ baseUrl: base }).get('/first');
const res = await fetch(base + '/after', { method: 'POST', body: 'hello', headers: { 'content-length': '5' } });
console.log(JSON.stringify({ body: await res.json() }));
server.close();
`;

it("leaves Node's built-in fetch working after the SDK loaded undici", async () => {
  await writeFile(join(dir, 'main.mjs'), script);
  const { stdout } = await promisify(execFile)(process.execPath, ['main.mjs'], { cwd: dir });
  expect(JSON.parse(stdout)).toMatchObject({ body: { bytes: 5 } });
});
