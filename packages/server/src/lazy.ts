/**
 * A module loaded on its first use rather than at start: libraries that only some requests need (passkeys, mail,
 * webhook delivery, password strength, PostgreSQL, Redis) stay out of the memory and the start time of a server
 * that never serves those requests. `const load = lazy(() => import('x'))`, then `(await load()).fn()`; every call
 * shares the one import.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
