import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// Built, a worker's script is a .js file next to the chunk that starts it (an entry of tsup.config.ts). Run from
// source (tests, `pnpm dev`) it is TypeScript, which a worker thread of Node 20 cannot load through the parent's
// loader: it is bundled in memory instead, once per script.
const fromSource = import.meta.url.endsWith('.ts');
const bundles = new Map<string, Promise<string>>();

/** How a worker starts: its `workerData`, and the native packages it loads (never bundled). */
export interface ScriptWorkerOptions {
  workerData?: unknown;
  native?: string[];
}

/** Starts a worker thread on `built` (the caller's `new URL('./x.js', import.meta.url)`), or on `source` bundled. */
export async function startScriptWorker(
  built: URL,
  source: URL,
  options: ScriptWorkerOptions = {},
): Promise<Worker> {
  if (!fromSource) return new Worker(built, { workerData: options.workerData });
  let bundle = bundles.get(source.href);
  if (!bundle) {
    bundle = bundleSource(source, options.native ?? []);
    bundles.set(source.href, bundle);
  }
  return new Worker(await bundle, { eval: true, workerData: options.workerData });
}

async function bundleSource(source: URL, native: string[]): Promise<string> {
  const { build } = await import('esbuild');
  // A bundle run by `eval` resolves nothing from the script's folder: a native package is loaded by its full path.
  const resolveNear = createRequire(source);
  const bundled = await build({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    conditions: ['@dataplatform/source'],
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'native-packages',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) =>
            native.includes(args.path) ? { path: resolveNear.resolve(args.path), external: true } : undefined,
          );
        },
      },
    ],
  });
  return bundled.outputFiles[0]!.text;
}
