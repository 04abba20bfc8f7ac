import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// Built, a worker's script is a .js file next to the chunk that starts it (an entry of tsup.config.ts). Run from
// source (tests, `pnpm dev`) it is TypeScript, which a worker thread of Node 20 cannot load through the parent's
// loader: it is bundled in memory instead.
const fromSource = import.meta.url.endsWith('.ts');

/** Starts a worker thread on `built` (the caller's `new URL('./x.js', import.meta.url)`), or on `source` bundled. */
export async function startScriptWorker(built: URL, source: URL): Promise<Worker> {
  if (!fromSource) return new Worker(built);
  const { build } = await import('esbuild');
  const bundled = await build({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    conditions: ['@dataplatform/source'],
    write: false,
    logLevel: 'silent',
  });
  return new Worker(bundled.outputFiles[0]!.text, { eval: true });
}
