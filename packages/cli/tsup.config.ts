import { defineConfig } from 'tsup';

export default defineConfig({
  // One self-contained file: the SDK, commander, conf, chalk and ora are bundled in, so starting `dp` resolves no
  // packages. Heavy parts are reached by import() and stay unevaluated until a command needs them.
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  minify: true,
  sourcemap: true,
  clean: true,
  dts: false,
  // The workspace packages are bundled from their TypeScript sources, so no other package needs a build first.
  esbuildOptions(options) {
    options.conditions = ['@dataplatform/source', 'node', 'import'];
  },
  // undici is half a megabyte, and compiling it would cost every start of `dp` about 15 ms. Without it the SDK
  // sends through Node's built-in fetch (undici inside Node), its documented fallback; a CLI makes few requests.
  esbuildPlugins: [
    {
      name: 'leave-out-undici',
      setup(build) {
        build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'left-out' }));
        build.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({
          contents: 'export {};',
          loader: 'js',
        }));
      },
    },
  ],
  // Bundled CommonJS may call require() for Node's own modules. The require function is made on first call:
  // making it at start-up would initialize Node's CommonJS loader, a few milliseconds every `dp` run pays.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; let __require_; const require = (id) => (__require_ ??= __createRequire(import.meta.url))(id);",
  },
});
