const verdicts = new WeakMap<Function, boolean>();

/** True on Node.js itself (not Bun or Deno, whose `fetch` is already native and fast). */
export function isNode(): boolean {
  const g = globalThis as { process?: { versions?: Record<string, string | undefined> }; Deno?: unknown };
  const versions = g.process?.versions;
  return typeof versions?.node === 'string' && versions.bun === undefined && g.Deno === undefined;
}

/**
 * True when `fn` is Node's own global fetch, untouched. Node 20 to 24 define it in
 * lib/internal/bootstrap/web/exposed-window-or-worker.js as a plain function whose source starts with
 * `function fetch(input, init = undefined)` and lazily requires `internal/deps/undici/undici`. Anything that
 * patched fetch (MSW, nock, a polyfill, a wrapper) has other source, so we leave it in charge. The verdict is
 * cached per function, so the source is read once.
 */
export function isNodeBuiltinFetch(fn: unknown): boolean {
  if (typeof fn !== 'function') return false;
  let verdict = verdicts.get(fn);
  if (verdict === undefined) {
    let source = '';
    try {
      source = Function.prototype.toString.call(fn);
    } catch {
      // A Proxy over a revoked target, for example: not the built-in.
    }
    verdict =
      fn.name === 'fetch' &&
      source.startsWith('function fetch(input, init = undefined)') &&
      source.includes('internal/deps/undici/undici');
    verdicts.set(fn, verdict);
  }
  return verdict;
}
