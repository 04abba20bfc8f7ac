import { isBuiltin } from 'node:module';
import { defineConfig } from 'tsup';

/** What the bundle gets instead of each package it leaves out, and why that package is not needed. */
const leftOut: Record<string, string> = {
  // Half a megabyte. Without it the SDK sends through Node's built-in fetch (undici inside Node), its documented
  // fallback; a CLI makes few requests, so the pool's speed does not show.
  undici: 'export {};',
  // conf validates with ajv only when given a JSON schema, and the profile store gives none.
  'ajv/dist/2020.js':
    'export class Ajv2020 { constructor() { throw new Error("ajv is left out of the dp bundle"); } }',
  'ajv-formats': 'export default {};',
};

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
  // Keep `node:` on Node's modules, so the plugin below sees every import of one.
  removeNodeProtocol: false,
  // The workspace packages are bundled from their TypeScript sources, so no other package needs a build first.
  esbuildOptions(options) {
    options.conditions = ['@dataplatform/source', 'node', 'import'];
  },
  // Packages the CLI never runs are replaced by stubs, because compiling them would cost every start of `dp`
  // milliseconds (V8 compiles the whole file before the first line runs).
  esbuildPlugins: [
    {
      name: 'leave-out-unused',
      setup(build) {
        const filter = new RegExp(`^(${Object.keys(leftOut).join('|').replaceAll('.', '\\.')})$`);
        build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'left-out' }));
        build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
          contents: leftOut[args.path],
          loader: 'js',
        }));
      },
    },
    {
      // An ES import of a Node module would be hoisted to the top of the bundle and loaded at start-up, even for
      // a module that only a lazily loaded package (conf, ora) uses. Routed through require() instead, each is
      // loaded when the code importing it first runs.
      name: 'lazy-node-modules',
      setup(build) {
        build.onResolve({ filter: /^[a-z:_/]+$/ }, (args) =>
          args.kind === 'import-statement' && isBuiltin(args.path)
            ? { path: args.path, namespace: 'node-module' }
            : undefined,
        );
        build.onLoad({ filter: /.*/, namespace: 'node-module' }, (args) => ({
          contents: `module.exports = require(${JSON.stringify(args.path)});`,
          loader: 'js',
        }));
      },
    },
  ],
  // Bundled CommonJS (commander) calls require() for Node's own modules, and only for those: everything else is in
  // the bundle. process.getBuiltinModule hands them out without starting Node's CommonJS loader, which a
  // createRequire() at start-up would, for a few milliseconds on every run.
  banner: {
    js: 'const require = (id) => { const m = process.getBuiltinModule(id); if (m) return m; throw new Error("dp bundle: cannot require " + id); };',
  },
});
