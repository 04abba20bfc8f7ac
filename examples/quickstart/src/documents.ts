// Documents end to end: run `pnpm start` at the repository root, then `pnpm --filter @dataplatform/example-quickstart start`.
import { DataPlatform, NotFoundError } from '@dataplatform/sdk';
import { apiKey } from './credentials.js';

interface Order {
  customer: string;
  total: number;
  status?: string;
}

const client = new DataPlatform({ apiKey: apiKey() });
const orders = client.data.collection<Order>('orders');

const created = await orders.create({ customer: 'ada', total: 42 });
console.log('created', created._id, 'at', created._createdAt);

const updated = await orders.update(created._id, { status: 'paid' });
console.log('merge-patched', updated);

let count = 0;
for await (const order of orders.list({ sort: '-_createdAt', limit: 100 })) {
  count += order.total >= 0 ? 1 : 0;
}
console.log(`walked ${count} orders across every page`);

await orders.delete(created._id);
try {
  await orders.get(created._id);
} catch (error) {
  if (error instanceof NotFoundError)
    console.log('deleted; reading it again gives', error.status, error.code, error.requestId);
  else throw error;
}
