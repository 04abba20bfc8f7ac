import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

// Browser bundlers follow `import('undici')` even though browsers never run it; package.json "browser" maps
// undici to nothing, so they must neither fail on node: built-ins nor ship undici.
it('bundles for the browser without undici', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const dependencies = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
  // esbuild lists a package mapped to `false` as a "(disabled):" input with no code.
  expect(dependencies.every((input) => input.startsWith('(disabled):'))).toBe(true);
  expect(result.outputFiles[0]!.text).not.toMatch(/["']node:/);
});
