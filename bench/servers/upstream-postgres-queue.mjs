/**
 * The point of comparison of the pool benchmark (lib/pg-pool.mjs): `node --import <this file> servers/reference.mjs`
 * runs the reference server with the postgres driver's queue as published (postgres 3.4.9, src/queue.js), without
 * patches/postgres@3.4.9.patch. Everything else of the driver, and of the server, stays the installed code.
 *
 * Imported on the main thread, the file registers itself as module hooks; in the hooks' own thread it only answers
 * them: the driver's `./queue.js` (imported by its src/index.js and src/connection.js, the copies Node loads under
 * ESM) resolves to the published source below.
 */
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const UPSTREAM = 'dataplatform-bench:postgres-3.4.9-queue.js';

// postgres 3.4.9, src/queue.js, as published on npm (MIT, Rasmus Porsager): the text is kept verbatim.
const PUBLISHED = `export default Queue

function Queue(initial = []) {
  let xs = initial.slice()
  let index = 0

  return {
    get length() {
      return xs.length - index
    },
    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }

      return out
    }
  }
}
`;

if (isMainThread) register(import.meta.url);

/** Sends the driver's own `./queue.js` to the published text; every other specifier resolves as usual. */
export async function resolve(specifier, context, next) {
  if (specifier === './queue.js' && /\/postgres\/src\/[a-z]+\.js$/.test(context.parentURL ?? ''))
    return { url: UPSTREAM, format: 'module', shortCircuit: true };
  return next(specifier, context);
}

/** Serves the published queue. */
export async function load(url, context, next) {
  if (url === UPSTREAM) return { format: 'module', source: PUBLISHED, shortCircuit: true };
  return next(url, context);
}
