// Many writes in one request, then all or nothing. Run: DATAPLATFORM_BASE_URL=… DATAPLATFORM_API_KEY=… pnpm batch
import { ConflictError, DataPlatform } from '@dataplatform/sdk';

const client = new DataPlatform();

// Each operation gets the result its own route would have given, in order (201s, then 409s when run again).
const { results } = await client.data.batch([
  { op: 'insert', collection: 'carts', id: 'cart-1', data: { items: 1 } },
  { op: 'insert', collection: 'carts', id: 'cart-2', data: { items: 3 } },
  { op: 'patch', collection: 'carts', id: 'cart-1', data: { items: 2 } },
]);
console.log('statuses:', results.map((result) => result.status).join(' '));

// With a transaction, one failure (here a duplicate id) undoes the batch and names the operation.
try {
  await client.data.batch(
    [
      { op: 'insert', collection: 'carts', id: 'cart-3', data: { items: 1 } },
      { op: 'insert', collection: 'carts', id: 'cart-1', data: { items: 9 } },
    ],
    { transaction: true },
  );
} catch (error) {
  if (!(error instanceof ConflictError)) throw error;
  console.log('transaction aborted:', error.code, JSON.stringify(error.details));
}
await client.data.get('carts', 'cart-3').catch(() => console.log('cart-3 was not kept'));
