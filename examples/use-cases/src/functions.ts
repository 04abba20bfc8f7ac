// A function that a document trigger runs for each new order, then the same function run by name with the key.
// Run: DATAPLATFORM_BASE_URL=… DATAPLATFORM_API_KEY=… DATAPLATFORM_EMAIL=… DATAPLATFORM_PASSWORD=… pnpm functions
// (the development account's e-mail and password are in .dataplatform/dev-credentials.json).
import { DataPlatform } from '@dataplatform/sdk';

interface Order {
  items: { name: string; price: number }[];
  total?: number;
}

const data = new DataPlatform();
// Deploying functions and making triggers take a session of the key's owner, not the key.
const account = new DataPlatform({ apiKey: '' });
const email = process.env.DATAPLATFORM_EMAIL ?? '';
const password = process.env.DATAPLATFORM_PASSWORD ?? '';
account.setToken((await account.auth.signIn({ email, password })).token);

// The trigger passes the event a webhook would receive; `ctx.data` writes to the function's own cluster.
const code = `export default async (event, ctx) => {
  const total = event.data.items.reduce((sum, item) => sum + item.price, 0);
  await ctx.data.update('orders', event.documentId, { total });
  ctx.log('order', event.documentId, 'comes to', total);
  return total;
}`;
// Run again, the example deploys a new version of its function and replaces its trigger.
const existing = (await account.functions.list({ limit: 1000 })).data.find((f) => f.name === 'order-total');
const fn = existing
  ? await account.functions.deploy(existing._id, { code })
  : await account.functions.create({ name: 'order-total', code });
for (const old of (await account.triggers.list({ limit: 1000 })).data)
  if (old.name === 'total-new-orders') await account.triggers.delete(old._id);
const trigger = await account.triggers.create({
  name: 'total-new-orders',
  source: { type: 'document', events: ['document.created'], collection: 'orders' },
  target: { function: fn._id },
});
console.log('deployed', fn.name, 'version', fn.version);

const order = await data.data.create<Order>('orders', {
  items: [
    { name: 'pen', price: 2 },
    { name: 'lamp', price: 40 },
  ],
});
// The trigger runs just after the write commits; wait a little for its result.
const stored = await pollUntil(
  () => data.data.get<Order>('orders', order._id),
  (got) => got.total !== undefined,
);
console.log('total set by the trigger:', stored.total);
// The run is recorded once the function has returned, a moment after its write: wait for it to finish too.
const runs = await pollUntil(
  () => account.triggers.runs(trigger._id),
  (got) => got.data.every((run) => run.status !== 'queued'),
);
console.log('trigger runs:', runs.data.map((run) => run.status).join(' '));

// Any caller with a key holding `function:invoke` runs it by name, with an input of its choosing.
const { result, logs } = await data.functions.invokeByName<number>('order-total', {
  documentId: order._id,
  data: { items: [{ name: 'desk', price: 120 }] },
});
console.log('invoked by name:', result, '|', logs.join(' / '));

/** Asks `read` every 100 ms, up to 10 s, until `done` holds; answers the last answer either way. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; !done(value) && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
