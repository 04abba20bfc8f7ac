/** The benchmark data set: order documents made from a fixed seed, so every run and every target sees the same data. */

const STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];

/** A small seeded PRNG (mulberry32): the data must not change between runs. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The id of the n-th seeded order, e.g. `ord_000042`. */
export function orderId(n) {
  return `ord_${String(n).padStart(6, '0')}`;
}

/** `count` orders of about 300 bytes of JSON each, without `_id` (callers add the id field their target uses). */
export function makeOrders(count, seed = 42) {
  return [...generateOrders(count, seed)];
}

/** The same orders one at a time, for data sets too large to hold as one array (the scale benchmark's million). */
export function* generateOrders(count, seed = 42) {
  const next = random(seed);
  const int = (max) => Math.floor(next() * max);
  for (let n = 1; n <= count; n++) {
    const items = [];
    for (let i = 0, lines = 2 + int(2); i < lines; i++) {
      const sku = String(int(100000)).padStart(5, '0');
      items.push({ sku: `SKU-${sku}`, name: `Item ${sku}`, qty: 1 + int(5), price: int(10000) / 100 });
    }
    const total = Math.round(items.reduce((sum, item) => sum + item.qty * item.price, 0) * 100) / 100;
    const customer = String(int(5000)).padStart(4, '0');
    yield {
      customer: { name: `Customer ${customer}`, email: `customer${customer}@example.com` },
      total,
      currency: 'EUR',
      items,
      status: STATUSES[int(STATUSES.length)],
    };
  }
}
