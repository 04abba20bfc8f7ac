import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a `.gz` beside every text file of the build, once, at the best level: the server sends it to browsers that
 * accept gzip and so compresses nothing per request (packages/server/src/routes/dashboard.ts).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'dataplatform-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir).filter((path) => /\.(js|css|html|svg|json)$/.test(path)))
        writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: 9 }));
    },
  };
}

export default defineConfig({
  // Served by the reference server under /dashboard/; every asset URL is absolute under it.
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    target: 'es2022',
    // The server maps hashed names to a year of caching; the source map stays out of what is served.
    sourcemap: false,
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  plugins: [precompress()],
});
