/** A seeded pseudo-random generator (mulberry32): the same seed gives the same split on every machine. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The row numbers shuffled by the seed, cut into training rows and `testFraction` held-out rows (at least one each). */
export function splitRows(count: number, testFraction: number, seed: number) {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = seeded(seed);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const testCount = Math.min(count - 1, Math.max(1, Math.round(count * testFraction)));
  return { test: order.slice(0, testCount), train: order.slice(testCount) };
}
